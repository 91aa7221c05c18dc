/**
 * A community of 2,000 homes on its own test server serving the built app,
 * for the browser journeys that run once in the demo community and once in
 * a large one: the phone's mirror then holds thousands of records while the
 * journey runs.
 */
import { buildBenchData } from '../bench/data.ts';
import { createInBatches } from '../support/batches.ts';
import { createCommunity, startTestServer, TEST_PASSWORD, type TestServer } from '../support/pocketbase.ts';
import { distDir } from './pwa-helpers.ts';

export interface LargeCommunity {
  server: TestServer;
  id: string;
  manager: { email: string; password: string };
  officer: { email: string; password: string };
}

export async function startLargeCommunity(name: string, homes = 2_000): Promise<LargeCommunity> {
  const server = await startTestServer({}, { publicDir: distDir });
  const fixture = await createCommunity(server.admin, name);
  const rows = buildBenchData(new Date())
    .houses.slice(0, homes)
    .map((house) => ({ ...house, community: fixture.community.id }));
  await createInBatches(server.admin, 'houses', rows);
  return {
    server,
    id: fixture.community.id,
    manager: { email: fixture.manager.email, password: TEST_PASSWORD },
    officer: { email: fixture.regular.email, password: TEST_PASSWORD },
  };
}
