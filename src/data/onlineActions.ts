/**
 * The online-only actions: the writes that need a connection and say so
 * (docs/product.md#offline-behaviour), never queued in the outbox — users, concerns, placing a
 * call and cancelling its retries, Ai Assist, and the sync panel's Discard. The one door to the server
 * for them besides the outbox (writes.ts) and the session (auth.ts): each
 * calls the server through the one client (src/api/) and, where the server
 * answers with records, puts them into the mirror here, so a list changes at
 * once without waiting for realtime. A failure is thrown as the server sent
 * it: the screens choose the words (docs/product.md#messages).
 */
import type { RecordModel } from 'pocketbase';
import { pb } from '../api/client.ts';
import type { CallSettingsRecord, ConcernRecord, UserRecord } from '../api/records.ts';
import type { QuietMoment } from '../domain/quietHours.ts';
import type { AddUserValues, CallSettingsValues, ConcernValues, UpdateUserValues } from '../domain/schemas.ts';
import type { Staff } from './auth.ts';
import type { ScmsDatabase } from './mirror/db.ts';
import { applyServerRecords, removeServerRecords } from './mirror/mirror.ts';
import { resolveConflict, type RecordChoice } from './sync/conflicts.ts';
import { discardEntry } from './sync/outbox.ts';

export interface CreatedUser {
  email: string;
  /** Shown to the director once; null if the server sent none. */
  temporaryPassword: string | null;
  /** When it stops working (PocketBase's date text); null if the server did not say. */
  expires: string | null;
}

/** Updates of a director's card carry names only: a director's type is not for the form to change. */
export type UserUpdate = Pick<UpdateUserValues, 'first_name' | 'last_name'> & { type?: UpdateUserValues['type'] };

/**
 * A new colleague in the director's community. `password` only has to
 * satisfy the form: the server replaces it with its own random one and
 * answers that once, as `temporary_password`.
 */
export async function createUser(
  db: ScmsDatabase,
  director: Staff,
  values: AddUserValues,
  password: string,
): Promise<CreatedUser> {
  const created = await pb
    .collection('users')
    .create({ ...values, emailVisibility: true, community: director.community, password, passwordConfirm: password });
  // The one-time password must not be kept on the device.
  const { temporary_password: temporaryPassword, ...record } = created;
  await applyServerRecords(db, 'users', [record as RecordModel]);
  return {
    email: String(record.email ?? values.email),
    expires: typeof record.temporary_password_expires === 'string' ? record.temporary_password_expires : null,
    temporaryPassword: typeof temporaryPassword === 'string' ? temporaryPassword : null,
  };
}

export async function updateUser(db: ScmsDatabase, user: UserRecord, values: UserUpdate): Promise<void> {
  await applyServerRecords(db, 'users', [await pb.collection('users').update(user.id, values)]);
}

/**
 * A new temporary password for a colleague (the server's reset route): the
 * old one and every session of it stop working. Nothing of it is mirrored:
 * the user's `must_change_password` comes by realtime like any change.
 */
export async function resetUserPassword(user: UserRecord): Promise<CreatedUser> {
  const answer = await pb.send<{ temporary_password?: unknown; temporary_password_expires?: unknown }>(
    `/api/scms/users/${encodeURIComponent(user.id)}/reset-password`,
    { method: 'POST' },
  );
  return {
    email: user.email,
    temporaryPassword: typeof answer.temporary_password === 'string' ? answer.temporary_password : null,
    expires: typeof answer.temporary_password_expires === 'string' ? answer.temporary_password_expires : null,
  };
}

export async function deleteUser(db: ScmsDatabase, user: UserRecord): Promise<void> {
  await pb.collection('users').delete(user.id);
  await removeServerRecords(db, 'users', [user.id]);
}

export async function createConcern(db: ScmsDatabase, director: Staff, values: ConcernValues): Promise<void> {
  const created = await pb
    .collection('concerns')
    .create({ ...values, added_by: director.id, community: director.community });
  await applyServerRecords(db, 'concerns', [created]);
}

export async function updateConcern(
  db: ScmsDatabase,
  director: Staff,
  concern: ConcernRecord,
  values: ConcernValues,
): Promise<void> {
  await applyServerRecords(db, 'concerns', [
    await pb.collection('concerns').update(concern.id, { ...values, added_by: director.id }),
  ]);
}

export async function deleteConcern(db: ScmsDatabase, concern: ConcernRecord): Promise<void> {
  await pb.collection('concerns').delete(concern.id);
  await removeServerRecords(db, 'concerns', [concern.id]);
}

/**
 * Saves the community's call settings: the first save creates
 * its one record, later ones update it.
 */
