/**
 * Writes server records into the mirror. A record that still has local
 * changes waiting in the outbox keeps them on top (the server's copy is
 * older than what the user sees), so a pull or a realtime event never
 * makes a queued edit flicker away.
 */
import type { RecordModel } from 'pocketbase';
import { SINGLE_FILE_FIELDS, type CollectionName } from '../../api/records.ts';
import { keepLatestCallsAfterRemoval, keepLatestCallsAfterWrite } from './latestCalls.ts';
import { recordKey, type MirrorRow, type OutboxEntry, type OutboxOperation, type ScmsDatabase } from './db.ts';

const PENDING_FILE_PREFIX = 'pending-';
/** Dexie names the changed keys of a write of fewer than 50 values (its observability middleware). */
export const OBSERVED_WRITE = 49;

/** A stand-in file name of the mirror for an upload still in the outbox. */
export function isPendingFileName(name: unknown): boolean {
  return typeof name === 'string' && name.startsWith(PENDING_FILE_PREFIX);
}

/**
 * The file fields of an operation as the mirror shows them until the server
 * names the files: the server's shape ('pending-0' for a single-file field,
 * ['pending-0', …] for a multi-file one), while the Blobs stay in the outbox.
 * Screens read file fields as names, so a Blob or a list in a single-file
 * field would break them.
 */
export function pendingFileNames(op: Pick<OutboxOperation, 'collection' | 'files'>): Record<string, string | string[]> {
  const single = SINGLE_FILE_FIELDS[op.collection] ?? [];
  const fields: Record<string, string | string[]> = {};
  for (const [field, blobs] of Object.entries(op.files ?? {})) {
    const names = blobs.map((_, i) => `${PENDING_FILE_PREFIX}${i}`);
    fields[field] = single.includes(field) ? (names[0] ?? '') : names;
  }
  return fields;
}

interface PendingOverlay {
  body: Record<string, unknown>;
  deleted: boolean;
}

/** What the outbox still holds for each record of a collection. */
export function pendingOverlays(
  entries: readonly OutboxEntry[],
  collection: CollectionName,
): Map<string, PendingOverlay> {
  const overlays = new Map<string, PendingOverlay>();
  for (const entry of entries) {
    for (const op of entry.ops) {
      if (op.collection !== collection) continue;
      const overlay = overlays.get(op.id) ?? { body: {}, deleted: false };
      if (op.action === 'delete') overlay.deleted = true;
      // Queued uploads too, so a pull does not swap a queued photo for the server's older one.
      else Object.assign(overlay.body, op.body, pendingFileNames(op));
      overlays.set(op.id, overlay);
    }
  }
  return overlays;
}

/** The outbox entries still to be sent that write any of these records (by index, not by reading the whole outbox). */
async function entriesTouching(
  db: ScmsDatabase,
  collection: CollectionName,
  ids: readonly string[],
): Promise<OutboxEntry[]> {
  // A conflict entry is not on its way: the record shows the server's
  // values until the person decides (src/data/sync/conflicts.ts).
  return db.outbox
    .where('recordKeys')
    .anyOf(ids.map((id) => recordKey(collection, id)))
    .distinct()
    .filter((entry) => entry.status !== 'conflict')
    .toArray();
}

/** A server record as stored locally: no expand, no SDK extras. */
export function toMirrorRow<C extends CollectionName>(record: RecordModel): MirrorRow<C> {
  const { expand: _expand, collectionId: _collectionId, ...fields } = record;
  return fields as unknown as MirrorRow<C>;
}

/**
 * A record this device deleted, once the server confirmed it (replay.ts):
 * a pull's page read before the deletion reached the server, answered after
 * the outbox entry was settled, would otherwise bring the record back until
 * the next reconciliation. Kept in syncState (no schema change); ids are
 * never used again (pb_hooks/deleted_records.pb.js), so a mark can only ever
 * hide a copy that no longer exists. Marks older than GONE_KEPT_MS go: no
 * page is in flight that long.
 */
const GONE_PREFIX = 'gone:';
const GONE_KEPT_MS = 24 * 60 * 60 * 1000;
const goneKey = (collection: CollectionName, id: string) => `${GONE_PREFIX}${collection}:${id}`;

/** Marks the records as deleted on the server (inside the caller's transaction, which must include syncState). */
export async function rememberDeleted(
  db: ScmsDatabase,
  records: ReadonlyArray<{ collection: CollectionName; id: string }>,
  now = Date.now(),
): Promise<void> {
  if (records.length === 0) return;
  await db.syncState.bulkPut(records.map(({ collection, id }) => ({ key: goneKey(collection, id), value: now })));
  const old = await db.syncState
    .where('key')
    .startsWith(GONE_PREFIX)
    .filter((row) => typeof row.value === 'number' && row.value < now - GONE_KEPT_MS)
    .primaryKeys();
  if (old.length > 0) await db.syncState.bulkDelete(old);
}

