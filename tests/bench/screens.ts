/**
 * `npm run bench:screens [-- --scale N]`: the real built app (vite.config.ts,
 * service worker included) in headless Chromium at phone size, against a
 * local PocketBase holding the benchmark's large community (seed.ts:
 * `--scale 1` = 5,000 homes and 20,000 reports, `--scale 4` = 20,000 and
 * 80,000). What an officer feels, measured in the page:
 *
 * - sign-in, once the login page's service worker is installed (as while a
 *   person types): the Login click to the first home card painted, to the first
 *   sync done (the mark the app's first pull leaves at its end,
 *   src/data/sync/pull.ts), and to the frame whose count shows every home;
 * - a keystroke in 'Search homes...': the key event to the frame after the
 *   count text changes (p50/p95 over at least --keys keystrokes; the
 *   slowest are named with the query they made);
 * - Reports → Homes, warm (Homes shown before in this page) and cold (a
 *   fresh page on /reports) to the first home card painted;
 * - an offline reload of /homes to the first card painted (since navigation start);
 * - the patrol and manager screens, warm: Homes → House checks (the tap to the day's
 *   progress painted), Reports → Daily report (to the day's counts), its
 *   Download PDF (the tap to the file handed to the browser), Reports →
 *   Dashboard (to the first chart drawn);
 * - Homes → Tours, warm: the tap on 'Tours' to the first round of the shift
 *   painted, with TOUR_DAYS (60) of walked rounds on the server (data.ts:
 *   40 checkpoints, 4 tours, about 2,500 walks and 24,000 scans, and the
 *   rounds since the seed added to the run's copy before sign-in), of which
 *   the mirror holds the first sync's eight days and, once the dashboard
 *   was opened, its month (src/data/sync/ranges.ts); the
 *   rounds shown are checked against the board's rule run here on the same
 *   records;
 * - DOM elements and JS heap (after a garbage collection) with Homes open;
 * - the gzipped JS of the login page and of the Homes screen (scripts/bundle-budget.ts).
 *
 * "Painted" is the task after the next animation frame that follows the
 * change (requestAnimationFrame, then a MessageChannel message): by then the
 * frame holding the change is rendered. Times start at the input event's
 * timeStamp, so a busy main thread that delays the event counts too.
 *
 * Prints a table (this run and, from the JSON, the other scale's latest run)
 * and writes test-results/bench/screens.json. `--dist DIR` measures an
 * existing build instead of building one.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import PocketBase from 'pocketbase';
import type { BrowserContext, Page } from 'playwright-core';
import { launchPersistentChromium } from '../../scripts/browser/chromium.ts';
import { measureRoutes, type RouteSize } from '../../scripts/bundle-budget.ts';
import { projectRoot, startPocketBase, type RunningPocketBase } from '../../scripts/pocketbase/server.ts';
import { matches, withPeople } from '../e2e/homes-helpers.ts';
import { PULL_DONE_MARK } from '../../src/data/sync/pull.ts';
import { signedInUserId, waitForFirstSync, waitForPagesUnpacked, waitForWorkerControl } from '../e2e/pwa-helpers.ts';
import { appToMeasure } from './app.ts';
import { roundsBoard, type BoardScan, type BoardTour, type BoardWalk } from '../../src/domain/tourBoard.ts';
import { searchQueries, STAFF_PASSWORD, TOUR_DAYS, TOUR_ZONE, type BenchData, type TourRow } from './data.ts';
import { addRecentTourWalks, seededFolder, SUPERUSER } from './seed.ts';

const OUTPUT = join(projectRoot, 'test-results', 'bench', 'screens.json');
const PHONE = { width: 390, height: 844 };
/** A home card is the one with the Call button (HomeCard's accessible name). */
const HOME_CARD = 'button[aria-label^="Call resident of"]';
// The bench counts the expected results itself (the rule as tests/e2e/homes-helpers.ts writes it
// from the text), to know which keystrokes change the count and that the count shown is exact.
const WARM_RUNS = 5;
const COLD_RUNS = 3;
const OFFLINE_RUNS = 3;

const { values: options } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    keys: { type: 'string', default: '120' },
    dist: { type: 'string' },
    /** Writes a heap snapshot (Chrome DevTools format) with Homes open after the first sync: to find what holds the heap. */
    'heap-snapshot': { type: 'string' },
    /** Writes a CPU profile (.cpuprofile, Chrome DevTools) of the typing: to find what a keystroke spends its time on. */
    'cpu-profile': { type: 'string' },
    'sync-profile': { type: 'string' },
    /** Writes a Chrome trace (.json) of the sign-in to the first sync done: what the main thread does besides scripts. */
    'sync-trace': { type: 'string' },
    /** Writes a CPU profile (.cpuprofile) of the last offline reload of /homes, to its first card. */
    'reload-profile': { type: 'string' },
    /** Writes a CPU profile (.cpuprofile) of the last warm Homes → Tours, to its first round painted. */
    'tours-profile': { type: 'string' },
    /** Writes a Chrome trace (.json, DevTools' Performance panel) of the last warm Homes → Tours: style, layout and paint with the scripts. */
    'tours-trace': { type: 'string' },
  },
});
const scale = Number(options.scale);
const keyTarget = Number(options.keys);
if (!Number.isInteger(scale) || scale < 1) throw new Error(`--scale must be a whole number ≥ 1, not ${options.scale}`);
if (!Number.isInteger(keyTarget) || keyTarget < 100)
  throw new Error(`--keys must be at least 100 (p95 needs them), not ${options.keys}`);

const started = performance.now();
const loadBefore = loadavg()[0]!;
const progress = (message: string) =>
  console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);

// ---- in the page ------------------------------------------------------------------

interface Pending {
  /** What the action waits for: a home card, a change of the Homes count, or the first element matching `selector`. */
  kind: 'card' | 'count' | 'selector';
  selector: string | null;
  trigger: 'keydown' | 'click';
  t0: number | null;
  before: string | null;
  seen: boolean;
  /** The event to the change in the DOM (the app's work, before the frame that shows it). */
  domMs: number | null;
  ms: number | null;
  after: string | null;
}

