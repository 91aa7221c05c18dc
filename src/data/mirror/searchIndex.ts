/**
 * The in-memory search index of the mirror (docs/scaling.md): every list
 * search (Homes, Reports, Users, Concerns, the report form's home
 * suggestions) runs here, not on IndexedDB. A community may have 20,000
 * homes; reading them all from IndexedDB on each keystroke took most of a
 * second on a phone.
 *
 * - Each list is a SearchList (searchList.ts): records with a lowercase
 *   haystack of their searched fields, in the list's order (homes by
 *   address, users and concerns by name, reports by creation), narrowing
 *   recent searches instead of scanning again.
 * - The index follows the mirror through Dexie's `storagemutated` event:
 *   it fires after every committed write with the primary keys written,
 *   in this window and (over a BroadcastChannel) from other tabs and the
 *   service worker. Only those records are read again.
 *
 * The search rule stays the one of src/domain/search.ts (the tests compare
 * both on random data).
 */
import Dexie, { type IntervalTree, type ObservabilitySet } from 'dexie';
import type { ConcernRecord, PhoneRecord, ResidentRecord, UserRecord } from '../../api/records.ts';
import { compareHomeKeys, homeAddressKey, type HomeKey } from '../../domain/homeOrder.ts';
import { reportTypeLabel } from '../../domain/reportTypes.ts';
import { phoneDigits } from '../../domain/search.ts';
import type { MirrorRow, ScmsDatabase } from './db.ts';
import type { LatestCallRow } from './latestCalls.ts';
import type { HouseWithPeople } from '../resources/homes.ts';
import type { ReportWithLinks } from '../resources/reports.ts';
import { memoryView } from './memoryViews.ts';
import { SearchList, type Field } from './searchList.ts';

/** The lists the index answers; each loads its tables when first asked for. */
export type IndexedList = 'homes' | 'users' | 'concerns' | 'reports';

type IndexedTable = 'houses' | 'residents' | 'phones' | 'latest_calls' | 'users' | 'concerns' | 'reports';

const TABLES_OF: Record<IndexedList, readonly IndexedTable[]> = {
  homes: ['houses', 'residents', 'phones', 'latest_calls'],
  users: ['users'],
  concerns: ['concerns'],
  reports: ['reports', 'houses', 'residents', 'users'],
};

/** Which lists a change of a table can alter. */
const LISTS_OF: Record<IndexedTable, readonly IndexedList[]> = {
  houses: ['homes', 'reports'],
  residents: ['homes', 'reports'],
  phones: ['homes'],
  latest_calls: ['homes'],
  users: ['users', 'reports'],
  concerns: ['concerns'],
  reports: ['reports'],
};

/** Search fields of docs/product.md#homes for the homes list. */
export const HOME_SEARCH_FIELDS = ['address', 'apt', 'city', 'state', 'zip', 'security_code', 'member_number'] as const;

/**
 * A home is found by its fields (docs/product.md#homes) and by who lives there: a
 * resident calling the gate gives a name or a number, so the residents'
 * names and the phones' numbers (by their digits, src/domain/search.ts)
 * are searched too.
 */
export const homeSearchFields = ({ house, residents, phones }: HouseWithPeople): Field[] => [
  ...HOME_SEARCH_FIELDS.map((f) => house[f]),
  ...residents.flatMap((r) => [r.first_name, r.last_name]),
  ...phones.map((p) => phoneDigits(p.phone_number)),
];
export const userSearchFields = (u: UserRecord): Field[] => [u.first_name, u.last_name, u.email, u.type];
export const concernSearchFields = (c: ConcernRecord): Field[] => [c.name];
export const reportSearchFields = ({ report, house, resident, officer }: ReportWithLinks): Field[] => [
  house?.address,
  house?.apt,
  house?.city,
  house?.state,
  house?.zip,
  report.type,
  reportTypeLabel(report.type),
  resident?.first_name,
  resident?.last_name,
  house?.member_number,
  // Who wrote it: 'ortega' finds an officer's reports.
  officer?.first_name,
  officer?.last_name,
];

/** Oldest first, and by id among those made in the same millisecond (a batch): the order the mirror's own queries give. */
const byCreated = (a: { created: string; id: string }, b: { created: string; id: string }) =>
  a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
