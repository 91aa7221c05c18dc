/**
 * Web Push on a real PocketBase, delivered by the real sender
 * (server/push/sender.ts, run in this process) to a push service stand-in
 * that checks the VAPID signature and decrypts every message as a phone
 * would (tests/support/pushService.ts): who is told of a panic, a report
 * with an injury and an acknowledged call (pocketbase/pb_hooks/lib/push.js);
 * an alert that arrives while the sender is down; a sender stopped
 * mid-delivery; an expired subscription; a push service that fails once;
 * the subscriptions refused; notifications nobody reads through the API;
 * the VAPID keys in the data folder and in its backups.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import PocketBase, { ClientResponseError } from 'pocketbase';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { topicFor } from '../../server/push/deliver.ts';
import { pushEndpointProblem } from '../../server/push/hosts.ts';
import { startPushSender, type PushSender, type PushSenderOptions } from '../../server/push/sender.ts';
import { loadOrCreateVapidKeys, vapidFile, type VapidKeys } from '../../server/push/vapid.ts';
import {
  createCommunity,
  SUPERUSER,
  TEST_PASSWORD,
  startTestServer,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { scriptProcess } from '../support/script-process.ts';
import { startPushService, type BrowserSubscription, type PushServiceStandin } from '../support/pushService.ts';

let push: PushServiceStandin;
let t: TestServer;
let vapid: VapidKeys;
let hosts: string;
let a: CommunityFixture;
let b: CommunityFixture;
/** Community A's second officer, on duty, and its third, whose shift has ended. */
let onDuty: { id: string; email: string };
let offDuty: { id: string; email: string };
const senders: PushSender[] = [];

interface Notification {
  id: string;
  user: string;
  kind: string;
  title: string;
  body: string;
  url: string;
  source: string;
  state: string;
  attempts: number;
  sent_at: string;
  error: string;
}

/** Polls until `done` holds (a generous cap: two cores shared with the rest of the suite). */
async function waitUntil<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** A pause long enough for a sender polling every second to have looked again (to see that nothing more comes). */
const twoPolls = () => new Promise((resolve) => setTimeout(resolve, 2_500));

/** What the senders logged: only realtime's connections in a good run. */
const senderLog: string[] = [];

function startSender(options: Partial<PushSenderOptions> = {}): PushSender {
  const sender = startPushSender({
    pocketBaseUrl: t.url,
    superuser: SUPERUSER,
    vapid,
    pollMs: 1_000,
    subject: 'mailto:security@scms.test',
    allowedHosts: hosts,
    log: (line) => senderLog.push(line),
    ...options,
  });
  senders.push(sender);
  return sender;
}

async function notificationsOf(source: string): Promise<Notification[]> {
  return t.admin
    .collection('notifications')
    .getFullList<Notification>({ filter: t.admin.filter('source = {:s}', { s: source }) });
}

const byUser = (list: Notification[], user: string) => list.find((n) => n.user === user);

async function addOfficer(community: CommunityFixture, name: string): Promise<{ id: string; email: string }> {
  const email = `${name}.${community.community.id}@scms.test`;
  const user = await t.admin.collection('users').create({
    email,
    emailVisibility: true,
    password: TEST_PASSWORD,
    passwordConfirm: TEST_PASSWORD,
    first_name: name[0]!.toUpperCase() + name.slice(1),
    last_name: 'Officer',
    type: 'regular',
    community: community.community.id,
    verified: true,
  });
  return { id: user.id, email };
}

/** Subscribes the user's "browser" as the app would: the server's key first, then the subscription record. */
async function subscribe(email: string): Promise<BrowserSubscription> {
  const pb = await t.signIn(email);
  const { publicKey } = await pb.send<{ publicKey: string }>('/api/scms/push/key', {});
  const subscription = push.newSubscription(publicKey);
  const me = pb.authStore.record!;
  await pb.collection('push_subscriptions').create({
    community: me.community,
    user: me.id,
    endpoint: subscription.endpoint,
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
  });
  return subscription;
}