interface ScreensProbe {
  /** performance.now() when the first home card of this document was painted. */
  firstCard: number | null;
  /** The Homes count to wait for (every home of the community), and performance.now() when a frame first showed it. */
  total: { homes: number; shownAt: number | null } | null;
  /** The last click's event time (the sign-in's, for `total`). */
  clickAt: number | null;
  pending: Pending | null;
  arm: (kind: Pending['kind'], trigger: Pending['trigger'], selector?: string) => void;
  countText: () => string | null;
}

declare global {
  interface Window {
    screensProbe: ScreensProbe;
  }
}

/** Runs in every document before the app (an init script): the probe the driver arms and reads. */
function installProbe(card: string): void {
  const afterPaint = (done: (at: number) => void) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      channel.port2.postMessage(null);
    });
  // The count paragraph, found once and kept while it stays in the document: reading it is one textContent.
  let countElement: Element | null = null;
  const countText = () => {
    if (!countElement?.isConnected) {
      const candidates = [...document.querySelectorAll('main [aria-live]'), ...document.querySelectorAll('main p')];
      countElement = candidates.find((e) => /Showing\s+[\d,]+\s+home/.test(e.textContent ?? '')) ?? null;
    }
    return countElement?.textContent ?? null;
  };
  const probe: ScreensProbe = {
    firstCard: null,
    total: null,
    clickAt: null,
    pending: null,
    arm(kind, trigger, selector) {
      probe.pending = {
        kind,
        selector: selector ?? null,
        trigger,
        t0: null,
        before: kind === 'count' ? countText() : null,
        seen: false,
        domMs: null,
        ms: null,
        after: null,
      };
    },
    countText,
  };
  let firstSeen = false;
  const check = () => {
    if (!firstSeen && document.querySelector(card)) {
      firstSeen = true;
      afterPaint((at) => (probe.firstCard = at));
    }
    const total = probe.total;
    if (total && total.shownAt === null) {
      const shown = Number(/Showing\s+([\d,]+)\s+home/.exec(countText() ?? '')?.[1]?.replace(/,/g, ''));
      if (shown === total.homes) {
        total.shownAt = -1;
        afterPaint((at) => (total.shownAt = at));
      }
    }
    const p = probe.pending;
    if (!p || p.t0 === null || p.seen) return;
    const changed =
      p.kind === 'card'
        ? document.querySelector(card) !== null
        : p.kind === 'selector'
          ? document.querySelector(p.selector!) !== null
          : countText() !== p.before;
    if (!changed) return;
    p.seen = true;
    p.domMs = performance.now() - p.t0;
    // What showed first: the count, or the element's name (a round's data-round) or its text.
    const first = p.kind === 'selector' ? document.querySelector(p.selector!) : null;
    p.after =
      p.kind === 'count'
        ? countText()
        : (first?.getAttribute('data-round') ?? first?.textContent?.slice(0, 80) ?? null);
    afterPaint((at) => (p.ms = at - p.t0!));
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  const start = (trigger: Pending['trigger']) => (event: Event) => {
    const p = probe.pending;
    if (trigger === 'click') probe.clickAt = event.timeStamp;
    if (p && p.trigger === trigger && p.t0 === null) {
      p.t0 = event.timeStamp;
      // A change may already be in (a card on screen): checked once the event's own work has run.
      queueMicrotask(check);
    }
  };
  addEventListener('keydown', start('keydown'), true);
  addEventListener('click', start('click'), true);
  window.screensProbe = probe;
}

/** Arms the probe, runs the action (a click or a key) and resolves with the probe's milliseconds. */
async function timed(
  page: Page,
  kind: Pending['kind'],
  trigger: Pending['trigger'],
  action: () => Promise<void>,
  timeoutMs = 600_000,
  selector?: string,
): Promise<{ ms: number; domMs: number; after: string | null }> {
  await page.evaluate(([k, t, s]) => window.screensProbe.arm(k, t, s), [kind, trigger, selector] as const);
  await action();
  await page.waitForFunction(() => window.screensProbe.pending?.ms != null, null, { polling: 20, timeout: timeoutMs });
  return page.evaluate(() => ({
    ms: window.screensProbe.pending!.ms!,
    domMs: window.screensProbe.pending!.domMs!,
    after: window.screensProbe.pending!.after,
  }));
}

// ---- figures ----------------------------------------------------------------------

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
const median = (values: readonly number[]) => percentile(values, 50);
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) =>
  !Number.isFinite(n)
    ? '—'
    : n < 10
      ? `${n.toFixed(2)} ms`
      : n < 1000
        ? `${n.toFixed(1)} ms`
        : `${(n / 1000).toFixed(2)} s`;

