/**
 * A first load's pages, kept as they came until they are unpacked.
 *
 * IndexedDB writes about 20,000 small rows a second on this machine, and
 * hundreds of thousands of records' worth of bytes a second as a few large
 * rows (docs/performance.md, "Pages first, rows later"). So a first load
 * (src/data/sync/load.ts) stores each page of the route made for loads as
 * one row of `load_pages`, the JSON text as it came (field names once, a
 * row of values per record), and its records join this in-memory set at once:
 * the phone has everything after a few dozen writes. The mirror's own rows
 * are written from the pages afterwards, in the background (unpack.ts).
 *
 * Until then the tables and the pages together are the mirror: every read
 * of a table sees both (pagedTable.ts, put in Dexie's path by db.ts while
 * there are pages), the table's row first. This code is loaded only then. The
 * rules that keep that true:
 * - a record is in the pages or in its table, never both: a page leaves out
 *   what its table already holds (writing its copy there when that copy is
 *   the newer, as a pull would), and a record written to the table (a
 *   pull, the outbox, a realtime event) leaves the pages once that write
 *   commits;
 * - a record deleted while it is only in the pages leaves them, in memory
 *   at once and in the stored page right after (a reload in between leaves
 *   out what the outbox still deletes);
 * - the unpacker writes through the same rules as a pull (newer wins, the
 *   outbox's changes on top), reading the tables alone.
 */
import { cmp, type DBCoreKeyRange, type DBCoreTable } from 'dexie';
import type { CollectionName } from '../../api/records.ts';
import { homeSortKey } from '../../domain/homeSortKey.ts';
import { pagedTable } from './pagedTable.ts';

/** One stored page: a collection's records as the route sent them. */
export interface LoadPageRow {
  /** `collection:from:after`: where the page began. */
  key: string;
  collection: CollectionName;
  /**
   * The route's JSON text, `{fields, rows, …}`, as it came: one string is
   * stored (and read back) at a fraction of the cost of its arrays.
   */
  text: string;
}

/** The field names and rows of a stored page. */
export function pageBody(page: LoadPageRow): { fields: string[]; rows: unknown[][] } {
  const { fields, rows } = JSON.parse(page.text) as { fields: string[]; rows: unknown[][] };
  return { fields, rows };
}

export type PagedRow = Record<string, unknown> & { id: string };

/** A page's rows as the mirror keeps records (the records API's shape, the home's sort key added). */
export function pageRecords(
  collection: CollectionName,
  fields: readonly string[],
  rows: readonly unknown[][],
): PagedRow[] {
  const records = new Array<PagedRow>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const record: Record<string, unknown> = { collectionName: collection };
    for (let f = 0; f < fields.length; f++) record[fields[f]!] = row[f];
    if (collection === 'houses') record.sort_key = homeSortKey(record as { address?: string; apt?: string });
    records[r] = record as PagedRow;
  }
  return records;
}

/** IndexedDB indexes a record under a key path only when the value is a valid key (strings and numbers in this schema). */
function indexKey(row: PagedRow, keyPath: string | null): string | number | undefined {
  const value = keyPath === null ? row.id : row[keyPath];
  return typeof value === 'string' || (typeof value === 'number' && !Number.isNaN(value)) ? value : undefined;
}

/** Whether a key lies in a DBCore key range (Equal 1, Range 2, Any 3, Never 4). */
function inRange(key: unknown, range: DBCoreKeyRange): boolean {
  if (range.type === 3) return true;
  if (range.type === 4) return false;
  if (range.type === 1) return cmp(key, range.lower) === 0;
  if (range.lower !== undefined) {
    const low = cmp(key, range.lower);
    if (low < 0 || (low === 0 && range.lowerOpen)) return false;
  }
  if (range.upper !== undefined) {
    const high = cmp(key, range.upper);
    if (high > 0 || (high === 0 && range.upperOpen)) return false;
  }
  return true;
}

/** The page key of derived rows (addDerived): never stored, never unpacked. */
const DERIVED = '';

interface Entry {
  key: string | number;
  row: PagedRow;
}

/** The records of one collection that are still only in pages. */
class PagedCollection {
  readonly byId = new Map<string, PagedRow>();
  /** Page key → the ids it brought (some may have left since). */
  readonly pages = new Map<string, string[]>();
  readonly pageOf = new Map<string, string>();
  /** Per key path ('' for the id), the records in index order: built when first asked, dropped on any change. */
  private sorted = new Map<string, Entry[]>();

