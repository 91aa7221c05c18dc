/**
 * `npm run bench:lighthouse [-- --scale N | --demo] [--runs N] [--dist DIR]`:
 * Lighthouse's mobile performance audit (its default mobile emulation and
 * simulated throttling) of Homes and Reports, signed in, on the real built
 * app served by PocketBase with the benchmark's large community (seed.ts:
 * `--scale 1` = 5,000 homes and 20,000 reports, the default) or the demo
 * data (`--scale 0` or `--demo`: 42 homes).
 *
 * Signed in means what an officer's phone has: the session (PocketBase's auth
 * in localStorage), the mirror (IndexedDB after the first sync) and the
 * service worker. So Debian's Chromium starts with a persistent profile and a
 * remote-debugging port; playwright-core signs in and waits for the first
 * sync in it; then Lighthouse connects to the same browser (no browser of its
 * own) and audits /homes and /reports in new tabs of that profile with
 * `disableStorageReset`, which keeps storage, caches and service worker.
 *
 * Runs alternate between the pages (Homes, Reports, Homes, …) so that a
 * change in the shared machine's load falls on both. Prints each run and the
 * medians with the 1-minute load average before each run, writes
 * test-results/bench/lighthouse.json (figures and what Lighthouse names as the
 * causes: long tasks, main-thread work by script, the LCP element) and every
 * run's full report as test-results/bench/lighthouse/<page>-<run>.report.json
 * (opens in the Lighthouse viewer).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import PocketBase from 'pocketbase';
import type { BrowserContext } from 'playwright-core';
import { launchPersistentChromium } from '../../scripts/browser/chromium.ts';
import { freePort, projectRoot, startPocketBase } from '../../scripts/pocketbase/server.ts';
import { DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import { seedDemo } from '../../scripts/seed/seed.ts';
import { signedInUserId, waitForFirstSync, waitForWorkerControl } from '../e2e/pwa-helpers.ts';
import { startTestServer } from '../support/pocketbase.ts';
import { appToMeasure } from './app.ts';
import { STAFF_PASSWORD } from './data.ts';
import { seededFolder, SUPERUSER } from './seed.ts';

const OUTPUT = join(projectRoot, 'test-results', 'bench', 'lighthouse.json');
const REPORTS = join(projectRoot, 'test-results', 'bench', 'lighthouse');
const PAGES = [
  { name: 'Homes', path: '/homes' },
  { name: 'Reports', path: '/reports' },
] as const;
type PageName = (typeof PAGES)[number]['name'];
/** The target: Lighthouse mobile performance, on both pages. */
const TARGET_SCORE = 90;

const { values: options } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    demo: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    dist: { type: 'string' },
  },
});
const scale = options.demo ? 0 : Number(options.scale);
const runCount = Number(options.runs);
if (!Number.isInteger(scale) || scale < 0)
  throw new Error(`--scale must be a whole number ≥ 0 (0 = the demo data), not ${options.scale}`);
if (!Number.isInteger(runCount) || runCount < 1)
  throw new Error(`--runs must be a whole number ≥ 1, not ${options.runs}`);

const started = performance.now();
const progress = (message: string) =>
  console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);
const load1 = () => loadavg()[0]!;

// ---- figures ----------------------------------------------------------------------

/** The metrics of Lighthouse's performance score (v10+ weights), by audit id. */
const METRICS = {
  fcpMs: 'first-contentful-paint',
  lcpMs: 'largest-contentful-paint',
  tbtMs: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  speedIndexMs: 'speed-index',
} as const;
type Metrics = Record<keyof typeof METRICS, number>;

interface LighthouseRun {
  page: PageName;
  run: number;
  /** 0–100, as Lighthouse shows it. */
  score: number;
  metrics: Metrics;
  /** The 1-minute load average before this run: the machine is shared. */
  load: number;
  /** Lighthouse's measure of this machine's CPU speed at the run (lower: slower or busier); its throttling assumes a fast desktop. */
  benchmarkIndex: number;
  finalUrl: string;
  /** Main-thread time by category (Lighthouse's mainthread-work-breakdown), ms. */
  mainThread: Record<string, number>;
  /** The scripts with the most main-thread time (bootup-time): url, total and scripting ms. */
  scripts: Array<{ url: string; totalMs: number; scriptingMs: number }>;
  /** Long tasks seen in the (unthrottled) trace, longest first: start and duration ms, and the script. */
  longTasks: Array<{ url: string; startMs: number; durationMs: number }>;
  lcpElement: string | null;
  warnings: string[];
  report: string;
}

