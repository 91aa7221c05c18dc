/**
 * Pulls the community's records into the mirror: the first time in full,
 * then only what changed since the newest `updated` seen.
 *
 * First load (no cursor yet): one small request per collection gives the
 * total (for the progress the screens show) and the newest (updated, id),
 * which becomes the cursor; then the id space is cut into ranges read side
 * by side (browsers keep six connections per host), each range by keyset on
 * `id`, so a record created or deleted meanwhile never shifts another out of
 * a page (as page numbers would). Whatever changes during the load has an
 * `updated` past the cursor and comes with the next incremental pull.
 *
 * Incremental pulls read by keyset (updated, id) with `updated >= cursor` as
 * a plain range, so the server walks its (community, updated) index from the
 * cursor instead of every record of the community: their cost follows the
 * changes, not the size of the community.
 *
 * A first load's pages of the large collections (homes, residents, phones,
 * calls and their attempts, home history, reports) come from the route made
 * for it (firstLoadPages.ts): the same records, as one compact JSON text per
 * page, compressed. The small collections, the head requests and every
 * incremental pull use the records API; so does a load from a server
 * without that route. Records API pages ask for whole records, not
 * `fields=`: PocketBase's field picker about doubled the server's time per
 * page when measured. The head requests and the reconciliation, which need
 * ids only, do ask for `fields`. Pages are written in large bulkPut
 * transactions.
 *
 * Reports are the one collection that grows without bound: the first load
 * takes the current and the previous month; older months are pulled when
 * the list asks for them (ensureReportRange), with progress too.
 */
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import { startOfMonth, subMonths } from 'date-fns';
import { MIRRORED_COLLECTIONS, type CollectionName } from '../../api/records.ts';
import { pbDate } from '../../domain/pbDate.ts';
import { getSyncState, setSyncState, type ScmsDatabase } from '../mirror/db.ts';
import { applyServerRecords } from '../mirror/mirror.ts';
import {
  FIRST_LOAD_PAGE_SIZE,
  FIRST_LOAD_PAGED,
  firstLoadPagesUnavailable,
  incidentBounds,
  readFirstLoadHead,
  readFirstLoadPage,
  type LoadHead,
} from './firstLoadPages.ts';
import { addRange, missingRanges, type TimeRange } from './ranges.ts';
import { hasTopOfHomes, loadTopOfHomes } from './topOfHomes.ts';

/** Lists are read in batches of 500. */
export const PAGE_SIZE = 500;
/** Requests in flight at once: what a browser opens to one host over HTTP/1.1. */
export const PULL_CONCURRENCY = 6;
/** Records per IndexedDB transaction during a load: fewer, larger commits (and fewer live-query reruns), started early enough to overlap the reads. */
export const WRITE_BATCH = 1_000;

export interface Cursor {
  updated: string;
  id: string;
}

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

const cursorKey = (collection: CollectionName) => `cursor:${collection}`;
export const REPORT_RANGES_KEY = 'reports:ranges';
export const LAST_SYNC_KEY = 'lastSyncAt';

// pbDate lives in domain/ (pure, shared with the seed); re-exported for the
// modules that still import it from here.
export { pbDate };

/** First in, first served: at most `size` requests at once, started in the order they were asked for. */
export class RequestSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next in line (active stays the same).
      if (next) next();
      else this.active--;
    }
  }
}

const and = (...filters: string[]) =>
  filters
    .filter(Boolean)
    .map((f) => `(${f})`)
    .join(' && ');

/** Writes a collection's pages in transactions of WRITE_BATCH records, one after another, while the reads go on. */
class MirrorWriter {
  private buffer: RecordModel[] = [];
  private chain: Promise<void> = Promise.resolve();
  private failed: unknown = null;
  written = 0;

  constructor(
    private readonly db: ScmsDatabase,
    private readonly collection: CollectionName,
    /** A first load: no newer copy to keep (applyServerRecords). */
    private readonly firstLoad: boolean,
    private readonly onWritten: (written: number) => void,
  ) {}

  add(items: RecordModel[]): Promise<void> {
    this.buffer.push(...items);
    if (this.buffer.length < WRITE_BATCH) return Promise.resolve();
    return this.flush();
  }

