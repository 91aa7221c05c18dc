/**
 * The outbox: every offline-capable write becomes an entry here, and the
 * mirror shows its result at once (marked `_pending`). Entries leave the
 * outbox only when the server confirmed them (replay.ts), or when the user
 * discards a parked one. Signing out never clears it.
 */
import type { CollectionName } from '../../api/records.ts';
import { recordKey, type MirrorRow, type OutboxEntry, type OutboxOperation, type ScmsDatabase } from '../mirror/db.ts';
import { pendingFileNames } from '../mirror/mirror.ts';
import { pbDate } from '../../domain/pbDate.ts';

export interface NewOutboxEntry {
  userId: string;
  label: string;
  ops: OutboxOperation[];
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called after every enqueue (the sync engine replays and registers Background Sync). */
export function onOutboxWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The row the mirror shows for an operation before the server confirms it. */
function optimisticRow(
  op: OutboxOperation,
  existing: Record<string, unknown> | undefined,
  now: string,
): Record<string, unknown> | null {
  if (op.action === 'delete') return null;
  const base = op.action === 'create' ? { created: now, collectionName: op.collection } : (existing ?? {});
  return { ...base, ...op.body, ...pendingFileNames(op), id: op.id, updated: now, _pending: 1 };
}

export async function enqueue(db: ScmsDatabase, entry: NewOutboxEntry, now: Date = new Date()): Promise<number> {
  const tables = [db.outbox, ...new Set(entry.ops.map((op) => db.mirror(op.collection)))];
  const seq = await db.transaction('rw', tables, async () => {
    const stamp = pbDate(now);
    for (const op of entry.ops) {
      const table = db.mirror(op.collection);
      if (op.action === 'delete') {
        await table.delete(op.id);
        continue;
      }
      const existing = op.action === 'update' ? await table.get(op.id) : undefined;
      const row = optimisticRow(op, existing as Record<string, unknown> | undefined, stamp);
      if (row) await table.put(row as unknown as MirrorRow<CollectionName>);
    }
    return db.outbox.add({
      userId: entry.userId,
      createdAt: now.toISOString(),
      label: entry.label,
      ops: entry.ops,
      recordKeys: [...new Set(entry.ops.map((op) => recordKey(op.collection, op.id)))],
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
    } satisfies OutboxEntry);
  });
  for (const listener of listeners) listener();
  return seq;
}

/** Puts a parked entry back in line. */
export async function retryEntry(db: ScmsDatabase, seq: number): Promise<void> {
  await db.outbox.update(seq, { status: 'pending', nextAttemptAt: 0, error: undefined, fieldErrors: undefined });
  for (const listener of listeners) listener();
}

/**
 * Drops a parked entry at the user's request and undoes what it showed:
 * records it would have created disappear; records it would have changed
 * are marked for a fresh copy from the server (`refetch`).
 */
export async function discardEntry(
  db: ScmsDatabase,
  seq: number,
  refetch: (collection: CollectionName, id: string) => Promise<void>,
): Promise<void> {
  const entry = await db.outbox.get(seq);
  if (!entry) return;
  const tables = [db.outbox, ...new Set(entry.ops.map((op) => db.mirror(op.collection)))];
  await db.transaction('rw', tables, async () => {
    await db.outbox.delete(seq);
    for (const op of entry.ops) if (op.action === 'create') await db.mirror(op.collection).delete(op.id);
  });
  for (const op of entry.ops) if (op.action !== 'create') await refetch(op.collection, op.id).catch(() => undefined);
}

/**
 * The newest Blob the outbox holds for a record's file field (its first
 * file): what a screen shows until the upload lands. Undefined when none.
 */
export async function pendingFile(
  db: ScmsDatabase,
  collection: CollectionName,
  id: string,
  field: string,
): Promise<Blob | undefined> {
  const entries = await db.outbox.where('recordKeys').equals(recordKey(collection, id)).sortBy('seq');
  let blob: Blob | undefined;
  for (const entry of entries) {
    for (const op of entry.ops)
      if (op.collection === collection && op.id === id && op.files?.[field]?.[0]) blob = op.files[field][0];
  }
  return blob;
}

export async function outboxEntries(db: ScmsDatabase): Promise<OutboxEntry[]> {
  return db.outbox.orderBy('seq').toArray();
}