interface LighthouseBench {
  ranAt: string;
  scale: number;
  community: { houses: number; reports: number };
  machine: { cores: number; node: string; userAgent: string; lighthouse: string };
  runs: LighthouseRun[];
  medians: Record<PageName, { score: number } & Metrics>;
  totalMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const time = (n: number) => (n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`);

/** The items of a table audit's details, typed loosely (each audit has its own columns). */
function items(lhr: Result, audit: string): Array<Record<string, unknown>> {
  const details = lhr.audits[audit]?.details as { items?: Array<Record<string, unknown>> } | undefined;
  return details?.items ?? [];
}

function summarise(lhr: Result, page: PageName, run: number, load: number, report: string): LighthouseRun {
  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined)
      throw new Error(
        `Lighthouse gave no ${id} for ${page} (run ${run}): ${lhr.audits[id]?.errorMessage ?? lhr.runtimeError?.message ?? 'no reason given'}`,
      );
    return value;
  };
  const score = lhr.categories.performance?.score;
  if (score == null)
    throw new Error(
      `Lighthouse gave no performance score for ${page} (run ${run}): ${lhr.runtimeError?.message ?? 'no reason given'}`,
    );
  const lcpItem = items(lhr, 'largest-contentful-paint-element')[0] as
    { items?: Array<{ node?: { snippet?: string } }> } | undefined;
  return {
    page,
    run,
    score: Math.round(score * 100),
    metrics: Object.fromEntries(Object.entries(METRICS).map(([key, id]) => [key, metric(id)])) as Metrics,
    load,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    finalUrl: lhr.finalDisplayedUrl,
    mainThread: Object.fromEntries(
      items(lhr, 'mainthread-work-breakdown').map((i) => [
        String(i.groupLabel ?? i.group),
        Math.round(Number(i.duration)),
      ]),
    ),
    scripts: items(lhr, 'bootup-time')
      .slice(0, 5)
      .map((i) => ({
        url: String(i.url),
        totalMs: Math.round(Number(i.total)),
        scriptingMs: Math.round(Number(i.scripting)),
      })),
    longTasks: items(lhr, 'long-tasks')
      .slice(0, 8)
      .map((i) => ({
        url: String(i.url),
        startMs: Math.round(Number(i.startTime)),
        durationMs: Math.round(Number(i.duration)),
      })),
    lcpElement: lcpItem?.items?.[0]?.node?.snippet ?? null,
    warnings: lhr.runWarnings.map(String),
    report,
  };
}

function table(bench: LighthouseBench): string {
  const row = (page: string, run: string, r: { score: number } & Metrics, load: string, cpu: string) =>
    `| ${page} | ${run} | ${r.score} | ${time(r.fcpMs)} | ${time(r.lcpMs)} | ${time(r.tbtMs)} | ${r.cls.toFixed(3)} | ${time(r.speedIndexMs)} | ${load} | ${cpu} |`;
  const lines = [
    '| page | run | performance | FCP | LCP | TBT | CLS | Speed Index | load (1 min) | benchmark index |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { name } of PAGES) {
    for (const r of bench.runs.filter((x) => x.page === name))
      lines.push(
        row(name, String(r.run), { score: r.score, ...r.metrics }, r.load.toFixed(2), String(r.benchmarkIndex)),
      );
    lines.push(row(`**${name}**`, '**median**', bench.medians[name], '—', '—'));
  }
  return lines.join('\n');
}

// ---- the run ----------------------------------------------------------------------

interface Community {
  url: string;
  account: { email: string; password: string };
  houses: number;
  reports: number;
  stop: () => Promise<void>;
}

/** PocketBase serving the build, with the benchmark's community at `scale` (0: the demo data), rate limits off. */
async function startCommunity(distDir: string): Promise<Community> {
  if (scale === 0) {
    const server = await startTestServer({}, { publicDir: distDir });
    const summary = await seedDemo(server.admin);
    await server.admin.settings.update({ rateLimits: { enabled: false } });
    const { houses, reports } = summary.counts;
    return {
      url: server.url,
      account: DEMO_REGULAR,
      houses: houses.created + houses.present,
      reports: reports.created + reports.present,
      stop: () => server.stop(),
    };
  }
  const seeded = await seededFolder(progress, scale);
  const server = await startPocketBase({ dataDir: seeded.dataDir, publicDir: distDir, superuser: SUPERUSER });
  const admin = new PocketBase(server.url);
  await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
  // Lighthouse reloads and the app pulls on every load; this measures the screens, not the limiter.
  await admin.settings.update({ rateLimits: { enabled: false } });
  const officer = seeded.data.staff.find((s) => s.type === 'regular')!;
  return {
    url: server.url,
    account: { email: officer.email as string, password: STAFF_PASSWORD },
    houses: seeded.data.houses.length,
    reports: seeded.data.reports.length,
    stop: async () => {
      await server.stop();
      rmSync(seeded.dataDir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const cleanup: Array<() => Promise<void> | void> = [];
  let context: BrowserContext | undefined;
  try {
    const { distDir, remove } = await appToMeasure(options.dist, 'lighthouse', progress);
    cleanup.push(remove);

    const community = await startCommunity(distDir);
    cleanup.push(() => community.stop());
    progress(`PocketBase at ${community.url}: ${int(community.houses)} homes, ${int(community.reports)} reports`);

    // One browser, one persistent profile: playwright-core signs in through its pipe, Lighthouse audits through the port.
    const profileDir = mkdtempSync(join(tmpdir(), 'scms-bench-lighthouse-profile-'));
    cleanup.push(() => rmSync(profileDir, { recursive: true, force: true }));
    const port = await freePort();
    context = await launchPersistentChromium(profileDir, [`--remote-debugging-port=${port}`]);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(community.url);
    await page.getByLabel('Email').fill(community.account.email);
    await page.getByLabel('Password', { exact: true }).fill(community.account.password);
    progress(`signing in as ${community.account.email}`);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: 'Homes' }).waitFor({ timeout: 600_000 });
    await waitForFirstSync(page, await signedInUserId(page), 600_000);
    await waitForWorkerControl(page);
    const userAgent = await page.evaluate(() => navigator.userAgent);
    progress('first sync done; the session, the mirror and the service worker are in the profile');
    // Only the audited tab runs the app from here on.
    await page.goto('about:blank');

    mkdirSync(REPORTS, { recursive: true });
    const flags: Flags = {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: true,
    };
    const runs: LighthouseRun[] = [];
    let version = '';
    for (let run = 1; run <= runCount; run++) {
      for (const target of PAGES) {
        const load = load1();
        const result = await lighthouse(`${community.url}${target.path}`, flags);
        if (!result) throw new Error(`Lighthouse returned nothing for ${target.name}`);
        version = result.lhr.lighthouseVersion;
        const report = join(REPORTS, `${target.name.toLowerCase()}-${run}.report.json`);
        writeFileSync(report, typeof result.report === 'string' ? result.report : JSON.stringify(result.lhr));
        const summary = summarise(result.lhr, target.name, run, load, report);
        // Audited anywhere but the signed-in screen (the login page after a lost session), the figures measure something else.
        if (new URL(summary.finalUrl).pathname !== target.path)
          throw new Error(
            `${target.name} ended on ${summary.finalUrl}, not ${target.path}: the profile is not signed in`,
          );
        runs.push(summary);
        const m = summary.metrics;
        progress(
          `${target.name} run ${run}: ${summary.score} (FCP ${time(m.fcpMs)}, LCP ${time(m.lcpMs)}, TBT ${time(m.tbtMs)}, CLS ${m.cls.toFixed(3)}, SI ${time(m.speedIndexMs)}; load ${load.toFixed(2)}, benchmark index ${summary.benchmarkIndex})`,
        );
      }
    }

    const medians = Object.fromEntries(
      PAGES.map(({ name }) => {
        const mine = runs.filter((r) => r.page === name);
        const metrics = Object.fromEntries(
          Object.keys(METRICS).map((key) => [key, median(mine.map((r) => r.metrics[key as keyof Metrics]))]),
        ) as Metrics;
        return [name, { score: median(mine.map((r) => r.score)), ...metrics }];
      }),
    ) as LighthouseBench['medians'];
    const bench: LighthouseBench = {
      ranAt: new Date().toISOString(),
      scale,
      community: { houses: community.houses, reports: community.reports },
      machine: { cores: cpus().length, node: process.version, userAgent, lighthouse: version },
      runs,
      medians,
      totalMs: performance.now() - started,
    };
    // One file for every scale: this run replaces the previous run at its scale.
    const previous = existsSync(OUTPUT)
      ? (JSON.parse(readFileSync(OUTPUT, 'utf8')) as { runs?: Record<string, LighthouseBench> })
      : {};
    mkdirSync(dirname(OUTPUT), { recursive: true });
    writeFileSync(OUTPUT, `${JSON.stringify({ runs: { ...previous.runs, [String(scale)]: bench } }, null, 2)}\n`);

    console.log(
      `\n## Lighthouse mobile, signed in: ${int(community.houses)} homes / ${int(community.reports)} reports (${scale === 0 ? 'the demo data' : `scale ${scale}`})\n`,
    );
    console.log(
      `Lighthouse ${version}, default mobile emulation and simulated throttling (4× CPU slowdown of what this machine shows), storage kept; ${userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] ?? userAgent}; ${cpus().length} cores, load average (1 min) before each run and Lighthouse's benchmark index of the CPU at the run in the last columns.\n`,
    );
    console.log(table(bench));
    console.log(`\nTarget: performance ≥ ${TARGET_SCORE} on both pages. Full reports in ${REPORTS}.`);
    progress(`wrote ${OUTPUT}`);
  } finally {
    await context?.close();
    for (const step of cleanup.reverse()) await step();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
