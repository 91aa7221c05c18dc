/**
 * Many devices, one truth: how a write of the homes directory says what it
 * changed, how the device reads the server's refusal of a write someone
 * else overtook, and how the person settles it.
 *
 * - A write carries intent: an update names only the fields the person
 *   changed, and `base` holds the values those fields had when they started
 *   editing; a delete carries the record's values it saw. The server
 *   (pocketbase/pb_hooks/lib/conflicts.js) merges field by field and
 *   refuses, with 409, a change to a field someone else changed since to
 *   another value. An update of a record deleted since gets a 404.
 * - Replay (replay.ts) then sets the overtaken record aside as a 'conflict'
 *   entry of the outbox, sends the rest of the entry, and goes on with the
 *   entries after it: a conflict never holds up other work, and nothing the
 *   person wrote is dropped.
 * - The person sees, per field, who changed it when, both values, and keeps
 *   theirs or the other's (or, for text, edits a merged value). Their choice
 *   is queued as a new write based on the values the server holds now.
 */
import { ClientResponseError } from 'pocketbase';
import { failedRequestIndex } from '../../api/errorMessage.ts';
import type { CollectionName } from '../../api/records.ts';
import { DIRECTORY_FIELDS, isDirectoryCollection } from '../../domain/directoryFields.ts';
import type { FieldConflict, OutboxEntry, OutboxOperation, RecordConflict, ScmsDatabase } from '../mirror/db.ts';
import { newRecordId } from '../mirror/ids.ts';
import { enqueue } from './outbox.ts';

/** The field error code of an overtaken field (the server's CONFLICT_CODE). */
export const CONFLICT_CODE = 'validation_conflict';
/** Where a write's base travels: a body key of an update, a query parameter of a delete. */
export const BASE_KEY = '_base';

/** Equal as the form and the server see them: unset text is '', an unset flag is false. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return Boolean(a) === Boolean(b);
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
  return String(a ?? '') === String(b ?? '');
}

/**
 * The update of one record from the values a form gives: only the fields
 * that differ from `saved` (the record as the person saw it), with their
 * saved values as the base. null when nothing changed. Without `saved` (a
 * record the device does not hold) the values go as they are.
 */
export function changeOf(
  collection: CollectionName,
  id: string,
  fields: Record<string, unknown>,
  saved: object | undefined,
): OutboxOperation | null {
  if (!saved) return Object.keys(fields).length > 0 ? { action: 'update', collection, id, body: { ...fields } } : null;
  const before = saved as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  const base: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined || sameValue(value, before[field])) continue;
    body[field] = value;
    base[field] = before[field] ?? null;
  }
  return Object.keys(body).length > 0 ? { action: 'update', collection, id, body, base } : null;
}

/** A delete of a directory record, based on its fields as the person saw them (none known: deleted as it is). */
export function deleteOf(collection: CollectionName, id: string, saved: object | undefined): OutboxOperation {
  const op: OutboxOperation = { action: 'delete', collection, id, body: {} };
  if (saved && isDirectoryCollection(collection)) {
    const before = saved as Record<string, unknown>;
    op.base = Object.fromEntries(DIRECTORY_FIELDS[collection].map((field) => [field, before[field] ?? null]));
  }
  return op;
}

/** The failed request of an error: the error itself, or a batch's refused request (data.requests.<index>). */
function refusedRequest(
  error: unknown,
): { index: number | null; status: number; data: Record<string, unknown> } | null {
  if (!(error instanceof ClientResponseError)) return null;
  const requests = error.response?.data?.requests as Record<string, { response?: unknown }> | undefined;
  if (error.status === 400 && requests && typeof requests === 'object') {
    const index = failedRequestIndex(error);
    if (index === null) return null;
    const response = requests[String(index)]?.response as
      { status?: number; data?: Record<string, unknown> } | undefined;
    return { index, status: response?.status ?? 0, data: response?.data ?? {} };
  }
  return { index: null, status: error.status, data: (error.response?.data as Record<string, unknown>) ?? {} };
}

interface ConflictParams {
  base?: unknown;
  mine?: unknown;
  theirs?: unknown;
  by_id?: unknown;
  by_name?: unknown;
  at?: unknown;
}

/**
 * The write of `ops` that someone else overtook, read from the server's
 * refusal: a 409 naming overtaken fields (an update or delete of a record
 * changed since), or a 404 to an update (a record deleted since). null for
 * any other refusal.
 */
