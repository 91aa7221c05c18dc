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
    assertionResults: Array<{ status: string }>;
  }>;
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export function countTests(report: VitestJsonReport): TestCounts {
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0 };
  for (const file of report.testResults) {
    const crashed = file.status === 'failed' && (file.message ?? '') !== '';
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
