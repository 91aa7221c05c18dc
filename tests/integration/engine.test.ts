/**
 * The window's sync engine (src/data/sync/engine.ts) against a real
 * PocketBase, through a proxy that can go offline or hold a request or an
 * answer.
 *
 * Sessions: the engine notices an expired or revoked session on its own.
 * PocketBase 0.40 serves a void token's reads as a guest's (empty lists, no
 * error), so the engine renews the token on start, on every sync and with
 * each reconciliation, and reports `authRequired` as soon as the server
 * refuses it — never earlier, and never for a network failure. While it is
 * set the engine neither pulls nor reconciles (a guest's empty lists must
 * not empty the mirror) and the outbox waits for the next sign-in.
 *
 * Pulls: a pull asked for while another runs (a realtime reconnect filling
 * its gap, the network back) brings what changed after the running pull's
 * queries went out; it does not join it and miss the change. On a new
 * phone the homes and their people are read before the rest.
 *
 * The live connection: a first connect that failed is tried again, also
 * when the browser never said it was offline (a weak signal).
 */
import '../support/browser-globals.ts';
import PocketBase from 'pocketbase';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { CollectionName } from '../../src/api/records.ts';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import { SyncEngine } from '../../src/data/sync/engine.ts';
import { enqueue, outboxEntries } from '../../src/data/sync/outbox.ts';
import { PULL_ORDER, pbDate } from '../../src/data/sync/pull.ts';
import { refreshSession } from '../../src/data/sync/session.ts';
import { matching, startFlakyProxy, type FlakyProxy } from '../support/flaky-proxy.ts';
import {
  createCommunity,
  newId,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

// The engine listens to the window (online, timers) and the document
// (visibility); Node has neither, and jsdom breaks the test server's build
// tools, so the few parts it uses are given here.
Object.assign(globalThis, {
  window: Object.assign(new EventTarget(), { setInterval, clearInterval, setTimeout, clearTimeout }),
  document: Object.assign(new EventTarget(), { visibilityState: 'visible' }),
});

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

/** A community with one house; its officer signed in on a client of `baseUrl`. */
async function officer(
  slug: string,
  baseUrl = t.url,
): Promise<{ f: CommunityFixture; pb: PocketBase; houseId: string }> {
  const f = await createCommunity(t.admin, `${slug}${newId().slice(0, 5)}`);
  const house = await t.admin.collection('houses').create({
    address: `1 Palm Way ${newId()}`,
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    community: f.community.id,
  });
  const pb = new PocketBase(baseUrl);
  pb.autoCancellation(false);
  await pb.collection('users').authWithPassword(f.regular.email, TEST_PASSWORD);
  return { f, pb, houseId: house.id };
}

function engineFor(pb: PocketBase): SyncEngine {
  const engine = new SyncEngine(pb, pb.authStore.record!.id);
  engines.push(engine);
  return engine;
}

/** Every token issued before is void (PocketBase renews the user's tokenKey with the password). */
async function revoke(userId: string): Promise<void> {
  const password = `changed-${newId()}`;
  await t.admin.collection('users').update(userId, { password, passwordConfirm: password });
}

// A wait ends as soon as its condition holds; the cap is only how long to keep trying, and the
// suite runs its layers side by side on two cores (scripts/test.ts), so it is generous.
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a session revoked while the engine runs is reported at the next sync, not before; the mirror is kept', async () => {
  const { f, pb, houseId } = await officer('revoked');
  const engine = engineFor(pb);
  engine.start();
  await until('the first pull', async () => (await engine.db.houses.get(houseId)) !== undefined);
  await engine.syncNow();
  expect(engine.getStatus().authRequired).toBe(false);

  await revoke(f.regular.id);
  // Nothing has asked the server yet: nothing is known.
  expect(engine.getStatus().authRequired).toBe(false);

  await engine.syncNow();
  expect(engine.getStatus().authRequired).toBe(true);
  // The periodic reconciliation would read a guest's empty lists: it must not take the homes away.
  await engine.reconcile();
  expect(await engine.db.houses.get(houseId)).toBeDefined();

  // The officer goes on writing: the report waits in the outbox.
  const id = newRecordId();
  const narative = `Gate left open ${newId()}`;
  await enqueue(engine.db, {
    userId: f.regular.id,
    label: 'Report',
    ops: [
      {
        action: 'create',
        collection: 'reports',
        id,
        body: {
          narative,
          type: 'loud_noise',
          weather: 'clear',
          incident_time: pbDate(new Date()),
          community: f.community.id,
          created_by: f.regular.id,
        },
      },
    ],
  });
  await engine.syncNow();
  expect(engine.getStatus().authRequired).toBe(true);
  expect((await outboxEntries(engine.db)).map((e) => e.status)).toEqual(['pending']);
  await engine.stop();

  // The same user signs in again: a new engine for them sends it, once.
  const password = `again-${newId()}`;
  await t.admin.collection('users').update(f.regular.id, { password, passwordConfirm: password });
  await pb.collection('users').authWithPassword(f.regular.email, password);
  const next = engineFor(pb);
  next.start();
  await until('the outbox to empty', async () => (await outboxEntries(next.db)).length === 0);
  expect(next.getStatus().authRequired).toBe(false);
  const onServer = await t.admin
    .collection('reports')
    .getFullList({ filter: t.admin.filter('narative = {:n}', { n: narative }) });
  expect(onServer.map((r) => r.id)).toEqual([id]);
});

