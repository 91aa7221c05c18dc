/**
 * `npm test`: the whole suite, in the order that fails fastest: unit tests,
 * integration tests against real PocketBase servers, then browser tests
 * against the freshly built app in Debian's Chromium. Prints one closing
 * line `N passed, N failed` and exits non-zero on any failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePocketBase } from './pocketbase/install.ts';
import { projectRoot } from './pocketbase/server.ts';

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  success: boolean;
}

const resultsDir = join(projectRoot, 'test-results');
rmSync(join(resultsDir, 'vitest'), { recursive: true, force: true });
mkdirSync(join(resultsDir, 'vitest'), { recursive: true });

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: projectRoot, stdio: 'inherit' });
  return result.status ?? 1;
}

function runVitest(stage: string, projects: string[]): VitestJson {
  const output = join(resultsDir, 'vitest', `${stage}.json`);
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${output}`];
  const status = run('npx', args);
  try {
    return JSON.parse(readFileSync(output, 'utf8')) as VitestJson;
  } catch {
    // Vitest could not even report (a crash or a config error).
    return { numPassedTests: 0, numFailedTests: 1, numPendingTests: 0, numTodoTests: 0, success: status === 0 && false };
  }
}

async function main(): Promise<void> {
  await ensurePocketBase();
  const results: VitestJson[] = [];
  results.push(runVitest('unit-integration', ['unit', 'integration']));

  process.stdout.write('\nBuilding the app for the browser tests...\n');
  if (run('npx', ['vite', 'build', '--logLevel', 'warn']) !== 0) {
    results.push({ numPassedTests: 0, numFailedTests: 1, numPendingTests: 0, numTodoTests: 0, success: false });
  } else {
    results.push(runVitest('e2e', ['e2e']));
  }

  const passed = results.reduce((n, r) => n + r.numPassedTests, 0);
  const failed = results.reduce((n, r) => n + r.numFailedTests, 0);
  const skipped = results.reduce((n, r) => n + r.numPendingTests + r.numTodoTests, 0);
  const ok = failed === 0 && results.every((r) => r.success);
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exit(ok ? 0 : 1);
}

main().catch((error: Error) => {
  process.stderr.write(`npm test failed: ${error.message}\n`);
  process.exit(1);
});
