/**
 * The server a device signed in on, kept for the service worker: with
 * several servers behind one proxy, the worker's replay of the outbox
 * (sw/replay.ts, the one Background Sync runs) reads the server path saved
 * with the session (src/data/sync/session.ts) and delivers to that
 * community's server, through the real proxy, exactly once. A session saved
 * by an earlier version (no server) stays on the page's own server.
 */
import '../support/browser-globals.ts';
import Dexie from 'dexie';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { pb as appClient } from '../../src/api/client.ts';
import { userDatabase } from '../../src/data/mirror/db.ts';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import { enqueue } from '../../src/data/sync/outbox.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import { clearSession, loadSession, saveSession } from '../../src/data/sync/session.ts';
import { replayFromWorker } from '../../sw/replay.ts';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import { TEST_PASSWORD } from '../support/pocketbase.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
  // The worker's global scope: its location is the app's one address, the proxy.
  Object.defineProperty(globalThis, 'location', { value: new URL(cluster.url), configurable: true });
});
afterAll(async () => {
  Reflect.deleteProperty(globalThis, 'location');
  await clearSession();
  await cluster?.stop();
});

/** The officer of a community, signed in through its path on the proxy, as the window does it. */
async function signedIn(index: 0 | 1) {
  const fixture = cluster.communities[index];
  const serverPath = `/c/${cluster.slugs[index]}`;
  const pb = new PocketBase(`${cluster.url}${serverPath}`);
  await pb.collection('users').authWithPassword(fixture.regular.email, TEST_PASSWORD);
  return { fixture, serverPath, token: pb.authStore.token, record: pb.authStore.record! };
}

async function queueReport(userId: string, community: string, narrative: string) {
  const id = newRecordId();
  await enqueue(userDatabase(userId), {
    userId,
    label: 'Report',
    ops: [
      {
        action: 'create',
        collection: 'reports',
        id,
        body: {
          narative: narrative,
          type: 'loud_noise',
          weather: 'clear',
          incident_time: pbDate(new Date()),
          community,
          created_by: userId,
        },
      },
    ],
  });
  return id;
}

test("the worker delivers a queued report to the server of the device's community, once", async () => {
  const south = await signedIn(1);
  await saveSession(south.token, south.record, south.serverPath);
  expect((await loadSession())?.server).toBe('/c/south');
  const narrative = `Queued on the south phone ${newRecordId()}`;
  const id = await queueReport(south.record.id, south.fixture.community.id, narrative);

  const result = await replayFromWorker(true);
  expect(result).toMatchObject({ outcome: 'done', delivered: 1 });
  expect(appClient.baseURL).toBe(`${cluster.url}/c/south`);
  const [northServer, southServer] = cluster.servers;
  expect((await southServer.admin.collection('reports').getOne(id)).narative).toBe(narrative);
  await expect(northServer.admin.collection('reports').getOne(id)).rejects.toMatchObject({ status: 404 });

  // A second replay finds nothing left: exactly once.
  expect(await replayFromWorker(true)).toMatchObject({ delivered: 0 });
  const twins = await southServer.admin
    .collection('reports')
    .getList(1, 5, { filter: southServer.admin.filter('narative = {:n}', { n: narrative }) });
  expect(twins.totalItems).toBe(1);
});

test("a session saved by an earlier version (no server) replays to the page's own server", async () => {
  const north = await signedIn(0);
  // What an earlier version saved: token and record only. Its server is the
  // page's own; behind this proxy that is the first server, north's.
  const earlier = new Dexie('scms-session');
  earlier.version(1).stores({ session: 'key' });
  await earlier.table('session').put({ key: 'current', token: north.token, record: north.record });
  earlier.close();
  expect((await loadSession())?.server).toBe('');
  const id = await queueReport(north.record.id, north.fixture.community.id, `Queued before clusters ${newRecordId()}`);
  expect(await replayFromWorker(true)).toMatchObject({ outcome: 'done', delivered: 1 });
  expect(appClient.baseURL).toBe(cluster.url);
  expect((await cluster.servers[0].admin.collection('reports').getOne(id)).id).toBe(id);
});

test('a server path that is not one the app makes is not followed', async () => {
  const south = await signedIn(1);
  await saveSession(south.token, south.record, 'https://elsewhere.example/c/south');
  expect((await loadSession())?.server).toBe('');
});
