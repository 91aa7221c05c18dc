/**
 * Pulls the community's records into the mirror: the first time in full
 * (a load, load.ts), then only what changed since the newest `updated` seen.
 *
 * Incremental pulls read the records API by keyset (updated, id) with
 * `updated >= cursor` as a plain range, so the server walks its
 * (community, updated) index from the cursor instead of every record of
 * the community: their cost follows the changes, not the size of the
 * community. Whole records are asked for, not `fields=`: PocketBase's field
 * picker about doubled the server's time per page when measured. The
 * collections scoped by their own community field are asked in one request
 * (changes.ts), the same filter per collection on the server's side.
 *
 * Histories (reports, the tours' walks and scans: ranges.ts) grow without
 * bound: the first load takes their recent part; older parts are pulled
 * when a screen asks for them (load.ts, ensureHistoryRange), with progress too.
 */
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import { MIRRORED_COLLECTIONS, type CollectionName } from '../../api/records.ts';
import { pbDate } from '../../domain/pbDate.ts';
import type { PullCursor } from '../../domain/changesRequest.ts';
import { ANSWERED_AT_ONCE, CURSOR_FILTER } from '../../domain/pullFilter.ts';
import { getSyncState, setSyncState, type ScmsDatabase } from '../mirror/db.ts';
import { applyServerRecords } from '../mirror/mirror.ts';
import { firstLoadRange, isHistory, type HistoryCollection, type TimeRange } from './ranges.ts';
import { hasTopOfHomes, loadTopOfHomes } from './topOfHomes.ts';

/**
 * Loads (a first load of a collection, older reports) are a module of their
 * own, loaded when one starts: a phone whose mirror is filled only ever
 * pulls changes, so its start does not carry them.
 */
const loads = (): Promise<typeof import('./load.ts')> => import('./load.ts');
/** So is the changes route's side (changes.ts): the Homes screen shows before a pull needs it. */
const changes = (): Promise<typeof import('./changes.ts')> => import('./changes.ts');

/** Lists are read in batches of 500. */
export const PAGE_SIZE = 500;
/** Requests in flight at once: what a browser opens to one host over HTTP/1.1. */
export const PULL_CONCURRENCY = 6;

/** A collection's cursor (src/domain/changesRequest.ts, where the changes route's request checks it). */
export type Cursor = PullCursor;

/** How far a load of one collection has come; `total` is null until the server said it. */
export interface LoadProgress {
  loaded: number;
  total: number | null;
}

export interface PullContext {
  pb: PocketBase;
  db: ScmsDatabase;
  now?: () => Date;
  /** A load (first load or older reports) moved on; null when it ended. */
  onProgress?: (collection: CollectionName, progress: LoadProgress | null) => void;
  /** The top of the Homes list is in the mirror (topOfHomes.ts), ahead of the rest of a first load (the Homes screen reads it from there). */
  onTopOfHomes?: () => void;
}

/**
 * Collections in pull order (MIRRORED_COLLECTIONS, parents before
 * children). Requests of all of them share the PULL_CONCURRENCY slots in
 * this order.
 */
export const PULL_ORDER: readonly CollectionName[] = MIRRORED_COLLECTIONS;

export const cursorKey = (collection: CollectionName) => `cursor:${collection}`;
/** Where the ranges of a history the mirror holds are kept ('reports:ranges', …). */
export const historyRangesKey = (collection: HistoryCollection) => `${collection}:ranges`;
export const LAST_SYNC_KEY = 'lastSyncAt';

// pbDate lives in domain/ (pure, shared with the seed); re-exported for the
// modules that still import it from here.
export { pbDate };

/**
 * At most `size` requests at once, started in the order they were asked
 * for, except that those of a `givingWay()` view wait behind every other.
 */
export class RequestSlots {
  private readonly pool: { active: number; first: Array<() => void>; after: Array<() => void> };

  constructor(
    private readonly size: number,
    private readonly givesWay = false,
    pool?: RequestSlots['pool'],
  ) {
    this.pool = pool ?? { active: 0, first: [], after: [] };
  }

