/**
 * `npm run bench:sync [-- --scale N]`: the offline-first data layer
 * (src/data) measured in headless Chromium, on real on-disk IndexedDB,
 * against a local PocketBase holding a large community.
 *
 * Scale 1 is 5,000 homes and 20,000 reports; scale N has N times the homes
 * and reports. The run measures scale 1 and scale N (4 unless told: 20,000
 * homes, 80,000 reports) one after the other, each on its own server and
 * browser profile, and prints them side by side with the growth ratio and
 * the targets of README.md (Performance) (printed, not asserted). At scale 1 it also
 * measures, beside each figure, the same work done the way the original app
 * did it (lists fetched from the server with expand on every screen open).
 *
 * Steps: build the bench page (tests/bench/page) with Vite into a temp dir;
 * per scale, take a copy of the seeded community (seed.ts, cached per month
 * and scale); start PocketBase serving the page (same origin: no CORS);
 * drive the page's `window.bench` functions; print the tables and write
 * test-results/bench/sync.json.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import PocketBase from 'pocketbase';
import type { BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { launchPersistentChromium } from '../../scripts/browser/chromium.ts';
import { projectRoot, startPocketBase, type RunningPocketBase } from '../../scripts/pocketbase/server.ts';
import { benchSizes, searchQueries, STAFF_PASSWORD, type BenchData } from './data.ts';
import { cpuTicks } from './load-figures.ts';
import type { BenchApi, Measured, QueryTiming, ReplayMeasured } from './page/bench.ts';
import { seededFolder, SUPERUSER } from './seed.ts';

const here = dirname(fileURLToPath(import.meta.url));
const OUTPUT = join(projectRoot, 'test-results', 'bench', 'sync.json');
const SERVER_CHANGES = 100;
const QUEUED_REPORTS = 1_000;
const SHORT_QUEUE = 100;
/** Home updates sent each way (without a base, with one) to price the conflict check. */
const CONFLICT_UPDATES = 300;

const started = performance.now();
const progress = (message: string) =>
  console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);

/** Calls one of the page's bench functions (they run inside Chromium). */
function call<K extends keyof BenchApi>(
  page: Page,
  name: K,
  ...args: Parameters<BenchApi[K]>
): Promise<Awaited<ReturnType<BenchApi[K]>>> {
  return page.evaluate(([fn, fnArgs]) => (window.bench[fn] as (...a: unknown[]) => Promise<unknown>)(...fnArgs), [
    name,
    args,
  ] as [K, unknown[]]) as Promise<Awaited<ReturnType<BenchApi[K]>>>;
}

// ---- figures --------------------------------------------------------------------

/** A process's CPU time so far, user and system (Linux counts it in 100ths of a second: getconf CLK_TCK). */
function processCpuMs(pid: number | undefined): number {
  return pid === undefined ? Number.NaN : cpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 10;
}

/** Incremental pulls measured per scale, each after its own SERVER_CHANGES; the table shows their median. */
const INCREMENTAL_ROUNDS = 7;
/**
 * At least this long between two measured pulls. PocketBase holds an empty
 * filtered list back for up to 500 ms once one address had three within
 * three seconds, and the residents' and phones' pulls keep that wait
 * (src/domain/pullFilter.ts): pulls a second apart measured it (one round in
 * five took 0.5 s), pulls of a phone come minutes apart.
 */
const ROUND_GAP_MS = 3_500;

/** The CPU time so far of the processes whose command line names `marker` (the browser's, by its profile folder). */
function processesCpuMs(marker: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      ticks += cpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      // The process ended between the listing and the reading.
    }
  }
  return ticks * 10;
}

/**
 * Collects the page's garbage, then waits until the browser and the server
 * are idle: under 10 % of a core together over half a second, and
 * ROUND_GAP_MS at least (at most a minute). After tens of thousands of
 * records written, Chromium's storage compacts its files for seconds on
 * its own threads; a pull measured meanwhile shares the two cores with that
 * (its requests waited up to 100 ms for the server at both sizes) and
 * measures the compaction, which a phone meets once after a load, not at
 * every pull. The garbage is the earlier steps' (24 months of reports read
 * at the larger size): collected during a pull of 40-60 ms, it was up to a
 * third of the pull, and more at the larger size, for work that was not
 * the pull's.
 */
