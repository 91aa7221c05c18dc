/**
 * The one outbox replay, used by the window and by the service worker.
 *
 * Guarantees (DESIGN.md): entries go in creation order; an entry leaves the
 * outbox only after the server confirmed it; every entry reaches the server
 * exactly once:
 * - creates carry client-generated ids, so a create the server already has
 *   (an earlier attempt whose answer was lost) counts as delivered;
 * - before a request leaves, the entry records `sentAt`; the next attempt of
 *   such an entry first asks the server whether it arrived;
 * - entries of several operations go as one transactional batch, so a house
 *   check's report and house update land together or not at all;
 * - a lease keeps a second replayer (another tab, the service worker) from
 *   sending the same entry concurrently.
 * Network errors and 5xx retry with exponential back-off and jitter; 401
 * refreshes the token or waits for the next sign-in; other 4xx park the
 * entry with the server's field messages for the user to retry or discard.
 */
import type PocketBase from 'pocketbase';
import { ClientResponseError, type RecordModel } from 'pocketbase';
import { errorMessage, fieldErrors } from '../api/errorMessage.ts';
import type { CollectionName } from '../api/records.ts';
import type { OutboxEntry, OutboxOperation, ScmsDatabase } from './db.ts';
import { acquireLease, releaseLease, renewLease } from './lease.ts';
import { applyServerRecords } from './mirror.ts';
import { refreshSession } from './session.ts';

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;
/** After this many 5xx answers an entry is parked, so one bad entry cannot block the queue for ever. */
export const MAX_SERVER_ERROR_ATTEMPTS = 8;
/** Below the lease's 30 s, so a hung request never outlives our lease. */
export const REQUEST_TIMEOUT_MS = 20_000;

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

type Delivery =
  | { kind: 'delivered'; records: Array<{ collection: CollectionName; record: RecordModel }> }
  | { kind: 'parked' }
  | { kind: 'offline' }
  | { kind: 'server-error'; error: unknown }
  | { kind: 'auth' }
  | { kind: 'lost-lease' };

export function backoffDelay(attempts: number, random: () => number = Math.random): number {
  const exponential = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
  return Math.round(exponential * (0.5 + random() * 0.5));
}

function statusOf(error: unknown): number {
  return error instanceof ClientResponseError ? error.status : 0;
}

/** The body as the SDK sends it: Blobs become files (the SDK turns the body into multipart). */
function requestBody(op: OutboxOperation): Record<string, unknown> {
  const body: Record<string, unknown> = { ...op.body };
  if (op.action === 'create') body.id = op.id;
  for (const [field, blobs] of Object.entries(op.files ?? {})) {
    body[field] = blobs.map((blob, i) => (blob instanceof File ? blob : new File([blob], `${field}-${i + 1}.${extension(blob.type)}`, { type: blob.type })));
  }
  return body;
}

function extension(mime: string): string {
  return mime.split('/')[1]?.replace('jpeg', 'jpg') || 'bin';
}