  /** Queues what is buffered; the returned promise lets a reader wait when writes fall behind. */
  flush(): Promise<void> {
    if (this.buffer.length === 0) return this.chain;
    const rows = this.buffer;
    this.buffer = [];
    this.chain = this.chain.then(async () => {
      if (this.failed) return;
      try {
        await applyServerRecords(this.db, this.collection, rows, { firstLoad: this.firstLoad });
        this.written += rows.length;
        this.onWritten(this.written);
      } catch (error) {
        this.failed = error;
      }
    });
    return this.chain;
  }

  async done(): Promise<void> {
    await this.flush();
    if (this.failed) throw this.failed;
  }
}

/** The id ranges a first load reads side by side: about one page each. Ids are [a-z0-9] (the schema's pattern). */
export function idRanges(total: number, pageSize = PAGE_SIZE): Array<{ from: string; to: string }> {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'; // in the server's (byte) order
  const parts = Math.min(alphabet.length ** 2, Math.max(1, Math.ceil(total / (pageSize * 0.8))));
  const bound = (k: number) => {
    const n = Math.floor((k * alphabet.length ** 2) / parts);
    return alphabet[Math.floor(n / alphabet.length)]! + alphabet[n % alphabet.length]!;
  };
  // Open ends ('' and '~', after 'z'): every id falls in exactly one range.
  return Array.from({ length: parts }, (_, k) => ({
    from: k === 0 ? '' : bound(k),
    to: k === parts - 1 ? '~' : bound(k + 1),
  }));
}

/** Which records a load reads: all of the collection's, or (reports) those with an incident time in any of the ranges. */
type LoadScope = { incident: readonly TimeRange[] } | null;

/** The records API filter of a scope. */
function scopeFilter(pb: PocketBase, scope: LoadScope): string {
  if (!scope) return '';
  return scope.incident.map((range) => `(${incidentFilter(pb, range)})`).join(' || ');
}

/**
 * Reads every record of the scope into the mirror, the id ranges side by
 * side; returns the snapshot cursor (the newest record when the load
 * began) and how many records arrived.
 */
async function loadAll(
  ctx: PullContext,
  slots: RequestSlots,
  collection: CollectionName,
  scope: LoadScope,
  firstLoad: boolean,
): Promise<{ snapshot: Cursor | undefined; count: number }> {
  ctx.onProgress?.(collection, { loaded: 0, total: null });
  try {
    return await loadRanges(ctx, slots, collection, scope, firstLoad);
  } finally {
    ctx.onProgress?.(collection, null);
  }
}

/**
 * Reads a load's head and the pages of its id ranges: from the first-load
 * route (firstLoadPages.ts) while the server serves the collection there,
 * else from the records API. Both read by keyset on id, so a load can
 * change from one to the other between pages.
 */
class PageReader {
  private firstLoadRoute: boolean;

  constructor(
    private readonly ctx: PullContext,
    private readonly collection: CollectionName,
    private readonly scope: LoadScope,
  ) {
    this.firstLoadRoute = FIRST_LOAD_PAGED.has(collection);
  }

  /** Records per page of the route the load starts on (the ranges are cut to about one page each). */
  get pageSize(): number {
    return this.firstLoadRoute ? FIRST_LOAD_PAGE_SIZE : PAGE_SIZE;
  }

  /** How many records the load brings and the newest of them. */
  async head(): Promise<LoadHead> {
    if (this.firstLoadRoute) {
      try {
        return await readFirstLoadHead(this.ctx.pb, this.collection, this.scope?.incident);
      } catch (error) {
        if (!firstLoadPagesUnavailable(error)) throw error;
        this.firstLoadRoute = false;
      }
    }
    const head = await this.ctx.pb.collection(this.collection).getList(1, 1, {
      filter: scopeFilter(this.ctx.pb, this.scope),
      sort: '-updated,-id',
      fields: 'id,updated',
      requestKey: null,
    });
    const newest = head.items[0];
    return { total: head.totalItems, newest: newest ? { updated: newest.updated as string, id: newest.id } : null };
  }

