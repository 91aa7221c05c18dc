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
    startTime?: number;
    endTime?: number;
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

/**
 * Each layer's wall time (tests/<layer>/…: from its first file's start to its
 * last file's end), in seconds: the layers of one Vitest run follow one
 * another (vitest.config.ts, groupOrder), so their spans are their times.
 */
export function layerSeconds(report: VitestJsonReport): Array<[string, number]> {
  const spans = new Map<string, { from: number; to: number }>();
  for (const file of report.testResults) {
    const layer = /\/tests\/([^/]+)\//.exec(file.name)?.[1];
    if (!layer || file.startTime === undefined || file.endTime === undefined) continue;
    const span = spans.get(layer) ?? { from: file.startTime, to: file.endTime };
    spans.set(layer, { from: Math.min(span.from, file.startTime), to: Math.max(span.to, file.endTime) });
  }
  return [...spans].map(([layer, span]) => [layer, (span.to - span.from) / 1000]);
}