export function overtakenWrite(
  error: unknown,
  ops: readonly OutboxOperation[],
): { index: number; conflict: RecordConflict } | null {
  const refused = refusedRequest(error);
  if (!refused) return null;
  const index = refused.index ?? (ops.length === 1 ? 0 : null);
  const op = index === null ? undefined : ops[index];
  if (!op || index === null || !isDirectoryCollection(op.collection)) return null;
  if (refused.status === 404 && op.action === 'update') {
    const fields: FieldConflict[] = Object.entries(op.body).map(([field, mine]) => ({
      field,
      base: op.base?.[field] ?? null,
      mine,
      theirs: null,
      byId: '',
      byName: '',
      at: '',
    }));
    return { index, conflict: { kind: 'deleted', collection: op.collection, id: op.id, action: op.action, fields } };
  }
  if (refused.status !== 409) return null;
  const fields: FieldConflict[] = [];
  for (const [field, value] of Object.entries(refused.data)) {
    const entry = value as { code?: unknown; params?: ConflictParams } | null;
    if (entry?.code !== CONFLICT_CODE) continue;
    const params = entry.params ?? {};
    fields.push({
      field,
      base: op.base?.[field] ?? params.base ?? null,
      mine: op.action === 'delete' ? null : (op.body[field] ?? params.mine ?? null),
      theirs: params.theirs ?? null,
      byId: typeof params.by_id === 'string' ? params.by_id : '',
      byName: typeof params.by_name === 'string' ? params.by_name : '',
      at: typeof params.at === 'string' ? params.at : '',
    });
  }
  if (fields.length === 0) return null;
  return { index, conflict: { kind: 'changed', collection: op.collection, id: op.id, action: op.action, fields } };
}

/**
 * The op of an entry once its overtaken part is set aside: an update keeps
 * its other fields (and files); an overtaken delete, or an update of a
 * record deleted since, goes whole. null when nothing of it is left to send.
 */
export function remainderOf(op: OutboxOperation, conflict: RecordConflict): OutboxOperation | null {
  if (conflict.kind === 'deleted' || op.action === 'delete') return null;
  const overtaken = new Set(conflict.fields.map((f) => f.field));
  const body = Object.fromEntries(Object.entries(op.body).filter(([field]) => !overtaken.has(field)));
  const base = op.base && Object.fromEntries(Object.entries(op.base).filter(([field]) => !overtaken.has(field)));
  const files = op.files && Object.values(op.files).some((blobs) => blobs.length > 0) ? op.files : undefined;
  if (Object.keys(body).length === 0 && !files) return null;
  return { ...op, body, ...(base ? { base } : {}), ...(files ? { files } : {}) };
}

/**
 * Sets an overtaken write aside: the entry keeps what is left to send, and
 * the overtaken record joins the entry's conflict entry (made now, or the
 * one an earlier refusal of the same entry made), in one transaction.
 * Returns the ops left to send.
 */
export async function setAside(
  db: ScmsDatabase,
  entry: OutboxEntry,
  index: number,
  conflict: RecordConflict,
  now: Date = new Date(),
): Promise<OutboxOperation[]> {
  const op = entry.ops[index]!;
  const remainder = remainderOf(op, conflict);
  const ops = entry.ops.flatMap((other, i) => (i !== index ? [other] : remainder ? [remainder] : []));
  const kept: OutboxOperation = { ...op, files: undefined };
  const row = (await db.mirror(op.collection).get(op.id)) as Record<string, unknown> | undefined;
  conflict.label = recordLabel(op.collection, { ...row, ...op.body });
  if (conflict.kind === 'deleted') conflict.record = { ...stripLocal(row), ...op.body };
  await db.transaction('rw', db.outbox, async () => {
    const earlier = await db.outbox
      .where('status')
      .equals('conflict')
      .filter((other) => other.origin === entry.seq)
      .first();
    if (earlier) {
      await db.outbox.update(earlier.seq!, {
        ops: [...earlier.ops, kept],
        conflicts: [...(earlier.conflicts ?? []), conflict],
        recordKeys: [...new Set([...earlier.recordKeys, `${op.collection}:${op.id}`])],
      });
    } else {
      await db.outbox.add({
        userId: entry.userId,
        createdAt: now.toISOString(),
        label: entry.label,
        ops: [kept],
        recordKeys: [`${op.collection}:${op.id}`],
        status: 'conflict',
        attempts: 0,
        nextAttemptAt: 0,
        conflicts: [conflict],
        origin: entry.seq,
      } satisfies OutboxEntry);
    }
    // Nothing left to send: the entry goes now, so its overtaken write no
    // longer shows over the server's values in the mirror.
    if (ops.length === 0) await db.outbox.delete(entry.seq!);
    else
      await db.outbox.update(entry.seq!, {
        ops,
        recordKeys: [...new Set(ops.map((other) => `${other.collection}:${other.id}`))],
      });
  });
  return ops;
}