  /**
   * The same slots, for requests that give way: a free slot goes to them
   * only when no request of the others waits (a first load's collections
   * beyond the homes, read side by side with them and never ahead).
   */
  givingWay(): RequestSlots {
    return new RequestSlots(this.size, true, this.pool);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const pool = this.pool;
    if (pool.active >= this.size)
      await new Promise<void>((resolve) => (this.givesWay ? pool.after : pool.first).push(resolve));
    else pool.active++;
    try {
      return await work();
    } finally {
      const next = pool.first.shift() ?? pool.after.shift();
      // The slot passes straight to the next in line (active stays the same).
      if (next) next();
      else pool.active--;
    }
  }
}

/** Reads every record changed after `cursor`, page by page; returns the new cursor. */
async function readAfter(
  ctx: PullContext,
  slots: RequestSlots,
  collection: CollectionName,
  cursor: Cursor,
  onPage: (items: RecordModel[]) => Promise<void>,
): Promise<Cursor> {
  let last = cursor;
  for (;;) {
    const after = last.updated ? ctx.pb.filter(CURSOR_FILTER, { u: last.updated, id: last.id }) : '';
    const page = await slots.run(() =>
      ctx.pb
        .collection(collection)
        .getList(1, PAGE_SIZE, { filter: after, sort: 'updated,id', skipTotal: true, requestKey: null }),
    );
    if (page.items.length > 0) {
      await onPage(page.items);
      last = cursorAfter(page.items, last);
    }
    if (page.items.length < PAGE_SIZE) return last;
  }
}

export const sameCursor = (a: Cursor, b: Cursor) => a.updated === b.updated && a.id === b.id;

/** The cursor after a page of changes in (updated, id) order. */
export const cursorAfter = (items: readonly RecordModel[], cursor: Cursor): Cursor => {
  const tail = items[items.length - 1];
  return tail ? { updated: tail.updated as string, id: tail.id } : cursor;
};

export async function pullWith(ctx: PullContext, slots: RequestSlots, collection: CollectionName): Promise<number> {
  const cursor = await getSyncState<Cursor>(ctx.db, cursorKey(collection));
  if (cursor) {
    let count = 0;
    const next = await readAfter(ctx, slots, collection, cursor, async (items) => {
      count += items.length;
      await applyServerRecords(ctx.db, collection, items);
    });
    if (!sameCursor(next, cursor)) await setSyncState(ctx.db, cursorKey(collection), next);
    return count;
  }
  // A history: its recent part (ranges.ts).
  const range = isHistory(collection) ? firstLoadRange(collection, (ctx.now ?? (() => new Date()))()) : null;
  const { loadAll, addHistoryRange } = await loads();
  const { snapshot, count } = await loadAll(ctx, slots, collection, range && { time: [range] }, true);
  if (range) await addHistoryRange(ctx.db, collection as HistoryCollection, range);
  await setSyncState(ctx.db, cursorKey(collection), snapshot ?? { updated: '', id: '' });
  return count;
}

/** First load or incremental pull of one collection; returns how many records arrived. */
export async function pullCollection(ctx: PullContext, collection: CollectionName): Promise<number> {
  return pullWith(ctx, new RequestSlots(PULL_CONCURRENCY), collection);
}

/** Each collection's cursor; none for a collection whose first load has not finished. */
async function cursorsOf(db: ScmsDatabase): Promise<Map<CollectionName, Cursor>> {
  const rows = await db.syncState.bulkGet(PULL_ORDER.map(cursorKey));
  const cursors = new Map<CollectionName, Cursor>();
  PULL_ORDER.forEach((collection, i) => {
    if (rows[i]) cursors.set(collection, rows[i].value as Cursor);
  });
  return cursors;
}

/** Collections whose first load has not finished (no cursor yet). */
export async function collectionsToLoad(db: ScmsDatabase): Promise<CollectionName[]> {
  const cursors = await cursorsOf(db);
  return PULL_ORDER.filter((collection) => !cursors.has(collection));
}