test('a token that is already void when the engine starts is reported after the first refresh', async () => {
  const { f, pb } = await officer('stale');
  await revoke(f.regular.id);
  const engine = engineFor(pb);
  let announced = 0;
  engine.subscribe(() => void (engine.getStatus().authRequired && announced++));
  engine.start();
  await until('the expired session', () => engine.getStatus().authRequired);
  expect(announced).toBeGreaterThan(0);
});

test("a deleted user's token is reported the same way", async () => {
  const { f, pb } = await officer('deleted');
  const engine = engineFor(pb);
  await engine.syncNow();
  expect(engine.getStatus().authRequired).toBe(false);
  await t.admin.collection('users').delete(f.regular.id);
  await engine.syncNow();
  expect(engine.getStatus().authRequired).toBe(true);
});

test('a network failure is not an expiry: offline with a void token, nothing is reported until a request is refused', async () => {
  const { f, pb } = await officer('offline', proxy.url);
  const engine = engineFor(pb);
  proxy.setOffline(true);
  await revoke(f.regular.id);

  await engine.syncNow();
  await engine.reconcile();
  expect(engine.getStatus()).toMatchObject({ authRequired: false, online: false });

  proxy.setOffline(false);
  await engine.syncNow();
  expect(engine.getStatus().authRequired).toBe(true);
});

describe('a renewal answered after the session it renewed has gone', () => {
  const refresh = matching('POST', '/api/collections/users/auth-refresh');

  test('a Log out while the answer is on its way stays a Log out: the renewed token is not put back', async () => {
    const { pb } = await officer('logout', proxy.url);
    const held = proxy.hold(refresh);
    const check = refreshSession(pb);
    await held.arrived;
    pb.authStore.clear();
    held.release();
    // The server renewed it; the device, signed out meanwhile, stays signed out.
    await expect(check).resolves.toBe('ok');
    expect(pb.authStore.token).toBe('');
    expect(pb.authStore.record).toBeNull();
  });

  test('someone else signed in meanwhile keeps their session, not the renewed one of the one before', async () => {
    const { pb } = await officer('switch', proxy.url);
    const next = await officer('next');
    const held = proxy.hold(refresh);
    const check = refreshSession(pb);
    await held.arrived;
    pb.authStore.save(next.pb.authStore.token, next.pb.authStore.record);
    held.release();
    await expect(check).resolves.toBe('ok');
    expect(pb.authStore.record?.id).toBe(next.f.regular.id);
    expect(pb.authStore.token).toBe(next.pb.authStore.token);
  });

  test('with nothing in between, the renewed token and record replace the old ones', async () => {
    const { f, pb } = await officer('renew', proxy.url);
    const before = pb.authStore.token;
    // PocketBase's tokens carry their time in seconds: a renewal within the same second is the same token.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expect(refreshSession(pb)).resolves.toBe('ok');
    expect(pb.authStore.token).not.toBe(before);
    expect(pb.authStore.record?.id).toBe(f.regular.id);
    await expect(pb.collection('users').getOne(f.regular.id)).resolves.toMatchObject({ id: f.regular.id });
  });
});

