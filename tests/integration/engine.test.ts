/**
 * The window's sync engine (src/data/sync/engine.ts) against a real
 * PocketBase, through a proxy that can hold an answer the server already
 * gave: a pull asked for while another runs (a realtime reconnect filling
 * its gap, the network back) must bring what changed after the running
 * pull's queries went out, not join it and miss the change.
 */
import '../support/browser-globals.ts';
import PocketBase from 'pocketbase';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { SyncEngine } from '../../src/data/sync/engine.ts';
import { startFlakyProxy, type FlakyProxy } from '../support/flaky-proxy.ts';
import { createCommunity, startTestServer, TEST_PASSWORD, type TestServer } from '../support/pocketbase.ts';

let t: TestServer;
let proxy: FlakyProxy;
const engines: SyncEngine[] = [];

beforeAll(async () => {
  t = await startTestServer();
  proxy = await startFlakyProxy(t.url);
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stop();
  proxy.reset();
});
afterAll(async () => {
  await proxy?.close();
  await t?.stop();
});

/** A community with one home, and its officer's engine on a client of the proxy, its first load done. */
async function officerEngine(slug: string) {
  const f = await createCommunity(t.admin, slug);
  const house = await t.admin.collection('houses').create({
    address: '1 Palm Way',
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    note: 'Gate code changed',
    community: f.community.id,
  });
  const pb = new PocketBase(proxy.url);
  pb.autoCancellation(false);
  await pb.collection('users').authWithPassword(f.regular.email, TEST_PASSWORD);
  const engine = new SyncEngine(pb, f.regular.id);
  engines.push(engine);
  await engine.pull();
  return { engine, houseId: house.id };
}

test('a pull asked for while one runs brings a change made after the running one read the server', async () => {
  const { engine, houseId } = await officerEngine('again');
  await expect(engine.db.houses.get(houseId)).resolves.toMatchObject({ note: 'Gate code changed' });

  // The running pull's read of the homes is answered, and its answer held on the way back.
  let answered!: () => void;
  const homesAnswered = new Promise<void>((resolve) => (answered = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  proxy.afterResponse = async (request) => {
    if (request.method === 'GET' && request.path.startsWith('/api/collections/houses/records')) {
      proxy.afterResponse = undefined;
      answered();
      await released;
    }
  };
  const running = engine.pull();
  await homesAnswered;

  // Meanwhile the home changes on the server, and something asks for a pull (as a reconnect does).
  await t.admin.collection('houses').update(houseId, { note: 'Back gate open' });
  const asked = engine.pull();
  release();
  await Promise.all([running, asked]);

  await expect(engine.db.houses.get(houseId)).resolves.toMatchObject({ note: 'Back gate open' });
});

test('with no pull asked for meanwhile, one pull reads each collection once', async () => {
  const { engine } = await officerEngine('once');
  const reads = () =>
    proxy.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/collections/houses/records')).length;
  const before = reads();
  await engine.pull();
  expect(reads() - before).toBe(1);
});