const sendOptions = () => ({ requestKey: null, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

async function sendOne(pb: PocketBase, op: OutboxOperation): Promise<RecordModel | null> {
  const service = pb.collection(op.collection);
  if (op.action === 'create') return service.create(requestBody(op), sendOptions());
  if (op.action === 'update') return service.update(op.id, requestBody(op), sendOptions());
  await service.delete(op.id, sendOptions());
  return null;
}

async function sendBatch(pb: PocketBase, ops: OutboxOperation[]): Promise<Array<RecordModel | null>> {
  const batch = pb.createBatch();
  for (const op of ops) {
    const service = batch.collection(op.collection);
    if (op.action === 'create') service.create(requestBody(op));
    else if (op.action === 'update') service.update(op.id, requestBody(op));
    else service.delete(op.id);
  }
  const results = await batch.send(sendOptions());
  return results.map((result) => (result.body && typeof result.body === 'object' && 'id' in result.body ? (result.body as RecordModel) : null));
}

/**
 * Did an earlier attempt of this entry reach the server? Judged by its
 * creates (a batch is all or nothing). null: the entry creates nothing, so
 * sending it again is harmless (its updates set the same values).
 */
async function deliveredBefore(pb: PocketBase, entry: OutboxEntry): Promise<Delivery | null> {
  if (!entry.ops.some((op) => op.action === 'create')) return null;
  try {
    const records: Array<{ collection: CollectionName; record: RecordModel }> = [];
    // The records the entry updated too: they replace its optimistic rows,
    // which would otherwise stay pending.
    for (const op of entry.ops) {
      if (op.action === 'delete') continue;
      try {
        records.push({ collection: op.collection, record: await pb.collection(op.collection).getOne(op.id, sendOptions()) });
      } catch (error) {
        // An updated record deleted since has nothing to show; a missing create means not delivered.
        if (op.action === 'create' || statusOf(error) !== 404) throw error;
      }
    }
    return { kind: 'delivered', records };
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) return null;
    if (status === 0) return { kind: 'offline' };
    if (status === 401) return { kind: 'auth' };
    if (status >= 500 || status === 429) return { kind: 'server-error', error };
    return null;
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
  try {
    const confirmed = entry.ops.length === 1 ? [await sendOne(pb, entry.ops[0]!)] : await sendBatch(pb, entry.ops);
    const records = confirmed.flatMap((record, i) => (record ? [{ collection: entry.ops[i]!.collection, record }] : []));
    return { kind: 'delivered', records };
  } catch (error) {
    const status = statusOf(error);
    if (status === 0) return { kind: 'offline' };
    if (status === 401) return { kind: 'auth' };
    // 429: the server's rate limit, met by a burst after a long time offline: wait, as for a 5xx.
    if (status >= 500 || status === 429) return { kind: 'server-error', error };
    // A create the server already has (e.g. "id must be unique") was delivered before.
    if (status === 400) {
      const earlier = await deliveredBefore(pb, entry);
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
    const session = await refreshSession(pb);
    if (session === 'offline') return { kind: 'offline' };
    if (session === 'expired') return { kind: 'auth' };
    await db.outbox.update(entry.seq!, { status: 'failed', error: errorMessage(error), fieldErrors: fieldErrors(error) });
    return { kind: 'parked' };
  }
}

/** Removes a confirmed entry and writes the server's records into the mirror, in one transaction. */
async function confirm(db: ScmsDatabase, entry: OutboxEntry, records: Array<{ collection: CollectionName; record: RecordModel }>): Promise<void> {
  const collections = [...new Set(entry.ops.map((op) => op.collection))];
  await db.transaction('rw', [db.outbox, ...collections.map((c) => db.mirror(c))], async () => {
    await db.outbox.delete(entry.seq!);
    for (const collection of collections) {
      await applyServerRecords(db, collection, records.filter((r) => r.collection === collection).map((r) => r.record));
    }
  });
}

async function firstPending(db: ScmsDatabase): Promise<OutboxEntry | undefined> {
  // Equal index keys are ordered by primary key, so this is the oldest pending entry.
  return db.outbox.where('status').equals('pending').first();
}

export async function replayOutbox(options: ReplayOptions): Promise<ReplayResult> {
  const { db, owner } = options;
  const now = options.now ?? Date.now;
  const result: ReplayResult = { outcome: 'done', delivered: 0, parked: 0 };
  if (!(await acquireLease(db, owner))) return { ...result, outcome: 'busy' };
  const finish = (outcome: ReplayOutcome) => ({ ...result, outcome });
  try {
    let refreshed = false;
    let skipBackoffOnce = options.retryNow ?? false;
    for (;;) {
      const entry = await firstPending(db);
      if (!entry) return finish('done');
      if (entry.nextAttemptAt > now() && !skipBackoffOnce) return finish('waiting');
      skipBackoffOnce = false;
      if (!(await renewLease(db, owner))) return finish('lost-lease');
      const delivery = await deliver(options, entry);
      switch (delivery.kind) {
        case 'delivered':
          await confirm(db, entry, delivery.records);
          result.delivered++;
          break;
        case 'parked':
          result.parked++;
          break;
        case 'lost-lease':
          return finish('lost-lease');
        case 'offline':
          await db.outbox.update(entry.seq!, { nextAttemptAt: now() + backoffDelay(entry.attempts + 1, options.random) });
          return finish('offline');
        case 'server-error': {
          const attempts = (await db.outbox.get(entry.seq!))?.attempts ?? entry.attempts + 1;
          if (attempts >= MAX_SERVER_ERROR_ATTEMPTS) {
            await db.outbox.update(entry.seq!, { status: 'failed', error: errorMessage(delivery.error), fieldErrors: fieldErrors(delivery.error) });
            result.parked++;
            break;
          }
          await db.outbox.update(entry.seq!, { nextAttemptAt: now() + backoffDelay(attempts, options.random) });
          return finish('waiting');
        }
        case 'auth': {
          // One refresh per run: a token the server keeps refusing waits for a sign-in.
          const session = refreshed ? 'expired' : await refreshSession(options.pb);
          refreshed = true;
          if (session === 'offline') return finish('offline');
          if (session === 'expired') return finish('auth-required');
          break;
        }
      }
    }
  } finally {
    await releaseLease(db, owner);
  }
}
