/**
 * Independent creates sent together (replay.ts): one create each, no files,
 * no record in common, up to 50 in one batch request (lanes.ts groups
 * them). A batch is all or nothing on the server, so when one of them is
 * refused the ones before it are sent again as a batch, the refused one
 * alone (the replay gives it its own outcome) and the ones after it in the
 * next batch: an entry never fails its batch-mates.
 */
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import { failedRequestIndex } from '../../api/errorMessage.ts';
import type { CollectionName } from '../../api/records.ts';
import { recordKey, type OutboxEntry, type ScmsDatabase } from '../mirror/db.ts';
import { renewLease } from './lease.ts';
import {
  sendBatch,
  sendOptions,
  statusOf,
  unrefusedFailure,
  type Delivery,
  type ServerRecords,
} from './replayRequests.ts';

/** What a group's sending needs of the replay's options. */
export interface GroupOptions {
  pb: PocketBase;
  db: ScmsDatabase;
  /** Who replays, for the lease. */
  owner: string;
  now?: () => number;
}

/** What became of a group sent as one batch. */
export interface GroupDelivery {
  /** Confirmed by the server (sent now, or found there from an earlier attempt). */
  delivered: Array<{ entry: OutboxEntry; records: ServerRecords }>;
  /** Stop: the failure of the group, applied to its oldest entry still waiting. */
  failure?: Exclude<Delivery, { kind: 'delivered' } | { kind: 'parked' }>;
  /** The entry to send on its own next (the refused one), for its own outcome. */
  alone?: OutboxEntry;
}

/** Which creates of the group an earlier attempt delivered: one list request per collection, ids only of the group. */
async function deliveredOfGroup(
  pb: PocketBase,
  entries: readonly OutboxEntry[],
): Promise<Map<string, RecordModel> | Delivery> {
  const found = new Map<string, RecordModel>();
  const byCollection = new Map<CollectionName, string[]>();
  for (const entry of entries) {
    const op = entry.ops[0]!;
    byCollection.set(op.collection, [...(byCollection.get(op.collection) ?? []), op.id]);
  }
  try {
    for (const [collection, ids] of byCollection) {
      const filter = ids.map((id) => pb.filter('id = {:id}', { id })).join(' || ');
      const page = await pb
        .collection(collection)
        .getList(1, ids.length, { filter, skipTotal: true, ...sendOptions() });
      for (const record of page.items) found.set(`${collection}:${record.id}`, record);
    }
    return found;
  } catch (error) {
    // Even a refusal of this check waits: it tells nothing of the entries.
    return unrefusedFailure(error) ?? { kind: 'server-error', error };
  }
}

/** Sends a group of independent creates as one batch (after a delivery check of those sent before). */
export async function deliverGroup(options: GroupOptions, group: OutboxEntry[]): Promise<GroupDelivery> {
  const { pb, db } = options;
  const now = options.now ?? Date.now;
  const result: GroupDelivery = { delivered: [] };
  let toSend = group;
  const sentBefore = group.filter((entry) => entry.sentAt);
  if (sentBefore.length > 0) {
    const earlier = await deliveredOfGroup(pb, sentBefore);
    if (!(earlier instanceof Map)) return { ...result, failure: earlier as GroupDelivery['failure'] };
    toSend = [];
    for (const entry of group) {
      const op = entry.ops[0]!;
      const record = earlier.get(recordKey(op.collection, op.id));
      if (record) result.delivered.push({ entry, records: [{ collection: op.collection, record }] });
      else toSend.push(entry);
    }
  }
  if (toSend.length === 0) return result;
  if (!(await renewLease(db, options.owner))) return { ...result, failure: { kind: 'lost-lease' } };
  // Recorded before the request leaves, as for one entry.
  const sentAt = now();
  await db.outbox
    .where(':id')
    .anyOf(toSend.map((entry) => entry.seq!))
    .modify((entry) => {
      entry.sentAt = sentAt;
      entry.attempts += 1;
    });
  try {
    const confirmed = await sendBatch(
      pb,
      toSend.map((entry) => entry.ops[0]!),
    );
    toSend.forEach((entry, i) => {
      const record = confirmed[i];
      result.delivered.push({ entry, records: record ? [{ collection: entry.ops[0]!.collection, record }] : [] });
    });
    return result;
  } catch (error) {
    // A 5xx of a batch names the request the server failed on: split below like a refusal, so that one goes alone.
    const failure = unrefusedFailure(error);
    if (failure && (failure.kind !== 'server-error' || statusOf(error) === 429)) return { ...result, failure };
    // Refused (4xx), or the server failed on one of them (5xx): nothing of the batch landed.
    const index = failedRequestIndex(error);
    if (index !== null && index > 0 && index < toSend.length) {
      // The ones before the refused one go again together (no delivery check: nothing landed)...
      const before = await deliverGroup(
        options,
        toSend.slice(0, index).map((entry) => ({ ...entry, sentAt: undefined })),
      );
      result.delivered.push(...before.delivered);
      if (before.failure || before.alone) return { ...result, failure: before.failure, alone: before.alone };
      // ...and the refused one alone; those after it make the next batch.
      return { ...result, alone: toSend[index] };
    }
    return { ...result, alone: toSend[0] };
  }
}