/** Whether nothing waits in the outbox (a first sync, mostly): nothing to lay over the server's records. */
export async function outboxIsEmpty(db: ScmsDatabase): Promise<boolean> {
  return (await db.outbox.limit(1).primaryKeys()).length === 0;
}

export async function applyServerRecords<C extends CollectionName>(
  db: ScmsDatabase,
  collection: C,
  records: readonly RecordModel[],
  options: {
    firstLoad?: boolean;
    /** False: the caller keeps Dexie from announcing the write (unpack.ts), so one bulkPut does. */
    announced?: boolean;
  } = {},
): Promise<void> {
  if (records.length === 0) return;
  const table = db.mirror(collection);
  await db.transaction('rw', serverRecordTables(db, collection), async () => {
    // Deleted by this device and confirmed: a copy read before that is not brought back
    // (looked up only when there are such marks: a new phone has none).
    const marked = (await db.syncState.where('key').startsWith(GONE_PREFIX).limit(1).primaryKeys()).length > 0;
    const gone = marked ? await db.syncState.bulkGet(records.map((record) => goneKey(collection, record.id))) : [];
    // A copy read before a newer one was written here (a pull's page answered
    // after a realtime event or a replay's answer) must not take its place:
    // the card would go back to the older state until some later pull. A
    // first load skips the lookup (it would read every row it writes): what
    // it overwrites changed after its cursor, so the incremental pull that
    // follows it brings that back.
    const current = options.firstLoad ? [] : await table.bulkGet(records.map((record) => record.id));
    // An empty outbox (a first sync, mostly) has nothing to keep on top: no lookup of every record.
    const outboxEmpty = await outboxIsEmpty(db);
    const overlays = outboxEmpty
      ? new Map<string, PendingOverlay>()
      : pendingOverlays(
          await entriesTouching(
            db,
            collection,
            records.map((r) => r.id),
          ),
          collection,
        );
    const rows: MirrorRow<C>[] = [];
    records.forEach((record, i) => {
      if (gone[i] || isOlder(record, current[i])) return;
      const overlay = overlays.get(record.id);
      if (overlay?.deleted) return;
      const row = toMirrorRow<C>(record);
      rows.push(overlay ? ({ ...row, ...overlay.body, _pending: 1 } as MirrorRow<C>) : row);
    });
    // In one transaction, but in calls of fewer than 50 rows: Dexie reports the keys of a
    // smaller write to its observers (live queries, the search index), and "the whole
    // table changed" for a larger one, which made the search index read every report
    // again after each page of a sync and each batch of a replay.
    const chunk = options.announced === false ? rows.length : OBSERVED_WRITE;
    for (let i = 0; i < rows.length; i += chunk) await table.bulkPut(rows.slice(i, i + chunk));
    if (collection === 'calls') await keepLatestCallsAfterWrite(db, rows as unknown as Array<MirrorRow<'calls'>>);
  });
}

/**
 * Whether the server's copy is older than the server copy the mirror holds.
 * The server sets `updated` on every write, in one sortable format
 * ('2026-11-26 14:47:19.123Z'). A row showing this device's own change
 * (`_pending`, with the device's time in `updated`) is always replaced: the
 * server's copy, with what is still queued on top, is what it should show.
 */
function isOlder(record: RecordModel, row: { updated?: unknown; _pending?: unknown } | undefined): boolean {
  if (!row || row._pending) return false;
  const mine = row.updated;
  const theirs = record.updated;
  return typeof mine === 'string' && typeof theirs === 'string' && theirs < mine;
}

/**
 * The tables applyServerRecords writes or reads for a collection: a caller
 * writing several collections in one transaction (changes.ts) opens it on
 * all of theirs, and each applyServerRecords runs inside it.
 */
export function serverRecordTables(db: ScmsDatabase, collection: CollectionName) {
  return [db.mirror(collection), db.outbox, db.syncState, ...companionTables(db, collection)];
}

/** Tables kept in step with a collection's rows, written in the same transaction. */
function companionTables(db: ScmsDatabase, collection: CollectionName) {
  return collection === 'calls' ? [db.latest_calls] : [];
}

/** Removes records the server no longer has, except those the outbox still writes. */
export async function removeServerRecords(
  db: ScmsDatabase,
  collection: CollectionName,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const table = db.mirror(collection);
  return db.transaction('rw', [table, db.outbox, ...companionTables(db, collection)], async () => {
    const overlays = pendingOverlays(await entriesTouching(db, collection, ids), collection);
    const removable = ids.filter((id) => !overlays.has(id));
    await table.bulkDelete(removable);
    if (collection === 'calls') await keepLatestCallsAfterRemoval(db, removable);
    return removable.length;
  });
}