const userName = (u: UserRecord) => `${u.last_name} ${u.first_name}`;

type Rows<T> = Map<string, T>;

/** Fields whose values repeat across many rows (few distinct values, or a link to a home). */
const SHARED_FIELDS = new Set([
  'community',
  'state',
  'city',
  'zip',
  'type',
  'weather',
  'house',
  'created_by',
  'added_by',
  'status',
  'progress',
  'outcome',
]);

/** Changed keys of a table from one event, or 'all' (a range: clear, deleteRange, a new database). */
type Changes = Map<IndexedTable, Set<string> | 'all'>;

/**
 * The index of one user's mirror. One per database instance
 * (`searchIndexOf`), kept for the life of the page: going back to a list
 * answers from memory at once.
 */
export class MirrorSearchIndex {
  readonly homes = new SearchList<HouseWithPeople, HomeKey>(
    (h) => homeAddressKey(h.house),
    compareHomeKeys,
    homeSearchFields,
    (id) => this.homeOf(id),
  );
  readonly users = new SearchList<UserRecord, string>(userName, (a, b) => a.localeCompare(b), userSearchFields);
  readonly concerns = new SearchList<ConcernRecord, string>(
    (c) => c.name,
    (a, b) => a.localeCompare(b),
    concernSearchFields,
  );
  /** Oldest first (by `created`); the newest-first view reverses it. */
  readonly reports = new SearchList<ReportWithLinks, string>(
    (r) => r.report.created,
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    reportSearchFields,
    (id) => this.reportOf(id),
  );

  private readonly rows = {
    houses: new Map() as Rows<MirrorRow<'houses'>>,
    residents: new Map() as Rows<MirrorRow<'residents'>>,
    phones: new Map() as Rows<MirrorRow<'phones'>>,
    /** By home: the newest call's state (src/data/mirror/latestCalls.ts). */
    latest_calls: new Map() as Rows<LatestCallRow>,
    users: new Map() as Rows<MirrorRow<'users'>>,
    concerns: new Map() as Rows<MirrorRow<'concerns'>>,
    reports: new Map() as Rows<MirrorRow<'reports'>>,
  };
  /** Children by their parent's id, so a change of one record rebuilds only what shows it. */
  private readonly residentsByHouse = new Map<string, Set<string>>();
  private readonly phonesByHouse = new Map<string, Set<string>>();
  private readonly reportsByLink = {
    house: new Map<string, Set<string>>(),
    resident: new Map<string, Set<string>>(),
    created_by: new Map<string, Set<string>>(),
  };

  /** One copy of each value of SHARED_FIELDS that is not a home's id. */
  private readonly strings = new Map<string, string>();
  private readonly loaded = new Set<IndexedTable>();
  private readonly active = new Set<IndexedList>();
  private readonly versions: Record<IndexedList, number> = { homes: -1, users: -1, concerns: -1, reports: -1 };
  private readonly listeners = new Map<IndexedList, Set<() => void>>();
  private pending: Changes = new Map();
  /** Loads and updates run one after another, in the order they were asked for. */
  private chain: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private warmQueued = false;
  private disposed = false;
  private readonly prefix: string;

  constructor(readonly db: ScmsDatabase) {
    this.prefix = `idb://${db.name}/`;
    Dexie.on.storagemutated.subscribe(this.onMutated);
  }

  /** -1 until the list is loaded; then a number that grows with each change of it. */
  version(list: IndexedList): number {
    return this.versions[list];
  }

  /** How many records the list holds now. */
  size(list: IndexedList): number {
    return this[list].size;
  }

  /** Starts loading a list (once) and calls back on each change of it; returns the unsubscribe. */
  subscribe(list: IndexedList, listener: () => void): () => void {
    let set = this.listeners.get(list);
    if (!set) this.listeners.set(list, (set = new Set()));
    set.add(listener);
    void this.ready(list);
    return () => set.delete(listener);
  }

  /** Resolves once the list is loaded (and every change seen so far applied). */
  ready(list: IndexedList): Promise<void> {
    if (!this.active.has(list)) {
      this.active.add(list);
      this.enqueue(async () => {
        // The tables are read side by side (a cold start of Homes waits for the slowest, not for the sum),
        // in pages by primary key, each applied in its own task: no long task while a large community loads.
        const missing = TABLES_OF[list].filter((table) => !this.loaded.has(table));
        for (const table of missing) this.loaded.add(table);
        await Promise.all(missing.map((table) => this.loadTable(table)));
        await this.rebuildList(list);
        this.bump([list]);
        this.warmSoon(0);
      });
    }
    return this.idle();
  }

