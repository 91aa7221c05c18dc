/**
 * The one outbox replay, used by the window and by the service worker.
 *
 * Guarantees (docs/architecture.md#writing-the-outbox): entries go in creation order; an entry leaves the
 * outbox only after the server confirmed it; every entry reaches the server
 * exactly once:
 * - creates carry client-generated ids, so a create the server already has
 *   (an earlier attempt whose answer was lost) counts as delivered;
 * - before a request leaves, the entry records `sentAt`; the next attempt of
 *   such an entry first asks the server whether it arrived;
 * - a create that arrived and was deleted on the server before that check
 *   (a colleague, another device) is not created again: the server keeps a
 *   tombstone of every deleted record and refuses its id with
 *   DELETED_SINCE, and the entry is settled as delivered, its records
 *   removed from the mirror (a batch that arrived with only some of its
 *   creates left was delivered too: batches are all or nothing);
 * - entries of several operations go as one transactional batch, so a house
 *   check's report and house update land together or not at all;
 * - independent creates (one create each, no files, no record in common)
 *   that wait one after another go together, up to 50 in one batch request
 *   (createBatches.ts);
 *   a batch is all or nothing on the server, so when one of them is refused
 *   the ones before it are sent again as a batch, the refused one alone (it
 *   gets its own outcome: parked with its messages, or found delivered) and
 *   the ones after it in the next batch: an entry never fails its batch-mates;
 * - a lease keeps a second replayer (another tab, the service worker) from
 *   sending the same entry concurrently.
 * Network errors and 5xx retry with exponential back-off and jitter; 401
 * refreshes the token or waits for the next sign-in; other 4xx park the
 * entry with the server's field messages for the user to retry or discard
 * (replayRequests.ts sends the requests and reads their failures).
 */
import type PocketBase from 'pocketbase';
import { ClientResponseError } from 'pocketbase';
import { errorMessage, fieldErrors } from '../../api/errorMessage.ts';
import type { CollectionName } from '../../api/records.ts';
import { overtakenWrite, setAside } from './conflicts.ts';
import { deliverGroup } from './createBatches.ts';
import { carriesFiles, nextInLane, type Lane } from './lanes.ts';
import {
  sendBatch,
  sendOne,
  sendOptions,
  statusOf,
  unrefusedFailure,
  type Delivery,
  type ServerRecords,
  type Transport,
} from './replayRequests.ts';
import { uploadFetch } from './upload.ts';
import { type OutboxEntry, type OutboxOperation, type RecordConflict, type ScmsDatabase } from '../mirror/db.ts';
import { onOutboxWrite } from './outbox.ts';
import { acquireLease, LEASE_TTL_MS, releaseLease, renewLease } from './lease.ts';
import { applyServerRecords, rememberDeleted, removeServerRecords } from '../mirror/mirror.ts';
import { refreshSession } from './session.ts';

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;
/** After this many 5xx answers an entry is parked, so one bad entry cannot block the queue for ever. */
export const MAX_SERVER_ERROR_ATTEMPTS = 8;

export interface ReplayOptions {
  pb: PocketBase;
  db: ScmsDatabase;
  /** Who replays (tab or worker id), for the lease. */
  owner: string;
  now?: () => number;
  random?: () => number;
  /**
   * Connectivity just came back (the browser's `online` or `sync`): send the
   * first entry even if it is backing off from an attempt made offline.
   */
  retryNow?: boolean;
  /** An upload's progress while it is being sent (null when it ended), for the sync badge. */
  onProgress?: (progress: SendingProgress | null) => void;
}

/** 'Sending 2 of 5 · photo 40 %': the entry being uploaded, of the entries to send, and how far its bytes are. */
export interface SendingProgress {
  entry: number;
  of: number;
  sent: number;
  total: number;
}

export type ReplayOutcome =
  | 'done' // the outbox has nothing left to send now
  | 'busy' // another replayer holds the lease
  | 'offline' // the server could not be reached; retried later
  | 'waiting' // the next entry is backing off
  | 'auth-required' // the session expired; replays after the next sign-in
  | 'lost-lease';

export interface ReplayResult {
  outcome: ReplayOutcome;
  delivered: number;
  parked: number;
}

/** The server's refusal of a create whose id names a record deleted since (pb_hooks/lib/deleted_records.js). */
export const DELETED_SINCE = 'validation_record_deleted';