interface ScreensRun {
  ranAt: string;
  scale: number;
  machine: { cores: number; node: string; userAgent: string };
  /** The 1-minute load average before and after the run: the machine is shared. */
  load: { before: number; after: number };
  community: { houses: number; reports: number };
  viewport: typeof PHONE;
  bundle: RouteSize[];
  signInToFirstCardMs: number;
  signInToSyncedMs: number;
  /** The login page's service worker installing (its precache), before the sign-in is measured. */
  workerInstallMs?: number;
  /** Sign-in to the frame whose Homes count is the community's (every home in the list). */
  signInToAllHomesMs?: number;
  /** To the first load's pages written as rows, in the background (the figures after it are measured then). */
  signInToRowsMs: number;
  keystroke: {
    samples: number;
    p50Ms: number;
    p95Ms: number;
    /** Absent in runs saved before it was measured. */ domP50Ms?: number;
    domP95Ms?: number;
    maxMs: number;
    unchangedKeys: number;
    countMismatches: string[];
    timingsMs: number[];
    /** The slowest timed keys: the query typed (or "clear") and the homes it shows. */
    slowest: Array<{ ms: number; key: string }>;
    /**
     * The same measure of a keystroke that does no work (keystrokeFloor): a
     * bare input whose key changes one text node. What the frame's timing
     * alone costs. Absent in runs saved before it was measured.
     */
    floor?: { samples: number; p50Ms: number; p95Ms: number };
  };
  reportsToHomes: { warmMs: number; coldMs: number; warmRunsMs: number[]; coldRunsMs: number[] };
  offlineReloadToFirstCardMs: number;
  offlineReloadRunsMs: number[];
  /** The patrol and manager screens, medians of warm runs (absent in runs saved before they were measured). */
  shift?: { houseChecksMs: number; dailyReportMs: number; dailyPdfMs: number; dashboardMs: number };
  /** A call's record changes on the server to the card's new words painted, medians (absent before it was measured). */
  callOnCard?: { placedMs: number; endedMs: number };
  /** Homes → Tours, the tap to the first round painted (absent in runs saved before it was measured). */
  tours?: {
    /** The first visit in the page (the Tours chunk and its first reads). */
    firstMs: number;
    warmMs: number;
    warmMaxMs: number;
    warmRunsMs: number[];
    /** The rounds listed (li[data-round]) and the list's headings, at the last run. */
    roundsShown: number;
    headings: string[];
    /** Rounds shown otherwise than the board's rule says (first painted or after it settled). */
    mismatches: string[];
    /** What the mirror holds: the seeded history and the rounds added since the seed. */
    history: { days: number; checkpoints: number; tours: number; walks: number; scans: number };
  };
  domElements: number;
  heapMB: { withHomesOpen: number; afterReload: number };
  pageErrors: string[];
  totalMs: number;
}

interface Row {
  name: string;
  value: (run: ScreensRun) => string;
  /** The target (README.md, Performance), at 5,000 / 20,000 homes where they differ. */
  target: string;
}

const kB = (run: ScreensRun, route: RouteSize['route']) =>
  `${(run.bundle.find((b) => b.route === route)!.gzipBytes / 1000).toFixed(1)} kB`;

const ROWS: Row[] = [
  { name: 'JS on the login page (gzip)', value: (r) => kB(r, 'login'), target: '≤ 150 kB' },
  { name: 'JS by the time Homes shows (gzip)', value: (r) => kB(r, 'homes'), target: '≤ 250 kB' },
  { name: 'Sign-in to first home card', value: (r) => ms(r.signInToFirstCardMs), target: '≤ 1 s / ≤ 1 s' },
  {
    name: 'Sign-in to first sync done (homes with residents and phones, latest calls, two months of reports)',
    value: (r) => ms(r.signInToSyncedMs),
    target: '≤ 1.5 s / ≤ 4 s',
  },
  {
    name: 'Sign-in to every home on the list',
    value: (r) => (r.signInToAllHomesMs === undefined ? '—' : ms(r.signInToAllHomesMs)),
    target: '—',
  },
  {
    name: "Sign-in to the first load's pages written as rows (in the background)",
    value: (r) => (r.signInToRowsMs === undefined ? '—' : ms(r.signInToRowsMs)),
    target: '—',
  },
  {
    name: 'Search keystroke to paint, p50',
    value: (r) => `${ms(r.keystroke.p50Ms)} (${r.keystroke.samples} keys)`,
    target: '—',
  },
  { name: 'Search keystroke to paint, p95', value: (r) => ms(r.keystroke.p95Ms), target: '≤ 16.7 ms / ≤ 33 ms' },
  {
    name: 'A keystroke that does no work, to paint, p50 / p95 (the floor: a bare input changing one text node)',
    value: (r) => (r.keystroke.floor ? `${ms(r.keystroke.floor.p50Ms)} / ${ms(r.keystroke.floor.p95Ms)}` : '—'),
    target: '—',
  },
  {
    name: "Search keystroke to DOM updated, p50 / p95 (the app's work; paint adds the wait for the next frame, up to 16.7 ms at 60 Hz)",
    value: (r) =>
      r.keystroke.domP95Ms === undefined ? '—' : `${ms(r.keystroke.domP50Ms!)} / ${ms(r.keystroke.domP95Ms)}`,
    target: '—',
  },
  { name: 'Reports → Homes, warm', value: (r) => ms(r.reportsToHomes.warmMs), target: '≤ 100 ms / ≤ 200 ms' },
  { name: 'Reports → Homes, cold', value: (r) => ms(r.reportsToHomes.coldMs), target: '—' },
  {
    name: 'Offline reload of /homes to first card',
    value: (r) => ms(r.offlineReloadToFirstCardMs),
    target: '≤ 0.5 s / ≤ 0.7 s',
  },
  { name: 'Homes → House checks, warm', value: (r) => ms(r.shift?.houseChecksMs ?? NaN), target: '—' },
  { name: 'Reports → Daily report, warm', value: (r) => ms(r.shift?.dailyReportMs ?? NaN), target: '—' },
  { name: 'Daily report: Download PDF to file', value: (r) => ms(r.shift?.dailyPdfMs ?? NaN), target: '—' },
  { name: 'Reports → Dashboard, warm', value: (r) => ms(r.shift?.dashboardMs ?? NaN), target: '—' },
  {
    name: "Homes → Tours, first in the page (the tap on 'Tours' to the first round painted; its chunk loaded)",
    value: (r) => ms(r.tours?.firstMs ?? NaN),
    target: '—',
  },
  {
    name: "Homes → Tours, warm, p50 / max (the server's 60 days of rounds: walks / scans; the mirror holds the first sync's eight days and the dashboard's month)",
    value: (r) =>
      r.tours
        ? `${ms(r.tours.warmMs)} / ${ms(r.tours.warmMaxMs)} (${int(r.tours.history.walks)} / ${int(r.tours.history.scans)})`
        : '—',
    target: '< 100 ms at 20,000',
  },
  {
    name: "A call starts on the server to the card's 'Call in progress...'",
    value: (r) => ms(r.callOnCard?.placedMs ?? NaN),
    target: '—',
  },
  {
    name: "The call ends to the card's 'Last call: Failed'",
    value: (r) => ms(r.callOnCard?.endedMs ?? NaN),
    target: '—',
  },
  { name: 'DOM elements, Homes open', value: (r) => int(r.domElements), target: '≤ 2,500' },
  { name: 'JS heap, Homes open', value: (r) => `${r.heapMB.withHomesOpen.toFixed(1)} MB`, target: '≤ 60 MB at 20,000' },
];