  /** Removes records; returns the page keys whose stored rows still hold them. */
  drop(ids: Iterable<string>): Map<string, string[]> {
    const byPage = new Map<string, string[]>();
    for (const id of ids) {
      if (!this.byId.delete(id)) continue;
      const page = this.pageOf.get(id)!;
      this.pageOf.delete(id);
      const list = byPage.get(page);
      if (list) list.push(id);
      else byPage.set(page, [id]);
    }
    if (byPage.size > 0) this.sorted.clear();
    return byPage;
  }

  /** Adds records to a page (a new one, or the derived rows), replacing those it holds already. */
  upsert(pageKey: string, rows: readonly PagedRow[]): void {
    const ids = this.pages.get(pageKey) ?? [];
    for (const row of rows) {
      if (!this.byId.has(row.id)) ids.push(row.id);
      this.byId.set(row.id, row);
      this.pageOf.set(row.id, pageKey);
    }
    this.pages.set(pageKey, ids);
    this.sorted.clear();
  }

  removePage(pageKey: string): void {
    const ids = this.pages.get(pageKey) ?? [];
    this.pages.delete(pageKey);
    for (const id of ids) {
      if (this.pageOf.get(id) !== pageKey) continue;
      this.byId.delete(id);
      this.pageOf.delete(id);
    }
    this.sorted.clear();
  }

  /** The page's records that are still here. */
  alive(pageKey: string): PagedRow[] {
    const rows: PagedRow[] = [];
    for (const id of this.pages.get(pageKey) ?? []) {
      const row = this.byId.get(id);
      if (row && this.pageOf.get(id) === pageKey) rows.push(row);
    }
    return rows;
  }

  /** The records in a key range of an index, ascending by (key, id), as IndexedDB orders them. */
  range(keyPath: string | null, range: DBCoreKeyRange): Entry[] {
    if (range.type === 1) {
      // An equality (a home's residents): a scan is cheaper than sorting everything for one key.
      const found: Entry[] = [];
      for (const row of this.byId.values()) {
        const key = indexKey(row, keyPath);
        if (key !== undefined && cmp(key, range.lower) === 0) found.push({ key, row });
      }
      return found.sort((a, b) => cmp(a.row.id, b.row.id));
    }
    const name = keyPath ?? '';
    let entries = this.sorted.get(name);
    if (!entries) {
      entries = [];
      for (const row of this.byId.values()) {
        const key = indexKey(row, keyPath);
        if (key !== undefined) entries.push({ key, row });
      }
      entries.sort((a, b) => cmp(a.key, b.key) || cmp(a.row.id, b.row.id));
      this.sorted.set(name, entries);
    }
    if (range.type === 3) return entries;
    return entries.filter((entry) => inRange(entry.key, range));
  }
}

/**
 * The pages' records of one database instance, and the transactions that
 * see the tables alone (the unpacker's, the page writes').
 */
export class LoadPagesOverlay {
  private readonly collections = new Map<string, PagedCollection>();
  private readonly rawTransactions = new WeakSet<object>();
  /** Per transaction, the records it wrote or deleted: its own reads no longer take them from the pages. */
  private readonly writtenIn = new WeakMap<object, Map<string, Set<string>>>();
  private readonly tables = new WeakMap<DBCoreTable, DBCoreTable>();
  /** Loads storing pages now: the unpacker waits for them (the phone's writes go to the load first). */
  activeLoads = 0;

  constructor(
    /** Takes deleted records out of their stored pages (after the deleting write committed). */
    private readonly forgetInPages: (table: string, pages: Map<string, string[]>) => void,
  ) {}

  /** Dexie's table as the mirror's readers must see it now: with the pages' records while it has some, else as it is. */
  wrap(table: DBCoreTable, name: string): DBCoreTable {
    if (!this.holds(name)) return table;
    let wrapped = this.tables.get(table);
    if (!wrapped) this.tables.set(table, (wrapped = pagedTable(this, table, name, this.forgetInPages)));
    return wrapped;
  }