export function backoffDelay(attempts: number, random: () => number = Math.random): number {
  const exponential = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
  return Math.round(exponential * (0.5 + random() * 0.5));
}

/**
 * The transport of an entry that carries files: its time-out follows its
 * progress, which goes to the badge; the lease is renewed while it
 * travels, as an upload may well outlast it (LEASE_TTL_MS).
 */
function uploadTransport(
  options: ReplayOptions,
  position: { entry: number; of: number },
): { transport: Transport; done: () => void } {
  const keep = setInterval(() => void renewLease(options.db, options.owner), LEASE_TTL_MS / 3);
  options.onProgress?.({ ...position, sent: 0, total: 0 });
  return {
    transport: {
      requestKey: null,
      fetch: uploadFetch(({ sent, total }) => options.onProgress?.({ ...position, sent, total })),
    },
    done: () => {
      clearInterval(keep);
      options.onProgress?.(null);
    },
  };
}

/**
 * Did an earlier attempt of this entry reach the server? Judged by its
 * creates (a batch is all or nothing, so one of them there is proof that
 * all arrived, and the missing ones were deleted since). null: none is
 * there, or the entry creates nothing, so sending it again is harmless (its
 * updates set the same values; a create of a deleted record is refused).
 * `allGone`: the server refused to create them again (DELETED_SINCE), so
 * every create arrived once and was deleted since.
 */
async function deliveredBefore(pb: PocketBase, entry: OutboxEntry, allGone = false): Promise<Delivery | null> {
  if (!entry.ops.some((op) => op.action === 'create')) return null;
  try {
    const records: ServerRecords = [];
    const removed: Array<{ collection: CollectionName; id: string }> = [];
    // The records the entry updated too: they replace its optimistic rows,
    // which would otherwise stay pending.
    for (const op of entry.ops) {
      if (op.action === 'delete') continue;
      try {
        records.push({
          collection: op.collection,
          record: await pb.collection(op.collection).getOne(op.id, sendOptions()),
        });
      } catch (error) {
        // An updated record deleted since has nothing to show; a missing create was deleted since, or never arrived.
        if (statusOf(error) !== 404) throw error;
        if (op.action === 'create') removed.push({ collection: op.collection, id: op.id });
      }
    }
    const creates = entry.ops.filter((op) => op.action === 'create').length;
    if (removed.length === creates && !allGone) return null;
    return { kind: 'delivered', records, removed };
  } catch (error) {
    // A refusal of the check (a 404 among them) tells nothing: the entry goes again.
    return unrefusedFailure(error);
  }
}

/** The ops without the deletes of records the server no longer has; null when that cannot be told now. */
async function withoutGoneDeletes(pb: PocketBase, ops: OutboxOperation[]): Promise<OutboxOperation[] | null> {
  const remaining: OutboxOperation[] = [];
  for (const op of ops) {
    if (op.action !== 'delete') {
      remaining.push(op);
      continue;
    }
    try {
      await pb.collection(op.collection).getOne(op.id, { ...sendOptions(), fields: 'id' });
      remaining.push(op);
    } catch (error) {
      if (statusOf(error) !== 404) return null;
    }
  }
  return remaining;
}