function table(runs: ScreensRun[]): string {
  const head = runs.map(
    (r) => `${int(r.community.houses)} homes (scale ${r.scale}, ${r.ranAt.slice(0, 16).replace('T', ' ')} UTC)`,
  );
  return [
    `| Measurement | ${head.join(' | ')} | target (5,000 / 20,000 homes) |`,
    `|---|${runs.map(() => '---|').join('')}---|`,
    ...ROWS.map((row) => `| ${row.name} | ${runs.map((r) => row.value(r)).join(' | ')} | ${row.target} |`),
  ].join('\n');
}

// ---- the run ----------------------------------------------------------------------

/** Waits until nothing is left to do on the main thread (an idle callback), twice. */
async function settle(page: Page): Promise<void> {
  for (let i = 0; i < 2; i++)
    await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done(null), { timeout: 30_000 })));
}

/** The navigation entry, through the side drawer at phone size (as an officer does). */
async function openNavEntry(page: Page, entry: 'Homes' | 'Reports' | 'Tours'): Promise<() => Promise<void>> {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const link = page.getByRole('dialog').getByRole('link', { name: entry, exact: true });
  await link.waitFor();
  return () => link.click();
}

async function showReports(page: Page): Promise<void> {
  const click = await openNavEntry(page, 'Reports');
  await click();
  await page.getByRole('heading', { name: 'Reports' }).waitFor({ timeout: 600_000 });
  await settle(page);
}

async function reportsToHomes(page: Page): Promise<number> {
  const click = await openNavEntry(page, 'Homes');
  const { ms: took } = await timed(page, 'card', 'click', click);
  await settle(page);
  return took;
}

/** A link or button of the screen, clicked and timed to the first element matching `selector` painted. */
async function tapTo(page: Page, name: string, selector: string): Promise<number> {
  const target = page.getByRole('main').getByRole('link', { name, exact: true });
  await target.waitFor();
  const { ms: took } = await timed(page, 'selector', 'click', () => target.click(), 600_000, selector);
  await settle(page);
  return took;
}

/** The patrol and manager screens, warm runs from Homes and Reports. */
/**
 * A call under way, as officers watch it on Homes: the server creates the
 * call and later ends it (status callbacks write the record), realtime
 * brings each change, and the card's words follow. From the server's write
 * (the request sent) to the words painted; one home on screen (searched by
 * its member number), each round a new call.
 */
async function callOnCard(
  page: Page,
  admin: PocketBase,
  data: BenchData,
): Promise<NonNullable<ScreensRun['callOnCard']>> {
  const house = data.houses[7]!;
  const search = page.getByPlaceholder('Search homes...');
  await search.fill(house.member_number as string);
  await page.getByText('Showing 1 home(s)', { exact: true }).waitFor({ timeout: 600_000 });
  await settle(page);
  const cardSays = (words: string, absent: string) =>
    page.waitForFunction(
      ([shown, gone]) => {
        const text = document.querySelector('main')?.textContent ?? '';
        return text.includes(shown) && !text.includes(gone);
      },
      [words, absent] as const,
      { polling: 'raf', timeout: 600_000 },
    );
  const placed: number[] = [];
  const ended: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    const call = data.calls.find((c) => c.house === house.id) ?? data.calls[0]!;
    let t0 = performance.now();
    const created = await admin.collection('calls').create({
      ...call,
      id: undefined,
      created: undefined,
      house: house.id,
      status: 'ringing',
      progress: 'calling',
      outcome: '',
      acknowledged: false,
    });
    await cardSays('Call in progress...', 'Last call:');
    placed.push(performance.now() - t0);
    await settle(page);
    t0 = performance.now();
    await admin.collection('calls').update(created.id, { status: 'failed', progress: 'done', outcome: 'failed' });
    await cardSays('Last call: Failed', 'Call in progress...');
    ended.push(performance.now() - t0);
    await settle(page);
  }
  await search.fill('');
  await settle(page);
  return { placedMs: median(placed), endedMs: median(ended) };
}

async function shiftScreens(page: Page): Promise<NonNullable<ScreensRun['shift']>> {
  const houseChecks: number[] = [];
  const daily: number[] = [];
  const pdf: number[] = [];
  const dashboard: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    houseChecks.push(await tapTo(page, 'House checks', '[data-testid="house-check-progress"]'));
    const back = await openNavEntry(page, 'Homes');
    await back();
    await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
    await settle(page);

    await showReports(page);
    daily.push(await tapTo(page, 'Daily report', '[data-testid="day-counts"]'));
    // The file is made on the device: the tap to the browser's download.
    const download = page.getByRole('button', { name: 'Download PDF' });
    const t0 = performance.now();
    await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), download.click()]);
    pdf.push(performance.now() - t0);
    await settle(page);

    await showReports(page);
    dashboard.push(await tapTo(page, 'Dashboard', 'main canvas'));
    const home = await openNavEntry(page, 'Homes');
    await home();
    await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
    await settle(page);
  }
  return {
    houseChecksMs: median(houseChecks),
    dailyReportMs: median(daily),
    dailyPdfMs: median(pdf),
    dashboardMs: median(dashboard),
  };
}

/** The records the phone's mirror holds of the tours, for the board's rule run here. */
interface TourRecords {
  tours: readonly TourRow[];
  walks: readonly TourRow[];
  scans: readonly TourRow[];
}

/**
 * The rounds the Tours screen lists at `now`, in its order (ToursPage's
 * RoundGroups: now, the next three, done, missed), as the screen names
 * them: "<tour> <HH:mm>" in the browser's own time (ui/dateTime.ts).
 */
