/**
 * How the replay (replay.ts) sends outbox operations: one request, or one
 * transactional batch; the body as the SDK wants it; and what a failed
 * request means for the entry (the one mapping of a status to an outcome).
 */
import type PocketBase from 'pocketbase';
import { ClientResponseError, type RecordModel } from 'pocketbase';
import type { CollectionName } from '../../api/records.ts';
import type { OutboxOperation } from '../mirror/db.ts';
import { BASE_KEY } from './conflicts.ts';
import { isUploadStalled, type uploadFetch } from './upload.ts';

/** Below the lease's 30 s, so a hung request never outlives our lease. */
export const REQUEST_TIMEOUT_MS = 20_000;

export type ServerRecords = Array<{ collection: CollectionName; record: RecordModel }>;

/** What became of an entry's attempt. */
export type Delivery =
  /** `removed`: records the entry created that the server has deleted since; they leave the mirror. */
  | {
      kind: 'delivered';
      records: ServerRecords;
      removed?: Array<{ collection: CollectionName; id: string }>;
    }
  | { kind: 'parked' }
  /** Everything it still had to send was overtaken by someone else's change: kept as a conflict entry. */
  | { kind: 'set-aside' }
  /** An upload cut for lack of progress: the network is there but slow; sent again after a back-off. */
  | { kind: 'stalled' }
  | { kind: 'offline' }
  | { kind: 'server-error'; error: unknown }
  | { kind: 'auth' }
  | { kind: 'lost-lease' };

/** A failure that is no refusal of the entry: it waits and goes again, as it is. */
export type Unrefused = Extract<Delivery, { kind: 'stalled' | 'offline' | 'auth' | 'server-error' }>;

export function statusOf(error: unknown): number {
  return error instanceof ClientResponseError ? error.status : 0;
}

/**
 * What a failed request means when the server did not refuse the entry
 * itself: a stalled upload, no network (status 0), a token to refresh
 * (401), the server failing or rate-limiting (5xx, 429: a burst after a
 * long time offline waits, as for a 5xx). null: a refusal (any other 4xx),
 * for the caller to judge.
 */
export function unrefusedFailure(error: unknown): Unrefused | null {
  if (isUploadStalled(error)) return { kind: 'stalled' };
  const status = statusOf(error);
  if (status === 0) return { kind: 'offline' };
  if (status === 401) return { kind: 'auth' };
  if (status >= 500 || status === 429) return { kind: 'server-error', error };
  return null;
}

/**
 * The body as the SDK sends it: Blobs become files (the SDK turns the body
 * into multipart); an update's base rides along (conflicts.ts).
 */
function requestBody(op: OutboxOperation): Record<string, unknown> {
  const body: Record<string, unknown> = { ...op.body };
  if (op.action === 'create') body.id = op.id;
  if (op.action === 'update' && op.base) body[BASE_KEY] = op.base;
  for (const [field, blobs] of Object.entries(op.files ?? {})) {
    body[field] = blobs.map((blob, i) =>
      blob instanceof File ? blob : new File([blob], `${field}-${i + 1}.${extension(blob.type)}`, { type: blob.type }),
    );
  }
  return body;
}

function extension(mime: string): string {
  return mime.split('/')[1]?.replace('jpeg', 'jpg') || 'bin';
}

/** How a request travels: a fixed time-out, or (an upload) one that follows its progress (upload.ts). */
export interface Transport {
  requestKey: null;
  signal?: AbortSignal;
  fetch?: ReturnType<typeof uploadFetch>;
}

export const sendOptions = (): Transport => ({ requestKey: null, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

/** A delete's base travels in the query: PocketBase reads no body of a DELETE. */
const deleteQuery = (op: OutboxOperation) => (op.base ? { query: { [BASE_KEY]: JSON.stringify(op.base) } } : {});

export async function sendOne(pb: PocketBase, op: OutboxOperation, transport: Transport): Promise<RecordModel | null> {
  const service = pb.collection(op.collection);
  if (op.action === 'create') return service.create(requestBody(op), transport);
  if (op.action === 'update') return service.update(op.id, requestBody(op), transport);
  await service.delete(op.id, { ...transport, ...deleteQuery(op) });
  return null;
}

export async function sendBatch(
  pb: PocketBase,
  ops: OutboxOperation[],
  transport: Transport = sendOptions(),
): Promise<Array<RecordModel | null>> {
  const batch = pb.createBatch();
  for (const op of ops) {
    const service = batch.collection(op.collection);
    if (op.action === 'create') service.create(requestBody(op));
    else if (op.action === 'update') service.update(op.id, requestBody(op));
    else service.delete(op.id, deleteQuery(op));
  }
  const results = await batch.send(transport);
  return results.map((result) =>
    result.body && typeof result.body === 'object' && 'id' in result.body ? (result.body as RecordModel) : null,
  );
}