  /** Whether reads of the table must look at pages too. */
  holds(table: string): boolean {
    return (this.collections.get(table)?.byId.size ?? 0) > 0;
  }

  reset(): void {
    this.collections.clear();
  }

  markRaw(trans: object): void {
    this.rawTransactions.add(trans);
  }

  isRaw(trans: object): boolean {
    return this.rawTransactions.has(trans);
  }

  private collection(name: string): PagedCollection {
    let collection = this.collections.get(name);
    if (!collection) this.collections.set(name, (collection = new PagedCollection()));
    return collection;
  }

  addPage(collection: CollectionName, pageKey: string, rows: readonly PagedRow[]): void {
    this.collection(collection).upsert(pageKey, rows);
  }

  removePage(collection: string, pageKey: string): void {
    this.collections.get(collection)?.removePage(pageKey);
  }

  /**
   * Rows worked out from pages rather than stored (the newest call of each
   * home, from the calls' pages): kept with those that win `keep` over what
   * is there, and dropped with removeDerived when their pages are unpacked.
   */
  addDerived(
    table: string,
    rows: readonly PagedRow[],
    keep: (current: PagedRow, candidate: PagedRow) => boolean,
  ): void {
    const collection = this.collection(table);
    collection.upsert(
      DERIVED,
      rows.filter((row) => {
        const current = collection.byId.get(row.id);
        return !current || keep(current, row);
      }),
    );
  }

  removeDerived(table: string): void {
    this.collections.get(table)?.removePage(DERIVED);
  }

  /** The pages of a collection left to unpack. */
  pagesOf(collection: string): string[] {
    return [...(this.collections.get(collection)?.pages.keys() ?? [])].filter((key) => key !== DERIVED);
  }

  alive(collection: string, pageKey: string): PagedRow[] {
    return this.collections.get(collection)?.alive(pageKey) ?? [];
  }

  /** Drops records (written to or deleted from their table); returns the stored pages that still hold them. */
  drop(table: string, ids: Iterable<string>): Map<string, string[]> {
    return this.collections.get(table)?.drop(ids) ?? new Map();
  }

  /** Drops every record of a table in a key range of ids (a clear, a deleteRange). */
  dropRange(table: string, range: DBCoreKeyRange): Map<string, string[]> {
    const collection = this.collections.get(table);
    if (!collection) return new Map();
    return collection.drop([...collection.byId.keys()].filter((id) => inRange(id, range)));
  }

  /** The collections with pages left to unpack, in the given order first. */
  collectionsLeft(order: readonly string[]): CollectionName[] {
    const names = [...order, ...[...this.collections.keys()].filter((name) => !order.includes(name))];
    return names.filter((name) => this.pagesOf(name).length > 0) as CollectionName[];
  }

  noteWritten(trans: object, table: string, ids: Iterable<string>): void {
    let tables = this.writtenIn.get(trans);
    if (!tables) this.writtenIn.set(trans, (tables = new Map()));
    let set = tables.get(table);
    if (!set) tables.set(table, (set = new Set()));
    for (const id of ids) set.add(id);
  }

  private hiddenIn(trans: object, table: string): ReadonlySet<string> | undefined {
    return this.writtenIn.get(trans)?.get(table);
  }

  get(trans: object, table: string, id: string): PagedRow | undefined {
    if (this.hiddenIn(trans, table)?.has(id)) return undefined;
    return this.collections.get(table)?.byId.get(id);
  }

  /**
   * Copies of the records when the pages hold every one of them (outside
   * any transaction: a write of one since has taken it out), else null.
   */
  peek(table: string, ids: Iterable<string>): PagedRow[] | null {
    const collection = this.collections.get(table);
    if (!collection) return null;
    const rows: PagedRow[] = [];
    for (const id of ids) {
      const row = collection.byId.get(id);
      if (!row) return null;
      rows.push({ ...row });
    }
    return rows;
  }

  /** The pages' records in a range of an index (ascending), leaving out what the transaction wrote. */
  range(trans: object, table: string, keyPath: string | null, range: DBCoreKeyRange): Entry[] {
    const collection = this.collections.get(table);
    if (!collection) return [];
    const entries = collection.range(keyPath, range);
    const hidden = this.hiddenIn(trans, table);
    return hidden?.size ? entries.filter((entry) => !hidden.has(entry.row.id)) : entries;
  }
}
