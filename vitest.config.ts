import { defineConfig } from 'vitest/config';
import { WaitingFirstSequencer } from './tests/support/sequencer.ts';

// Three projects (tests/README.md): unit (pure code, fake-indexeddb),
// integration (a real PocketBase per test file), e2e (the built app in
// Debian's Chromium). `npm test` (scripts/test.ts) runs them as separate
// jobs, side by side. Most of a browser or integration file's time is
// waiting (on a server, a browser, a retry's minute), so each runs two
// files at a time.
export default defineConfig({
  test: {
    sequence: { sequencer: WaitingFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          environment: 'node',
          // Worker threads start quicker than forked processes: a quarter less CPU for this layer.
          pool: 'threads',
          // The files of a worker share the packages they load (React, Dexie, jsdom): loading them again
          // for each file was three quarters of the layer's time (108 CPU-s, now 42). unit-setup.ts gives
          // each file what isolation gave it: an empty IndexedDB, fresh app modules, an empty page.
          isolate: false,
          setupFiles: ['tests/support/testing-library-setup.ts', 'tests/support/unit-setup.ts'],
          // npm test runs this layer beside the browser tests on two cores, where a test that takes
          // 1 s alone takes 4-5 s: Vitest's 5 s default fails a test for the machine's load, not for
          // what it does. The slow ones are kept short too (one flow a test).
          testTimeout: 20_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ['tests/support/testing-library-setup.ts'],
          // Each file starts its own PocketBase, on a copy of one data folder migrated once for the run;
          // two cores, so two at a time.
          maxWorkers: 2,
          globalSetup: ['tests/integration/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          // The journeys of a worker share what they import (Playwright's client, the SDK, the
          // helpers): importing it again for each of 36 files cost about 20 CPU-s of a run. Nothing a
          // file keeps lives in a shared module: each starts its own server and browser (useScreensApp).
          isolate: false,
          // The demo data, seeded once for the run and copied by each journey's server.
          globalSetup: ['tests/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
