/**
 * A load: every record of a collection (a first load), or of a scope
 * (older months of reports), read into the mirror. The head says how many
 * and the newest (the cursor incremental pulls start from); then the id
 * space is cut into ranges read side by side (browsers keep six
 * connections per host), each by keyset on `id`, so a record created or
 * deleted meanwhile never shifts another out of a page (as page numbers
 * would). Whatever changes during the load has an `updated` past the
 * cursor and comes with the next incremental pull (pull.ts).
 *
 * A history (ranges.ts) is loaded by ranges of its time: its recent part
 * on a first load, an older part when a screen asks for it.
 *
 * The large collections come from the route made for loads
 * (firstLoadPages.ts); the others, and every collection of a server
 * without that route, from the records API. Pages are written in large
 * bulkPut transactions while the reads go on.
 *
 * Loaded on its own (pull.ts imports it when a load starts).
 */
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import type { CollectionName } from '../../api/records.ts';
import type { PagedRow } from '../mirror/loadPages.ts';
import { overlayOf, storeLoadPage } from '../mirror/loadPageStore.ts';
import { applyServerRecords, outboxIsEmpty } from '../mirror/mirror.ts';
import { unpackLoadPages } from '../mirror/unpack.ts';
import {
  FIRST_LOAD_PAGE_SIZE,
  FIRST_LOAD_PAGED,
  firstLoadPagesUnavailable,
  readFirstLoadHead,
  readFirstLoadPage,
  type LoadHead,
} from './firstLoadPages.ts';
import { setSyncState, type ScmsDatabase } from '../mirror/db.ts';
import {
  historyRanges,
  historyRangesKey,
  PAGE_SIZE,
  PULL_CONCURRENCY,
  RequestSlots,
  type Cursor,
  type PullContext,
} from './pull.ts';
import {
  addRange,
  historyFilter,
  historySpan,
  isHistory,
  missingRanges,
  type HistoryCollection,
  type TimeRange,
} from './ranges.ts';

/** Records per IndexedDB transaction during a load: fewer, larger commits (and fewer live-query reruns), started early enough to overlap the reads. */
export const WRITE_BATCH = 1_000;

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

/** Which records a load reads: all of the collection's, or (a history) those with a time in any of the ranges. */
export type LoadScope = { time: readonly TimeRange[] } | null;

/** The records API filter of a scope. */
function scopeFilter(pb: PocketBase, collection: CollectionName, scope: LoadScope): string {
  if (!scope) return '';
  if (!isHistory(collection)) throw new Error(`${collection} is not loaded by time.`);
  return scope.time.map((range) => `(${historyFilter(pb, collection, range)})`).join(' || ');
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
        return await readFirstLoadHead(this.ctx.pb, this.collection, this.scope?.time);
      } catch (error) {
        if (!firstLoadPagesUnavailable(error)) throw error;
        this.firstLoadRoute = false;
      }
    }
    const head = await this.ctx.pb.collection(this.collection).getList(1, 1, {
      filter: scopeFilter(this.ctx.pb, this.collection, this.scope),
      sort: '-updated,-id',
      fields: 'id,updated',
      requestKey: null,
    });
    const newest = head.items[0];
    return { total: head.totalItems, newest: newest ? { updated: newest.updated as string, id: newest.id } : null };
  }

  /**
   * A page of the range [from, to) after `after`; `full` says whether more
   * may follow. A page of the route made for loads comes as it was sent too
   * (`text`), for a first load to store as it is.
   */
  async read(
    range: { from: string; to: string },
    after: string,
  ): Promise<{ items: RecordModel[]; full: boolean; text?: string }> {
    if (this.firstLoadRoute) {
      try {
        const { text, records } = await readFirstLoadPage(this.ctx.pb, {
          collection: this.collection,
          from: range.from,
          after: after === range.from ? '' : after,
          to: range.to,
          time: this.scope?.time,
        });
        return { items: records, full: records.length >= FIRST_LOAD_PAGE_SIZE, text };
      } catch (error) {
        if (!firstLoadPagesUnavailable(error)) throw error;
        this.firstLoadRoute = false;
      }
    }
    const lower = after !== range.from ? 'id > {:after}' : range.from ? 'id >= {:after}' : '';
    const idFilter = this.ctx.pb.filter(and(lower, 'id < {:to}'), { after, to: range.to });
    const page = await this.ctx.pb.collection(this.collection).getList(1, PAGE_SIZE, {
      filter: and(scopeFilter(this.ctx.pb, this.collection, this.scope), idFilter),
      sort: 'id',
      skipTotal: true,
      requestKey: null,
    });
    return { items: page.items, full: page.items.length >= PAGE_SIZE };
  }
}

