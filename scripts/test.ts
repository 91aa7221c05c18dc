/**
 * `npm test`: the whole suite, in the order that fails fastest: the type
 * checker and the linter (one check each), unit tests,
 * integration tests against real PocketBase servers, then browser tests
 * against the freshly built app in Debian's Chromium. Prints one closing
 * line `N passed, N failed` and exits non-zero on any failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePocketBase } from './pocketbase/install.ts';
import { projectRoot } from './pocketbase/server.ts';
import { addCounts, countTests, layerSeconds, type TestCounts, type VitestJsonReport } from './test-summary.ts';

interface StageResult {
  counts: TestCounts;
  ok: boolean;
  /** Each test layer's own time within the stage (scripts/test-summary.ts). */
  layers?: Array<[string, number]>;
}

const resultsDir = join(projectRoot, 'test-results');
rmSync(join(resultsDir, 'vitest'), { recursive: true, force: true });
mkdirSync(join(resultsDir, 'vitest'), { recursive: true });

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: projectRoot, stdio: 'inherit' });
  return result.status ?? 1;
}

/** A stage that could not even report (Vitest or the build crashed) counts as one failure. */
const CRASHED: StageResult = { counts: { passed: 0, failed: 1, skipped: 0 }, ok: false };

function runVitest(stage: string, projects: string[]): StageResult {
  const output = join(resultsDir, 'vitest', `${stage}.json`);
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${output}`,
  ];
  const status = run('npx', args);
  let report: VitestJsonReport;
  try {
    report = JSON.parse(readFileSync(output, 'utf8')) as VitestJsonReport;
  } catch {
    return CRASHED;
  }
  const counts = countTests(report);
  return { counts, ok: status === 0 && report.success && counts.failed === 0, layers: layerSeconds(report) };
}

/** How long each stage took, printed at the end: the suite must stay quick, so its time is in every run's output. */
const timings: Array<[string, number]> = [];
function timed<T>(label: string, stage: () => T): T {
  const started = performance.now();
  try {
    return stage();
  } finally {
    timings.push([label, (performance.now() - started) / 1000]);
  }
}

async function main(): Promise<void> {
  await ensurePocketBase();
  const results: StageResult[] = [];
  // The type checker, the linter and the formatter first: a type error is a
  // failure even where no test reaches the code (each counts as one failed check).
  for (const [label, command] of [
    ['Type checking (tsc -b)', ['tsc', '-b']],
    ['Linting (eslint)', ['eslint', '.']],
    ['Checking the format (prettier)', ['prettier', '--check', '.']],
  ] as const) {
    process.stdout.write(`\n${label}...\n`);
    const status = timed(label.replace(/ \(.*/, ''), () => run('npx', [...command]));
    results.push(status === 0 ? { counts: { passed: 1, failed: 0, skipped: 0 }, ok: true } : CRASHED);
  }
  results.push(timed('Unit and integration tests', () => runVitest('unit-integration', ['unit', 'integration'])));

  process.stdout.write('\nBuilding the app for the browser tests...\n');
  if (timed('Building the app', () => run('npx', ['vite', 'build', '--logLevel', 'warn'])) !== 0) {
    results.push(CRASHED);
  } else {
    results.push(timed('Browser tests', () => runVitest('e2e', ['e2e'])));
  }

  process.stdout.write('\nTime by stage:\n');
  const line = (label: string, seconds: number) =>
    process.stdout.write(`  ${label.padEnd(28)} ${seconds.toFixed(0).padStart(5)} s\n`);
  for (const [label, seconds] of timings) line(label, seconds);
  process.stdout.write('Of which, by test layer:\n');
  for (const [layer, seconds] of results.flatMap((r) => r.layers ?? [])) line(`  ${layer}`, seconds);
  const total = timings.reduce((sum, [, seconds]) => sum + seconds, 0);
  process.stdout.write(`  ${'Total'.padEnd(28)} ${total.toFixed(0).padStart(5)} s\n`);

  const { passed, failed, skipped } = addCounts(results.map((r) => r.counts));
  const ok = failed === 0 && results.every((r) => r.ok);
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exit(ok ? 0 : 1);
}

main().catch((error: Error) => {
  process.stderr.write(`npm test failed: ${error.message}\n`);
  process.exit(1);
});
