/**
 * The benchmark page: runs the app's real data layer (src/data) in Chromium
 * against the PocketBase that serves this page, and beside it the way the
 * original app loaded data (every list fetched from the server, with expand,
 * on every screen open). tests/bench/sync.ts calls these through
 * `window.bench` with page.evaluate; every figure is taken here with
 * performance.now(), so the driver's round trips are not counted.
 */
import { startOfMonth, subMonths } from 'date-fns';
import Dexie from 'dexie';
import PocketBase, { type RecordModel } from 'pocketbase';
import { databaseName, ScmsDatabase } from '../../../src/data/mirror/db.ts';
import { newRecordId } from '../../../src/data/mirror/ids.ts';
import { unpackLoadPages } from '../../../src/data/mirror/unpack.ts';
import { enqueue } from '../../../src/data/sync/outbox.ts';
import { ensureHistoryRange } from '../../../src/data/sync/load.ts';
import { pbDate, pullAll } from '../../../src/data/sync/pull.ts';
import { queryHouses } from '../../../src/data/resources/homes.ts';
import { queryReports } from '../../../src/data/resources/reports.ts';
import { reconcileAll } from '../../../src/data/sync/reconcile.ts';
import { HOME_SEARCH_FIELDS, searchIndexOf } from '../../../src/data/mirror/searchIndex.ts';
import { MIRRORED_COLLECTIONS } from '../../../src/api/records.ts';
import { replayOutbox, type ReplayOutcome } from '../../../src/data/sync/replay.ts';
import { searchWords } from '../../../src/domain/search.ts';

/** One timed piece of work: wall time, records handled, and the API traffic it caused. */
export interface Measured {
  ms: number;
  records: number;
  requests: number;
  /** Response bodies received from /api/, in KiB (PocketBase does not compress them). */
  kib: number;
  /** Time the /api/ requests were in flight (overlaps merged): the rest of `ms` is the device's own work. */
  networkMs?: number;
}

export interface QueryTiming {
  query: string;
  ms: number;
  /** Homes found: the local and the server search must agree. */
  results: number;
}

export interface ReplayMeasured extends Measured {
  delivered: number;
  parked: number;
  outcomes: ReplayOutcome[];
  leftInOutbox: number;
}

export interface BenchApi {
  signIn(email: string, password: string): Promise<{ userId: string }>;
  firstSync(): Promise<Measured & { counts: Record<string, number> }>;
  fullReportHistory(fromIso: string): Promise<Measured>;
  incrementalSync(): Promise<Measured & { counts: Record<string, number> }>;
  /** Writes the first load's pages as rows (as the engine does in the background after a first sync). */
  unpackPages(): Promise<Measured>;
  /** The periodic deletion check over every collection (nothing deleted). */
  reconcile(): Promise<Measured>;
  /** Loads the search index of the homes and reports lists; from then on it follows every change of the mirror, as in the app. */
  followWithSearchIndex(): Promise<Measured>;
  homesScreenFromMirror(): Promise<Measured>;
  reportsScreenFromMirror(): Promise<Measured>;
  searchHomes(queries: string[]): Promise<QueryTiming[]>;
  enqueueReports(n: number): Promise<Measured>;
  replayAll(): Promise<ReplayMeasured>;
  storageUsageMiB(): Promise<number>;
  /** A full garbage collection (Chromium started with --expose-gc), before a measured round. */
  collectGarbage(): Promise<void>;
  /** Diagnostic: writing n copies of mirror homes into a scratch database, by Dexie's bulkPut and by IndexedDB itself. */
  probeWrites(n: number): Promise<{ dexieMs: number; dexieWithOutboxMs: number; nativeMs: number }>;
  /** Diagnostic: the first step of every queryHouses call alone (all homes read from IndexedDB), ms per read. */
  readAllHomes(times: number): Promise<number[]>;
  // The original app's way, in the same page:
  originalHomesScreen(): Promise<Measured>;
  originalReportsScreen(fromIso?: string): Promise<Measured>;
  originalSearchHomes(queries: string[]): Promise<QueryTiming[]>;
  originalDirectCreates(n: number): Promise<Measured>;
  /**
   * The cost of the server's conflict check: `n` home updates sent one
   * after another as before (no base: applied as sent), and `n` others with
   * the base the app now sends (src/data/sync/conflicts.ts), each a note change.
   */
  conflictCheckCost(n: number): Promise<{ blind: Measured; based: Measured }>;
}

