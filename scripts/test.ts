/**
 * `npm test`: the whole suite, in two phases.
 *
 *   1. side by side: the checks (tsc -b, then ESLint, then Prettier), then
 *      the unit tests; the integration tests; the app's build;
 *   2. the browser tests, alone.
 *
 * Measured alone on a two-core machine, the browser layer keeps both cores
 * busy (about 1.9 of them: Chromium draws in software, and every journey
 * signs in on a new phone) and the integration layer most of them (1.6); the
 * checks and unit tests fill what the integration layer leaves. When the
 * browser layer also ran beside the rest, the whole suite took as long as
 * one layer after another (1,115 s against 1,163 s), but every test waited
 * up to seven times longer than alone (the unit layer 456 s against 61 s),
 * and the journeys that draw thousands of rows timed out. So the phase that
 * needs the machine gets it alone: about 150 s more in all (1,259-1,287 s on
 * a clean clone), for a run whose tests take the time they take alone.
 * Each job's output is kept and printed whole when it ends (so two jobs'
 * lines never interleave), then a table of each job's time and one closing
 * line `N passed, N failed`; the exit status is non-zero on any failure.
 * Running the unit tests beside the integration tests keeps them honest:
 * none may depend on an idle machine.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLitestream } from './cluster/litestream.ts';
import { ensureMoto } from './cluster/objectStorage.ts';
import { ensurePocketBase } from './pocketbase/install.ts';
import { HOOK_LIBS_BUILT, projectRoot } from './pocketbase/server.ts';
import { buildHookLibs } from './pocketbase/hook-libs.ts';
import { addCounts, countTests, listFailures, type TestCounts, type VitestJsonReport } from './test-summary.ts';

interface JobResult {
  counts: TestCounts;
  ok: boolean;
  /** What failed, for the closing list (empty when nothing did). */
  failures: string[];
}

const resultsDir = join(projectRoot, 'test-results');
rmSync(join(resultsDir, 'vitest'), { recursive: true, force: true });
mkdirSync(join(resultsDir, 'vitest'), { recursive: true });

const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(0).padStart(4);

/** Runs a command with its output kept; resolves with its exit status and what it printed. */
function run(command: string, args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    // FORCE_COLOR: the output is printed to the terminal later, so keep its colours when there is one.
    const env = { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) };
    const child = spawn(command, args, { cwd: projectRoot, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ status: 1, output: `${output}\n${error.message}` }));
    child.on('close', (status) => resolve({ status: status ?? 1, output }));
  });
}

/** A job that could not even report (Vitest or the build crashed) counts as one failure. */
function crashed(label: string): JobResult {
  return {
    counts: { passed: 0, failed: 1, skipped: 0 },
    ok: false,
    failures: [`${label}: failed (its output is above)`],
  };
}
const ONE_CHECK: JobResult = { counts: { passed: 1, failed: 0, skipped: 0 }, ok: true, failures: [] };

/** Each job's time, printed at the end: the suite must stay quick, so its time is in every run's output. */
const timings: Array<[string, number]> = [];

/** Runs one job: says when it starts, prints its output and its time when it ends. */
async function job(label: string, command: string, args: string[]): Promise<{ status: number; output: string }> {
  const from = performance.now();
  process.stdout.write(`[${elapsed()} s] ${label}: started\n`);
  const result = await run(command, args);
  const seconds = (performance.now() - from) / 1000;
  timings.push([label, seconds]);
  const verdict = result.status === 0 ? 'passed' : `FAILED (exit ${result.status})`;
  process.stdout.write(`\n[${elapsed()} s] ${label}: ${verdict} in ${seconds.toFixed(0)} s\n${result.output}\n`);
  return result;
}

async function vitestJob(label: string, project: string): Promise<JobResult> {
  const output = join(resultsDir, 'vitest', `${project}.json`);
  const args = [
    'vitest',
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${output}`,
  ];
  const { status } = await job(label, 'npx', args);
  let report: VitestJsonReport;
  try {
    report = JSON.parse(readFileSync(output, 'utf8')) as VitestJsonReport;
  } catch {
    return crashed(label);
  }
  const counts = countTests(report);
  const ok = status === 0 && report.success && counts.failed === 0;
  const failures = listFailures(report, projectRoot);
  if (!ok && failures.length === 0) failures.push(`${label}: exit ${status} (its output is above)`);
  return { counts, ok, failures };
}

/** The type checker, the linter and the formatter, one after another (a type error is a failure even where no test reaches the code), then the unit tests. */
async function checksThenUnit(): Promise<JobResult[]> {
  const results: JobResult[] = [];
  for (const [label, args] of [
    ['Type check (tsc -b)', ['tsc', '-b']],
    ['Lint (eslint)', ['eslint', '.']],
    ['Format (prettier)', ['prettier', '--check', '.']],
  ] as const) {
    const { status } = await job(label, 'npx', [...args]);
    results.push(status === 0 ? ONE_CHECK : crashed(label));
  }
  return [...results, await vitestJob('Unit tests', 'unit')];
}

async function appBuild(): Promise<JobResult | null> {
  const build = await job('App build (vite build)', 'npx', ['vite', 'build', '--logLevel', 'warn']);
  return build.status === 0 ? null : crashed('App build (vite build)');
}

async function main(): Promise<void> {
  await ensurePocketBase();
  // The streaming's parts (tests/integration/stream-restore.test.ts), installed before any test times anything.
  ensureLitestream();
  ensureMoto();
  // Once for every server the jobs start (startPocketBase skips it then).
  await buildHookLibs();
  process.env[HOOK_LIBS_BUILT] = '1';
  const [checks, integration, buildFailure] = await Promise.all([
    checksThenUnit(),
    vitestJob('Integration tests', 'integration'),
    appBuild(),
  ]);
  const results = [...checks, integration];
  // The browser tests serve the build: without one there is nothing to test.
  results.push(buildFailure ?? (await vitestJob('Browser tests', 'e2e')));

  process.stdout.write('\nTime by job (the first three lanes overlap; the browser tests run after them):\n');
  for (const [label, seconds] of timings) {
    process.stdout.write(`  ${label.padEnd(28)} ${seconds.toFixed(0).padStart(5)} s\n`);
  }
  process.stdout.write(`  ${'Total (wall clock)'.padEnd(28)} ${elapsed().trim().padStart(5)} s\n`);

  const failures = results.flatMap((r) => r.failures);
  if (failures.length) process.stdout.write(`\nWhat failed:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);

  const { passed, failed, skipped } = addCounts(results.map((r) => r.counts));
  const ok = failed === 0 && results.every((r) => r.ok);
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exit(ok ? 0 : 1);
}

main().catch((error: Error) => {
  process.stderr.write(`npm test failed: ${error.message}\n`);
  process.exit(1);
});