  /** Resolves when every load and change queued so far is applied (tests, benchmarks). */
  idle(): Promise<void> {
    return this.chain;
  }

  /** Stops following the mirror (the database was closed). */
  detach(): void {
    Dexie.on.storagemutated.unsubscribe(this.onMutated);
  }

  /** Stops following the mirror and lets go of every record it holds (log out: nothing of the community stays in memory). */
  dispose(): void {
    this.disposed = true;
    this.detach();
    for (const rows of Object.values(this.rows)) rows.clear();
    this.residentsByHouse.clear();
    this.phonesByHouse.clear();
    for (const links of Object.values(this.reportsByLink)) links.clear();
    this.strings.clear();
    this.homes.clear();
    this.users.clear();
    this.concerns.clear();
    this.reports.clear();
  }

  private enqueue(task: () => Promise<void>): void {
    // A failed read (the database closed under it) must not stop later updates.
    // Once disposed, what was queued would read a closed database: skipped, and a read under way that fails for it is no news.
    this.chain = this.chain
      .then(() => (this.disposed ? undefined : task()))
      .catch((error: unknown) => {
        if (!this.disposed) console.error('Search index update failed:', error);
      });
  }

  private readonly onMutated = (parts: ObservabilitySet): void => {
    if (this.db.hasBeenClosed()) {
      this.detach();
      return;
    }
    let any = false;
    for (const [part, tree] of Object.entries(parts)) {
      if (part === 'all') {
        for (const table of Object.keys(this.rows) as IndexedTable[]) this.pending.set(table, 'all');
        any = true;
        continue;
      }
      if (!part.startsWith(this.prefix)) continue;
      // 'table/' is the primary key's part; index parts ('table/name', 'table/:dels') repeat the same writes.
      const rest = part.slice(this.prefix.length);
      if (!rest.endsWith('/') || rest.indexOf('/') !== rest.length - 1) continue;
      const table = rest.slice(0, -1) as IndexedTable;
      if (!(table in this.rows)) continue;
      const seen = this.pending.get(table);
      if (seen === 'all') continue;
      const keys = keysOf(tree);
      if (keys === 'all') this.pending.set(table, 'all');
      else {
        if (keys.length === 0) continue;
        const set = seen ?? new Set<string>();
        for (const key of keys) set.add(key);
        this.pending.set(table, set);
      }
      any = true;
    }
    if (any && !this.flushQueued) {
      this.flushQueued = true;
      this.enqueue(() => this.flush());
    }
  };

  private async flush(): Promise<void> {
    this.flushQueued = false;
    const changes = this.pending;
    this.pending = new Map();
    const touched = new Set<IndexedList>();
    // Read first, then apply: homes and reports are rebuilt once from the new rows of every table.
    const reads: [IndexedTable, Set<string> | 'all', unknown[]][] = [];
    for (const [table, keys] of changes) {
      if (!this.loaded.has(table)) continue;
      const rows =
        keys === 'all'
          ? await this.db.table(table).toArray()
          : // Records a first load just put in its pages are taken from there, without a read (loadPages.ts).
            (this.db.pages?.peek(table, keys) ?? (await this.db.table(table).bulkGet([...keys])));
      reads.push([table, keys, rows]);
    }
    const dirtyHouses = new Set<string>();
    const dirtyReports = new Set<string>();
    for (const [table, keys, rows] of reads) {
      if (keys === 'all') {
        const current = new Set((rows as { id: string }[]).map((r) => r.id));
        for (const id of this.rows[table].keys())
          if (!current.has(id)) this.applyRow(table, id, undefined, dirtyHouses, dirtyReports);
        for (const row of rows as { id: string }[]) this.applyRow(table, row.id, row, dirtyHouses, dirtyReports);
      } else {
        [...keys].forEach((id, i) =>
          this.applyRow(table, id, rows[i] as { id: string } | undefined, dirtyHouses, dirtyReports),
        );
      }
      for (const list of LISTS_OF[table]) if (this.active.has(list)) touched.add(list);
    }
    // Rebuilt when the list is next read (SearchList.invalidate): a home changes with several pages in a row.
    if (this.active.has('homes')) for (const id of dirtyHouses) this.homes.invalidate(id);
    if (this.active.has('reports')) for (const id of dirtyReports) this.reports.invalidate(id);
    this.bump([...touched]);
    this.warmSoon(0);
  }

