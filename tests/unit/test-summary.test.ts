/**
 * `npm test`'s closing line counts a crashed file's tests as failed: a real
 * Vitest run over tests/fixtures/crashing-suite (a file whose beforeAll
 * throws, one that fails to load, and an ordinary one) read by the same
 * counting npm test uses.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { addCounts, countTests, type VitestJsonReport } from '../../scripts/test-summary.ts';

test('every test of a file that crashed counts as failed, not skipped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scms-summary-'));
  try {
    const output = join(dir, 'report.json');
    const run = spawnSync(
      process.execPath,
      [
        join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--config',
        join(projectRoot, 'tests', 'fixtures', 'crashing-suite', 'vitest.config.ts'),
        '--reporter=json',
        `--outputFile.json=${output}`,
      ],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    expect(run.status).not.toBe(0);
    const report = JSON.parse(readFileSync(output, 'utf8')) as VitestJsonReport;
    // Vitest itself calls the crashed file's three tests skipped...
    expect(
      report.testResults.find((f) => f.name.endsWith('crash.fixture.ts'))?.assertionResults.map((a) => a.status),
    ).toEqual(['skipped', 'skipped', 'skipped']);
    // ...npm test does not: 3 (crashed) + 1 (failed to load) + 1 (an ordinary failure).
    expect(countTests(report)).toEqual({ passed: 1, failed: 5, skipped: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test('stages add up', () => {
  expect(
    addCounts([
      { passed: 2, failed: 1, skipped: 0 },
      { passed: 3, failed: 0, skipped: 4 },
    ]),
  ).toEqual({ passed: 5, failed: 1, skipped: 4 });
});
