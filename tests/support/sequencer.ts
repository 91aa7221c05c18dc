/**
 * The order test files start in. Vitest starts the files that took longest
 * last time first, from its cache of durations; a fresh clone (CI) has no
 * such cache, and Vitest starts the largest files first. The files below
 * mostly wait on a clock (PocketBase's cron minute, call retries, a
 * throttled upload, a server's restart) and are small: started last, their
 * waiting would end the run alone; started first, it overlaps the other
 * files' work.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const WAIT_ON_A_CLOCK = [
  'tests/integration/call-attempts-restart.test.ts',
  'tests/integration/call-attempts-paths.test.ts',
  'tests/integration/start-prod.test.ts',
  'tests/e2e/upload-weak-signal.test.ts',
];

export class WaitingFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const found = WAIT_ON_A_CLOCK.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return found === -1 ? WAIT_ON_A_CLOCK.length : found;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
