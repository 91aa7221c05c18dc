/**
 * `npm test`'s closing line counts a crashed file's tests as failed: a real
 * Vitest run over tests/fixtures/crashing-suite (a file whose beforeAll
 * throws, one that fails to load, and an ordinary one) read by the same
 * counting npm test uses; and the closing list of what failed names them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { addCounts, countTests, listFailures, type VitestJsonReport } from '../../scripts/test-summary.ts';

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
    // The closing list names each: the crashed file with its reason, the ordinary failure with its assertion.
    const failures = listFailures(report, projectRoot).join('\n');
    expect(failures).toContain('tests/fixtures/crashing-suite/crash.fixture.ts: the server did not start');
    expect(failures).toContain('tests/fixtures/crashing-suite/broken-import.fixture.ts: ');
    expect(failures).toContain('this file fails to load');
    expect(failures).toContain('tests/fixtures/crashing-suite/healthy.fixture.ts > fails');
    expect(failures).toMatch(/expected 1 to be 2/);
    expect(failures).not.toContain('> passes');
    expect(failures).not.toContain('\u001b[');
    expect(failures).not.toContain('node_modules');
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