async function settled(page: Page, profileDir: string, serverPid: number | undefined): Promise<number> {
  const started = performance.now();
  await call(page, 'collectGarbage');
  const cpu = () => processesCpuMs(profileDir) + processCpuMs(serverPid);
  for (;;) {
    const before = cpu();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const quiet = cpu() - before < 50 && performance.now() - started >= ROUND_GAP_MS;
    if (quiet || performance.now() - started > 60_000) return performance.now() - started;
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const combine = (...parts: Measured[]): Measured => ({
  ms: parts.reduce((s, m) => s + m.ms, 0),
  records: parts.reduce((s, m) => s + m.records, 0),
  requests: parts.reduce((s, m) => s + m.requests, 0),
  kib: parts.reduce((s, m) => s + m.kib, 0),
  networkMs: parts.reduce((s, m) => s + (m.networkMs ?? 0), 0),
});

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? `${n.toFixed(2)} ms` : n < 100 ? `${n.toFixed(1)} ms` : `${int(n)} ms`);
/** A difference that may go either way on a shared machine. */
const signedMs = (n: number) => `${n >= 0 ? '+' : '−'}${ms(Math.abs(n))}`;
const size = (kib: number) => (kib >= 1024 ? `${(kib / 1024).toFixed(1)} MiB` : `${kib.toFixed(0)} KiB`);

interface Cell {
  ms: number;
  /** Shown as "<n> <unit> · <n/s> <unit>/s" when given. */
  count?: number;
  unit?: string;
  requests?: number;
  kib?: number;
  /** Time with requests in flight (the rest is the device's own work). */
  networkMs?: number;
  /** CPU time PocketBase spent meanwhile (its process, from /proc). */
  serverCpuMs?: number;
}

interface TableRow {
  name: string;
  local: Cell;
  original?: Cell;
  note?: string;
}

const cell = (m: Measured, unit: string): Cell => ({
  ms: m.ms,
  count: m.records,
  unit,
  requests: m.requests,
  kib: m.kib,
  networkMs: m.networkMs,
});

function cellText(c: Cell | undefined): string {
  if (!c) return '—';
  const parts = [ms(c.ms)];
  if (c.count !== undefined && c.unit)
    parts.push(`${int(c.count)} ${c.unit}`, `${int(c.count / (c.ms / 1000))} ${c.unit}/s`);
  if (c.requests !== undefined) parts.push(`${int(c.requests)} req`);
  if (c.kib !== undefined) parts.push(size(c.kib));
  if (c.networkMs !== undefined) parts.push(`${ms(c.networkMs)} on the network`);
  if (c.serverCpuMs !== undefined) parts.push(`${ms(c.serverCpuMs)} of the server's CPU`);
  return parts.join(' · ');
}

function ratioText(row: TableRow): string {
  if (!row.original) return '—';
  const r = row.original.ms / row.local.ms;
  return r >= 1 ? `${r.toFixed(1)}× faster` : `${(1 / r).toFixed(1)}× slower`;
}

function table(rows: TableRow[]): string {
  const lines = [
    '| Measurement | Data layer (src/data, IndexedDB) | Original way (server list + expand) | Data layer vs original |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name}${r.note ? ` <br>_${r.note}_` : ''} | ${cellText(r.local)} | ${cellText(r.original)} | ${ratioText(r)} |`,
    ),
  ];
  return lines.join('\n');
}

// ---- the run ----------------------------------------------------------------------

