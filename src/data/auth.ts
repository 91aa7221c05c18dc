/**
 * The session: who is signed in, and the account's own online actions
 * (sign in and out, one's own password, the login page's reset options).
 * The one place the screens learn who is signed in: the PocketBase client's
 * auth store (src/api/client.ts), read here and nowhere else.
 *
 * Kept apart from the mirror's modules on purpose: the login page loads
 * this and nothing else of src/data/ (no Dexie; the bundle-budget test).
 * Online only: a password or a sign-in is never queued in the outbox.
 */
import { useSyncExternalStore } from 'react';
import { pb, switchServerPath } from '../api/client.ts';
import type { UserType } from '../api/records.ts';
import type { ChangePasswordValues, FirstPasswordValues } from '../domain/loginSchema.ts';
import { noteTokenHandedOut } from '../api/freshTokens.ts';
/** Who writes: the signed-in user's id and community, stamped on what they queue. */
export interface SignedInUser {
  id: string;
  community: string;
}

/** The signed-in user as the management screens need it. */
export interface Staff extends SignedInUser {
  type: UserType;
}

/** The signed-in user's record as the server last sent it (PocketBase's auth store); null when no one is signed in. */
export function currentUserRecord() {
  return pb.authStore.record;
}

/** Does the signed-in user still have a password someone else was shown (server's flag)? */
export function mustChangePassword(): boolean {
  return currentUserRecord()?.must_change_password === true;
}

/** The signed-in user's id and community; null without a user id. */
export function signedInStaff(): Staff | null {
  const record = currentUserRecord();
  if (!record?.id) return null;
  return { id: record.id, community: String(record.community ?? ''), type: record.type as UserType };
}

/** Calls `onChange` on every sign-in, session change (a refresh) and sign-out; returns the unsubscribe. */
export const onSignedInChange = (onChange: () => void): (() => void) => pb.authStore.onChange(onChange);
// The token, not the record: the SDK's local-storage store parses a new
// record object on every read, which React would take for endless changes.
// Every new record (sign-in, refresh) comes with a new token.
const authToken = () => pb.authStore.token;

/** The signed-in user's record, live: a sign-in, a refresh or a sign-out renders again. */
export function useSignedInRecord() {
  useSyncExternalStore(onSignedInChange, authToken, authToken);
  return currentUserRecord();
}

/** The signed-in user for the management screens and the concerns' `added_by`; null without a user id. */
export function useSignedInStaff(): Staff | null {
  useSignedInRecord();
  return signedInStaff();
}

/** The signed-in user as the outbox writes want it; null when no one is. */
export function useSignedInUser(): SignedInUser | null {
  const record = useSignedInRecord();
  if (!record) return null;
  return { id: record.id, community: String(record.community ?? '') };
}

/** Only directors delete homes and manage users and concerns (the server's rules). */
export function useIsDirector(): boolean {
  return useSignedInRecord()?.type === 'director';
}

/**
 * Which server holds an account (src/data/serverChoice.ts), fetched when the
 * login page first asks: the first screens' code stays without it (the
 * bundle budget, docs/performance.md).
 */
const serverChoice = () => import('./serverChoice.ts');

/** Starts finding the e-mail's server as soon as it is typed (the e-mail field left): the sign-in then waits for nothing. */
export function findServerEarly(email: string): void {
  void serverChoice().then((choice) => choice.findServerEarly(email));
}

export async function signIn(email: string, password: string): Promise<void> {
  // Chosen and kept before the sign-in, so that the session is saved for the worker with its server.
  switchServerPath(await (await serverChoice()).serverPathFor(email));
  try {
    await pb.collection('users').authWithPassword(email, password);
  } catch (error) {
    switchServerPath('');
    throw error;
  }
  noteTokenHandedOut(pb.authStore.token);
}

/**
 * Forgets the sign-in on this device (docs/product.md#login), and the
 * server it was on: the next sign-in finds its own. Log out
 * (app/session.ts) also removes the user's mirror.
 */
export function signOut(): void {
  pb.authStore.clear();
  switchServerPath('');
}

export type ChangeOutcome = 'changed' | 'changed-signed-out';

/**
 * PocketBase's own password change: an update of one's own record with
 * `oldPassword`. It voids every token of the old password, this device's
 * too, so the user is signed in again with the new one and stays signed in.
 *
 * Sent with pb.send rather than collection().update(): the SDK would store
 * the answer as the signed-in record at once (flag cleared, token void),
 * and the signed-in screens would start on a dead token before the new
 * sign-in is back.
 */
export function changeOwnPassword(values: ChangePasswordValues): Promise<ChangeOutcome> {
  return sendNewPassword((id) => `/api/collections/users/records/${id}`, 'PATCH', values);
}

/**
 * The first password of one's own after signing in with a temporary one:
 * the new password only (the server's first-password route, open only to a
 * session of a temporary password, which proves it). Signed in again the
 * same way.
 */
export function chooseFirstPassword(values: FirstPasswordValues): Promise<ChangeOutcome> {
  return sendNewPassword((id) => `/api/scms/users/${id}/first-password`, 'POST', values);
}

async function sendNewPassword(
  path: (id: string) => string,
  method: string,
  values: FirstPasswordValues,
): Promise<ChangeOutcome> {
  const user = currentUserRecord();
  if (!user) throw new Error('Not signed in');
  await pb.send(path(encodeURIComponent(user.id)), { method, body: values });
  try {
    await pb.collection('users').authWithPassword(String(user.email), values.password);
    return 'changed';
  } catch {
    // The password did change; only the new sign-in was lost (the network
    // dropped in between). The old token is void: sign in again by hand.
    signOut();
    return 'changed-signed-out';
  }
}

export interface AuthOptions {
  /** The server can send password-reset e-mails (SMTP configured). */
  passwordResetEmail: boolean;
}

/** What the login page may offer for a forgotten password; null when the server cannot be reached. */
export async function loadAuthOptions(): Promise<AuthOptions | null> {
  try {
    const response = await fetch('/api/scms/auth-options');
    if (!response.ok) return null;
    const body = (await response.json()) as { password_reset_email?: unknown };
    return { passwordResetEmail: body.password_reset_email === true };
  } catch {
    return null;
  }
}

/** Sends PocketBase's reset e-mail. The server answers the same whether the address is a user or not. */
export async function requestPasswordReset(email: string): Promise<void> {
  await (await serverChoice()).requestPasswordReset(email);
}