  /** A page of the range [from, to) after `after`; `full` says whether more may follow. */
  async read(range: { from: string; to: string }, after: string): Promise<{ items: RecordModel[]; full: boolean }> {
    if (this.firstLoadRoute) {
      try {
        const items = await readFirstLoadPage(this.ctx.pb, {
          collection: this.collection,
          from: range.from,
          after: after === range.from ? '' : after,
          to: range.to,
          incident: this.scope?.incident,
        });
        return { items, full: items.length >= FIRST_LOAD_PAGE_SIZE };
      } catch (error) {
        if (!firstLoadPagesUnavailable(error)) throw error;
        this.firstLoadRoute = false;
      }
    }
    const lower = after !== range.from ? 'id > {:after}' : range.from ? 'id >= {:after}' : '';
    const idFilter = this.ctx.pb.filter(and(lower, 'id < {:to}'), { after, to: range.to });
    const page = await this.ctx.pb.collection(this.collection).getList(1, PAGE_SIZE, {
      filter: and(scopeFilter(this.ctx.pb, this.scope), idFilter),
      sort: 'id',
      skipTotal: true,
      requestKey: null,
    });
    return { items: page.items, full: page.items.length >= PAGE_SIZE };
  }
}

async function loadRanges(
  ctx: PullContext,
  slots: RequestSlots,
  collection: CollectionName,
  scope: LoadScope,
  firstLoad: boolean,
): Promise<{ snapshot: Cursor | undefined; count: number }> {
  const reader = new PageReader(ctx, collection, scope);
  const { total, newest } = await slots.run(() => reader.head());
  ctx.onProgress?.(collection, { loaded: 0, total });
  let received = 0;
  const writer = new MirrorWriter(ctx.db, collection, firstLoad, (written) =>
    ctx.onProgress?.(collection, { loaded: written, total: Math.max(total, received) }),
  );
  if (total > 0) {
    await Promise.all(
      idRanges(total, reader.pageSize).map(async (range) => {
        let after = range.from;
        for (;;) {
          const page = await slots.run(() => reader.read(range, after));
          received += page.items.length;
          // Waits only when the writes fall a transaction behind.
          if (page.items.length > 0) await writer.add(page.items);
          if (!page.full) return;
          after = page.items[page.items.length - 1]!.id;
        }
      }),
    );
  }
  await writer.done();
  return { snapshot: newest ?? undefined, count: received };
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
    // `updated >= u` on its own lets the server range-scan its (community, updated) index; the rest only breaks ties.
    const after = last.updated
      ? ctx.pb.filter('updated >= {:u} && (updated > {:u} || id > {:id})', { u: last.updated, id: last.id })
      : '';
    const page = await slots.run(() =>
      ctx.pb
        .collection(collection)
        .getList(1, PAGE_SIZE, { filter: after, sort: 'updated,id', skipTotal: true, requestKey: null }),
    );
    if (page.items.length > 0) {
      await onPage(page.items);
      const tail = page.items[page.items.length - 1]!;
      last = { updated: tail.updated as string, id: tail.id };
    }
    if (page.items.length < PAGE_SIZE) return last;
  }
}

const firstReportMonth = (ctx: PullContext) => startOfMonth(subMonths((ctx.now ?? (() => new Date()))(), 1));

async function pullWith(ctx: PullContext, slots: RequestSlots, collection: CollectionName): Promise<number> {
  const cursor = await getSyncState<Cursor>(ctx.db, cursorKey(collection));
  if (cursor) {
    let count = 0;
    const next = await readAfter(ctx, slots, collection, cursor, async (items) => {
      count += items.length;
      await applyServerRecords(ctx.db, collection, items);
    });
    await setSyncState(ctx.db, cursorKey(collection), next);
    return count;
  }
  // Reports: this month and the last, up to "forever" (newer reports arrive through the cursor).
  const reportRange =
    collection === 'reports' ? { from: firstReportMonth(ctx).getTime(), to: Number.MAX_SAFE_INTEGER } : null;
  const { snapshot, count } = await loadAll(ctx, slots, collection, reportRange && { incident: [reportRange] }, true);
  if (reportRange) await addReportRange(ctx.db, reportRange);
  await setSyncState(ctx.db, cursorKey(collection), snapshot ?? { updated: '', id: '' });
  return count;
}