  /**
   * Builds the lists' haystacks (SearchList.warm) a slice per task once the
   * mirror is still, so the first keystroke after a change finds them built.
   * While a first load puts its pages in, each home changes again with the
   * next page: warming waits for the load's end.
   */
  private warmSoon(delayMs: number): void {
    if (this.warmQueued || this.disposed) return;
    this.warmQueued = true;
    setTimeout(() => {
      this.warmQueued = false;
      // A flush queued meanwhile calls this again at its end.
      if (this.disposed || this.flushQueued) return;
      if ((this.db.pages?.activeLoads ?? 0) > 0) return this.warmSoon(WARM_RETRY_MS);
      const lists = [this.homes, this.reports, this.users, this.concerns];
      if (!lists.every((list) => list.warm(LOAD_PAGE))) this.warmSoon(0);
    }, delayMs);
  }

  private async loadTable(table: IndexedTable): Promise<void> {
    let last: string | undefined;
    for (;;) {
      const source = this.db.table(table);
      const rows = (await (last === undefined ? source.orderBy(':id') : source.where(':id').above(last))
        .limit(LOAD_PAGE)
        .toArray()) as { id: string }[];
      const none = new Set<string>();
      for (const row of rows) this.applyRow(table, row.id, row, none, none);
      if (rows.length < LOAD_PAGE) return;
      last = rows[rows.length - 1]!.id;
      await nextTask();
    }
  }

  /**
   * The row as the index keeps it: 100,000 rows at 20,000 homes make most of
   * the screen's heap, and IndexedDB gives each row its own copy of every
   * string. Values shared by many rows (the community, a state, a phone
   * type, the home a resident belongs to) are made to point at one string,
   * and the collection's name (never shown) is dropped. In place: the row
   * is this read's own copy, and keeping its shape keeps it compact.
   */
  private slim(row: { id: string }): { id: string } {
    const fields = row as unknown as Record<string, unknown>;
    for (const field of SHARED_FIELDS) {
      const value = fields[field];
      if (typeof value !== 'string') continue;
      let one = field === 'house' ? this.rows.houses.get(value)?.id : undefined;
      one ??= this.strings.get(value);
      if (one === undefined) this.strings.set(value, (one = value));
      fields[field] = one;
    }
    if (fields.collectionName !== undefined) fields.collectionName = undefined;
    return row;
  }

  /** Stores a row (or its absence) and notes which homes and reports show it. */
  private applyRow(
    table: IndexedTable,
    id: string,
    full: { id: string } | undefined,
    dirtyHouses: Set<string>,
    dirtyReports: Set<string>,
  ): void {
    const rows = this.rows[table] as Rows<{ id: string }>;
    const old = rows.get(id);
    const row = full && this.slim(full);
    if (row) rows.set(id, row);
    else rows.delete(id);
    switch (table) {
      case 'houses':
        dirtyHouses.add(id);
        for (const report of this.reportsByLink.house.get(id) ?? []) dirtyReports.add(report);
        break;
      case 'residents':
      case 'phones': {
        const byHouse = table === 'residents' ? this.residentsByHouse : this.phonesByHouse;
        const before = (old as ResidentRecord | PhoneRecord | undefined)?.house;
        const after = (row as ResidentRecord | PhoneRecord | undefined)?.house;
        if (before) unlink(byHouse, before, id);
        if (after) linkTo(byHouse, after, id);
        if (before) dirtyHouses.add(before);
        if (after) dirtyHouses.add(after);
        if (table === 'residents')
          for (const report of this.reportsByLink.resident.get(id) ?? []) dirtyReports.add(report);
        break;
      }
      case 'latest_calls':
        dirtyHouses.add(id);
        break;
      case 'users':
        if (row) this.users.put(id, row as UserRecord);
        else this.users.remove(id);
        for (const report of this.reportsByLink.created_by.get(id) ?? []) dirtyReports.add(report);
        break;
      case 'concerns':
        if (row) this.concerns.put(id, row as ConcernRecord);
        else this.concerns.remove(id);
        break;
      case 'reports': {
        for (const link of ['house', 'resident', 'created_by'] as const) {
          const before = (old as MirrorRow<'reports'> | undefined)?.[link];
          const after = (row as MirrorRow<'reports'> | undefined)?.[link];
          if (before) unlink(this.reportsByLink[link], before, id);
          if (after) linkTo(this.reportsByLink[link], after, id);
        }
        dirtyReports.add(id);
        break;
      }
    }
  }

