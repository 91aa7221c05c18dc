/**
 * `npm run bench:sync`: the offline-first data layer (src/data) measured in
 * headless Chromium, on real on-disk IndexedDB, against a local PocketBase
 * holding a large community; beside each figure, the same work done the way
 * the original app did it (lists fetched from the server with expand on every
 * screen open), measured in the same page.
 *
 * Steps: build the bench page (tests/bench/page) with Vite into a temp dir;
 * take a copy of the seeded community (seed.ts, cached per month); start
 * PocketBase serving the page (same origin: no CORS); drive the page's
 * `window.bench` functions; print a table and write
 * test-results/bench/sync.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PocketBase from 'pocketbase';
import type { BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { launchPersistentChromium } from '../../scripts/browser/chromium.ts';
import { projectRoot, startPocketBase, type RunningPocketBase } from '../../scripts/pocketbase/server.ts';
import { searchQueries, SIZES, STAFF_PASSWORD } from './data.ts';
import type { BenchApi, Measured, QueryTiming } from './page/bench.ts';
import { seededFolder, SUPERUSER } from './seed.ts';

const here = dirname(fileURLToPath(import.meta.url));
const OUTPUT = join(projectRoot, 'test-results', 'bench', 'sync.json');
const SERVER_CHANGES = 100;
const QUEUED_REPORTS = 1_000;
const SHORT_QUEUE = 100;

const started = performance.now();
const progress = (message: string) => console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);

/** Calls one of the page's bench functions (they run inside Chromium). */
function call<K extends keyof BenchApi>(page: Page, name: K, ...args: Parameters<BenchApi[K]>): Promise<Awaited<ReturnType<BenchApi[K]>>> {
  return page.evaluate(
    ([fn, fnArgs]) => (window.bench[fn] as (...a: unknown[]) => Promise<unknown>)(...fnArgs),
    [name, args] as [K, unknown[]],
  ) as Promise<Awaited<ReturnType<BenchApi[K]>>>;
}

// ---- figures --------------------------------------------------------------------

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const combine = (...parts: Measured[]): Measured => ({
  ms: parts.reduce((s, m) => s + m.ms, 0),
  records: parts.reduce((s, m) => s + m.records, 0),
  requests: parts.reduce((s, m) => s + m.requests, 0),
  kib: parts.reduce((s, m) => s + m.kib, 0),
});

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? `${n.toFixed(2)} ms` : n < 100 ? `${n.toFixed(1)} ms` : `${int(n)} ms`);
const size = (kib: number) => (kib >= 1024 ? `${(kib / 1024).toFixed(1)} MiB` : `${kib.toFixed(0)} KiB`);

interface Cell {
  ms: number;
  /** Shown as "<n> <unit> · <n/s> <unit>/s" when given. */
  count?: number;
  unit?: string;
  requests?: number;
  kib?: number;
}

interface TableRow {
  name: string;
  local: Cell;
  original?: Cell;
  note?: string;
}

const cell = (m: Measured, unit: string): Cell => ({ ms: m.ms, count: m.records, unit, requests: m.requests, kib: m.kib });

function cellText(c: Cell | undefined): string {
  if (!c) return '—';
  const parts = [ms(c.ms)];
  if (c.count !== undefined && c.unit) parts.push(`${int(c.count)} ${c.unit}`, `${int(c.count / (c.ms / 1000))} ${c.unit}/s`);
  if (c.requests !== undefined) parts.push(`${int(c.requests)} req`);
  if (c.kib !== undefined) parts.push(size(c.kib));
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
    ...rows.map((r) => `| ${r.name}${r.note ? ` <br>_${r.note}_` : ''} | ${cellText(r.local)} | ${cellText(r.original)} | ${ratioText(r)} |`),
  ];
  return lines.join('\n');
}

// ---- the run ----------------------------------------------------------------------

