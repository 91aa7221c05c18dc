/**
 * Once per browser-test run: an empty migrated data folder for the journeys
 * that seed their own data (makeServerTemplate), and a PocketBase data folder with the demo data,
 * made by seeding a real server the way every journey used to. Each
 * journey's server starts on a copy of it (startDemoServer,
 * startScreensServer): a copy takes milliseconds, a seed over HTTP seconds.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { seedDemo } from '../../scripts/seed/seed.ts';
import { makeServerTemplate, startTestServer } from '../support/pocketbase.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded data folder journeys copy (tests/e2e/global-setup.ts). */
    demoDataDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // The run's empty server too (a journey that seeds its own data starts on a copy of it: startTestServer).
  const template = await makeServerTemplate();
  project.provide('serverTemplate', template);
  const server = await startTestServer({}, { from: template });
  try {
    await seedDemo(server.admin);
  } finally {
    // Stopped, not removed: PocketBase writes its database out whole on a clean stop.
    await server.server.stop();
  }
  project.provide('demoDataDir', server.dataDir);
  return () => {
    rmSync(server.dataDir, { recursive: true, force: true });
    rmSync(template, { recursive: true, force: true });
  };
}
