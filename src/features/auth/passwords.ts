/**
 * Own passwords and the login page's reset options (issue 12). Online only:
 * a password is never queued in the outbox.
 */
import { pb } from '../../api/client.ts';
import { errorMessage, fieldErrors } from '../../api/errorMessage.ts';
import type { ChangePasswordValues } from '../../domain/loginSchema.ts';

export const PASSWORD_OFFLINE_REASON = 'You are offline — setting a new password needs a connection.';
export const RESET_OFFLINE_REASON = 'You are offline — resetting a password needs a connection.';
export const ASK_YOUR_DIRECTOR = 'Ask your director to reset your password. You will get a temporary password to log in with, and choose your own after.';

/** Does the signed-in user still have a password someone else was shown (server's flag)? */
export function mustChangePassword(): boolean {
  return pb.authStore.record?.must_change_password === true;
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
export async function changeOwnPassword(values: ChangePasswordValues): Promise<ChangeOutcome> {
  const user = pb.authStore.record;
  if (!user) throw new Error('Not signed in');
  await pb.send(`/api/collections/users/records/${encodeURIComponent(user.id)}`, { method: 'PATCH', body: values });
  try {
    await pb.collection('users').authWithPassword(String(user.email), values.password);
    return 'changed';
  } catch {
    // The password did change; only the new sign-in was lost (the network
    // dropped in between). The old token is void: sign in again by hand.
    pb.authStore.clear();
    return 'changed-signed-out';
  }
}

/** The words for a refused change. */
export function changePasswordFailure(error: unknown): string {
  const status = (error as { status?: number } | null)?.status;
  if (status === 0) return PASSWORD_OFFLINE_REASON;
  const fields = fieldErrors(error);
  if ('oldPassword' in fields) return 'The current password is not correct.';
  if ('passwordConfirm' in fields) return 'Passwords do not match';
  return errorMessage(error);
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
  await pb.collection('users').requestPasswordReset(email);
}