async function raisePanic(email: string, position: Record<string, number> | null = null) {
  const pb = await t.signIn(email);
  const me = pb.authStore.record!;
  return pb.collection('alerts').create({
    community: me.community,
    officer: me.id,
    kind: 'panic',
    raised_at: new Date().toISOString(),
    position,
  });
}

/** The status and field errors of a refused request. */
async function refusal(
  request: Promise<unknown>,
): Promise<{ status: number; data: Record<string, { message: string }> }> {
  try {
    await request;
  } catch (error) {
    if (error instanceof ClientResponseError)
      return { status: error.status, data: (error.response?.data ?? {}) as Record<string, { message: string }> };
    throw error;
  }
  throw new Error('The request was accepted.');
}

let endpoints: Record<'managerA' | 'onDuty' | 'raiser' | 'offDuty' | 'managerB', BrowserSubscription>;

beforeAll(async () => {
  push = await startPushService();
  hosts = `${push.host},push.example.com,*.push.example.net`;
  t = await startTestServer({ SCMS_PUSH_HOSTS: hosts });
  await t.admin.settings.update({ rateLimits: { enabled: false } });
  // What the sender does at start (server/push/cli.ts): the keys in the data folder, where the route reads them.
  vapid = loadOrCreateVapidKeys(t.dataDir);
  a = await createCommunity(t.admin, 'pusha');
  b = await createCommunity(t.admin, 'pushb');
  onDuty = await addOfficer(a, 'second');
  offDuty = await addOfficer(a, 'third');
  const shift = (officer: string, ended_at = '') =>
    t.admin.collection('duty_shifts').create({
      community: a.community.id,
      officer,
      started_at: new Date(Date.now() - 3_600_000).toISOString(),
      ended_at,
    });
  await shift(a.regular.id);
  await shift(onDuty.id);
  await shift(offDuty.id, new Date(Date.now() - 600_000).toISOString());
  await t.admin
    .collection('duty_shifts')
    .create({ community: b.community.id, officer: b.regular.id, started_at: new Date().toISOString() });
  endpoints = {
    managerA: await subscribe(a.manager.email),
    onDuty: await subscribe(onDuty.email),
    raiser: await subscribe(a.regular.email),
    offDuty: await subscribe(offDuty.email),
    managerB: await subscribe(b.manager.email),
  };
}, 120_000);

afterEach(async () => {
  for (const sender of senders.splice(0)) await sender.stop();
});

afterAll(async () => {
  await t?.stop();
  await push?.stop();
});