/** What a directory record is called on screen: a home's address, a resident's name, a phone's number. */
export function recordLabel(collection: CollectionName, row: Record<string, unknown>): string {
  const text = (field: string) => (typeof row[field] === 'string' ? (row[field] as string).trim() : '');
  if (collection === 'houses') return [text('address'), text('apt')].filter(Boolean).join(', ');
  if (collection === 'residents') return [text('first_name'), text('last_name')].filter(Boolean).join(' ');
  return text('phone_number');
}

function stripLocal(row: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!row) return {};
  const { _pending: _p, collectionName: _c, created: _cr, updated: _u, ...fields } = row;
  return fields;
}

/** What the person decided for one overtaken field. */
export type FieldChoice = { keep: 'mine' } | { keep: 'theirs' } | { keep: 'merged'; value: string };

/**
 * The person's decision on one record of a conflict entry: per field for an
 * overtaken update; `whole` for an overtaken delete ('mine': delete it
 * anyway) and for an update of a deleted record ('mine': add it again).
 */
export interface RecordChoice {
  fields?: Record<string, FieldChoice>;
  whole?: 'mine' | 'theirs';
}

/** The write that carries out a decision on one record, based on what the server holds now; null when nothing is to be sent. */
export function resolutionOf(
  op: OutboxOperation,
  conflict: RecordConflict,
  choice: RecordChoice,
): OutboxOperation | null {
  if (conflict.kind === 'deleted') {
    if (choice.whole !== 'mine' || !isDirectoryCollection(conflict.collection)) return null;
    const record = conflict.record ?? {};
    const fields = [...DIRECTORY_FIELDS[conflict.collection], conflict.collection === 'houses' ? 'community' : 'house'];
    const body = Object.fromEntries(fields.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));
    return { action: 'create', collection: conflict.collection, id: newRecordId(), body };
  }
  const theirs = Object.fromEntries(conflict.fields.map((f) => [f.field, f.theirs]));
  if (op.action === 'delete') {
    if (choice.whole !== 'mine') return null;
    return { ...op, base: { ...op.base, ...theirs } };
  }
  const body: Record<string, unknown> = {};
  const base: Record<string, unknown> = {};
  for (const field of conflict.fields) {
    const decided = choice.fields?.[field.field];
    if (!decided || decided.keep === 'theirs') continue;
    const value = decided.keep === 'merged' ? decided.value : field.mine;
    if (sameValue(value, field.theirs)) continue;
    body[field.field] = value;
    base[field.field] = field.theirs;
  }
  if (Object.keys(body).length === 0) return null;
  return { action: 'update', collection: op.collection, id: op.id, body, base };
}

/**
 * Settles a conflict entry as the person decided (`choices` in the order of
 * its conflicts): their kept values are queued as one new entry based on
 * the server's current values, and the conflict entry leaves the outbox.
 * Returns the records whose mirror rows should be read again from the
 * server (those where the other person's values were kept).
 */
export async function resolveConflict(
  db: ScmsDatabase,
  seq: number,
  choices: readonly RecordChoice[],
  now: Date = new Date(),
): Promise<Array<{ collection: CollectionName; id: string }>> {
  const entry = await db.outbox.get(seq);
  if (!entry || entry.status !== 'conflict') return [];
  const conflicts = entry.conflicts ?? [];
  const ops: OutboxOperation[] = [];
  const refresh: Array<{ collection: CollectionName; id: string }> = [];
  conflicts.forEach((conflict, i) => {
    const op = entry.ops.find((o) => o.collection === conflict.collection && o.id === conflict.id);
    const resolved = op ? resolutionOf(op, conflict, choices[i] ?? {}) : null;
    if (resolved) ops.push(resolved);
    if (!resolved || resolved.action === 'update') refresh.push({ collection: conflict.collection, id: conflict.id });
  });
  const tables = [db.outbox, ...new Set(ops.map((op) => db.mirror(op.collection)))];
  await db.transaction('rw', tables, async () => {
    await db.outbox.delete(seq);
    if (ops.length > 0) await enqueue(db, { userId: entry.userId, label: entry.label, ops }, now);
  });
  return refresh;
}