async function roundsListed(page: Page, records: TourRecords, now: number): Promise<string[]> {
  const board = roundsBoard(
    records.tours as unknown as BoardTour[],
    records.walks as unknown as BoardWalk[],
    records.scans as unknown as BoardScan[],
    { zone: TOUR_ZONE, now },
  );
  const where = (...statuses: string[]) => board.filter((r) => statuses.includes(r.outcome.status));
  // ToursPage's RoundGroups: the next three, the latest five done, the missed folded unless nothing else was walked or is due.
  const walkable = where('due', 'in_progress');
  const done = where('on_time', 'late', 'incomplete').reverse();
  const listed = [
    ...walkable,
    ...where('upcoming').slice(0, 3),
    ...done.slice(0, 5),
    ...(walkable.length === 0 && done.length === 0 ? where('missed') : []),
  ];
  return page.evaluate(
    (rounds) =>
      rounds.map(({ name, at }) => {
        const time = new Date(at);
        const pad = (n: number) => String(n).padStart(2, '0');
        return `${name} ${pad(time.getHours())}:${pad(time.getMinutes())}`;
      }),
    listed.map((r) => ({ name: r.tour.name, at: r.round.startsAt })),
  );
}

/**
 * Homes → Tours: the tap on the navigation's 'Tours' (in the drawer) to the
 * first round painted, once in the page, then WARM_RUNS times warm, back to
 * Homes between. Each time, the first round painted and the whole list once
 * settled are checked against the board's rule run here (at the driver's
 * now, or up to 30 s before: the screen's clock ticks every 30 s).
 */
async function homesToTours(
  context: BrowserContext,
  page: Page,
  records: TourRecords,
): Promise<Omit<NonNullable<ScreensRun['tours']>, 'history'>> {
  const mismatches: string[] = [];
  const runs: number[] = [];
  let roundsShown = 0;
  let headings: string[] = [];
  for (let i = 0; i <= WARM_RUNS; i++) {
    const click = await openNavEntry(page, 'Tours');
    const profiler = options['tours-profile'] && i === WARM_RUNS ? await context.newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.send('Profiler.start');
    }
    const tracer = options['tours-trace'] && i === WARM_RUNS ? await startTrace(context, page) : null;
    const { ms: took, after: first } = await timed(page, 'selector', 'click', click, 600_000, 'main li[data-round]');
    runs.push(took);
    if (tracer) {
      writeFileSync(resolve(options['tours-trace']!), await tracer());
      progress(`Chrome trace of the last Homes → Tours written to ${options['tours-trace']}`);
    }
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      writeFileSync(resolve(options['tours-profile']!), JSON.stringify(profile));
      await profiler.detach();
      progress(`CPU profile of the last Homes → Tours written to ${options['tours-profile']}`);
    }
    await settle(page);
    const shown = await page
      .locator('main li[data-round]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-round') ?? ''));
    headings = await page.locator('main h3, main summary').allInnerTexts();
    roundsShown = shown.length;
    const at = Date.now();
    const expected = [await roundsListed(page, records, at), await roundsListed(page, records, at - 30_000)];
    if (!expected.some((list) => list.join('|') === shown.join('|')))
      mismatches.push(`run ${i}: shows [${shown.join(', ')}], expected [${expected[0]!.join(', ')}]`);
    if (!expected.some((list) => list[0] === first))
      mismatches.push(`run ${i}: painted ${first} first, expected ${expected[0]![0]}`);
    const home = await openNavEntry(page, 'Homes');
    await home();
    await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
    await page.locator(HOME_CARD).first().waitFor({ timeout: 600_000 });
    await settle(page);
  }
  const warm = runs.slice(1);
  return {
    firstMs: runs[0]!,
    warmMs: median(warm),
    warmMaxMs: Math.max(...warm),
    warmRunsMs: warm,
    roundsShown,
    headings,
    mismatches,
  };
}

/** Starts a Chrome trace of the page's main thread; the function returned stops it and gives the trace's JSON. */
async function startTrace(context: BrowserContext, page: Page): Promise<() => Promise<string>> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'blink.user_timing',
      ],
    },
  });
  return async () => {
    const done = new Promise<string>((found) => cdp.once('Tracing.tracingComplete', (event) => found(event.stream!)));
    await cdp.send('Tracing.end');
    const handle = await done;
    const chunks: string[] = [];
    for (;;) {
      const { data, eof } = await cdp.send('IO.read', { handle });
      chunks.push(data);
      if (eof) break;
    }
    await cdp.send('IO.close', { handle });
    await cdp.detach();
    return chunks.join('');
  };
}

async function writeHeapSnapshot(context: BrowserContext, page: Page, file: string): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk));
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    writeFileSync(file, chunks.join(''));
  } finally {
    await cdp.detach();
  }
}

async function heapMB(context: BrowserContext, page: Page): Promise<number> {
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    // MB of 1,000,000 bytes, as the target is written.
    return usedSize / 1_000_000;
  } finally {
    await cdp.detach();
  }
}

/**
 * The floor of the keystroke figure: the same measure (the key event's
 * time to the task after the next frame, installProbe) of a key whose only
 * work is one text node changed, in a bare input laid over the page. A key
 * arrives anywhere within a frame (60 Hz: 16.7 ms) and its change is
 * painted with the next one, so even no work at all is not painted within
 * a frame every time; the search's own cost is what it adds to this.
 */
