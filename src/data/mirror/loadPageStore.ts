/**
 * The stored side of a first load's pages (loadPages.ts): writing a page
 * as one row, bringing the pages back into memory when the database opens
 * (a reload while some are left), and taking deleted records out of them.
 * The unpacking into the tables is unpack.ts.
 */
import Dexie, { RangeSet, type Table } from 'dexie';
import type { RecordModel } from 'pocketbase';
import type { MirrorRow, OutboxEntry, ScmsDatabase } from './db.ts';
import { latestCallRows } from './latestCalls.ts';
import { LoadPagesOverlay, pageBody, pageRecords, type LoadPageRow, type PagedRow } from './loadPages.ts';
import { applyServerRecords } from './mirror.ts';

/** What the pages need of the database: its tables by name (the app's ScmsDatabase, or Dexie's stand-in for it while it opens). */
interface PagedDatabase {
  name: string;
  table(name: string): Table;
  transaction: Dexie['transaction'];
}

/** The database's overlay, made on first use. */
export function overlayOf(db: ScmsDatabase): LoadPagesOverlay {
  db.pages ??= new LoadPagesOverlay(pageForgetter(db));
  return db.pages;
}

/**
 * Tells this window's readers of the mirror (useMirrorQuery, the search
 * index) that these records of a table appeared, as a write would.
 *
 * Only this window: the pages live in its memory, so another tab would look
 * the records up in its tables and not find them. Dexie posts every
 * `storagemutated` event to the other tabs (structured-cloning a first
 * load's keys cost a tenth of a second at 20,000 homes) unless the event
 * comes in as its DOM event, which it passes to this window's subscribers
 * alone.
 */
function announce(db: PagedDatabase, table: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  const parts = { [`idb://${db.name}/${table}/`]: keySet([...ids].sort()) };
  if (typeof globalThis.dispatchEvent === 'function' && typeof CustomEvent === 'function')
    globalThis.dispatchEvent(new CustomEvent(DEXIE_LOCAL_MUTATION_EVENT, { detail: parts }));
  else (Dexie.on.storagemutated as unknown as { fire(parts: Record<string, RangeSet>): void }).fire(parts);
}

/** The DOM event Dexie 4 listens to and hands to the window's own `storagemutated` subscribers, without posting it on. */
const DEXIE_LOCAL_MUTATION_EVENT = 'x-storagemutated-1';

/**
 * Dexie's set of single keys (a balanced tree of ranges whose ends are the
 * keys) built straight from sorted keys: RangeSet.addKeys compares its way
 * in key by key, a quarter of a second per page of 2,000.
 */
function keySet(sorted: readonly string[]): RangeSet {
  type Node = { from: string; to: string; d: number; l?: Node; r?: Node };
  const build = (low: number, high: number): Node | undefined => {
    if (low > high) return undefined;
    const mid = (low + high) >> 1;
    const l = build(low, mid - 1);
    const r = build(mid + 1, high);
    return { from: sorted[mid]!, to: sorted[mid]!, d: Math.max(l?.d ?? 0, r?.d ?? 0) + 1, l, r };
  };
  return Object.assign(new RangeSet(), build(0, sorted.length - 1));
}

/**
 * Stores one page of a first load as one row and puts its records in the
 * overlay, leaving out those the table already holds (written meanwhile by
 * a realtime event or the top of the Homes list). Such a row can be older
 * than the page (the top of the Homes list was read, then the home changed,
 * then its page was read): the page's copy then goes to the table as a pull
 * writes it, newer wins. Left out, the change would be lost for good: the
 * load's cursor is already past it.
 */
export async function storeLoadPage(db: ScmsDatabase, page: LoadPageRow, records: readonly PagedRow[]): Promise<void> {
  if (records.length === 0) return;
  const overlay = overlayOf(db);
  const table = db.table(page.collection);
  const calls = page.collection === 'calls';
  let added: PagedRow[] = [];
  let held: PagedRow[] = [];
  let latest: PagedRow[] = [];
  const tables = [db.table('load_pages'), table, ...(calls ? [db.table('latest_calls')] : [])];
  await db.transaction('rw', tables, async (tx) => {
    overlay.markRaw(tx.idbtrans);
    const first = records[0]!.id;
    const last = records[records.length - 1]!.id;
    const [low, high] = first < last ? [first, last] : [last, first];
    const present = new Set((await table.where(':id').between(low, high, true, true).primaryKeys()) as string[]);
    await db.table('load_pages').put(page);
    added = present.size > 0 ? records.filter((record) => !present.has(record.id)) : [...records];
    if (present.size > 0) {
      // Mostly the top of the Homes list, read a moment before as rows: the same copy needs no write.
      const inTable = records.filter((record) => present.has(record.id));
      const rows = (await table.bulkGet(inTable.map((record) => record.id))) as Array<PagedRow | undefined>;
      held = inTable.filter((record, i) => !isSameServerCopy(record, rows[i]));
    }
    if (calls) latest = await newestCalls(db, added);
    // Into memory as the write commits: no other write to the table can come in between.
    tx.on('complete', () => {
      overlay.addPage(page.collection, page.key, added);
      if (calls) overlay.addDerived('latest_calls', latest, keepNewerCall);
    });
  });
  announce(
    db,
    page.collection,
    added.map((record) => record.id),
  );
  // Few (the top of the Homes list, a realtime event's record): applyServerRecords keeps whichever copy is newer.
  if (held.length > 0) await applyServerRecords(db, page.collection, held as unknown as RecordModel[]);
  if (calls)
    announce(
      db,
      'latest_calls',
      latest.map((row) => row.id),
    );
}