declare global {
  interface Window {
    bench: BenchApi;
  }
}

let pb: PocketBase;
let db: ScmsDatabase;
let userId = '';

// The default buffer keeps 250 entries; a replay of 1,000 entries makes thousands.
performance.setResourceTimingBufferSize(1_000_000);

/** Runs `work`, timing it and summing the /api/ traffic it caused. */
async function measure<T>(work: () => Promise<T>, records: (value: T) => number): Promise<Measured & { value: T }> {
  performance.clearResourceTimings();
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  // Resource entries are queued after the response; one task later they are all there.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const api = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) =>
    new URL(e.name).pathname.startsWith('/api/'),
  );
  const kib = api.reduce((sum, e) => sum + e.encodedBodySize, 0) / 1024;
  return { value, ms, records: records(value), requests: api.length, kib, networkMs: inFlight(api) };
}

const strip = ({ ms, records, requests, kib, networkMs }: Measured): Measured => ({
  ms,
  records,
  requests,
  kib,
  networkMs,
});

/** The union of the requests' [start, end] intervals, in ms. */
function inFlight(entries: readonly PerformanceResourceTiming[]): number {
  const spans = entries.map((e) => [e.startTime, e.responseEnd] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [from, to] = [-Infinity, -Infinity];
  for (const [start, end] of spans) {
    if (start > to) {
      if (to > from) total += to - from;
      [from, to] = [start, end];
    } else to = Math.max(to, end);
  }
  if (to > from) total += to - from;
  return total;
}
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** The first load's report window (pull.ts): the previous month's start until now. */
const reportWindow = () => ({ from: startOfMonth(subMonths(new Date(), 1)), to: new Date() });

/** Records received, expanded relations included (each is a record the server serialised and sent). */
function countWithExpand(records: readonly RecordModel[]): number {
  let count = 0;
  for (const record of records) {
    count++;
    for (const value of Object.values(record.expand ?? {})) {
      count += Array.isArray(value) ? countWithExpand(value as RecordModel[]) : countWithExpand([value as RecordModel]);
    }
  }
  return count;
}

/** A new report as an officer files it, about one of the first homes of the mirror. */
async function reportBodies(n: number): Promise<Array<Record<string, unknown>>> {
  const houses = await db.houses.limit(50).toArray();
  const residents = await db.residents
    .where('house')
    .anyOf(houses.map((h) => h.id))
    .toArray();
  return Array.from({ length: n }, (_, i) => {
    const house = houses[i % houses.length]!;
    return {
      narative: `Benchmark report ${i + 1}: gate checked, vehicle observed near the garage, resident informed.`,
      type: 'loud_noise',
      weather: 'clear',
      incident_time: pbDate(new Date()),
      phone_number: '',
      injury: false,
      ems_pbso: false,
      community: house.community,
      house: house.id,
      resident: residents.find((r) => r.house === house.id)?.id ?? '',
      created_by: userId,
    };
  });
}

// ---- the original app's way: lists from the server, expanded, per screen open ----

const HOUSE_EXPAND = 'phones_via_house,residents_via_house';

function fetchHomes(filter = ''): Promise<RecordModel[]> {
  return pb
    .collection('houses')
    .getFullList({ batch: 500, sort: 'address', expand: HOUSE_EXPAND, filter, requestKey: null });
}

/** The homes search as a server filter: every word in one of the same fields queryHouses searches. */
/**
 * The server's filter for the home search the app does on the device
 * (src/data/mirror/searchIndex.ts, homeSearchFields): the home's fields,
 * and any of its residents' names or phone numbers (`?~`: at least one of
 * them). The bench's queries are words and plain digits, which the app
 * searches as typed, so a substring of the stored number is the same test.
 */
function serverSearchFilter(query: string): string {
  const fields = [
    ...HOME_SEARCH_FIELDS,
    'residents_via_house.first_name',
    'residents_via_house.last_name',
    'phones_via_house.phone_number',
  ];
  const operator = (field: string) => (field.includes('_via_') ? '?~' : '~');
  return searchWords(query)
    .map((word) => `(${fields.map((f) => pb.filter(`${f} ${operator(f)} {:w}`, { w: word })).join(' || ')})`)
    .join(' && ');
}

async function fetchReportsScreen(from: Date, to: Date): Promise<RecordModel[][]> {
  const filter = pb.filter('incident_time >= {:from} && incident_time <= {:to}', {
    from: pbDate(from),
    to: pbDate(to),
  });
  return Promise.all([
    pb
      .collection('reports')
      .getFullList({ batch: 500, sort: '-created', filter, expand: 'house,created_by,resident', requestKey: null }),
    pb.collection('concerns').getFullList({ batch: 500, requestKey: null }),
    pb.collection('users').getFullList({ batch: 500, requestKey: null }),
  ]);
}

window.bench = {
  async signIn(email, password) {
    pb = new PocketBase(location.origin);
    pb.autoCancellation(false);
    const auth = await pb.collection('users').authWithPassword(email, password);
    userId = auth.record.id;
    // An empty IndexedDB for the first sync.
    await Dexie.delete(databaseName(userId));
    db = new ScmsDatabase(userId);
    await db.open();
    return { userId };
  },

  async firstSync() {
    const m = await measure(() => pullAll({ pb, db }), sum);
    return { ...strip(m), counts: m.value };
  },

  async fullReportHistory(fromIso) {
    return strip(
      await measure(
        () => ensureHistoryRange({ pb, db }, ['reports'], { from: new Date(fromIso).getTime(), to: Date.now() }),
        (n) => n,
      ),
    );
  },

  async unpackPages() {
    return strip(
      await measure(
        () => unpackLoadPages(db),
        () => 0,
      ),
    );
  },

  async incrementalSync() {
    const m = await measure(() => pullAll({ pb, db }), sum);
    return { ...strip(m), counts: m.value };
  },

  async followWithSearchIndex() {
    return strip(
      await measure(
        async () => {
          const index = searchIndexOf(db);
          await Promise.all([index.ready('homes'), index.ready('reports')]);
        },
        () => 0,
      ),
    );
  },

  async reconcile() {
    return strip(
      await measure(
        () => reconcileAll({ pb, db }, MIRRORED_COLLECTIONS),
        (removed) => removed,
      ),
    );
  },

  async homesScreenFromMirror() {
    return strip(
      await measure(
        () => queryHouses(db, ''),
        (rows) => rows.length,
      ),
    );
  },

  async reportsScreenFromMirror() {
    return strip(
      await measure(
        () => queryReports(db, reportWindow()),
        (rows) => rows.length,
      ),
    );
  },

  async searchHomes(queries) {
    const timings: QueryTiming[] = [];
    for (const query of queries) {
      const started = performance.now();
      const rows = await queryHouses(db, query);
      timings.push({ query, ms: performance.now() - started, results: rows.length });
    }
    return timings;
  },

  async enqueueReports(n) {
    const bodies = await reportBodies(n);
    const m = await measure(
      async () => {
        for (const body of bodies) {
          await enqueue(db, {
            userId,
            label: 'New report',
            ops: [{ action: 'create', collection: 'reports', id: newRecordId(), body }],
          });
        }
        return bodies.length;
      },
      (count) => count,
    );
    return strip(m);
  },

  async replayAll() {
    const m = await measure(
      async () => {
        const totals = { delivered: 0, parked: 0, outcomes: [] as ReplayOutcome[] };
        // One call normally empties the outbox; anything else (a 5xx back-off)
        // is retried a few times and then reported as it is.
        for (let round = 0; round < 20; round++) {
          const result = await replayOutbox({ pb, db, owner: 'bench-tab' });
          totals.delivered += result.delivered;
          totals.parked += result.parked;
          totals.outcomes.push(result.outcome);
          if (result.outcome === 'done') break;
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
        return totals;
      },
      (t) => t.delivered,
    );
    return {
      ...strip(m),
      delivered: m.value.delivered,
      parked: m.value.parked,
      outcomes: m.value.outcomes,
      leftInOutbox: await db.outbox.count(),
    };
  },

  async collectGarbage() {
    (globalThis as unknown as { gc?: () => void }).gc?.();
  },

  async storageUsageMiB() {
    return ((await navigator.storage.estimate()).usage ?? 0) / 2 ** 20;
  },

  async probeWrites(n) {
    const sample = await db.houses.limit(n).toArray();
    const rows = sample.map((row, i) => ({ ...row, id: `probe${String(i).padStart(10, '0')}` }));
    const scratch = new ScmsDatabase(`probe-${Date.now()}`);
    await scratch.open();
    try {
      let started = performance.now();
      await scratch.houses.bulkPut(rows);
      const dexieMs = performance.now() - started;
      await scratch.houses.clear();
      started = performance.now();
      await scratch.transaction('rw', scratch.houses, scratch.outbox, async () => {
        await scratch.outbox
          .where('recordKeys')
          .anyOf(rows.map((r) => `houses:${r.id}`))
          .distinct()
          .toArray();
        await scratch.houses.bulkPut(rows);
      });
      const dexieWithOutboxMs = performance.now() - started;
      await scratch.houses.clear();
      const idb = scratch.backendDB();
      started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const tx = idb.transaction(['houses'], 'readwrite', { durability: 'relaxed' });
        const store = tx.objectStore('houses');
        for (const row of rows) store.put(row);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      return { dexieMs, dexieWithOutboxMs, nativeMs: performance.now() - started };
    } finally {
      scratch.close();
      await Dexie.delete(scratch.name);
    }
  },

  async readAllHomes(times) {
    const timings: number[] = [];
    for (let i = 0; i < times; i++) {
      const started = performance.now();
      await db.houses.orderBy('address').toArray();
      timings.push(performance.now() - started);
    }
    return timings;
  },

  async originalHomesScreen() {
    return strip(await measure(() => fetchHomes(), countWithExpand));
  },

  async originalReportsScreen(fromIso) {
    const { from, to } = fromIso ? { from: new Date(fromIso), to: new Date() } : reportWindow();
    return strip(
      await measure(
        () => fetchReportsScreen(from, to),
        (lists) => lists.reduce((n, list) => n + countWithExpand(list), 0),
      ),
    );
  },

  async originalSearchHomes(queries) {
    const timings: QueryTiming[] = [];
    for (const query of queries) {
      const started = performance.now();
      const rows = await fetchHomes(serverSearchFilter(query));
      timings.push({ query, ms: performance.now() - started, results: rows.length });
    }
    return timings;
  },

  async conflictCheckCost(n) {
    const homes = await db.houses.limit(2 * n).toArray();
    const stamp = Date.now();
    const run = (rows: typeof homes, withBase: boolean) =>
      measure(
        async () => {
          for (const home of rows) {
            const body: Record<string, unknown> = { note: `Checked ${stamp} ${home.id}` };
            if (withBase) body._base = { note: home.note ?? '' };
            await pb.collection('houses').update(home.id, body, { requestKey: null });
          }
          return rows.length;
        },
        (count) => count,
      );
    const blind = await run(homes.slice(0, n), false);
    const based = await run(homes.slice(n, 2 * n), true);
    return { blind: strip(blind), based: strip(based) };
  },

  async originalDirectCreates(n) {
    const bodies = await reportBodies(n);
    const m = await measure(
      async () => {
        for (const body of bodies) await pb.collection('reports').create(body, { requestKey: null });
        return bodies.length;
      },
      (count) => count,
    );
    return strip(m);
  },
};