describe('the VAPID keys', () => {
  test('are kept in the data folder, readable by its owner only, and given to signed-in staff', async () => {
    expect(vapidFile(t.dataDir)).toBe(join(t.dataDir, 'vapid.json'));
    expect(statSync(vapidFile(t.dataDir)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateVapidKeys(t.dataDir)).toEqual(vapid);
    const officer = await t.signIn(a.regular.email);
    expect(await officer.send('/api/scms/push/key', {})).toEqual({ publicKey: vapid.publicKey });
    expect((await refusal(t.client().send('/api/scms/push/key', {}))).status).toBe(401);
  });

  test("are in the server's backups, with the subscriptions made for them", async () => {
    await t.admin.backups.create('push_keys.zip');
    const zip = readFileSync(join(t.dataDir, 'backups', 'push_keys.zip'));
    expect(zip.includes(Buffer.from('vapid.json'))).toBe(true);
    expect(zip.includes(Buffer.from('data.db'))).toBe(true);
  });
});

describe('a panic', () => {
  test('reaches the managers and the officers on duty once each, decrypted to what the phone shows', async () => {
    startSender();
    const alert = await raisePanic(a.regular.email, { latitude: 26.7056, longitude: -80.0364, accuracy: 12 });
    const list = await waitUntil(
      'the panic delivered',
      () => notificationsOf(alert.id),
      (l) => l.filter((n) => n.state === 'sent').length === 2,
    );
    // Everyone it concerns has a record: the director, who has no subscription, too.
    expect(list.map((n) => [n.user, n.state]).sort()).toEqual(
      [
        [a.director.id, 'no_subscription'],
        [a.manager.id, 'sent'],
        [onDuty.id, 'sent'],
      ].sort(),
    );
    for (const [user, subscription] of [
      [a.manager.id, endpoints.managerA],
      [onDuty.id, endpoints.onDuty],
    ] as const) {
      const notification = byUser(list, user)!;
      expect(notification).toMatchObject({ kind: 'panic', attempts: 1, error: '', url: `/alerts/${alert.id}` });
      expect(notification.sent_at).not.toBe('');
      const got = await waitUntil(
        'the message at the push service',
        () => push.received(subscription.endpoint).filter((m) => m.payload.id === notification.id),
        (m) => m.length > 0,
      );
      expect(got).toHaveLength(1);
      expect(got[0]!.payload).toEqual({
        id: notification.id,
        kind: 'panic',
        title: 'Panic: Regular PUSHA',
        body: expect.stringMatching(
          /^Pressed Panic at \d{4}-\d\d-\d\d \d\d:\d\d \(America\/New_York\)\. Map: https:\/\/www\.openstreetmap\.org\/\?mlat=26\.705600&mlon=-80\.036400/,
        ),
        url: `/alerts/${alert.id}`,
      });
      expect(got[0]).toMatchObject({ urgency: 'high', ttl: 3600, topic: topicFor(notification.id), answer: 201 });
      expect(got[0]!.claims).toMatchObject({ aud: push.url, sub: 'mailto:security@scms.test' });
    }
    await twoPolls();
    const ids = list.map((n) => n.id);
    expect(push.received().filter((m) => ids.includes(m.payload.id))).toHaveLength(2);
    // The officer who raised it, an officer off duty, another community: nothing.
    for (const quiet of [endpoints.raiser, endpoints.offDuty, endpoints.managerB])
      expect(push.received(quiet.endpoint)).toEqual([]);
    expect(push.refused()).toEqual([]);
  });

  test('raised while the sender is down (an outbox delivering late) is delivered when it starts', async () => {
    const alert = await raisePanic(onDuty.email);
    const waiting = await notificationsOf(alert.id);
    expect(waiting.map((n) => n.user).sort()).toEqual([a.director.id, a.manager.id, a.regular.id].sort());
    expect(byUser(waiting, a.manager.id)!.state).toBe('pending');
    expect(byUser(waiting, a.regular.id)!.body).toMatch(/^Pressed Panic at .+\. No position\.$/);
    startSender();
    const list = await waitUntil(
      'the late panic delivered',
      () => notificationsOf(alert.id),
      (l) => l.filter((n) => n.state === 'sent').length === 2,
    );
    for (const [user, subscription] of [
      [a.manager.id, endpoints.managerA],
      [a.regular.id, endpoints.raiser],
    ] as const) {
      const id = byUser(list, user)!.id;
      expect(push.received(subscription.endpoint).filter((m) => m.payload.id === id)).toHaveLength(1);
    }
    expect(push.received(endpoints.onDuty.endpoint).filter((m) => m.payload.url === `/alerts/${alert.id}`)).toEqual([]);
  });

  test('a sender stopped mid-delivery: the next one delivers it, and the phone shows it once', async () => {
    push.failNext(endpoints.managerA.endpoint, 'hang');
    const first = startSender();
    const alert = await raisePanic(a.regular.email);
    const held = await waitUntil(
      'the held message',
      () => push.received(endpoints.managerA.endpoint).filter((m) => m.payload.url === `/alerts/${alert.id}`),
      (m) => m.length === 1,
    );
    expect(held[0]!.answer).toBe('hang');
    const id = held[0]!.payload.id;
    expect((await t.admin.collection('notifications').getOne<Notification>(id)).state).toBe('sending');
    await first.stop();
    expect((await t.admin.collection('notifications').getOne<Notification>(id)).state).toBe('sending');

    startSender();
    const done = await waitUntil(
      'the held notification sent',
      () => t.admin.collection('notifications').getOne<Notification>(id),
      (n) => n.state === 'sent',
    );
    expect(done.attempts).toBe(2);
    const copies = push.received(endpoints.managerA.endpoint).filter((m) => m.payload.id === id);
    // At most the one held and the one accepted: the same topic (the push service keeps one) and the
    // same payload (the service worker shows it with tag = id: once).
    expect(copies.length).toBeGreaterThanOrEqual(1);
    expect(copies.length).toBeLessThanOrEqual(2);
    expect(new Set(copies.map((m) => m.topic))).toEqual(new Set([topicFor(id)]));
    expect(new Set(copies.map((m) => JSON.stringify(m.payload))).size).toBe(1);
    expect(copies.at(-1)!.answer).toBe(201);
    // Nothing lost: every notification of the alert ended.
    const list = await waitUntil(
      'every notification of the alert ended',
      () => notificationsOf(alert.id),
      (l) => l.every((n) => n.state === 'sent' || n.state === 'no_subscription'),
    );
    expect(list).toHaveLength(3);
  });

  test('a push service that fails once is tried again at the next poll', async () => {
    push.failNext(endpoints.onDuty.endpoint, 500);
    startSender();
    const alert = await raisePanic(a.regular.email);
    const mine = await waitUntil(
      "the on-duty officer's notification sent",
      async () => byUser(await notificationsOf(alert.id), onDuty.id),
      (n) => n?.state === 'sent',
    );
    expect(mine!.attempts).toBe(2);
    expect(
      push
        .received(endpoints.onDuty.endpoint)
        .filter((m) => m.payload.id === mine!.id)
        .map((m) => m.answer),
    ).toEqual([500, 201]);
  });

  test('is not pushed to a user who muted panics', async () => {
    const manager = await t.signIn(a.manager.email);
    const prefs = await manager
      .collection('notification_prefs')
      .create({ community: a.community.id, user: a.manager.id, muted: ['panic'] });
    try {
      const alert = await raisePanic(a.regular.email);
      expect((await notificationsOf(alert.id)).map((n) => n.user).sort()).toEqual([a.director.id, onDuty.id].sort());
    } finally {
      await manager.collection('notification_prefs').update(prefs.id, { muted: [] });
    }
  });
});

describe('a report', () => {
  const report = (extra: Record<string, unknown>) => ({
    narative: 'Resident slipped at the pool gate; EMS called.',
    type: 'assist_ems',
    weather: 'clear',
    incident_time: new Date().toISOString(),
    community: a.community.id,
    created_by: a.regular.id,
    ...extra,
  });

  test("with an injury tells the community's directors and managers, not its author", async () => {
    const director = await subscribe(a.director.email);
    startSender();
    const officer = await t.signIn(a.regular.email);
    const made = await officer.collection('reports').create(report({ injury: true }));
    const list = await waitUntil(
      'the report delivered',
      () => notificationsOf(made.id),
      (l) => l.length === 2 && l.every((n) => n.state === 'sent'),
    );
    expect(list.map((n) => n.user).sort()).toEqual([a.director.id, a.manager.id].sort());
    const got = push.received(director.endpoint).filter((m) => m.payload.id === byUser(list, a.director.id)!.id);
    expect(got).toHaveLength(1);
    expect(got[0]!.payload).toMatchObject({
      kind: 'injury_report',
      title: 'Injury: report by Regular PUSHA',
      url: '/reports',
      body: expect.stringContaining('assist ems'),
    });
    expect(got[0]!.urgency).toBe('normal');
    await t.admin
      .collection('push_subscriptions')
      .delete(
        (
          await t.admin
            .collection('push_subscriptions')
            .getFirstListItem(t.admin.filter('endpoint = {:e}', { e: director.endpoint }))
        ).id,
      );
  });

  test('with EMS/PBSO called tells them too; one with neither tells nobody', async () => {
    const officer = await t.signIn(a.regular.email);
    const ems = await officer.collection('reports').create(report({ ems_pbso: true }));
    expect((await notificationsOf(ems.id)).map((n) => n.title)).toEqual([
      'EMS/PBSO called: report by Regular PUSHA',
      'EMS/PBSO called: report by Regular PUSHA',
    ]);
    const plain = await officer
      .collection('reports')
      .create(report({ type: 'loud_noise', narative: 'Music at 11 pm.' }));
    expect(await notificationsOf(plain.id)).toEqual([]);
  });
});

describe('an expired subscription', () => {
  test('is deleted, and the notification is still sent to the live one', async () => {
    const user = await addOfficer(a, 'fourth');
    const expired = await subscribe(user.email);
    const live = await subscribe(user.email);
    push.expire(expired.endpoint, 410);
    await t.admin
      .collection('duty_shifts')
      .create({ community: a.community.id, officer: user.id, started_at: new Date().toISOString() });
    startSender();
    const alert = await raisePanic(a.regular.email);
    const mine = await waitUntil(
      "the new officer's notification sent",
      async () => byUser(await notificationsOf(alert.id), user.id),
      (n) => n?.state === 'sent',
    );
    expect(push.received(live.endpoint).filter((m) => m.payload.id === mine!.id)).toHaveLength(1);
    const left = await t.admin
      .collection('push_subscriptions')
      .getFullList({ filter: t.admin.filter('user = {:u}', { u: user.id }) });
    expect(left.map((s) => s.endpoint)).toEqual([live.endpoint]);
  });

  test('that was the only one leaves the notification without a subscription', async () => {
    const user = await addOfficer(a, 'fifth');
    const only = await subscribe(user.email);
    push.expire(only.endpoint, 404);
    await t.admin
      .collection('duty_shifts')
      .create({ community: a.community.id, officer: user.id, started_at: new Date().toISOString() });
    startSender();
    const alert = await raisePanic(a.regular.email);
    const mine = await waitUntil(
      "the new officer's notification ended",
      async () => byUser(await notificationsOf(alert.id), user.id),
      (n) => n?.state === 'no_subscription',
    );
    expect(mine!.attempts).toBe(1);
    expect(
      await t.admin
        .collection('push_subscriptions')
        .getFullList({ filter: t.admin.filter('user = {:u}', { u: user.id }) }),
    ).toEqual([]);
  });
});

describe('other events', () => {
  test('a call the resident acknowledged tells the staff member who placed it, once', async () => {
    const house = await t.admin.collection('houses').create({
      address: '12 Palm Way',
      city: 'Palm Beach',
      state: 'FL',
      zip: '33480',
      community: a.community.id,
    });
    const call = await t.admin.collection('calls').create({
      house: house.id,
      community: a.community.id,
      to_number: '+15615550100',
      script: 'This is Palm Grove security.',
      status: 'in-progress',
      created_by: a.manager.id,
    });
    await t.admin.collection('calls').update(call.id, { status: 'completed' });
    expect(await notificationsOf(call.id)).toEqual([]);
    await t.admin.collection('calls').update(call.id, { acknowledged: true });
    await t.admin.collection('calls').update(call.id, { acknowledged: true, status: 'completed' });
    const list = await notificationsOf(call.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      user: a.manager.id,
      kind: 'call_acknowledged',
      title: 'Call acknowledged: 12 Palm Way',
      state: 'pending',
    });
  });

  test("a missed check-in (the server's) is titled so", async () => {
    const alert = await t.admin.collection('alerts').create({
      community: a.community.id,
      officer: onDuty.id,
      kind: 'missed_check_in',
      raised_at: new Date().toISOString(),
    });
    const list = await notificationsOf(alert.id);
    expect(list.length).toBeGreaterThan(0);
    for (const n of list) {
      expect(n.title).toBe('Missed check-in: Second Officer');
      expect(n.kind).toBe('missed_check_in');
    }
  });
});

