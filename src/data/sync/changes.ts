/**
 * A catch-up pull of the collections scoped by their community in one
 * request: the changes route (pocketbase/pb_hooks/lib/changes.js) takes
 * every such collection's cursor and answers the records changed after
 * each, the records API's own records and values. One request instead of
 * one per collection: one round trip on a weak signal instead of four
 * through a browser's six connections, and one answer to parse. Residents
 * and phones stay on the records API (src/domain/pullFilter.ts says why).
 *
 * A collection the route does not serve now (its list rule moved on:
 * `unavailable`), and every collection when the server has no such route
 * (an older server, mid-upgrade) or refuses the request: those are read
 * through the records API, as before the route (pullWith in pull.ts).
 * pull.ts imports this module when a pull first needs it, so that the Homes
 * screen's first paint does not wait for it.
 */
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import type { CollectionName } from '../../api/records.ts';
import { changesQuery } from '../../domain/changesRequest.ts';
import { ANSWERED_AT_ONCE } from '../../domain/pullFilter.ts';
import { applyServerRecords, serverRecordTables } from '../mirror/mirror.ts';
import {
  cursorAfter,
  cursorKey,
  pullWith,
  sameCursor,
  type Cursor,
  type PullContext,
  type RequestSlots,
} from './pull.ts';

/** The collections the changes route answers together. */
export const PULLED_TOGETHER: ReadonlySet<CollectionName> = new Set(ANSWERED_AT_ONCE as readonly CollectionName[]);

/** One collection's part of an answer: its changes in (updated, id) order, and whether more follow; or that the route does not serve it now. */
export type CollectionChanges = { items: RecordModel[]; more: boolean } | { unavailable: true };

/** Statuses that mean "not this way": no route here (404, 405: a server older than it) or a request it does not take (400, a device newer than its server). */
const READ_APART = new Set([400, 404, 405]);

function isCollectionChanges(value: unknown): value is CollectionChanges {
  if (typeof value !== 'object' || value === null) return false;
  const part = value as Record<string, unknown>;
  return part.unavailable === true || (Array.isArray(part.items) && typeof part.more === 'boolean');
}

/**
 * The changes after each cursor, per collection asked; a collection the
 * answer leaves out or garbles counts as unavailable. Null when the server
 * takes no such request: every collection is then read apart.
 */
export async function readChanges(
  pb: PocketBase,
  cursors: ReadonlyMap<CollectionName, Cursor>,
): Promise<Map<CollectionName, CollectionChanges> | null> {
  const query = changesQuery({ cursors: Object.fromEntries(cursors) });
  let body: { changes?: Record<string, unknown> };
  try {
    body = await pb.send('/api/scms/changes', { method: 'GET', query, requestKey: null });
  } catch (err) {
    // The status of the SDK's ClientResponseError, read without importing the SDK as a value: that
    // would split the SDK out of the app's chunk (as in firstLoadPages.ts).
    const status = (err as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && READ_APART.has(status)) return null;
    throw err;
  }
  const answer = new Map<CollectionName, CollectionChanges>();
  for (const collection of cursors.keys()) {
    const part = body?.changes?.[collection];
    answer.set(collection, isCollectionChanges(part) ? part : { unavailable: true });
  }
  return answer;
}

/**
 * The incremental pull of the collections PULLED_TOGETHER:
 * one request for all of them, again for those with more to come, each
 * answer's changes and the cursors that moved written in one transaction. A collection the route does not serve now, or
 * all of them on a server without it, is pulled through the records API.
 */
export async function pullTogether(
  ctx: PullContext,
  slots: RequestSlots,
  cursors: ReadonlyMap<CollectionName, Cursor>,
): Promise<Map<CollectionName, number>> {
  const counts = new Map<CollectionName, number>([...cursors.keys()].map((collection) => [collection, 0]));
  const apart: CollectionName[] = [];
  let asking = new Map(cursors);
  while (asking.size > 0) {
    const answer = await slots.run(() => readChanges(ctx.pb, asking));
    if (!answer) {
      apart.push(...asking.keys());
      break;
    }
    const following = new Map<CollectionName, Cursor>();
    const arrived: Array<{ collection: CollectionName; items: RecordModel[] }> = [];
    const moved: Array<{ key: string; value: Cursor }> = [];
    for (const [collection, cursor] of asking) {
      const changes = answer.get(collection)!;
      if ('unavailable' in changes) {
        apart.push(collection);
        continue;
      }
      if (changes.items.length > 0) arrived.push({ collection, items: changes.items });
      counts.set(collection, counts.get(collection)! + changes.items.length);
      const next = cursorAfter(changes.items, cursor);
      if (!sameCursor(next, cursor)) moved.push({ key: cursorKey(collection), value: next });
      if (changes.more) following.set(collection, next);
    }
    // One transaction for the answer's records and the cursors that moved: one commit instead of one
    // per collection (each 5-10 ms here), and the records never stored without their cursor or after it.
    if (moved.length > 0) {
      const tables = new Set(arrived.flatMap(({ collection }) => serverRecordTables(ctx.db, collection)));
      await ctx.db.transaction('rw', [...tables, ctx.db.syncState], async () => {
        for (const { collection, items } of arrived) await applyServerRecords(ctx.db, collection, items);
        await ctx.db.syncState.bulkPut(moved);
      });
    }
    asking = following;
  }
  const readApart = await Promise.all(apart.map((collection) => pullWith(ctx, slots, collection)));
  apart.forEach((collection, i) => counts.set(collection, readApart[i]!));
  return counts;
}