async function buildPage(outDir: string): Promise<void> {
  await build({ configFile: false, root: join(here, 'page'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/**
 * The changes made on the server while the officer's mirror is synced:
 * notes of 50 homes, narratives of 50 reports, spread over the community.
 */
async function changeOnServer(admin: PocketBase, data: BenchData): Promise<void> {
  const half = SERVER_CHANGES / 2;
  const houseIds = Array.from({ length: half }, (_, i) => data.houses[i * Math.floor(data.houses.length / half)]!.id);
  const reportIds = Array.from(
    { length: half },
    (_, i) => data.reports[i * Math.floor(data.reports.length / half)]!.id,
  );
  const stamp = new Date().toISOString();
  // One batch per collection: the migration allows 50 requests per batch.
  const houses = admin.createBatch();
  for (const id of houseIds) houses.collection('houses').update(id, { note: `Gate code changed ${stamp}` });
  await houses.send({ requestKey: null });
  const reports = admin.createBatch();
  for (const id of reportIds)
    reports.collection('reports').update(id, { narative: `Corrected by the manager ${stamp}.` });
  await reports.send({ requestKey: null });
}

interface ScaleRun {
  scale: number;
  community: {
    houses: number;
    residents: number;
    phones: number;
    concerns: number;
    reports: number;
    staff: number;
    months: number;
  };
  seed: { seedMs: number; cached: boolean; cacheDir: string };
  userAgent: string;
  /** Load averages (1 min) when the scale's run began and ended: the machine is shared. */
  load: { before: number; after: number };
  firstSync: Measured & { counts: Record<string, number> };
  /** PocketBase's CPU time during the first sync: what each new phone costs the server. */
  firstSyncServerCpuMs: number;
  history: Measured;
  firstFull: Measured;
  /** The median of INCREMENTAL_ROUNDS pulls (by time), each after SERVER_CHANGES changes on a settled machine. */
  incremental: Measured & { counts: Record<string, number> };
  /** Each round's time; absent in runs saved before there were rounds. */
  incrementalRoundsMs?: number[];
  reconcile: Measured;
  shortReplay: ReplayMeasured;
  queued: Measured;
  replay: ReplayMeasured;
  directCreates: Measured;
  /** Home updates one after another, without a base and with one: what the server's conflict check costs. */
  conflictCheck: { blind: Measured; based: Measured };
  /** Loading the search index (homes and reports), then the same work with it following the mirror. */
  indexLoad: Measured;
  /** As `incremental`, with the search index following the mirror. */
  incrementalIndexed: Measured & { counts: Record<string, number> };
  incrementalIndexedRoundsMs?: number[];
  replayIndexed: ReplayMeasured;
  storageMiB: number;
  /** Diagnostic: 2,000 homes written by Dexie's bulkPut (alone, and with the outbox lookup of applyServerRecords) and by IndexedDB itself. */
  writeProbe: { dexieMs: number; dexieWithOutboxMs: number; nativeMs: number };
  /** Scale 1 only: the original app's way and the local searches beside it. */
  comparison?: ComparisonRun;
  checks: { serverReports: number; expectedReports: number; pageErrors: string[]; problems: string[] };
  totalMs: number;
}

interface ComparisonRun {
  originalHomes: Measured;
  originalReports: Measured;
  originalFirst: Measured;
  originalHistory: Measured;
  originalAgain: Measured;
  homesFromMirror: Measured;
  reportsFromMirror: Measured;
  queries: number;
  localSearch: QueryTiming[];
  serverSearch: QueryTiming[];
  disagreements: QueryTiming[];
  homeReads: number[];
}

const load1 = () => Number(loadavg()[0]!.toFixed(2));

async function runScale(scale: number, pageDir: string, compare: boolean): Promise<ScaleRun> {
  const cleanup: Array<() => Promise<void> | void> = [];
  let server: RunningPocketBase | undefined;
  let context: BrowserContext | undefined;
  const scaleStarted = performance.now();
  const loadBefore = load1();
  const sizes = benchSizes(scale);
  try {
    const seedStarted = performance.now();
    const seeded = await seededFolder(progress, scale);
    cleanup.push(() => rmSync(seeded.dataDir, { recursive: true, force: true }));
    const { data } = seeded;
    progress(
      seeded.cached
        ? `scale ${scale}: community ready from the cache in ${ms(performance.now() - seedStarted)}`
        : `scale ${scale}: seeded in ${ms(seeded.seedMs)}`,
    );

    server = await startPocketBase({ dataDir: seeded.dataDir, publicDir: pageDir, superuser: SUPERUSER });
    const admin = new PocketBase(server.url);
    admin.autoCancellation(false);
    await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
    // The production limit (1,000 API requests per 10 s per address) would
    // cut the 1,000-create runs short with 429s: this measures throughput,
    // not the limiter. Only this run's copy of the data folder is changed.
    await admin.settings.update({ rateLimits: { enabled: false } });
    progress(`PocketBase at ${server.url} (rate limits off in this run's copy)`);

    const profileDir = mkdtempSync(join(tmpdir(), 'scms-bench-profile-'));
    cleanup.push(() => rmSync(profileDir, { recursive: true, force: true }));
    // A persistent profile: an incognito context keeps IndexedDB in memory, which is not what phones do.
    // gc() exposed for settled().
    context = await launchPersistentChromium(profileDir, ['--js-flags=--expose-gc']);
    const page = context.pages()[0] ?? (await context.newPage());
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(server.url);
    await page.waitForFunction(() => 'bench' in window);
    const userAgent = await page.evaluate(() => navigator.userAgent);

    const officer = data.staff.find((s) => s.type === 'regular')!;
    await call(page, 'signIn', officer.email as string, STAFF_PASSWORD);
    progress(`signed in as ${officer.email as string}; IndexedDB empty`);

    // Each data-layer figure is taken before its baseline, so the server's
    // caches, if anything, favour the original way.
    progress('first sync (pullAll) into the empty IndexedDB');
    const cpuBefore = processCpuMs(server.process.pid);
    const firstSync = await call(page, 'firstSync');
    const firstSyncServerCpuMs = processCpuMs(server.process.pid) - cpuBefore;
    progress(
      `  ${ms(firstSync.ms)}, ${int(firstSync.records)} records, ${ms(firstSyncServerCpuMs)} of the server's CPU ${JSON.stringify(firstSync.counts)}`,
    );
    // The engine writes the pages as rows in the background after a first sync; the figures after it are
    // taken on the mirror as it then stays.
    const unpacked = await call(page, 'unpackPages');
    progress(`  the first load's pages written as rows in ${ms(unpacked.ms)} more`);
    let comparison: Partial<ComparisonRun> | undefined;
    if (compare) {
      progress('original: homes screen + reports screen (current and previous month)');
      const originalHomes = await call(page, 'originalHomesScreen');
      const originalReports = await call(page, 'originalReportsScreen');
      comparison = { originalHomes, originalReports, originalFirst: combine(originalHomes, originalReports) };
      progress(`  ${ms(comparison.originalFirst!.ms)}, ${int(comparison.originalFirst!.records)} records with expand`);
    }

    progress(`older reports: ensureHistoryRange over ${sizes.months} months`);
    const history = await call(page, 'fullReportHistory', data.historyFrom.toISOString());
    progress(`  ${ms(history.ms)}, ${int(history.records)} reports`);
    if (comparison) {
      progress(`original: reports screen over ${sizes.months} months`);
      comparison.originalHistory = await call(page, 'originalReportsScreen', data.historyFrom.toISOString());
      progress(
        `  ${ms(comparison.originalHistory.ms)}, ${int(comparison.originalHistory.records)} records with expand`,
      );
    }
    const storageMiB = await call(page, 'storageUsageMiB');
    const writeProbe = await call(page, 'probeWrites', 2_000);
    progress(
      `  writing 2,000 homes: Dexie bulkPut ${ms(writeProbe.dexieMs)}, with the outbox lookup ${ms(writeProbe.dexieWithOutboxMs)}, IndexedDB itself ${ms(writeProbe.nativeMs)}`,
    );

    const incrementalRounds: ScaleRun['incremental'][] = [];
    for (let round = 0; round < INCREMENTAL_ROUNDS; round++) {
      const waited = await settled(page, profileDir, server.process.pid);
      await changeOnServer(admin, data);
      const pulled = await call(page, 'incrementalSync');
      incrementalRounds.push(pulled);
      progress(
        `incremental sync after ${SERVER_CHANGES} changes on the server, round ${round + 1} (the machine settled in ${ms(waited)}): ${ms(pulled.ms)}, ${int(pulled.records)} records ${JSON.stringify(pulled.counts)}`,
      );
    }
    const incrementalRoundsMs = incrementalRounds.map((r) => r.ms);
    const incremental = [...incrementalRounds].sort((a, b) => a.ms - b.ms)[Math.floor(INCREMENTAL_ROUNDS / 2)]!;
    progress('reconciliation (reconcileAll, nothing deleted)');
    const reconcile = await call(page, 'reconcile');
    progress(`  ${ms(reconcile.ms)}, ${reconcile.requests} requests, ${reconcile.records} removed`);
    if (comparison) {
      progress('original: every list fetched again');
      comparison.originalAgain = combine(
        await call(page, 'originalHomesScreen'),
        await call(page, 'originalReportsScreen'),
      );
    }

    // A short queue first, to show how the cost per entry grows with the queue's length.
    await context.setOffline(true);
    await call(page, 'enqueueReports', SHORT_QUEUE);
    await context.setOffline(false);
    const shortReplay = await call(page, 'replayAll');
    progress(`short queue: ${SHORT_QUEUE} entries replayed in ${ms(shortReplay.ms)}`);

    await context.setOffline(true);
    progress(`${QUEUED_REPORTS} reports queued offline (enqueue)`);
    const queued = await call(page, 'enqueueReports', QUEUED_REPORTS);
    await context.setOffline(false);
    progress('replaying the outbox (replayOutbox until done)');
    const replay = await call(page, 'replayAll');
    progress(
      `  ${ms(replay.ms)}: ${replay.delivered} delivered, ${replay.parked} parked, ${replay.leftInOutbox} left; ${replay.requests} requests; outcomes ${replay.outcomes.join(',')}`,
    );
    progress(`original: ${QUEUED_REPORTS} direct creates, one after another`);
    const directCreates = await call(page, 'originalDirectCreates', QUEUED_REPORTS);
    progress(`  ${ms(directCreates.ms)}`);
    progress(`conflict check: ${CONFLICT_UPDATES} home updates without a base, ${CONFLICT_UPDATES} with one`);
    const conflictCheck = await call(page, 'conflictCheckCost', CONFLICT_UPDATES);
    progress(
      `  ${ms(conflictCheck.blind.ms / CONFLICT_UPDATES)} per update without, ${ms(conflictCheck.based.ms / CONFLICT_UPDATES)} with: the check costs ${ms((conflictCheck.based.ms - conflictCheck.blind.ms) / CONFLICT_UPDATES)} per update`,
    );

    // The same again with the search index following the mirror, as in the
    // app once a list screen was open: its reading of every change is part
    // of what a write costs there. (The figures above are the data layer alone.)
    progress('search index (homes and reports) loaded; it now follows the mirror');
    const indexLoad = await call(page, 'followWithSearchIndex');
    progress(`  ${ms(indexLoad.ms)}`);
    // The reports just replayed and created come first, so that the measured pull brings only the changes.
    await call(page, 'incrementalSync');
    const indexedRounds: ScaleRun['incrementalIndexed'][] = [];
    for (let round = 0; round < INCREMENTAL_ROUNDS; round++) {
      await settled(page, profileDir, server.process.pid);
      await changeOnServer(admin, data);
      indexedRounds.push(await call(page, 'incrementalSync'));
    }
    const incrementalIndexedRoundsMs = indexedRounds.map((r) => r.ms);
    const incrementalIndexed = [...indexedRounds].sort((a, b) => a.ms - b.ms)[Math.floor(INCREMENTAL_ROUNDS / 2)]!;
    progress(`incremental sync with the index: ${incrementalIndexedRoundsMs.map(ms).join(', ')}`);
    await context.setOffline(true);
    await call(page, 'enqueueReports', QUEUED_REPORTS);
    await context.setOffline(false);
    const replayIndexed = await call(page, 'replayAll');
    progress(`replay with the index: ${ms(replayIndexed.ms)}`);

    if (comparison) {
      progress('screens opened from the mirror');
      comparison.homesFromMirror = await call(page, 'homesScreenFromMirror');
      comparison.reportsFromMirror = await call(page, 'reportsScreenFromMirror');
      const queries = searchQueries(data);
      progress(`${queries.length} home searches with queryHouses`);
      comparison.localSearch = await call(page, 'searchHomes', queries);
      progress(`${queries.length} home searches on the server (filter ~, expand)`);
      comparison.serverSearch = await call(page, 'originalSearchHomes', queries);
      comparison.queries = queries.length;
      comparison.disagreements = comparison.localSearch.filter(
        (q, i) => q.results !== comparison!.serverSearch![i]!.results,
      );
      // Diagnostic: how much of a local search is the read of every home.
      comparison.homeReads = await call(page, 'readAllHomes', 20);
    }
    const serverReports = (await admin.collection('reports').getList(1, 1)).totalItems;
    const expectedReports =
      sizes.reports + shortReplay.delivered + replay.delivered + replayIndexed.delivered + directCreates.records;

    // A benchmark whose two sides did different work measures nothing: fail loudly.
    const problems = [
      comparison && comparison.disagreements!.length > 0 && 'local and server searches disagree',
      shortReplay.delivered !== SHORT_QUEUE && `the short replay delivered ${shortReplay.delivered} of ${SHORT_QUEUE}`,
      replay.delivered !== QUEUED_REPORTS && `replay delivered ${replay.delivered} of ${QUEUED_REPORTS}`,
      replayIndexed.delivered !== QUEUED_REPORTS &&
        `replay with the index delivered ${replayIndexed.delivered} of ${QUEUED_REPORTS}`,
      incrementalIndexed.records < SERVER_CHANGES &&
        `the incremental sync with the index brought ${incrementalIndexed.records} records`,
      serverReports !== expectedReports && `the server holds ${serverReports} reports, expected ${expectedReports}`,
      incremental.records < SERVER_CHANGES &&
        `the incremental sync brought ${incremental.records} records for ${SERVER_CHANGES} changes`,
      reconcile.records !== 0 && `reconciliation removed ${reconcile.records} records though nothing was deleted`,
      pageErrors.length > 0 && 'the page reported errors',
    ].filter((p): p is string => Boolean(p));

    return {
      scale,
      community: {
        houses: data.houses.length,
        residents: data.residents.length,
        phones: data.phones.length,
        concerns: data.concerns.length,
        reports: data.reports.length,
        staff: data.staff.length,
        months: sizes.months,
      },
      seed: { seedMs: seeded.seedMs, cached: seeded.cached, cacheDir: seeded.cacheDir },
      userAgent,
      load: { before: loadBefore, after: load1() },
      firstSync,
      firstSyncServerCpuMs,
      history,
      firstFull: combine(firstSync, history),
      incremental,
      incrementalRoundsMs,
      reconcile,
      shortReplay,
      queued,
      replay,
      directCreates,
      conflictCheck,
      indexLoad,
      incrementalIndexed,
      incrementalIndexedRoundsMs,
      replayIndexed,
      storageMiB,
      writeProbe,
      comparison: comparison as ComparisonRun | undefined,
      checks: { serverReports, expectedReports, pageErrors, problems },
      totalMs: performance.now() - scaleStarted,
    };
  } finally {
    await context?.close();
    await server?.stop();
    for (const step of cleanup.reverse()) await step();
  }
}

// ---- the tables ---------------------------------------------------------------------

interface GrowthRow {
  name: string;
  value: (run: ScaleRun) => Cell;
  /** The target for this row (README.md, Performance), as text, and whether the runs meet it. */
  target?: { text: string; met: (base: ScaleRun, big: ScaleRun | undefined) => boolean | null };
}

const cellOf = (m: Measured, unit: string): Cell => cell(m, unit);
const ratio = (a: number, b: number) => b / a;
const mark = (met: boolean | null) => (met === null ? '' : met ? ' ✓' : ' ✗');

function growthRows(): GrowthRow[] {
  return [
    {
      name: 'First sync: pullAll into empty IndexedDB (homes, people, concerns, users, 2 months of reports)',
      value: (r) => ({ ...cellOf(r.firstSync, 'rec'), serverCpuMs: r.firstSyncServerCpuMs }),
      target: {
        text: '≤ 2 s at scale 1; ≤ 4.5× for 4× data',
        met: (b, g) => b.firstSync.ms <= 2_000 && (!g || ratio(b.firstSync.ms, g.firstSync.ms) <= 4.5 * (g.scale / 4)),
      },
    },
    { name: 'Older reports: ensureHistoryRange, 24 months', value: (r) => cellOf(r.history, 'rec') },
    { name: 'Full pull: every record, all reports', value: (r) => cellOf(r.firstFull, 'rec') },
    {
      name: `Incremental sync after ${SERVER_CHANGES} server changes (median of ${INCREMENTAL_ROUNDS} rounds)`,
      value: (r) => cellOf(r.incremental, 'rec'),
      target: {
        text: '≤ 1.2× from scale 1 to 4',
        met: (b, g) => (g ? ratio(b.incremental.ms, g.incremental.ms) <= 1.2 : null),
      },
    },
    {
      name: 'Reconciliation of deletions (reconcileAll, nothing deleted)',
      value: (r) => ({ ms: r.reconcile.ms, requests: r.reconcile.requests, kib: r.reconcile.kib }),
    },
    { name: `Replay ${SHORT_QUEUE} queued reports`, value: (r) => cellOf(r.shortReplay, 'entries') },
    {
      name: `Replay ${int(QUEUED_REPORTS)} queued reports (replayOutbox)`,
      value: (r) => cellOf(r.replay, 'entries'),
      target: {
        text: '≤ 5 s; ≤ 1.5× the direct creates',
        met: (b, g) =>
          [b, ...(g ? [g] : [])].every((r) => r.replay.ms <= 5_000 && r.replay.ms <= 1.5 * r.directCreates.ms),
      },
    },
    {
      name: `${int(QUEUED_REPORTS)} direct creates, one after another (original way)`,
      value: (r) => cellOf(r.directCreates, 'creates'),
    },
    {
      name: 'Search index: loading homes and reports (src/data/mirror/searchIndex.ts)',
      value: (r) => ({ ms: r.indexLoad.ms }),
    },
    {
      name: `Incremental sync after ${SERVER_CHANGES} server changes, search index following the mirror (median of ${INCREMENTAL_ROUNDS} rounds)`,
      value: (r) => cellOf(r.incrementalIndexed, 'rec'),
      target: {
        text: '≤ 1.2× from scale 1 to 4',
        met: (b, g) => (g ? ratio(b.incrementalIndexed.ms, g.incrementalIndexed.ms) <= 1.2 : null),
      },
    },
    {
      name: `Replay ${int(QUEUED_REPORTS)} queued reports, search index following the mirror`,
      value: (r) => cellOf(r.replayIndexed, 'entries'),
      target: {
        text: '≤ 5 s; ≤ 1.5× the direct creates',
        met: (b, g) =>
          [b, ...(g ? [g] : [])].every(
            (r) => r.replayIndexed.ms <= 5_000 && r.replayIndexed.ms <= 1.5 * r.directCreates.ms,
          ),
      },
    },
  ];
}

function growthTable(runs: ScaleRun[]): string {
  const [base, big] = runs as [ScaleRun, ScaleRun | undefined];
  const heads = runs.map(
    (r) => `${int(r.community.houses)} homes / ${int(r.community.reports)} reports (scale ${r.scale})`,
  );
  const lines = [
    `| Measurement | ${heads.join(' | ')} |${big ? ' Growth |' : ''} Target |`,
    `|---|${runs.map(() => '---|').join('')}${big ? '---|' : ''}---|`,
  ];
  for (const row of growthRows()) {
    const cells = runs.map((r) => row.value(r));
    const growth = big ? ` ${(cells[1]!.ms / cells[0]!.ms).toFixed(2)}× |` : '';
    const target = row.target ? `${row.target.text}${mark(row.target.met(base, big))}` : '—';
    lines.push(`| ${row.name} | ${cells.map(cellText).join(' | ')} |${growth} ${target} |`);
  }
  lines.push(
    `| Home update without a base / with one (the conflict check), per update (${CONFLICT_UPDATES} each) | ${runs
      .map(
        (r) =>
          `${ms(r.conflictCheck.blind.ms / CONFLICT_UPDATES)} / ${ms(r.conflictCheck.based.ms / CONFLICT_UPDATES)} (${signedMs((r.conflictCheck.based.ms - r.conflictCheck.blind.ms) / CONFLICT_UPDATES)})`,
      )
      .join(' | ')} |${big ? ' — |' : ''} — |`,
  );
  lines.push(
    `| Replay vs direct creates | ${runs.map((r) => `${(r.replay.ms / r.directCreates.ms).toFixed(2)}×`).join(' | ')} |${big ? ' — |' : ''} ≤ 1.5× |`,
  );
  return lines.join('\n');
}

function comparisonTable(run: ScaleRun): string {
  const c = run.comparison!;
  const searchMs = (t: QueryTiming[]) => t.map((q) => q.ms);
  const searchCell = (t: QueryTiming[], p: number): Cell => ({ ms: percentile(searchMs(t), p) });
  const rows: TableRow[] = [
    {
      name: 'First sync: pullAll into empty IndexedDB',
      local: cell(run.firstSync, 'rec'),
      original: cell(c.originalFirst, 'rec'),
      note: 'original: homes screen (all houses, expanded) + reports screen (same 2 months, expanded) + concerns + users',
    },
    {
      name: `Older reports: ensureHistoryRange, ${run.community.months} months`,
      local: cell(run.history, 'rec'),
      original: cell(c.originalHistory, 'rec'),
      note: `original: reports screen over ${run.community.months} months, expanded`,
    },
    {
      name: `Full pull: every record, all ${int(run.community.reports)} reports`,
      local: cell(run.firstFull, 'rec'),
      original: cell(combine(c.originalHomes, c.originalHistory), 'rec'),
    },
    {
      name: `Incremental sync after ${SERVER_CHANGES} server changes`,
      local: cell(run.incremental, 'rec'),
      original: cell(c.originalAgain, 'rec'),
      note: 'original: every list fetched again on screen open',
    },
    {
      name: `Homes screen open (${int(run.community.houses)} homes with people)`,
      local: cell(c.homesFromMirror, 'homes'),
      original: cell(c.originalHomes, 'rec'),
      note: 'data layer: queryHouses(db, "") from the mirror',
    },
    {
      name: 'Reports screen open (2 months)',
      local: cell(c.reportsFromMirror, 'reports'),
      original: cell(c.originalReports, 'rec'),
      note: 'data layer: queryReports from the mirror',
    },
    {
      name: `Home search, median of ${c.queries} queries`,
      local: searchCell(c.localSearch, 50),
      original: searchCell(c.serverSearch, 50),
      note: 'original: server filter ~ over the same fields, expanded',
    },
    {
      name: `Home search, p95 of ${c.queries} queries`,
      local: searchCell(c.localSearch, 95),
      original: searchCell(c.serverSearch, 95),
    },
    {
      name: `Queue ${int(QUEUED_REPORTS)} report creates offline (enqueue)`,
      local: cell(run.queued, 'entries'),
      note: 'the original could not save offline',
    },
    {
      name: `Replay ${int(QUEUED_REPORTS)} queued reports (replayOutbox)`,
      local: cell(run.replay, 'entries'),
      original: cell(run.directCreates, 'creates'),
      note: `original: ${int(QUEUED_REPORTS)} direct creates sent one after another`,
    },
  ];
  return table(rows);
}

function parseScales(): number[] {
  const scale = Number(args.scale);
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`--scale must be a whole number ≥ 1, not ${args.scale}`);
  // Scale 1 is the baseline the growth is measured from.
  return scale === 1 ? [1] : [1, scale];
}

/** `--scale N` (default 4); `--no-original` skips the original-way comparison at scale 1 (a shorter run). */
const { values: args } = parseArgs({
  options: { scale: { type: 'string', default: '4' }, 'no-original': { type: 'boolean', default: false } },
  allowPositionals: false,
});

async function main(): Promise<void> {
  const scales = parseScales();
  const pageDir = mkdtempSync(join(tmpdir(), 'scms-bench-page-'));
  try {
    progress(
      `building the bench page with Vite; scales ${scales.join(' and ')}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} cores`,
    );
    await buildPage(pageDir);
    const runs: ScaleRun[] = [];
    for (const scale of scales) runs.push(await runScale(scale, pageDir, scale === 1 && !args['no-original']));
    const totalMs = performance.now() - started;

    const base = runs[0]!;
    console.log('\n## Sync benchmark: the data layer at community sizes side by side\n');
    console.log(
      `Machine: ${cpus().length} cores (shared), Node ${process.version}, ${base.userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] ?? base.userAgent}, PocketBase on 127.0.0.1.`,
    );
    console.log(
      `Load average (1 min) before/after each scale: ${runs.map((r) => `scale ${r.scale} ${r.load.before}/${r.load.after}`).join('; ')}.`,
    );
    for (const r of runs) {
      console.log(
        `Scale ${r.scale}: ${int(r.community.houses)} homes, ${int(r.community.residents)} residents, ${int(r.community.phones)} phones, ${r.community.concerns} concerns, ${int(r.community.reports)} reports over ${r.community.months} months; seeding ${ms(r.seed.seedMs)}${r.seed.cached ? ' (cached folder)' : ' in this run'}; IndexedDB after the full pull ${r.storageMiB.toFixed(1)} MiB.`,
      );
    }
    console.log('');
    console.log(growthTable(runs));
    console.log('');
    console.log('Targets are those of README.md, Performance (printed, not asserted); ✓ met, ✗ not met in this run.');
    for (const r of runs) {
      console.log(
        `Replay at scale ${r.scale}: ${r.replay.delivered} delivered in ${r.replay.requests} requests, ${r.replay.parked} parked, ${r.replay.leftInOutbox} left; server holds ${int(r.checks.serverReports)} reports (expected ${int(r.checks.expectedReports)}); per entry ${ms(r.shortReplay.ms / SHORT_QUEUE)} with ${SHORT_QUEUE} queued, ${ms(r.replay.ms / QUEUED_REPORTS)} with ${int(QUEUED_REPORTS)} (direct create ${ms(r.directCreates.ms / r.directCreates.records)}).`,
      );
    }
    if (base.comparison) {
      const c = base.comparison;
      console.log('\n### Scale 1 beside the original way (lists fetched from the server with expand)\n');
      console.log(comparisonTable(base));
      console.log('');
      console.log(
        `Search: local and server result counts ${c.disagreements.length === 0 ? 'agree on every query' : `DISAGREE on ${c.disagreements.length} queries, e.g. ${JSON.stringify(c.disagreements.slice(0, 3))}`}; ${c.localSearch.reduce((s, t) => s + t.results, 0).toLocaleString('en-US')} homes found in all.`,
      );
      console.log(
        `Diagnostics: reading the ${int(base.community.houses)} homes from IndexedDB alone takes ${ms(percentile(c.homeReads, 50))} (median of ${c.homeReads.length}).`,
      );
    }
    for (const r of runs)
      console.log(
        `Diagnostics at scale ${r.scale}: writing 2,000 homes takes ${ms(r.writeProbe.dexieMs)} with Dexie's bulkPut (${ms(r.writeProbe.dexieWithOutboxMs)} with the outbox lookup), ${ms(r.writeProbe.nativeMs)} with IndexedDB itself.`,
      );
    for (const r of runs)
      if (r.checks.pageErrors.length > 0)
        console.log(`Page errors at scale ${r.scale}: ${r.checks.pageErrors.slice(0, 5).join(' | ')}`);
    console.log(`Total runtime: ${ms(totalMs)} (${(totalMs / 60_000).toFixed(1)} min).`);

    mkdirSync(dirname(OUTPUT), { recursive: true });
    writeFileSync(
      OUTPUT,
      `${JSON.stringify({ ranAt: new Date().toISOString(), machine: { cores: cpus().length, node: process.version }, scales, runs, totalMs }, null, 2)}\n`,
    );
    progress(`wrote ${OUTPUT}`);

    const problems = runs.flatMap((r) => r.checks.problems.map((p) => `scale ${r.scale}: ${p}`));
    if (problems.length > 0) {
      console.error(`bench:sync: ${problems.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(pageDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