async function keystrokeFloor(page: Page, keys: number): Promise<{ samples: number; p50Ms: number; p95Ms: number }> {
  await page.evaluate(() => {
    const box = document.createElement('input');
    box.id = 'bench-floor-input';
    box.setAttribute('aria-label', 'Bench floor');
    box.style.cssText = 'position:fixed;top:0;left:0;z-index:9999;width:200px';
    const shown = document.createElement('p');
    shown.id = 'bench-floor-text';
    shown.style.cssText = 'position:fixed;top:40px;left:0;z-index:9999;background:white';
    shown.textContent = '0';
    box.addEventListener('input', () => {
      shown.dataset.n = String(box.value.length);
      shown.textContent = String(box.value.length);
    });
    document.body.append(box, shown);
    box.focus();
  });
  const timings: number[] = [];
  let length = 0;
  for (let i = 0; i < keys; i++) {
    const key = i % 20 === 19 ? 'Backspace' : 'abcdefghijklmnopqrstuvwxyz'[i % 26]!;
    length += key === 'Backspace' ? -1 : 1;
    const changed = `#bench-floor-text[data-n="${length}"]`;
    const { ms: took } = await timed(page, 'selector', 'keydown', () => page.keyboard.press(key), 120_000, changed);
    timings.push(took);
  }
  await page.evaluate(() => {
    document.getElementById('bench-floor-input')?.remove();
    document.getElementById('bench-floor-text')?.remove();
  });
  return { samples: timings.length, p50Ms: median(timings), p95Ms: percentile(timings, 95) };
}

