/**
 * The server keeps SQLite's table statistics current (pb_hooks/
 * query_planner.pb.js): without them the incremental pull of residents and
 * phones is planned through the community's houses and its cost grows with
 * the community. The statistics are taken at every start; the
 * hook logs the row counts they hold.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createCommunity, startTestServer, type TestServer } from '../support/pocketbase.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** The newest statistics logged since `since` (the server writes its logs in batches, so this waits for them). */
async function loggedStatistics(since: string): Promise<Record<string, number>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = await server.admin.logs.getList(1, 1, {
      filter: server.admin.filter('message = "Table statistics updated" && created > {:since}', { since }),
      sort: '-created',
    });
    const data = page.items[0]?.data as { tables?: Record<string, number> } | undefined;
    if (data?.tables) return data.tables;
    if (Date.now() > deadline) throw new Error('no "Table statistics updated" log entry after the restart');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('every start takes the statistics of the tables as they are', async () => {
  const { community } = await createCommunity(server.admin, 'planner');
  const house = await server.admin
    .collection('houses')
    .create({ community: community.id, address: '1 Planner Way', city: 'Jupiter', state: 'FL', zip: '33458' });
  for (let i = 0; i < 30; i++)
    await server.admin
      .collection('residents')
      .create({ house: house.id, first_name: `Resident ${i}`, last_name: 'Planner' });

  // Only the restart's entry: the first start's came moments ago (the fixture takes well under a second).
  const since = new Date().toISOString().replace('T', ' ');
  await server.restart();
  const tables = await loggedStatistics(since);

  expect(tables.residents).toBe(30);
  expect(tables.houses).toBe(1);
}, 60_000);
