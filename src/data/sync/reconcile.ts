/**
 * Finds records deleted on the server while this device was not listening
 * (realtime delete events only reach a connected client) and removes them
 * locally — never rows that the outbox is still writing.
 *
 * Counts first, ids only where the counts differ: the server's count of a
 * collection (or of an id range of it) against the mirror's. Equal counts
 * right after a pull (the mirror then holds every record the server had)
 * mean nothing was deleted there. Where they differ, the range is cut into
 * 36 by the next character of the id ([a-z0-9], the schema's pattern) and
 * each part counted again, down to ranges small enough to compare their ids.
 * So a sync with no deletions costs one count per collection, and one
 * deletion a few dozen counts and a page of ids, at 5,000 homes as at
 * 20,000 (reading every id was 200 pages at 20,000 homes).
 */
import type { CollectionName } from '../../api/records.ts';
import { removeServerRecords } from '../mirror/mirror.ts';
import { historyRanges, PAGE_SIZE, PULL_CONCURRENCY, RequestSlots, type PullContext } from './pull.ts';
import { historyFilter, isHistory, rangeBounds, type HistoryCollection } from './ranges.ts';

/** In the server's (byte) order. */
const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
/** A range holding at most this many records on the server has its ids compared (at most two pages). */
const COMPARE_IDS_BELOW = 2 * PAGE_SIZE;
/** After 'z': `id < prefix + '~'` ends the ids that start with prefix. */
const AFTER_LAST = '~';

/** The ids of the mirror a reconciliation compares against (all of a collection, or a history's within a time range). */
interface LocalIds {
  count(prefix: string): Promise<number>;
  ids(prefix: string): Promise<string[]>;
}

function tableIds(ctx: PullContext, collection: CollectionName): LocalIds {
  const table = ctx.db.mirror(collection);
  const range = (prefix: string) =>
    prefix ? table.where(':id').between(prefix, prefix + AFTER_LAST, true, false) : table.toCollection();
  return {
    count: (prefix) => range(prefix).count(),
    ids: async (prefix) => (await range(prefix).primaryKeys()) as string[],
  };
}

/** A history's ids within a range of its time (ranges.ts HISTORY_TIME), from the mirror's indexes. */
async function historyIds(
  ctx: PullContext,
  collection: HistoryCollection,
  from: string,
  to: string,
): Promise<string[]> {
  const { db } = ctx;
  if (collection === 'reports')
    return (await db.reports.where('incident_time').between(from, to, true, true).primaryKeys()) as string[];
  const walks = (await db.tour_walks.where('round_start').between(from, to, true, true).primaryKeys()) as string[];
  if (collection === 'tour_walks') return walks;
  // A scan's time is its walk's round start. One keyed read per walk: a cursor (anyOf) is refused while the first load's pages are not yet rows (pagedTable.ts).
  const lists = await Promise.all(walks.map((walk) => db.checkpoint_scans.where('walk').equals(walk).primaryKeys()));
  return lists.flat() as string[];
}

/** A history's ids within a range: read once, then counted in memory. */
function rangeIds(ctx: PullContext, collection: HistoryCollection, from: string, to: string): LocalIds {
  let all: Promise<string[]> | null = null;
  const inRange = async (prefix: string) => {
    all ??= historyIds(ctx, collection, from, to);
    return (await all).filter((id) => id.startsWith(prefix));
  };
  return { count: async (prefix) => (await inRange(prefix)).length, ids: inRange };
}

const and = (...filters: string[]) =>
  filters
    .filter(Boolean)
    .map((f) => `(${f})`)
    .join(' && ');

/** Finds the ids to remove under `prefix`; returns them. */
async function differences(
  ctx: PullContext,
  slots: RequestSlots,
  collection: CollectionName,
  filter: string,
  local: LocalIds,
  prefix: string,
): Promise<string[]> {
  const service = ctx.pb.collection(collection);
  const scoped = and(
    filter,
    prefix ? ctx.pb.filter('id >= {:from} && id < {:to}', { from: prefix, to: prefix + AFTER_LAST }) : '',
  );
  const [remote, mine] = await Promise.all([
    slots
      .run(() => service.getList(1, 1, { filter: scoped, fields: 'id', requestKey: null }))
      .then((p) => p.totalItems),
    local.count(prefix),
  ]);
  if (remote === mine) return [];
  if (remote < COMPARE_IDS_BELOW || prefix.length >= 3) {
    const server = new Set<string>();
    let after = '';
    for (;;) {
      const page = await slots.run(() =>
        service.getList(1, PAGE_SIZE, {
          filter: and(scoped, after ? ctx.pb.filter('id > {:id}', { id: after }) : ''),
          sort: 'id',
          fields: 'id',
          skipTotal: true,
          requestKey: null,
        }),
      );
      for (const item of page.items) server.add(item.id);
      if (page.items.length < PAGE_SIZE) break;
      after = page.items[page.items.length - 1]!.id;
    }
    return (await local.ids(prefix)).filter((id) => !server.has(id));
  }
  const parts = await Promise.all(
    [...ID_ALPHABET].map((c) => differences(ctx, slots, collection, filter, local, prefix + c)),
  );
  return parts.flat();
}

/** Reconciles one collection; returns how many local rows were removed. */
export async function reconcileCollection(ctx: PullContext, collection: CollectionName): Promise<number> {
  const slots = new RequestSlots(PULL_CONCURRENCY);
  if (!isHistory(collection)) {
    return removeServerRecords(
      ctx.db,
      collection,
      await differences(ctx, slots, collection, '', tableIds(ctx, collection), ''),
    );
  }
  // A history: only within the ranges the mirror holds in full.
  let removed = 0;
  for (const range of await historyRanges(ctx.db, collection)) {
    // The same ends as the server's filter: an open end is the year 9999, not JavaScript's last date,
    // whose text ('+275760-…') sorts before every real date and so held no record.
    const { from, to } = rangeBounds(range);
    // A collection loaded whole before it was a history (pull.ts historyRanges) is compared whole.
    const whole = range.from <= 0 && range.to >= Number.MAX_SAFE_INTEGER;
    const local = whole ? tableIds(ctx, collection) : rangeIds(ctx, collection, from, to);
    removed += await removeServerRecords(
      ctx.db,
      collection,
      await differences(ctx, slots, collection, historyFilter(ctx.pb, collection, range), local, ''),
    );
  }
  return removed;
}

export async function reconcileAll(ctx: PullContext, collections: readonly CollectionName[]): Promise<number> {
  let removed = 0;
  for (const collection of collections) removed += await reconcileCollection(ctx, collection);
  return removed;
}