/** The keystrokes: the queries of bench:sync typed letter by letter, each cleared after; only keys that change the count are timed. */
async function typeSearches(page: Page, data: BenchData): Promise<ScreensRun['keystroke']> {
  const homes = withPeople(data.houses, data.residents, data.phones);
  const countOf = (query: string) => homes.filter((home) => matches(home, query)).length;
  const box = page.getByPlaceholder('Search homes...');
  await box.click();
  const timings: number[] = [];
  const domTimings: number[] = [];
  const mismatches: string[] = [];
  /** What each timed key did: the query it made (or the clearing) and the homes it shows. */
  const labels: string[] = [];
  let unchanged = 0;
  const press = async (key: string, expected: number, previous: number) => {
    const act = () => (key.length === 1 ? page.keyboard.type(key) : page.keyboard.press(key));
    if (expected === previous) {
      // Not timed (the count does not move); the app's work for it is let finish before the next key.
      unchanged++;
      await act();
      await page.waitForTimeout(Math.max(200, 2 * (median(timings) || 100)));
      return;
    }
    const { ms: took, domMs, after } = await timed(page, 'count', 'keydown', act, 120_000);
    timings.push(took);
    labels.push(`${key === 'Backspace' ? 'clear' : JSON.stringify(await box.inputValue())} → ${expected}`);
    domTimings.push(domMs);
    const shown = Number(/Showing\s+([\d,]+)\s+home/.exec(after ?? '')?.[1]?.replace(/,/g, ''));
    if (shown !== expected)
      mismatches.push(`${JSON.stringify(await box.inputValue())}: shows ${after}, expected ${expected}`);
  };
  const total = data.houses.length;
  for (const query of searchQueries(data)) {
    let typed = '';
    for (const char of query) {
      const previous = countOf(typed);
      typed += char;
      await press(char, countOf(typed), previous);
    }
    await page.keyboard.press('Control+A');
    await press('Backspace', total, countOf(typed));
    if (timings.length >= keyTarget) break;
  }
  if (timings.length < 100) throw new Error(`only ${timings.length} keystrokes changed the count`);
  return {
    samples: timings.length,
    p50Ms: median(timings),
    p95Ms: percentile(timings, 95),
    domP50Ms: median(domTimings),
    domP95Ms: percentile(domTimings, 95),
    maxMs: Math.max(...timings),
    unchangedKeys: unchanged,
    countMismatches: mismatches,
    timingsMs: timings,
    slowest: timings
      .map((t, i) => ({ ms: t, key: labels[i]! }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 8),
  };
}

async function main(): Promise<void> {
  const cleanup: Array<() => Promise<void> | void> = [];
  let server: RunningPocketBase | undefined;
  let context: BrowserContext | undefined;
  try {
    const { distDir, remove } = await appToMeasure(options.dist, 'screens', progress);
    cleanup.push(remove);
    const bundle = measureRoutes(distDir);

    const seeded = await seededFolder(progress, scale);
    cleanup.push(() => rmSync(seeded.dataDir, { recursive: true, force: true }));
    const { data } = seeded;
    server = await startPocketBase({ dataDir: seeded.dataDir, publicDir: distDir, superuser: SUPERUSER });
    const admin = new PocketBase(server.url);
    await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
    // The limiter would refuse a long session's reloads and pulls; this measures the screens, not the limiter.
    await admin.settings.update({ rateLimits: { enabled: false } });
    progress(
      `PocketBase at ${server.url}: ${int(data.houses.length)} homes, ${int(data.reports.length)} reports (rate limits off in this run's copy)`,
    );
    // The seeded history ends when the community was seeded (its rounds then closed); the rounds since,
    // up to two days back, are walked now on this run's copy, so the shift under way was walked too.
    const recentStarted = performance.now();
    const recent = await addRecentTourWalks(admin, seeded);
    const { tours } = seeded;
    const tourRecords: TourRecords = {
      tours: tours.tours,
      walks: [...tours.walks, ...recent.walks],
      scans: [...tours.scans, ...recent.scans],
    };
    progress(
      `tours: ${tours.checkpoints.length} checkpoints, ${tours.tours.length} tours, ${int(tours.walks.length)} walks and ${int(tours.scans.length)} scans over the ${TOUR_DAYS} days before the seed; ${recent.walks.length} walks and ${recent.scans.length} scans since, added in ${ms(performance.now() - recentStarted)}`,
    );

    const profileDir = mkdtempSync(join(tmpdir(), 'scms-bench-screens-profile-'));
    cleanup.push(() => rmSync(profileDir, { recursive: true, force: true }));
    // A persistent profile: IndexedDB on disk and a service worker, as on a phone.
    context = await launchPersistentChromium(profileDir);
    // tsx compiles installProbe with esbuild's keepNames, whose __name helper the page does not have.
    await context.addInitScript('globalThis.__name ??= (fn) => fn;');
    await context.addInitScript(installProbe, HOME_CARD);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize(PHONE);
    const pageErrors: string[] = [];
    let offline = false;
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Offline, the browser logs each refused request (sync, realtime); the login page asks for the
      // demo sign-in, which a server out of demo mode answers 404: expected, not the app's errors.
      const url = message.location().url;
      if (offline && /ERR_INTERNET_DISCONNECTED|Failed to (load resource|fetch)/.test(message.text())) return;
      if (url.endsWith('/api/scms/demo') && /404/.test(message.text())) return;
      pageErrors.push(`${message.text()} (${url})`);
    });

    // ---- sign-in ----
    await page.goto(server.url);
    // On a new phone the service worker installs while the login page waits for an email and a
    // password: its precache of every chunk (about 1.7 s here) is over before a person has typed
    // them. Filled by a script at once, the sign-in would share the connections and the server with
    // that precache; it is measured once the worker is in place, as a person meets it.
    const workerStarted = Date.now();
    await waitForWorkerControl(page);
    const workerInstallMs = Date.now() - workerStarted;
    progress(`service worker installed ${ms(workerInstallMs)} after the login page opened`);
    // A manager: an officer's screens and the dashboard (directors and managers only).
    const officer = data.staff.find((s) => s.type === 'manager')!;
    await page.getByLabel('Email').fill(officer.email as string);
    await page.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD);
    const userAgent = await page.evaluate(() => navigator.userAgent);
    progress(`signing in as ${officer.email as string} (empty IndexedDB)`);
    // `--sync-profile FILE`: a CPU profile of the page from the Login click to the first sync done.
    const syncProfiler = options['sync-profile'] ? await context.newCDPSession(page) : null;
    if (syncProfiler) {
      await syncProfiler.send('Profiler.enable');
      await syncProfiler.send('Profiler.setSamplingInterval', { interval: 500 });
      await syncProfiler.send('Profiler.start');
    }
    const syncTracer = options['sync-trace'] ? await startTrace(context, page) : null;
    await page.evaluate((homes) => (window.screensProbe.total = { homes, shownAt: null }), data.houses.length);
    const signInStarted = Date.now();
    const { ms: signInToFirstCardMs } = await timed(page, 'card', 'click', () =>
      page.getByRole('button', { name: 'Login' }).click(),
    );
    progress(`  first home card after ${ms(signInToFirstCardMs)}`);
    const userId = await signedInUserId(page);
    await waitForFirstSync(page, userId, 600_000);
    // The app's own time of it (the mark its first pull leaves at its end), not when the poll saw it.
    const signInToSyncedMs = await page.evaluate(
      (mark) => performance.getEntriesByName(mark)[0]!.startTime - window.screensProbe.clickAt!,
      PULL_DONE_MARK,
    );
    progress(`  first sync done after ${ms(signInToSyncedMs)}`);
    if (syncTracer) {
      writeFileSync(resolve(options['sync-trace']!), await syncTracer());
      progress(`Chrome trace of the sign-in and first sync written to ${options['sync-trace']}`);
    }
    await page.waitForFunction(() => (window.screensProbe.total?.shownAt ?? -1) > 0, null, {
      polling: 50,
      timeout: 600_000,
    });
    const signInToAllHomesMs = await page.evaluate(
      () => window.screensProbe.total!.shownAt! - window.screensProbe.clickAt!,
    );
    progress(`  every home on the list after ${ms(signInToAllHomesMs)}`);
    if (syncProfiler) {
      const { profile } = await syncProfiler.send('Profiler.stop');
      writeFileSync(resolve(options['sync-profile']!), JSON.stringify(profile));
      await syncProfiler.detach();
      progress(`CPU profile of the sign-in and first sync written to ${options['sync-profile']}`);
    }
    // A first load's pages become rows in the background (src/data/mirror/unpack.ts); what follows is
    // measured once they have, on the mirror as it then stays.
    await waitForPagesUnpacked(page, await signedInUserId(page), 600_000);
    const signInToRowsMs = Date.now() - signInStarted;
    progress(`  the first load's pages written as rows after ${ms(signInToRowsMs)}`);
    await waitForWorkerControl(page);
    await settle(page);

    const domElements = await page.evaluate(() => document.getElementsByTagName('*').length);
    const heapOpen = await heapMB(context, page);
    progress(`Homes open: ${int(domElements)} DOM elements, ${heapOpen.toFixed(1)} MB JS heap`);
    if (options['heap-snapshot']) {
      await writeHeapSnapshot(context, page, resolve(options['heap-snapshot']));
      progress(`heap snapshot written to ${options['heap-snapshot']}`);
    }

    // ---- keystrokes ----
    progress(`typing searches until ${keyTarget} keystrokes changed the count`);
    const profiler = options['cpu-profile'] ? await context.newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.send('Profiler.start');
    }
    const keystroke = await typeSearches(page, data);
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      writeFileSync(resolve(options['cpu-profile']!), JSON.stringify(profile));
      await profiler.detach();
      progress(`CPU profile of the typing written to ${options['cpu-profile']}`);
    }
    keystroke.floor = await keystrokeFloor(page, keystroke.samples);
    progress(
      `  p50 ${ms(keystroke.p50Ms)}, p95 ${ms(keystroke.p95Ms)} over ${keystroke.samples} keys (${keystroke.unchangedKeys} untimed: count unchanged)`,
    );
    progress(
      `  a keystroke that does no work: p50 ${ms(keystroke.floor.p50Ms)}, p95 ${ms(keystroke.floor.p95Ms)} over ${keystroke.floor.samples} keys`,
    );
    progress(`  slowest: ${keystroke.slowest.map((k) => `${k.key} (${ms(k.ms)})`).join(', ')}`);
    await page.getByPlaceholder('Search homes...').fill('');
    await settle(page);

    // ---- Reports → Homes ----
    const warmRuns: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      await showReports(page);
      warmRuns.push(await reportsToHomes(page));
    }
    progress(`Reports → Homes warm: ${warmRuns.map(ms).join(', ')}`);
    const coldRuns: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      // A fresh page on Reports: the Homes screen's code and its first query have not run in it.
      await page.goto(`${server.url}/reports`);
      await page.getByRole('heading', { name: 'Reports' }).waitFor({ timeout: 600_000 });
      await settle(page);
      coldRuns.push(await reportsToHomes(page));
    }
    progress(`Reports → Homes cold: ${coldRuns.map(ms).join(', ')}`);

    // ---- offline reload ----
    const offlineRuns: number[] = [];
    await context.setOffline(true);
    offline = true;
    for (let i = 0; i < OFFLINE_RUNS; i++) {
      const reloadProfiler =
        options['reload-profile'] && i === OFFLINE_RUNS - 1 ? await context.newCDPSession(page) : null;
      if (reloadProfiler) {
        await reloadProfiler.send('Profiler.enable');
        await reloadProfiler.send('Profiler.setSamplingInterval', { interval: 200 });
        await reloadProfiler.send('Profiler.start');
      }
      await page.reload();
      await page.waitForFunction(() => window.screensProbe.firstCard !== null, null, { polling: 50, timeout: 600_000 });
      offlineRuns.push(await page.evaluate(() => window.screensProbe.firstCard!));
      if (reloadProfiler) {
        const { profile } = await reloadProfiler.send('Profiler.stop');
        writeFileSync(resolve(options['reload-profile']!), JSON.stringify(profile));
        await reloadProfiler.detach();
        progress(`CPU profile of the last offline reload written to ${options['reload-profile']}`);
      }
      await settle(page);
    }
    await context.setOffline(false);
    offline = false;
    progress(`offline reload of /homes to first card: ${offlineRuns.map(ms).join(', ')}`);
    const heapReload = await heapMB(context, page);

    // ---- the patrol and manager screens ----
    const shift = await shiftScreens(page);
    progress(
      `House checks ${ms(shift.houseChecksMs)}, Daily report ${ms(shift.dailyReportMs)}, its PDF ${ms(shift.dailyPdfMs)}, Dashboard ${ms(shift.dashboardMs)}`,
    );

    const toursRuns = await homesToTours(context, page, tourRecords);
    progress(
      `Homes → Tours: first ${ms(toursRuns.firstMs)}, warm ${toursRuns.warmRunsMs.map(ms).join(', ')} (${toursRuns.roundsShown} rounds listed: ${toursRuns.headings.join(', ')})`,
    );
    for (const mismatch of toursRuns.mismatches) progress(`  ${mismatch}`);

    const callCard = await callOnCard(page, admin, data);
    progress(`a call on the card: placed ${ms(callCard.placedMs)}, ended ${ms(callCard.endedMs)}`);

    const totalMs = performance.now() - started;
    const run: ScreensRun = {
      ranAt: new Date().toISOString(),
      scale,
      machine: { cores: cpus().length, node: process.version, userAgent },
      load: { before: loadBefore, after: loadavg()[0]! },
      community: { houses: data.houses.length, reports: data.reports.length },
      viewport: PHONE,
      bundle,
      workerInstallMs,
      signInToFirstCardMs,
      signInToSyncedMs,
      signInToAllHomesMs,
      signInToRowsMs,
      keystroke,
      reportsToHomes: {
        warmMs: median(warmRuns),
        coldMs: median(coldRuns),
        warmRunsMs: warmRuns,
        coldRunsMs: coldRuns,
      },
      offlineReloadToFirstCardMs: median(offlineRuns),
      offlineReloadRunsMs: offlineRuns,
      shift,
      callOnCard: callCard,
      tours: {
        ...toursRuns,
        history: {
          days: TOUR_DAYS,
          checkpoints: tours.checkpoints.length,
          tours: tours.tours.length,
          walks: tourRecords.walks.length,
          scans: tourRecords.scans.length,
        },
      },
      domElements,
      heapMB: { withHomesOpen: heapOpen, afterReload: heapReload },
      pageErrors,
      totalMs,
    };

    // One file for both sizes: this run replaces the previous run at its scale.
    const previous = existsSync(OUTPUT)
      ? (JSON.parse(readFileSync(OUTPUT, 'utf8')) as { runs?: Record<string, ScreensRun> })
      : {};
    // A run from an earlier version of this file (other fields) is dropped, not shown wrong.
    const earlier = Object.entries(previous.runs ?? {}).filter(([, r]) => r.heapMB !== undefined);
    const runs = { ...Object.fromEntries(earlier), [String(scale)]: run };
    mkdirSync(dirname(OUTPUT), { recursive: true });
    writeFileSync(OUTPUT, `${JSON.stringify({ runs }, null, 2)}\n`);

    console.log('\n## Screens benchmark: the built app in Chromium at 390×844\n');
    console.log(
      `Machine: ${cpus().length} cores (load average ${run.load.before.toFixed(1)} before, ${run.load.after.toFixed(1)} after this run), Node ${process.version}, ${userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] ?? userAgent}, PocketBase on 127.0.0.1.`,
    );
    console.log(
      `Medians of ${WARM_RUNS} warm, ${COLD_RUNS} cold and ${OFFLINE_RUNS} offline runs; heap after a garbage collection.\n`,
    );
    console.log(table(Object.values(runs).sort((a, b) => a.scale - b.scale)));
    console.log('');
    if (keystroke.countMismatches.length > 0)
      console.log(`Count mismatches: ${keystroke.countMismatches.slice(0, 5).join(' | ')}`);
    if (pageErrors.length > 0) console.log(`Page errors: ${pageErrors.slice(0, 5).join(' | ')}`);
    if (toursRuns.mismatches.length > 0) console.log(`Tours rounds mismatches: ${toursRuns.mismatches.join(' | ')}`);
    console.log(`Total runtime: ${ms(totalMs)}.`);
    progress(`wrote ${OUTPUT}`);

    // Figures from a screen that showed the wrong homes measure nothing: fail loudly.
    const problems = [
      keystroke.countMismatches.length > 0 && 'the Homes count differs from the search rule',
      pageErrors.length > 0 && 'the page reported errors',
      toursRuns.mismatches.length > 0 && 'the Tours screen listed other rounds than the board rule says',
    ].filter(Boolean);
    if (problems.length > 0) {
      console.error(`bench:screens: ${problems.join('; ')}`);
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