  private async rebuildList(list: IndexedList): Promise<void> {
    const inSlices = async (ids: Iterable<string>, put: (id: string) => void) => {
      let n = 0;
      for (const id of [...ids]) {
        put(id);
        if (++n % LOAD_PAGE === 0) await nextTask();
      }
    };
    switch (list) {
      case 'homes':
        this.homes.clear();
        await inSlices(this.rows.houses.keys(), (id) => this.homes.rebuild(id));
        break;
      case 'reports':
        this.reports.clear();
        await inSlices(this.rows.reports.keys(), (id) => this.reports.rebuild(id));
        break;
      // Users and concerns are kept by applyRow as their rows change.
      case 'users':
      case 'concerns':
        break;
    }
  }

  /** A home with its residents and phones, oldest first (the first is the one the forms edit first). */
  private homeOf(id: string): HouseWithPeople | undefined {
    const house = this.rows.houses.get(id);
    if (!house) return undefined;
    const children = <T extends { created: string; id: string }>(ids: Set<string> | undefined, rows: Rows<T>): T[] => {
      const found: T[] = [];
      for (const child of ids ?? []) {
        const row = rows.get(child);
        if (row) found.push(row);
      }
      return found.length > 1 ? found.sort(byCreated) : found;
    };
    return {
      house,
      residents: children(this.residentsByHouse.get(id), this.rows.residents),
      phones: children(this.phonesByHouse.get(id), this.rows.phones),
      latestCall: this.rows.latest_calls.get(id),
    };
  }

  private reportOf(id: string): ReportWithLinks | undefined {
    const report = this.rows.reports.get(id);
    if (!report) return undefined;
    return {
      report,
      house: report.house ? this.rows.houses.get(report.house) : undefined,
      resident: report.resident ? this.rows.residents.get(report.resident) : undefined,
      officer: report.created_by ? this.rows.users.get(report.created_by) : undefined,
    };
  }

  private bump(lists: readonly IndexedList[]): void {
    for (const list of lists) {
      if (!this.active.has(list)) continue;
      this.versions[list] = Math.max(0, this.versions[list] + 1);
      for (const listener of this.listeners.get(list) ?? []) listener();
    }
  }
}

/** Rows read and applied (or haystacks built) per task: a few milliseconds each on a phone. */
const LOAD_PAGE = 500;
/** How often warming looks again whether a first load has ended. */
const WARM_RETRY_MS = 250;

/** Resolves in a new task, so the page can draw and take input between two slices of work. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

function linkTo(map: Map<string, Set<string>>, parent: string, child: string): void {
  const set = map.get(parent);
  if (set) set.add(child);
  else map.set(parent, new Set([child]));
}

function unlink(map: Map<string, Set<string>>, parent: string, child: string): void {
  const set = map.get(parent);
  if (!set) return;
  set.delete(child);
  if (set.size === 0) map.delete(parent);
}

/** The single keys of a range set, or 'all' when it holds a range (clear, deleteRange). */
function keysOf(tree: IntervalTree): string[] | 'all' {
  const keys: string[] = [];
  const stack: IntervalTree[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!('from' in node)) continue;
    if (node.from !== node.to || typeof node.from !== 'string') return 'all';
    keys.push(node.from);
    if (node.l) stack.push(node.l);
    if (node.r) stack.push(node.r);
  }
  return keys;
}

/** The search index of a database (one per instance, let go of at log out: memoryViews.ts). */
export function searchIndexOf(db: ScmsDatabase): MirrorSearchIndex {
  return memoryView(db, 'search', () => new MirrorSearchIndex(db));
}