/** First load or incremental pull of one collection; returns how many records arrived. */
export async function pullCollection(ctx: PullContext, collection: CollectionName): Promise<number> {
  return pullWith(ctx, new RequestSlots(PULL_CONCURRENCY), collection);
}

/** Collections whose first load has not finished (no cursor yet). */
export async function collectionsToLoad(db: ScmsDatabase): Promise<CollectionName[]> {
  const cursors = await db.syncState.bulkGet(PULL_ORDER.map(cursorKey));
  return PULL_ORDER.filter((_, i) => cursors[i] === undefined);
}

/**
 * What the Homes screen shows, PULL_ORDER up to the phones (the community,
 * its staff and concerns, the homes, their residents and phones): on a new
 * phone these are loaded before the other collections start. The network is not what a first load
 * waits for, the phone's own writes are (docs/performance.md, "Where a new
 * phone's first wait goes"): loaded side by side with the calls and the
 * reports, the homes' writes queued behind theirs, and the first card came
 * at 4.4–5.0 s at 5,000 homes and 15–17 s at 20,000; homes first, at 3.2 s
 * and 10.0 s, with the whole sync no longer.
 */
export const HOMES_FIRST: readonly CollectionName[] = PULL_ORDER.slice(0, PULL_ORDER.indexOf('phones') + 1);

/**
 * Pulls every collection, side by side; returns the number of records per
 * collection. Before a first load of the homes, the top of the Homes list
 * comes on its own (topOfHomes.ts). While one of HOMES_FIRST has its first
 * load ahead, those go first and the others after them; an incremental
 * pull asks for all at once.
 */
export async function pullAll(ctx: PullContext): Promise<Record<string, number>> {
  const slots = new RequestSlots(PULL_CONCURRENCY);
  const toLoad = await collectionsToLoad(ctx.db);
  if (toLoad.includes('houses') && !(await hasTopOfHomes(ctx.db))) await loadTopOfHomes(ctx, slots);
  const waves = HOMES_FIRST.some((c) => toLoad.includes(c))
    ? [HOMES_FIRST, PULL_ORDER.filter((c) => !HOMES_FIRST.includes(c))]
    : [PULL_ORDER];
  const counts: Record<string, number> = {};
  for (const wave of waves) {
    const pulled = await Promise.all(wave.map((collection) => pullWith(ctx, slots, collection)));
    wave.forEach((collection, i) => (counts[collection] = pulled[i]!));
  }
  await setSyncState(ctx.db, LAST_SYNC_KEY, Date.now());
  return counts;
}

export async function reportRanges(db: ScmsDatabase): Promise<TimeRange[]> {
  return (await getSyncState<TimeRange[]>(db, REPORT_RANGES_KEY)) ?? [];
}

async function addReportRange(db: ScmsDatabase, range: TimeRange): Promise<void> {
  await db.transaction('rw', db.syncState, async () =>
    setSyncState(db, REPORT_RANGES_KEY, addRange(await reportRanges(db), range)),
  );
}

/** The server filter of the reports with an incident time in a range. */
export function incidentFilter(pb: PocketBase, range: TimeRange): string {
  return pb.filter('incident_time >= {:from} && incident_time <= {:to}', incidentBounds(range));
}

/**
 * Makes sure the mirror holds every report with an incident time in
 * [from, to]; pulls the missing parts from the server (with progress).
 * Returns how many reports were pulled (0 when the mirror already covered
 * the range).
 */
export async function ensureReportRange(ctx: PullContext, from: Date, to: Date): Promise<number> {
  const missing = missingRanges(await reportRanges(ctx.db), { from: from.getTime(), to: to.getTime() });
  if (missing.length === 0) return 0;
  const slots = new RequestSlots(PULL_CONCURRENCY);
  // One load over the parts together (any of their ranges): one total for the progress.
  const { count } = await loadAll(ctx, slots, 'reports', { incident: missing }, false);
  for (const range of missing) await addReportRange(ctx.db, range);
  return count;
}