describe('the sender', () => {
  const connected = () => senderLog.filter((line) => line.startsWith('realtime connected')).length;

  test('hears of a notification through realtime, and again after PocketBase restarts', async () => {
    const before = connected();
    // No poll within the test: only realtime can bring the alerts.
    startSender({ pollMs: 600_000 });
    await waitUntil('realtime connected', connected, (n) => n > before);
    const managerGot = async (alertId: string) => {
      const mine = byUser(await notificationsOf(alertId), a.manager.id);
      return mine?.state === 'sent'
        ? push.received(endpoints.managerA.endpoint).filter((m) => m.payload.id === mine.id)
        : [];
    };
    const first = await raisePanic(a.regular.email);
    expect(
      await waitUntil(
        'the first panic sent',
        () => managerGot(first.id),
        (m) => m.length > 0,
      ),
    ).toHaveLength(1);

    // Every delivery of the first one over before PocketBase goes: a round cut short is the polls' to finish.
    await waitUntil(
      'every notification of the first panic ended',
      () => notificationsOf(first.id),
      (l) => l.every((n) => n.state === 'sent' || n.state === 'no_subscription'),
    );
    await t.restart();
    await waitUntil('realtime connected again', connected, (n) => n > before + 1);
    const second = await raisePanic(a.regular.email);
    expect(
      await waitUntil(
        'the second panic sent',
        () => managerGot(second.id),
        (m) => m.length > 0,
      ),
    ).toHaveLength(1);
  });

  test("runs on its own (server/push/cli.ts) with the data folder's keys, and stops cleanly on SIGTERM", async () => {
    const alert = await raisePanic(a.regular.email);
    const [command, args] = scriptProcess('server/push/cli.ts');
    const child = spawn(command, args, {
      cwd: projectRoot,
      env: {
        ...process.env,
        SCMS_SERVER_URL: t.url,
        SCMS_DATA_DIR: t.dataDir,
        SCMS_SUPERUSER_EMAIL: SUPERUSER.email,
        SCMS_SUPERUSER_PASSWORD: SUPERUSER.password,
        SCMS_PUSH_HOSTS: hosts,
        SCMS_PUSH_SUBJECT: 'mailto:cli@scms.test',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const mine = await waitUntil(
        "the manager's notification sent by the CLI",
        async () => byUser(await notificationsOf(alert.id), a.manager.id),
        (n) => n?.state === 'sent',
      );
      const got = push.received(endpoints.managerA.endpoint).filter((m) => m.payload.id === mine!.id);
      expect(got.map((m) => m.claims.sub)).toEqual(['mailto:cli@scms.test']);
      await waitUntil(
        'the CLI listening',
        () => output,
        (text) => text.includes('realtime connected'),
      );
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, output).toBe(0);
  });

  test('the senders and the hooks logged no trouble', async () => {
    expect(senderLog.filter((line) => !line.startsWith('realtime connected'))).toEqual([]);
    const logs = await t.admin.logs.getList(1, 20, { filter: 'message ~ "scms push"' });
    expect(logs.items.map((entry) => entry.data)).toEqual([]);
  });
});

describe('bad input', () => {
  async function create(pb: PocketBase, values: Record<string, unknown>) {
    const me = pb.authStore.record!;
    const browser = push.newSubscription();
    return pb.collection('push_subscriptions').create({
      community: me.community,
      user: me.id,
      endpoint: browser.endpoint,
      p256dh: browser.keys.p256dh,
      auth: browser.keys.auth,
      ...values,
    });
  }

  const stored = async (endpoint: string) =>
    (
      await t.admin
        .collection('push_subscriptions')
        .getFullList({ filter: t.admin.filter('endpoint = {:e}', { e: endpoint }) })
    ).length;

  test('a subscription to a push service the server does not send to is refused, naming the field', async () => {
    const manager = await t.signIn(a.manager.email);
    const port = Number(push.host.split(':')[1]);
    const table: Array<[string, boolean]> = [
      [`${push.url}/push/fine`, true],
      [`https://${push.host}/push/fine-too`, true],
      ['https://push.example.com/sub/1', true],
      ['https://eu.push.example.net/sub/2', true],
      ['https://push.example.net/sub/3', false],
      ['http://push.example.com/sub/4', false],
      ['https://push.example.com:8443/sub/5', false],
      ['https://evil.example.org/push', false],
      [`http://127.0.0.1:${port + 1}/api/collections/users/records`, false],
      [`${t.url}/api/scms/call-jobs/run`, false],
      ['http://169.254.169.254/latest/meta-data', false],
      ['http://localhost:8090/', false],
      [`http://me@${push.host}/push/x`, false],
      ['https://push.example.com.evil.org/sub', false],
      ['ftp://push.example.com/sub', false],
    ];
    for (const [endpoint, allowed] of table) {
      // The sender's own check agrees with the server's.
      expect(pushEndpointProblem(endpoint, hosts) === '', endpoint).toBe(allowed);
      if (allowed) {
        const made = await create(manager, { endpoint });
        await manager.collection('push_subscriptions').delete(made.id);
        continue;
      }
      const answer = await refusal(create(manager, { endpoint }));
      expect(answer.status, endpoint).toBe(400);
      expect(answer.data.endpoint?.message, endpoint).toBeTruthy();
      expect(await stored(endpoint)).toBe(0);
    }
    const http = await refusal(create(manager, { endpoint: 'http://push.example.com/sub/4' }));
    expect(http.data.endpoint!.message).toBe('Must be an https address on the default port.');
    const unknown = await refusal(create(manager, { endpoint: 'https://evil.example.org/push' }));
    expect(unknown.data.endpoint!.message).toBe(
      'The push service evil.example.org is not one this server sends to (SCMS_PUSH_HOSTS).',
    );
  });

  test("malformed keys, another user's or another community's subscription are refused; nothing is stored", async () => {
    const manager = await t.signIn(a.manager.email);
    const good = push.newSubscription();
    const cases: Array<[Record<string, unknown>, string | null]> = [
      [{ p256dh: good.keys.p256dh.slice(0, 80) }, 'p256dh'],
      [{ p256dh: `A${good.keys.p256dh.slice(1)}` }, 'p256dh'],
      [{ p256dh: `${good.keys.p256dh.slice(0, 86)}+` }, 'p256dh'],
      [{ p256dh: '' }, 'p256dh'],
      [{ auth: good.keys.auth.slice(0, 20) }, 'auth'],
      [{ auth: `${good.keys.auth}AAAA` }, 'auth'],
      [{ auth: `${good.keys.auth.slice(0, 21)}=` }, 'auth'],
      [{ user: a.director.id }, null],
      [{ community: b.community.id }, null],
      [{ community: b.community.id, user: b.manager.id }, null],
    ];
    for (const [values, field] of cases) {
      const endpoint = push.newSubscription().endpoint;
      const answer = await refusal(create(manager, { ...values, endpoint }));
      expect([400, 403], JSON.stringify(values)).toContain(answer.status);
      if (field) expect(answer.data[field]?.message, JSON.stringify(values)).toBeTruthy();
      expect(await stored(endpoint)).toBe(0);
    }
    const signedOut = await refusal(
      t.client().collection('push_subscriptions').create({
        community: a.community.id,
        user: a.manager.id,
        endpoint: push.newSubscription().endpoint,
        p256dh: good.keys.p256dh,
        auth: good.keys.auth,
      }),
    );
    expect([400, 401, 403]).toContain(signedOut.status);
  });

  test('notifications are neither readable nor writable through the API by any staff', async () => {
    const some = await t.admin.collection('notifications').getList<Notification>(1, 1);
    const id = some.items[0]!.id;
    for (const email of [a.director.email, a.manager.email, a.regular.email, b.director.email]) {
      const pb = await t.signIn(email);
      const notifications = pb.collection('notifications');
      const listed = await notifications.getList(1, 50).then(
        (page) => page.items.length,
        (error: ClientResponseError) => error.status,
      );
      expect([0, 403]).toContain(listed);
      expect([403, 404]).toContain((await refusal(notifications.getOne(id))).status);
      expect([400, 403]).toContain(
        (
          await refusal(
            notifications.create({
              community: a.community.id,
              user: pb.authStore.record!.id,
              kind: 'panic',
              title: 'Fake',
              state: 'pending',
            }),
          )
        ).status,
      );
      expect([403, 404]).toContain((await refusal(notifications.update(id, { state: 'pending' }))).status);
      expect([403, 404]).toContain((await refusal(notifications.delete(id))).status);
    }
    expect((await t.admin.collection('notifications').getOne<Notification>(id)).title).not.toBe('Fake');
  });
});