async function deliver(options: ReplayOptions, entry: OutboxEntry): Promise<Delivery> {
  const { pb, db } = options;
  const now = options.now ?? Date.now;
  if (entry.sentAt) {
    const earlier = await deliveredBefore(pb, entry);
    if (earlier) return earlier;
  }
  // The delivery check may have taken a while: make sure the lease is still
  // ours right before sending, so no other replayer can be sending this too.
  if (!(await renewLease(db, options.owner))) return { kind: 'lost-lease' };
  // Recorded before the request leaves: if the page dies now, the next
  // attempt checks the server before sending again.
  await db.outbox.update(entry.seq!, { sentAt: now(), attempts: entry.attempts + 1 });
  const upload = carriesFiles(entry) ? uploadTransport(options, await positionOf(db, entry)) : null;
  const transport = upload?.transport ?? sendOptions();
  try {
    const confirmed =
      entry.ops.length === 1
        ? [await sendOne(pb, entry.ops[0]!, transport)]
        : await sendBatch(pb, entry.ops, transport);
    const records = confirmed.flatMap((record, i) =>
      record ? [{ collection: entry.ops[i]!.collection, record }] : [],
    );
    return { kind: 'delivered', records };
  } catch (error) {
    const unrefused = unrefusedFailure(error);
    if (unrefused) return unrefused;
    const status = statusOf(error);
    // Someone else changed (or deleted) a record this entry changes since
    // the person saw it: that record is set aside for them to decide, the
    // rest of the entry goes on.
    const overtaken = overtakenWrite(error, entry.ops);
    if (overtaken) {
      // A 404 is also what a void token gets (see below): a record is
      // deleted only if a valid session cannot find it.
      if (overtaken.conflict.kind === 'deleted') {
        const stopped = await invalidSession(pb);
        if (stopped) return stopped;
      }
      return setAsideAndGoOn(options, entry, overtaken.index, overtaken.conflict);
    }
    // A create the server already has (e.g. "id must be unique") was delivered before;
    // one it refuses as deleted since was too, and is not created again.
    if (status === 400 || status === 409) {
      const earlier = await deliveredBefore(pb, entry, refusedAsDeleted(error));
      if (earlier?.kind === 'delivered') return earlier;
    }
    // A delete of a record that is gone already (removed by a colleague, or
    // by an earlier attempt whose answer was lost) has done its job; a batch
    // fails whole on it, so the rest is sent again without it.
    if ((status === 404 || status === 400) && entry.ops.some((op) => op.action === 'delete')) {
      const remaining = await withoutGoneDeletes(pb, entry.ops);
      if (remaining && remaining.length < entry.ops.length) {
        if (remaining.length === 0) return { kind: 'delivered', records: [] };
        await db.outbox.update(entry.seq!, { ops: remaining });
        // Nothing of the failed batch landed (all or nothing): no delivery check needed.
        return deliver(options, { ...entry, ops: remaining, sentAt: undefined });
      }
    }
    // PocketBase serves a request with a void token (expired, or revoked by a
    // password change) as a guest's: the refusal comes as a 400 or 404, never
    // a 401. Only a refusal to a valid session parks the entry.
    const stopped = await invalidSession(pb);
    if (stopped) return stopped;
    await db.outbox.update(entry.seq!, {
      status: 'failed',
      error: errorMessage(error),
      fieldErrors: fieldErrors(error),
    });
    return { kind: 'parked' };
  } finally {
    upload?.done();
  }
}

/** Where an upload stands in the queue, for 'Sending 2 of 5': the entries before it still to go, and all of them. */
async function positionOf(db: ScmsDatabase, entry: OutboxEntry): Promise<{ entry: number; of: number }> {
  const pending = await db.outbox.where('status').equals('pending').primaryKeys();
  const before = pending.filter((seq) => seq < entry.seq!).length;
  return { entry: before + 1, of: Math.max(pending.length, before + 1) };
}

/**
 * Sets an overtaken record of an entry aside (conflicts.ts), shows the
 * server's copy of it in the mirror, and sends what is left of the entry
 * (nothing of the refused request landed: no delivery check needed).
 */
async function setAsideAndGoOn(
  options: ReplayOptions,
  entry: OutboxEntry,
  index: number,
  conflict: RecordConflict,
): Promise<Delivery> {
  const { pb, db } = options;
  if (conflict.kind === 'deleted') conflict.deletedBy = await deletion(pb, conflict);
  const remaining = await setAside(db, entry, index, conflict);
  try {
    if (conflict.kind === 'deleted') await removeServerRecords(db, conflict.collection, [conflict.id]);
    else
      await applyServerRecords(db, conflict.collection, [
        await pb.collection(conflict.collection).getOne(conflict.id, sendOptions()),
      ]);
  } catch {
    // The next pull brings the server's copy.
  }
  if (remaining.length === 0) return { kind: 'set-aside' };
  return deliver(options, { ...entry, ops: remaining, sentAt: undefined });
}

/** Who deleted a record and when, from the server's history; undefined when it cannot be told now. */
async function deletion(pb: PocketBase, conflict: RecordConflict): Promise<RecordConflict['deletedBy']> {
  try {
    const row = await pb.collection('home_changes').getFirstListItem(
      pb.filter('collection_name = {:c} && record_id = {:id} && action = "delete"', {
        c: conflict.collection,
        id: conflict.id,
      }),
      sendOptions(),
    );
    return { name: String(row.changed_by_name ?? ''), at: String(row.created ?? '') };
  } catch {
    return undefined;
  }
}