/** The row holds the server's copy of this very version (no change of this device on top): nothing to write. */
function isSameServerCopy(record: PagedRow, row: PagedRow | undefined): boolean {
  return row !== undefined && !row._pending && row.updated === record.updated;
}

/** The newest call of each home among these, for the homes whose newest call the table does not hold already. */
async function newestCalls(db: PagedDatabase, calls: readonly PagedRow[]): Promise<PagedRow[]> {
  const rows = latestCallRows(calls as unknown as Array<MirrorRow<'calls'>>) as unknown as PagedRow[];
  // During a first load the table holds few if any (a call's realtime event): its keys, not a lookup of every home.
  const held = new Set((await db.table('latest_calls').toCollection().primaryKeys()) as string[]);
  return held.size > 0 ? rows.filter((row) => !held.has(row.id)) : rows;
}

/** As keepLatestCallsAfterWrite decides: the same call's newer state, or a call made later. */
function keepNewerCall(current: PagedRow, candidate: PagedRow): boolean {
  return current.call === candidate.call || (candidate.created as string) >= (current.created as string);
}

/** Brings the stored pages back into memory as the database opens (a reload before every page was unpacked). */
export async function openLoadPages(db: PagedDatabase, owner: ScmsDatabase): Promise<void> {
  const overlay = overlayOf(owner);
  overlay.reset();
  const pages = (await db.table('load_pages').toArray()) as LoadPageRow[];
  if (pages.length === 0) return;
  // A deletion the outbox still holds may not have reached its page before the reload.
  const deleting = new Map<string, Set<string>>();
  for (const entry of (await db.table('outbox').toArray()) as OutboxEntry[])
    for (const op of entry.ops) {
      if (op.action !== 'delete') continue;
      const ids = deleting.get(op.collection) ?? new Set<string>();
      ids.add(op.id);
      deleting.set(op.collection, ids);
    }
  const collections = [...new Set(pages.map((page) => page.collection))];
  for (const collection of collections) {
    const present = new Set((await db.table(collection).toCollection().primaryKeys()) as string[]);
    const gone = deleting.get(collection);
    for (const page of pages.filter((p) => p.collection === collection)) {
      const { fields, rows } = pageBody(page);
      const records = pageRecords(collection, fields, rows).filter(
        (record) => !present.has(record.id) && !gone?.has(record.id),
      );
      overlay.addPage(collection, page.key, records);
      if (collection === 'calls') overlay.addDerived('latest_calls', await newestCalls(db, records), keepNewerCall);
    }
  }
  // A window goes on writing them as rows once the database is open (a service worker only reads them).
  if ('document' in globalThis)
    setTimeout(() => void import('./unpack.ts').then(({ unpackLoadPages }) => unpackLoadPages(owner)), 0);
}

/**
 * Takes deleted records out of their stored pages, one write after another
 * (each reads the page as the one before left it).
 */
function pageForgetter(db: ScmsDatabase) {
  let chain = Promise.resolve();
  return (collection: string, pages: Map<string, string[]>): void => {
    chain = chain
      .then(() =>
        db.transaction('rw', db.table('load_pages'), async (tx) => {
          db.pages?.markRaw(tx.idbtrans);
          const table = db.table('load_pages');
          for (const [key, ids] of pages) {
            const page = (await table.get(key)) as LoadPageRow | undefined;
            if (!page || page.collection !== collection) continue;
            const { fields, rows } = pageBody(page);
            const at = fields.indexOf('id');
            const drop = new Set(ids);
            const kept = rows.filter((row) => !drop.has(row[at] as string));
            if (kept.length === 0) await table.delete(key);
            else await table.put({ ...page, text: JSON.stringify({ fields, rows: kept }) });
          }
        }),
      )
      .catch((error: unknown) => {
        // The database closed (a log out wipes it) or the write failed: the outbox and the next
        // reconciliation still remove the record; a reload meanwhile would show it again.
        console.warn('Could not take deleted records out of the first load pages', error);
      });
  };
}