describe('pulls', () => {
  /** A read of `collection`'s changes: through the records API, or with others through the changes route (src/data/sync/changes.ts). */
  const readsOf = (collection: CollectionName) => (request: { method: string; path: string }) =>
    request.method === 'GET' &&
    (request.path.startsWith(`/api/collections/${collection}/records`) ||
      (request.path.startsWith('/api/scms/changes?') && decodeURIComponent(request.path).includes(`"${collection}"`)));
  const homesRead = readsOf('houses');

  test('a pull asked for while one runs brings a change made after the running one read the server', async () => {
    const { pb, houseId } = await officer('again', proxy.url);
    const engine = engineFor(pb);
    await engine.pull();

    // The running pull's read of the homes is answered, and its answer held on the way back.
    let answered!: () => void;
    const homesAnswered = new Promise<void>((resolve) => (answered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    proxy.afterResponse = async (request) => {
      if (!homesRead(request)) return;
      proxy.afterResponse = undefined;
      answered();
      await released;
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

  test("on a new phone the other collections are read side by side with the homes (their requests give way to the homes'); later pulls ask for all at once", async () => {
    const { pb } = await officer('first', proxy.url);
    const engine = engineFor(pb);
    // A read of a collection: the records API, or (a first load's large collections) the route made for loads.
    const readPath = /^\/api\/(?:collections|scms\/first-load)\/([a-z_]+)/;
    const collectionOf = (request: { path: string }) => readPath.exec(request.path)?.[1] as CollectionName;
    /** Holds the next request matching while a pull runs: the calls are asked for meanwhile. */
    const callsAskedWhileHeld = async (match: (r: { method: string; path: string }) => boolean) => {
      const from = proxy.requests.length;
      const held = proxy.hold(match);
      const pulling = engine.pull();
      await held.arrived;
      await until('the calls asked for', () =>
        proxy.requests
          .slice(from)
          .some((r) => (r.method === 'GET' && collectionOf(r) === 'calls') || readsOf('calls')(r)),
      );
      held.release();
      await pulling;
    };
    // A page of the homes held on its way: the calls are asked for meanwhile, not after every home came.
    // (Which request a freed connection serves first is tests/unit/request-slots.test.ts.)
    await callsAskedWhileHeld(
      (r) => r.method === 'GET' && r.path.startsWith('/api/scms/first-load/houses') && !/[?&]head=/.test(r.path),
    );
    const reads = proxy.requests.filter((r) => r.method === 'GET' && readPath.test(r.path));
    expect(new Set(reads.map(collectionOf))).toEqual(new Set(PULL_ORDER));
    await expect(engine.db.houses.count()).resolves.toBeGreaterThan(0);

    // An incremental pull asks for the calls (with the others of the changes route) while the phones' answer is still on its way.
    await callsAskedWhileHeld((r) => r.method === 'GET' && collectionOf(r) === 'phones');
  });

  test('while the browser says it is offline, no pull is sent; the network back, the pull comes', async () => {
    const { pb, houseId } = await officer('said-offline');
    // Node has no navigator: this one says offline, as a phone in a dead zone does.
    const browser = { onLine: false };
    Object.defineProperty(globalThis, 'navigator', { configurable: true, value: browser });
    try {
      const engine = engineFor(pb);
      engine.start();
      await engine.pull();
      // The server is reachable: a pull sent would have brought the home and the time of the sync.
      expect(await engine.db.houses.count()).toBe(0);
      expect(await engine.db.syncState.get('lastSyncAt')).toBeUndefined();
      expect(engine.getStatus().online).toBe(false);
      browser.onLine = true;
      window.dispatchEvent(new Event('online'));
      await until(
        'the pull after the network came back',
        async () => (await engine.db.houses.get(houseId)) !== undefined,
      );
    } finally {
      Reflect.deleteProperty(globalThis, 'navigator');
    }
  });

  test('with no pull asked for meanwhile, one pull reads each collection once', async () => {
    const { pb } = await officer('once', proxy.url);
    const engine = engineFor(pb);
    await engine.pull();
    const before = proxy.requests.filter(homesRead).length;
    await engine.pull();
    expect(proxy.requests.filter(homesRead).length - before).toBe(1);
  });
});

// Several waits in a row, each capped at 20 s (until): the test's own cap is above the layer's 30 s.
describe('the live connection', { timeout: 90_000 }, () => {
  const subscribing = (request: { method: string; path: string }) =>
    request.method === 'POST' && request.path.startsWith('/api/realtime');

  test('a first connect that failed while the browser said it was online is tried again, and changes then arrive', async () => {
    const { pb, houseId } = await officer('live', proxy.url);
    // A weak signal: the first subscription's answer is lost, and no `online` event ever comes.
    proxy.dropResponses(subscribing, 1);
    const engine = engineFor(pb);
    engine.start();
    await until('the lost subscription', () => proxy.requests.some((r) => subscribing(r) && r.outcome === 'dropped'));
    await until(
      'a subscription after it',
      () => proxy.requests.filter((r) => subscribing(r) && r.outcome === 204).length > 0,
      15_000,
    );
    // Nothing else asks for a pull from here on: the change arrives over the live connection.
    await until('the first pull', async () => (await engine.db.houses.get(houseId)) !== undefined);
    await t.admin.collection('houses').update(houseId, { note: 'Side gate open' });
    await until(
      'the change in the mirror',
      async () => (await engine.db.houses.get(houseId))?.note === 'Side gate open',
    );
  });

  test('a change made while the connection is still subscribing arrives: the gap is filled once every collection is followed', async () => {
    const { pb, houseId } = await officer('subscribing', proxy.url);
    // The subscription that adds the homes is held: the server does not follow them yet.
    const held = proxy.hold((r) => subscribing(r) && r.body.includes('houses'));
    const engine = engineFor(pb);
    engine.start();
    await held.arrived;
    await until(
      'the pulls so far done',
      async () => !engine.getStatus().syncing && (await engine.db.houses.get(houseId)) !== undefined,
    );
    // After every pull so far, and no event for it will come: only a pull after the subscription can bring it.
    await t.admin.collection('houses').update(houseId, { note: 'Changed while subscribing' });
    held.release();
    await until(
      'the change in the mirror',
      async () => (await engine.db.houses.get(houseId))?.note === 'Changed while subscribing',
    );
  });

  test('offline at start, it connects once the network is back, and changes then arrive', async () => {
    const { pb, houseId } = await officer('online', proxy.url);
    proxy.setOffline(true);
    const engine = engineFor(pb);
    engine.start();
    await until('a failed attempt', () => !engine.getStatus().online);
    proxy.setOffline(false);
    window.dispatchEvent(new Event('online'));
    // This engine's own connection following the homes (an engine of an earlier test may still
    // have a request on its way through the proxy), and its first sync done with every page in.
    await until(
      'a subscription to the homes',
      () =>
        proxy.requests.some(
          (r) =>
            subscribing(r) &&
            r.outcome === 204 &&
            r.body.includes(`"${pb.realtime.clientId}"`) &&
            r.body.includes('houses/*'),
        ),
      15_000,
    );
    await until(
      'the first sync',
      async () =>
        !engine.getStatus().syncing &&
        (await engine.db.syncState.get('lastSyncAt')) !== undefined &&
        (await engine.db.load_pages.count()) === 0 &&
        (await engine.db.houses.get(houseId)) !== undefined,
    );
    await t.admin.collection('houses').update(houseId, { note: 'Pool gate locked' });
    await until(
      'the change in the mirror',
      async () => (await engine.db.houses.get(houseId))?.note === 'Pool gate locked',
    );
  });
});
