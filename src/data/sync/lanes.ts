/**
 * The outbox replays in two lanes (replay.ts), so that a photo crawling up a
 * weak uplink never holds back the reports and house checks queued after
 * it:
 * - 'uploads': the entries that carry files, one at a time, in the order of
 *   creation;
 * - 'text': every other entry, in the order of creation, passing over the
 *   uploads and whatever depends on one.
 * An entry depends on an earlier one when they write a record in common
 * (an edit of a home whose photo is still uploading) or when it names a
 * record the earlier one creates (a report on a home added with a photo):
 * it then waits for that one, whichever lane it is in. Order within a lane
 * is the order of creation, as before.
 */
import type { OutboxEntry, ScmsDatabase } from '../mirror/db.ts';

export type Lane = 'text' | 'uploads';

/** Entries per batch request: the migration's settings.batch.maxRequests. */
export const MAX_BATCH = 50;
/** Pending entries looked at per choice: enough to pass over uploads and their dependants. */
const SCAN = 200;

export function carriesFiles(entry: OutboxEntry): boolean {
  return entry.ops.some((op) => Object.values(op.files ?? {}).some((blobs) => blobs.length > 0));
}

/** The record keys an entry writes and the ids of the records it creates (what others may depend on). */
function footprint(entry: OutboxEntry): string[] {
  return [...entry.recordKeys, ...entry.ops.filter((op) => op.action === 'create').map((op) => op.id)];
}

/** Whether an entry writes one of `held`'s records or names one of its new ids in a field. */
function dependsOn(entry: OutboxEntry, held: ReadonlySet<string>): boolean {
  if (held.size === 0) return false;
  if (entry.recordKeys.some((key) => held.has(key))) return true;
  return entry.ops.some((op) =>
    Object.values(op.body).some((value) =>
      Array.isArray(value)
        ? value.some((v) => typeof v === 'string' && held.has(v))
        : typeof value === 'string' && held.has(value),
    ),
  );
}

/** One create of a record without files: it can share a batch with other entries like it. */
export function batchable(entry: OutboxEntry): boolean {
  return entry.ops.length === 1 && entry.ops[0]?.action === 'create' && !carriesFiles(entry);
}

async function pendingInOrder(db: ScmsDatabase): Promise<OutboxEntry[]> {
  // Equal index keys are ordered by primary key: the oldest pending entries first.
  return db.outbox.where('status').equals('pending').limit(SCAN).toArray();
}

/**
 * The next entries of a lane to send: for 'uploads' the oldest upload, once
 * nothing older that it depends on waits in the other lane; for 'text' the
 * oldest entry that is no upload and depends on none, and, when it is an
 * independent create, the independent creates after it (never two writing
 * the same record: the second must see the first delivered), up to
 * MAX_BATCH. Empty: nothing of the lane can go now.
 */
export async function nextInLane(db: ScmsDatabase, lane: Lane): Promise<OutboxEntry[]> {
  const waiting = await pendingInOrder(db);
  const held = new Set<string>();
  if (lane === 'uploads') {
    for (const entry of waiting) {
      if (carriesFiles(entry)) return dependsOn(entry, held) ? [] : [entry];
      for (const key of footprint(entry)) held.add(key);
    }
    return [];
  }
  const group: OutboxEntry[] = [];
  const keys = new Set<string>();
  for (const entry of waiting) {
    if (carriesFiles(entry) || dependsOn(entry, held)) {
      for (const key of footprint(entry)) held.add(key);
      continue;
    }
    if (
      group.length > 0 &&
      (!batchable(group[0]!) || !batchable(entry) || entry.recordKeys.some((key) => keys.has(key)))
    )
      break;
    group.push(entry);
    for (const key of entry.recordKeys) keys.add(key);
    if (group.length >= MAX_BATCH) break;
  }
  return group;
}