/** The signed-in user must still replace a temporary password (the server refuses their writes until then). */
function onTemporaryPassword(pb: PocketBase): boolean {
  return pb.authStore.record?.must_change_password === true;
}

/**
 * Renews the session before a refusal is believed: offline, or a sign-in
 * needed (the token is void, or the renewed record says the password is a
 * temporary one: not the entry's fault); null when the session is good.
 */
async function invalidSession(pb: PocketBase): Promise<Extract<Delivery, { kind: 'offline' | 'auth' }> | null> {
  const session = await refreshSession(pb);
  if (session === 'offline') return { kind: 'offline' };
  if (session === 'expired' || onTemporaryPassword(pb)) return { kind: 'auth' };
  return null;
}

/** A refusal (direct, or of a request in a batch) whose field error is DELETED_SINCE. */
function refusedAsDeleted(error: unknown): boolean {
  const seen = (data: unknown): boolean => {
    if (!data || typeof data !== 'object') return false;
    return Object.values(data as Record<string, unknown>).some((value) => {
      if (!value || typeof value !== 'object') return false;
      const entry = value as { code?: unknown; response?: { data?: unknown } };
      return entry.code === DELETED_SINCE || seen(entry.response?.data) || seen(value);
    });
  };
  return error instanceof ClientResponseError && seen(error.response?.data);
}

/**
 * Removes confirmed entries and writes the server's records into the mirror,
 * in one transaction; records created and deleted since leave the mirror
 * (unless a later entry still writes them: that one meets the deletion itself).
 */
async function confirm(
  db: ScmsDatabase,
  entries: readonly OutboxEntry[],
  records: ServerRecords,
  removed: ReadonlyArray<{ collection: CollectionName; id: string }> = [],
): Promise<void> {
  const collections = [...new Set(entries.flatMap((entry) => entry.ops.map((op) => op.collection)))];
  const tables = [db.outbox, db.syncState, ...collections.map((c) => db.mirror(c))];
  await db.transaction('rw', tables, async () => {
    await db.outbox.bulkDelete(entries.map((entry) => entry.seq!));
    // The device's deletions, now on the server: a page read before them must not bring them back.
    await rememberDeleted(
      db,
      entries.flatMap((entry) => entry.ops.filter((op) => op.action === 'delete')),
    );
    for (const collection of collections) {
      await applyServerRecords(
        db,
        collection,
        records.filter((r) => r.collection === collection).map((r) => r.record),
      );
      await removeServerRecords(
        db,
        collection,
        removed.filter((r) => r.collection === collection).map((r) => r.id),
      );
    }
  });
}

/**
 * How a replay ends when its lanes ended as they did: a session problem
 * first; offline when the text lane found it so, or when nothing got
 * through (an upload that failed on a weak signal while other entries went
 * through is no outage); a lane
 * that waits makes the replay wait.
 */
function bothLanes(text: ReplayOutcome, uploads: ReplayOutcome, delivered: number): ReplayOutcome {
  for (const outcome of ['auth-required', 'lost-lease'] as const)
    if (text === outcome || uploads === outcome) return outcome;
  if (text === 'offline') return 'offline';
  if (uploads === 'offline') return delivered > 0 ? 'waiting' : 'offline';
  if (text === 'waiting' || uploads === 'waiting') return 'waiting';
  return 'done';
}