/**
 * Reads every record of the scope into the mirror, the id ranges side by
 * side; returns the snapshot cursor (the newest record when the load
 * began) and how many records arrived. Says how far it is all along, and
 * that it ended (null) however it ended.
 */
export async function loadAll(
  ctx: PullContext,
  slots: RequestSlots,
  collection: CollectionName,
  scope: LoadScope,
  firstLoad: boolean,
): Promise<{ snapshot: Cursor | undefined; count: number }> {
  ctx.onProgress?.(collection, { loaded: 0, total: null });
  try {
    const reader = new PageReader(ctx, collection, scope);
    const { total, newest } = await slots.run(() => reader.head());
    ctx.onProgress?.(collection, { loaded: 0, total });
    let received = 0;
    let stored = 0;
    const progress = (written: number) =>
      ctx.onProgress?.(collection, { loaded: written + stored, total: Math.max(total, received) });
    const writer = new MirrorWriter(ctx.db, collection, firstLoad, progress);
    // A first load with nothing queued stores the route's pages as they came (loadPages.ts);
    // with work queued, the records are written as rows with the outbox's changes on top.
    const storePages = firstLoad && (await outboxIsEmpty(ctx.db));
    const overlay = overlayOf(ctx.db);
    if (total > 0) {
      overlay.activeLoads++;
      try {
        await Promise.all(
          idRanges(total, reader.pageSize).map(async (range) => {
            let after = range.from;
            for (;;) {
              const page = await slots.run(() => reader.read(range, after));
              received += page.items.length;
              if (storePages && page.text !== undefined && page.items.length > 0) {
                const key = `${collection}:${range.from}:${after}`;
                await storeLoadPage(ctx.db, { key, collection, text: page.text }, page.items as unknown as PagedRow[]);
                stored += page.items.length;
                progress(writer.written);
              }
              // Waits only when the writes fall a transaction behind.
              else if (page.items.length > 0) await writer.add(page.items);
              if (!page.full) return;
              after = page.items[page.items.length - 1]!.id;
            }
          }),
        );
      } finally {
        overlay.activeLoads--;
      }
    }
    await writer.done();
    if (stored > 0) void unpackLoadPages(ctx.db);
    return { snapshot: newest ?? undefined, count: received };
  } finally {
    ctx.onProgress?.(collection, null);
  }
}

/**
 * Keeps the unpacking of pages (unpack.ts) waiting until the returned
 * function is called: a first pull holds it from its start to its end.
 * Between two collections' loads no load is active for a moment, and the
 * unpacker took that moment to write thousands of rows while the rest of
 * the first sync still waited for the main thread.
 */
export function holdUnpacking(db: ScmsDatabase): () => void {
  const overlay = overlayOf(db);
  overlay.activeLoads++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    overlay.activeLoads--;
  };
}

/** Records that the mirror holds a history's records of `range` in full. */
export async function addHistoryRange(
  db: ScmsDatabase,
  collection: HistoryCollection,
  range: TimeRange,
): Promise<void> {
  await db.transaction('rw', db.syncState, async () =>
    setSyncState(db, historyRangesKey(collection), addRange(await historyRanges(db, collection), range)),
  );
}

/**
 * Makes sure the mirror holds every record of the histories with a time in
 * [from, to] (each collection's own span of it, ranges.ts historySpan);
 * pulls the missing parts from the server, with progress. Returns how many
 * records were pulled (0 when the mirror already covered the range).
 */
export async function ensureHistoryRange(
  ctx: PullContext,
  collections: readonly HistoryCollection[],
  period: TimeRange,
): Promise<number> {
  const slots = new RequestSlots(PULL_CONCURRENCY);
  const counts = await Promise.all(
    collections.map(async (collection) => {
      const missing = missingRanges(await historyRanges(ctx.db, collection), historySpan(collection, period));
      if (missing.length === 0) return 0;
      // One load over the parts together (any of their ranges): one total for the progress.
      const { count } = await loadAll(ctx, slots, collection, { time: missing }, false);
      for (const range of missing) await addHistoryRange(ctx.db, collection, range);
      return count;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}