async function buildPage(outDir: string): Promise<void> {
  await build({ configFile: false, root: join(here, 'page'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/** The changes made on the server while the officer's mirror is synced: notes of homes, narratives of reports. */
async function changeOnServer(admin: PocketBase, houseIds: string[], reportIds: string[]): Promise<void> {
  const stamp = new Date().toISOString();
  // One batch per collection: the migration allows 50 requests per batch.
  const houses = admin.createBatch();
  for (const id of houseIds) houses.collection('houses').update(id, { note: `Gate code changed ${stamp}` });
  await houses.send({ requestKey: null });
  const reports = admin.createBatch();
  for (const id of reportIds) reports.collection('reports').update(id, { narative: `Corrected by the manager ${stamp}.` });
  await reports.send({ requestKey: null });
}

async function main(): Promise<void> {
  const cleanup: Array<() => Promise<void> | void> = [];
  let server: RunningPocketBase | undefined;
  let context: BrowserContext | undefined;
  try {
    progress('building the bench page with Vite');
    const pageDir = mkdtempSync(join(tmpdir(), 'scms-bench-page-'));
    cleanup.push(() => rmSync(pageDir, { recursive: true, force: true }));
    await buildPage(pageDir);

    const seedStarted = performance.now();
    const seeded = await seededFolder(progress);
    cleanup.push(() => rmSync(seeded.dataDir, { recursive: true, force: true }));
    const { data } = seeded;
    progress(seeded.cached ? `community ready from the cache in ${ms(performance.now() - seedStarted)}` : `seeded in ${ms(seeded.seedMs)}`);

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
    context = await launchPersistentChromium(profileDir);
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
    const firstSync = await call(page, 'firstSync');
    progress(`  ${ms(firstSync.ms)}, ${int(firstSync.records)} records ${JSON.stringify(firstSync.counts)}`);
    progress('original: homes screen + reports screen (current and previous month)');
    const originalHomes = await call(page, 'originalHomesScreen');
    const originalReports = await call(page, 'originalReportsScreen');
    const originalFirst = combine(originalHomes, originalReports);
    progress(`  ${ms(originalFirst.ms)}, ${int(originalFirst.records)} records with expand`);

    progress('screens opened from the mirror');
    const homesFromMirror = await call(page, 'homesScreenFromMirror');
    const reportsFromMirror = await call(page, 'reportsScreenFromMirror');

    progress(`older reports: ensureReportRange over ${SIZES.months} months`);
    const history = await call(page, 'fullReportHistory', data.historyFrom.toISOString());
    progress(`  ${ms(history.ms)}, ${int(history.records)} reports`);
    progress(`original: reports screen over ${SIZES.months} months`);
    const originalHistory = await call(page, 'originalReportsScreen', data.historyFrom.toISOString());
    progress(`  ${ms(originalHistory.ms)}, ${int(originalHistory.records)} records with expand`);
    const storageMiB = await call(page, 'storageUsageMiB');

    progress(`${SERVER_CHANGES} changes on the server (superuser)`);
    const half = SERVER_CHANGES / 2;
    const changedHouses = Array.from({ length: half }, (_, i) => data.houses[i * Math.floor(data.houses.length / half)]!.id);
    const changedReports = Array.from({ length: half }, (_, i) => data.reports[i * Math.floor(data.reports.length / half)]!.id);
    await changeOnServer(admin, changedHouses, changedReports);
    progress('incremental sync (pullAll again)');
    const incremental = await call(page, 'incrementalSync');
    progress(`  ${ms(incremental.ms)}, ${int(incremental.records)} records ${JSON.stringify(incremental.counts)}`);
    progress('original: every list fetched again');
    const originalAgain = combine(await call(page, 'originalHomesScreen'), await call(page, 'originalReportsScreen'));

    const queries = searchQueries(data);
    progress(`${queries.length} home searches with queryHouses`);
    const localSearch = await call(page, 'searchHomes', queries);
    progress(`${queries.length} home searches on the server (filter ~, expand)`);
    const serverSearch = await call(page, 'originalSearchHomes', queries);
    const disagreements = localSearch.filter((t, i) => t.results !== serverSearch[i]!.results);
    // Diagnostic: how much of a local search is the read of every home.
    const homeReads = await call(page, 'readAllHomes', 20);

    // Diagnostic: a short queue first, to show how the cost per entry grows with the queue's length.
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
    progress(`  ${ms(replay.ms)}: ${replay.delivered} delivered, ${replay.parked} parked, ${replay.leftInOutbox} left; outcomes ${replay.outcomes.join(',')}`);
    progress(`original: ${QUEUED_REPORTS} direct creates, one after another`);
    const directCreates = await call(page, 'originalDirectCreates', QUEUED_REPORTS);
    const serverReports = (await admin.collection('reports').getList(1, 1)).totalItems;
    const expectedReports = SIZES.reports + shortReplay.delivered + QUEUED_REPORTS + directCreates.records;

    // ---- the table ----
    const searchMs = (t: QueryTiming[]) => t.map((q) => q.ms);
    const searchCell = (t: QueryTiming[], p: number): Cell => ({ ms: percentile(searchMs(t), p) });
    const firstFull = combine(firstSync, history);
    const rows: TableRow[] = [
      { name: 'First sync: pullAll into empty IndexedDB', local: cell(firstSync, 'rec'), original: cell(originalFirst, 'rec'), note: 'original: homes screen (all houses, expanded) + reports screen (same 2 months, expanded) + concerns + users' },
      { name: `Older reports: ensureReportRange, ${SIZES.months} months`, local: cell(history, 'rec'), original: cell(originalHistory, 'rec'), note: `original: reports screen over ${SIZES.months} months, expanded` },
      { name: `Full pull: every record, all ${int(SIZES.reports)} reports`, local: cell(firstFull, 'rec'), original: cell(combine(originalHomes, originalHistory), 'rec') },
      { name: `Incremental sync after ${SERVER_CHANGES} server changes`, local: cell(incremental, 'rec'), original: cell(originalAgain, 'rec'), note: 'original: every list fetched again on screen open' },
      { name: 'Homes screen open (5,000 homes with people)', local: cell(homesFromMirror, 'homes'), original: cell(originalHomes, 'rec'), note: 'data layer: queryHouses(db, "") from the mirror' },
      { name: 'Reports screen open (2 months)', local: cell(reportsFromMirror, 'reports'), original: cell(originalReports, 'rec'), note: 'data layer: queryReports from the mirror' },
      { name: `Home search, median of ${queries.length} queries`, local: searchCell(localSearch, 50), original: searchCell(serverSearch, 50), note: 'original: server filter ~ over the same fields, expanded' },
      { name: `Home search, p95 of ${queries.length} queries`, local: searchCell(localSearch, 95), original: searchCell(serverSearch, 95) },
      { name: `Queue ${int(QUEUED_REPORTS)} report creates offline (enqueue)`, local: cell(queued, 'entries'), note: 'the original could not save offline' },
      { name: `Replay ${int(QUEUED_REPORTS)} queued reports (replayOutbox)`, local: cell(replay, 'entries'), original: cell(directCreates, 'creates'), note: `original: ${int(QUEUED_REPORTS)} direct creates sent one after another` },
    ];
    const totalMs = performance.now() - started;

    console.log('\n## Sync benchmark: offline-first data layer vs the original way\n');
    console.log(`Community: ${int(data.houses.length)} homes, ${int(data.residents.length)} residents, ${int(data.phones.length)} phones, ${data.concerns.length} concerns, ${int(data.reports.length)} reports over ${SIZES.months} months, ${data.staff.length} staff.`);
    console.log(`Machine: ${cpus().length} cores, Node ${process.version}, ${userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] ?? userAgent}, PocketBase on 127.0.0.1.`);
    console.log(`Seeding (batch API, 50 per batch): ${ms(seeded.seedMs)}${seeded.cached ? ', when the cached folder was made; not seeded in this run' : ' in this run'}.\n`);
    console.log(table(rows));
    console.log('');
    console.log(`IndexedDB after the full pull: ${storageMiB.toFixed(1)} MiB (navigator.storage.estimate).`);
    console.log(`Search: local and server result counts ${disagreements.length === 0 ? 'agree on every query' : `DISAGREE on ${disagreements.length} queries, e.g. ${JSON.stringify(disagreements.slice(0, 3))}`}; ${localSearch.reduce((s, t) => s + t.results, 0).toLocaleString('en-US')} homes found in all.`);
    console.log(`Replay: ${replay.delivered} delivered, ${replay.parked} parked, ${replay.leftInOutbox} left in the outbox; server holds ${int(serverReports)} reports (expected ${int(expectedReports)}).`);
    console.log(`Diagnostics: reading the ${int(data.houses.length)} homes from IndexedDB alone (the first step of every queryHouses call) takes ${ms(percentile(homeReads, 50))} (median of ${homeReads.length}).`);
    console.log(`Diagnostics: replay cost per entry grows with the queue: ${ms(shortReplay.ms / SHORT_QUEUE)} per entry with ${SHORT_QUEUE} queued, ${ms(replay.ms / QUEUED_REPORTS)} with ${int(QUEUED_REPORTS)} (direct create: ${ms(directCreates.ms / directCreates.records)}).`);
    if (pageErrors.length > 0) console.log(`Page errors: ${pageErrors.slice(0, 5).join(' | ')}`);
    console.log(`Total runtime: ${ms(totalMs)} (${(totalMs / 60_000).toFixed(1)} min).`);

    mkdirSync(dirname(OUTPUT), { recursive: true });
    writeFileSync(
      OUTPUT,
      `${JSON.stringify(
        {
          ranAt: new Date().toISOString(),
          machine: { cores: cpus().length, node: process.version, userAgent },
          community: { houses: data.houses.length, residents: data.residents.length, phones: data.phones.length, concerns: data.concerns.length, reports: data.reports.length, staff: data.staff.length, months: SIZES.months },
          seed: { seedMs: seeded.seedMs, cached: seeded.cached, cacheDir: seeded.cacheDir },
          dataLayer: { firstSync, history, firstFull, incremental, homesFromMirror, reportsFromMirror, queued, replay, storageMiB },
          original: { homesScreen: originalHomes, reportsScreen: originalReports, firstOpen: originalFirst, history: originalHistory, refetch: originalAgain, directCreates },
          search: {
            queries: queries.length,
            local: { medianMs: percentile(searchMs(localSearch), 50), p95Ms: percentile(searchMs(localSearch), 95), timings: localSearch },
            server: { medianMs: percentile(searchMs(serverSearch), 50), p95Ms: percentile(searchMs(serverSearch), 95), timings: serverSearch },
            disagreements,
          },
          diagnostics: { homeReadsMs: homeReads, shortReplay },
          checks: { serverReports, expectedReports, pageErrors },
          table: rows,
          totalMs,
        },
        null,
        2,
      )}\n`,
    );
    progress(`wrote ${OUTPUT}`);

    // A benchmark whose two sides did different work measures nothing: fail loudly.
    const problems = [
      disagreements.length > 0 && 'local and server searches disagree',
      shortReplay.delivered !== SHORT_QUEUE && `the short replay delivered ${shortReplay.delivered} of ${SHORT_QUEUE}`,
      replay.delivered !== QUEUED_REPORTS && `replay delivered ${replay.delivered} of ${QUEUED_REPORTS}`,
      serverReports !== expectedReports && 'the server does not hold every created report',
      incremental.records < SERVER_CHANGES && `the incremental sync brought ${incremental.records} records for ${SERVER_CHANGES} changes`,
      pageErrors.length > 0 && 'the page reported errors',
    ].filter(Boolean);
    if (problems.length > 0) {
      console.error(`bench:sync: ${problems.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await context?.close();
    await server?.stop();
    for (const step of cleanup.reverse()) await step();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