export async function replayOutbox(options: ReplayOptions): Promise<ReplayResult> {
  const { db, owner } = options;
  const now = options.now ?? Date.now;
  const result: ReplayResult = { outcome: 'done', delivered: 0, parked: 0 };
  if (!(await acquireLease(db, owner))) return { ...result, outcome: 'busy' };
  const finish = (outcome: ReplayOutcome) => ({ ...result, outcome });
  let refreshed = false;

  /** Applies an entry's outcome; returns how the replay ends, or null to go on with the next entry. */
  const settle = async (entry: OutboxEntry, delivery: Delivery): Promise<ReplayOutcome | null> => {
    switch (delivery.kind) {
      case 'delivered':
        await confirm(db, [entry], delivery.records, delivery.removed);
        result.delivered++;
        return null;
      case 'parked':
        result.parked++;
        return null;
      case 'set-aside':
        await confirm(db, [entry], []);
        result.parked++;
        return null;
      case 'lost-lease':
        return 'lost-lease';
      case 'offline':
        await db.outbox.update(entry.seq!, { nextAttemptAt: now() + backoffDelay(entry.attempts + 1, options.random) });
        return 'offline';
      case 'stalled': {
        // Never parked for being slow: it waits, then goes again (the server is asked first whether it arrived).
        const attempts = (await db.outbox.get(entry.seq!))?.attempts ?? entry.attempts + 1;
        await db.outbox.update(entry.seq!, { nextAttemptAt: now() + backoffDelay(attempts, options.random) });
        return 'waiting';
      }
      case 'server-error': {
        const attempts = (await db.outbox.get(entry.seq!))?.attempts ?? entry.attempts + 1;
        if (attempts >= MAX_SERVER_ERROR_ATTEMPTS) {
          await db.outbox.update(entry.seq!, {
            status: 'failed',
            error: errorMessage(delivery.error),
            fieldErrors: fieldErrors(delivery.error),
          });
          result.parked++;
          return null;
        }
        await db.outbox.update(entry.seq!, { nextAttemptAt: now() + backoffDelay(attempts, options.random) });
        return 'waiting';
      }
      case 'auth': {
        // One refresh per run: a token the server keeps refusing waits for a sign-in.
        const session = refreshed ? 'expired' : await refreshSession(options.pb);
        refreshed = true;
        if (session === 'offline') return 'offline';
        if (session === 'expired') return 'auth-required';
        return null;
      }
    }
  };

  let uploadsRunning = true;
  let wakeText: (() => void) | null = null;
  /** Sends a lane's entries until it has none to send now; how it ended. */
  const runLane = async (lane: Lane): Promise<ReplayOutcome> => {
    let skipBackoffOnce = options.retryNow ?? false;
    for (;;) {
      const group = await nextInLane(db, lane);
      const head = group[0];
      if (!head) {
        // While an upload travels, what is queued meanwhile goes at once.
        if (lane === 'uploads' || !uploadsRunning) return 'done';
        await new Promise<void>((resolve) => {
          const stop = onOutboxWrite(() => wakeText?.());
          wakeText = () => {
            stop();
            wakeText = null;
            resolve();
          };
        });
        continue;
      }
      // Entries are their writer's (a shared patrol phone keeps a logged-out
      // user's entries for their next sign-in): never sent with another
      // user's session, whatever database they were found in.
      const signedIn = options.pb.authStore.record?.id;
      if (group.some((entry) => entry.userId !== signedIn)) return 'auth-required';
      // A session on a temporary password may send nothing (the server
      // refuses it): the work waits, untouched, until the password is the
      // user's own and the window replays.
      if (onTemporaryPassword(options.pb)) return 'auth-required';
      // The oldest entry's back-off holds its lane: a lane keeps the order of creation.
      if (head.nextAttemptAt > now() && !skipBackoffOnce) return 'waiting';
      skipBackoffOnce = false;
      if (!(await renewLease(db, owner))) return 'lost-lease';
      if (group.length === 1) {
        const ended = await settle(head, await deliver(options, head));
        if (ended) return ended;
        continue;
      }
      const sent = await deliverGroup(options, group);
      if (sent.delivered.length > 0) {
        await confirm(
          db,
          sent.delivered.map((d) => d.entry),
          sent.delivered.flatMap((d) => d.records),
        );
        result.delivered += sent.delivered.length;
      }
      if (sent.failure) {
        const done = new Set(sent.delivered.map((d) => d.entry.seq));
        const oldest = group.find((entry) => !done.has(entry.seq)) ?? head;
        // Its attempts as recorded by the send (the group's copy is older).
        const ended = await settle((await db.outbox.get(oldest.seq!)) ?? oldest, sent.failure);
        if (ended) return ended;
      } else if (sent.alone) {
        const alone = (await db.outbox.get(sent.alone.seq!)) ?? sent.alone;
        const ended = await settle(alone, await deliver(options, alone));
        if (ended) return ended;
      }
    }
  };

  try {
    const uploads = runLane('uploads').finally(() => {
      uploadsRunning = false;
      wakeText?.();
    });
    const [text, upload] = await Promise.all([runLane('text'), uploads]);
    return finish(bothLanes(text, upload, result.delivered));
  } finally {
    await releaseLease(db, owner);
  }
}