/**
 * What the Homes screen shows, PULL_ORDER up to the phones (the community,
 * its staff and concerns, the homes, their residents and phones): on a new
 * phone the other collections' requests give way to these. Once the rows
 * were written one by one, the homes waited behind the calls' and the
 * reports' writes, and a wave of homes first, then the rest, was quicker
 * (docs/performance.md, "Where a new phone's first wait goes"). Stored as
 * pages, the writes no longer hold anything up; giving way keeps the homes
 * first and the connections busy: at 5,000 homes the whole first sync took
 * 1.7 s side by side and 2.0–2.1 s in two waves.
 */
export const HOMES_FIRST: readonly CollectionName[] = PULL_ORDER.slice(0, PULL_ORDER.indexOf('phones') + 1);

/**
 * Pulls every collection, side by side; returns the number of records per
 * collection. Before a first load of the homes, the top of the Homes list
 * comes on its own (topOfHomes.ts). While one of HOMES_FIRST has its first
 * load ahead, the others' requests give way to theirs (a slot goes to them
 * only when no request of the homes waits), so the homes come first and
 * the connections never stand idle between the two; an incremental pull
 * asks for all alike.
 */
export async function pullAll(ctx: PullContext): Promise<Record<string, number>> {
  const slots = new RequestSlots(PULL_CONCURRENCY);
  const cursors = await cursorsOf(ctx.db);
  const toLoad = PULL_ORDER.filter((collection) => !cursors.has(collection));
  // The loads' code is fetched while the top of the Homes list is read, not after.
  const loading = toLoad.length > 0 ? loads() : null;
  if (toLoad.includes('houses') && !(await hasTopOfHomes(ctx.db))) await loadTopOfHomes(ctx, slots);
  const homesFirst = HOMES_FIRST.some((c) => toLoad.includes(c));
  const behind = homesFirst ? slots.givingWay() : slots;
  // The pages of the loads become rows once the whole pull has ended, not between two of its loads.
  const releaseUnpacking = loading ? (await loading).holdUnpacking(ctx.db) : () => {};
  // Changes of the collections pulled together come in one request; the others' one by one, or their loads.
  const together = new Map([...cursors].filter(([collection]) => ANSWERED_AT_ONCE.includes(collection)));
  const apart = PULL_ORDER.filter((collection) => !together.has(collection));
  let pulled: Map<CollectionName, number>;
  try {
    const [togetherCounts, apartCounts] = await Promise.all([
      together.size > 0
        ? changes().then(({ pullTogether }) => pullTogether(ctx, slots, together))
        : new Map<CollectionName, number>(),
      Promise.all(
        apart.map((collection) => pullWith(ctx, HOMES_FIRST.includes(collection) ? slots : behind, collection)),
      ),
    ]);
    pulled = togetherCounts;
    apart.forEach((collection, i) => pulled.set(collection, apartCounts[i]!));
  } finally {
    releaseUnpacking();
  }
  await setSyncState(ctx.db, LAST_SYNC_KEY, Date.now());
  // For DevTools' timeline and bench:screens: when the pull ended (after a first load, the phone has everything).
  globalThis.performance?.mark?.(PULL_DONE_MARK);
  const counts: Record<string, number> = {};
  for (const collection of PULL_ORDER) counts[collection] = pulled.get(collection) ?? 0;
  return counts;
}

/** The name of the performance mark each pull leaves at its end. */
export const PULL_DONE_MARK = 'scms:pull-done';

/**
 * The ranges of a history the mirror holds in full. A collection loaded
 * whole before it was a history (its cursor without ranges: the tours'
 * walks and scans of an earlier version) holds all of it.
 */
export async function historyRanges(db: ScmsDatabase, collection: HistoryCollection): Promise<TimeRange[]> {
  const [ranges, cursor] = await db.syncState.bulkGet([historyRangesKey(collection), cursorKey(collection)]);
  if (ranges) return ranges.value as TimeRange[];
  return cursor ? [{ from: 0, to: Number.MAX_SAFE_INTEGER }] : [];
}
