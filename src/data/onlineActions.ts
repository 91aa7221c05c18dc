/**
 * The online-only actions: the writes that need a connection and say so
 * (docs/product.md#offline-behaviour), never queued in the outbox. Each
 * resource module (src/data/resources/) holds its own — users, concerns,
 * placing a call and cancelling its retries, the call settings, Ai Assist —
 * and this module the sync panel's Discard and conflict choices. Each calls
 * the server through the one client (src/api/) and, where the server
 * answers with records, puts them into the mirror, so a list changes at
 * once without waiting for realtime. A failure is thrown as the server sent
 * it: the screens choose the words (docs/product.md#messages).
 * useOnlineActions binds them all to the signed-in user's mirror.
 */
import { useMemo } from 'react';
import { pb } from '../api/client.ts';
import type { CallSettingsRecord, ConcernRecord, UserRecord } from '../api/records.ts';
import type { AddUserValues, CallSettingsValues, ConcernValues } from '../domain/schemas.ts';
import type { Staff } from './auth.ts';
import { useSyncEngine } from './DataProvider.tsx';
import type { ScmsDatabase } from './mirror/db.ts';
import { applyServerRecords } from './mirror/mirror.ts';
import { cancelCallRetries, placeCall, saveCallSettings } from './resources/calls.ts';
import { createConcern, deleteConcern, updateConcern } from './resources/concerns.ts';
import { requestAiAssist } from './resources/reports.ts';
import { createUser, deleteUser, resetUserPassword, updateUser, type UserUpdate } from './resources/users.ts';
import { resolveConflict, type RecordChoice } from './sync/conflicts.ts';
import { discardEntry } from './sync/outbox.ts';

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

/** The online-only actions (the resource modules' and this module's) on the signed-in user's mirror. */
export function useOnlineActions() {
  const { db } = useSyncEngine();
  return useMemo(
    () => ({
      createUser: (director: Staff, values: AddUserValues, password: string) =>
        createUser(db, director, values, password),
      updateUser: (user: UserRecord, values: UserUpdate) => updateUser(db, user, values),
      resetUserPassword,
      deleteUser: (user: UserRecord) => deleteUser(db, user),
      createConcern: (director: Staff, values: ConcernValues) => createConcern(db, director, values),
      updateConcern: (director: Staff, concern: ConcernRecord, values: ConcernValues) =>
        updateConcern(db, director, concern, values),
      deleteConcern: (concern: ConcernRecord) => deleteConcern(db, concern),
      saveCallSettings: (director: Staff, values: CallSettingsValues, saved: CallSettingsRecord | null) =>
        saveCallSettings(db, director, values, saved),
      placeCall,
      cancelCallRetries: (houseId: string) => cancelCallRetries(db, houseId),
      requestAiAssist,
      discardOutboxEntry: (seq: number) => discardOutboxEntry(db, seq),
      resolveOutboxConflict: (seq: number, choices: readonly RecordChoice[]) => resolveOutboxConflict(db, seq, choices),
    }),
    [db],
  );
}