export async function saveCallSettings(
  db: ScmsDatabase,
  director: Staff,
  values: CallSettingsValues,
  saved: CallSettingsRecord | null,
): Promise<void> {
  const service = pb.collection('call_settings');
  const record = saved
    ? await service.update(saved.id, values)
    : await service.create({ ...values, community: director.community });
  await applyServerRecords(db, 'call_settings', [record]);
}

export interface PlacedCall {
  /** The server's words for the toast. */
  message: string;
  /** The calls record the server created ('' if it named none). */
  callId: string;
}

/**
 * Places the automated call about the chosen concerns (docs/product.md#calls-to-residents); resolves
 * with the server's words for the toast and the call's id. The calls record
 * it creates comes by realtime (the card's marker bridges the wait, until
 * the mirror has the call of that id).
 */
export async function placeCall(
  houseId: string,
  concerns: readonly Pick<ConcernRecord, 'id' | 'name'>[],
  options: { overrideQuietHours?: boolean } = {},
): Promise<PlacedCall> {
  const response = await pb.send<{ code?: number; message?: string; call_id?: unknown }>('/api/scms/call-resident', {
    method: 'POST',
    body: {
      h_id: houseId,
      concerns: concerns.map((c) => ({ id: c.id, name: c.name, selected: true })),
      // Only the caller's yes to the quiet-hours question ('It is 22:14 for the resident, …. Call anyway?') sends it.
      ...(options.overrideQuietHours ? { override_quiet_hours: true } : {}),
    },
  });
  // Anything but the route's 200 body is a refusal, in the shape errorMessage reads.
  if (response.code !== 200) throw { response };
  return { message: response.message ?? '', callId: typeof response.call_id === 'string' ? response.call_id : '' };
}

/**
 * Stops the retries of the home's call that waits for its next try
 * (directors and managers; the server checks). The server answers with the
 * call and its attempts as they now are: they go into the mirror here, so
 * the card says how the call ended at once. Resolves with the server's
 * words for the toast.
 */
export async function cancelCallRetries(db: ScmsDatabase, houseId: string): Promise<string> {
  const response = await pb.send<{ message?: string; call?: RecordModel; attempts?: RecordModel[] }>(
    '/api/scms/call-retries/cancel',
    { method: 'POST', body: { h_id: houseId } },
  );
  if (response.call) await applyServerRecords(db, 'calls', [response.call]);
  if (response.attempts) await applyServerRecords(db, 'call_attempts', response.attempts);
  return response.message ?? '';
}

/**
 * The resident's local time and the quiet hours when the server refused a
 * call for them and wants the caller's explicit yes (its 409
 * 'confirm_quiet_hours'); null for any other failure.
 */
export function quietHoursLocalTime(error: unknown): QuietMoment | null {
  const data = (error as { response?: { data?: Record<string, unknown> } } | null)?.response?.data;
  const detail = data?.override_quiet_hours as Record<string, unknown> | undefined;
  if (detail?.code !== 'confirm_quiet_hours' || typeof detail.local_time !== 'string') return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { localTime: detail.local_time, quietStart: text(detail.quiet_start), quietEnd: text(detail.quiet_end) };
}

export type AiSource = 'offline-editor' | 'model';

/** Ai Assist (docs/product.md#ai-assist): the server rewrites the original narrative. */
export async function requestAiAssist(userInput: string): Promise<{ text: string; source: AiSource }> {
  const response = await pb.send<{ data?: unknown; source?: unknown }>('/api/scms/ai-assist', {
    method: 'POST',
    body: { user_input: userInput },
  });
  return {
    text: typeof response.data === 'string' ? response.data : '',
    // Without a configured model the server's built-in editor answers; the form says so.
    source: response.source === 'offline-editor' ? 'offline-editor' : 'model',
  };
}

/**
 * The sync panel's Discard of a parked entry: the entry goes, a record it
 * created only here goes from the mirror, and a record it changed is read
 * again from the server (a failed read leaves the local copy until the next
 * pull).
 */
export async function discardOutboxEntry(db: ScmsDatabase, seq: number): Promise<void> {
  await discardEntry(db, seq, async (collection, id) => {
    await applyServerRecords(db, collection, [await pb.collection(collection).getOne(id)]);
  });
}

/**
 * Settles a conflict entry as the person decided (conflicts.ts): what they
 * kept of theirs is queued (so this works offline too), and the records
 * where the other person's values stay are read again when the server can
 * be reached.
 */
export async function resolveOutboxConflict(
  db: ScmsDatabase,
  seq: number,
  choices: readonly RecordChoice[],
): Promise<void> {
  const refresh = await resolveConflict(db, seq, choices);
  for (const { collection, id } of refresh) {
    try {
      await applyServerRecords(db, collection, [await pb.collection(collection).getOne(id)]);
    } catch {
      // Offline or gone: the next pull or reconciliation brings the server's copy.
    }
  }
}
