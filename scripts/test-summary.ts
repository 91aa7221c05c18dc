/**
 * Counts a Vitest JSON report for `npm test`'s closing line. A file that
 * crashed (its beforeAll threw, or it failed to load) reports its tests as
 * skipped, or none at all; here every test of such a file counts as failed,
 * and a file with no collected test as one failure, so a server that did not
 * start can never pass as "skipped".
 */
export interface VitestJsonReport {
  success: boolean;
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ status: string; fullName?: string; failureMessages?: string[] }>;
  }>;
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

type FileResult = VitestJsonReport['testResults'][number];

/** A file that failed as a whole (its beforeAll threw, or it failed to load): it carries a message of its own. */
const fileCrashed = (file: FileResult): boolean => file.status === 'failed' && (file.message ?? '') !== '';

export function countTests(report: VitestJsonReport): TestCounts {
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0 };
  for (const file of report.testResults) {
    const crashed = fileCrashed(file);
    if (crashed && file.assertionResults.length === 0) counts.failed += 1;
    for (const result of file.assertionResults) {
      if (result.status === 'passed') counts.passed += 1;
      else if (result.status === 'failed' || crashed) counts.failed += 1;
      else counts.skipped += 1;
    }
  }
  return counts;
}

export function addCounts(all: TestCounts[]): TestCounts {
  return all.reduce(
    (sum, c) => ({ passed: sum.passed + c.passed, failed: sum.failed + c.failed, skipped: sum.skipped + c.skipped }),
    { passed: 0, failed: 0, skipped: 0 },
  );
}

/** Longest part of a failure message kept in the closing list: enough for the assertion and its first frames. */
const FAILURE_EXCERPT = 600;

/**
 * The failed tests of a report, one line of where and a short excerpt of why
 * each: printed last by `npm test`, so the end of a long log (all a CI page
 * may keep) names what failed even when the job's own output scrolled away.
 */
export function listFailures(report: VitestJsonReport, projectRoot: string): string[] {
  const lines: string[] = [];
  for (const file of report.testResults) {
    const where = file.name.startsWith(projectRoot) ? file.name.slice(projectRoot.length + 1) : file.name;
    if (fileCrashed(file)) {
      lines.push(`${where}: ${excerpt(file.message ?? '')}`);
    }
    for (const result of file.assertionResults) {
      if (result.status !== 'failed') continue;
      lines.push(`${where} > ${result.fullName ?? '(unnamed)'}`);
      const why = (result.failureMessages ?? []).join('\n');
      if (why) lines.push(`    ${excerpt(why).replace(/\n/g, '\n    ')}`);
    }
  }
  return lines;
}

function excerpt(message: string): string {
  // ANSI colour codes make the excerpt unreadable in a plain log.
  const plain = message
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    // The runner's own frames say nothing about the test.
    .filter((line) => !/^\s*at .*node_modules/.test(line) && !/^\s*at new Promise/.test(line))
    .join('\n')
    .trim();
  return plain.length > FAILURE_EXCERPT ? `${plain.slice(0, FAILURE_EXCERPT)}…` : plain;
}
