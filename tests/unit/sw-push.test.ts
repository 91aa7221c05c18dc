/**
 * The service worker's Web Push handlers (sw/push.ts), run in Node with
 * stand-ins for the few members of the worker's objects they use: a
 * registration that keeps its notifications by tag (as browsers do), open
 * windows, a push manager, and the server behind `fetch`. What a push
 * shows (the sender's JSON, and anything else), where a tap leads, the
 * subscription renewed, and the one dropped at Log out. The same handlers
 * in Chromium: tests/e2e/push-subscribe.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  APP_ICON,
  forgetSubscription,
  GENERIC_NOTIFICATION,
  notificationTarget,
  openFromNotification,
  renewSubscription,
  showPush,
  type AppWindow,
  type AppWindows,
} from '../../sw/push.ts';
import { projectRoot } from '../../scripts/pocketbase/paths.ts';

const ORIGIN = 'https://patrol.scms.test';

/** A registration's notifications as a browser keeps them: one per tag, a new one with the same tag replaces it. */
function fakeRegistration() {
  const shown: Array<{ title: string; options: NotificationOptions & { renotify?: boolean } }> = [];
  return {
    shown,
    async showNotification(title: string, options: NotificationOptions = {}) {
      const same = options.tag ? shown.findIndex((n) => n.options.tag === options.tag) : -1;
      if (same >= 0) shown.splice(same, 1);
      shown.push({ title, options });
    },
  };
}

const payload = (fields: Record<string, unknown>) =>
  JSON.stringify({
    id: 'notif0000000001',
    kind: 'panic',
    title: 'Panic: Ann Lee',
    body: 'Pressed Panic at 2026-12-14 21:04 (America/New_York). No position.',
    url: '/alerts/alert0000000001',
    ...fields,
  });

describe('a push shows a notification', () => {
  test("the sender's JSON: its title and body, tag = id, the app's icon, the url to open", async () => {
    const registration = fakeRegistration();
    await showPush(registration, payload({ kind: 'injury_report', url: '/reports' }));
    expect(registration.shown).toEqual([
      {
        title: 'Panic: Ann Lee',
        options: {
          body: 'Pressed Panic at 2026-12-14 21:04 (America/New_York). No position.',
          tag: 'notif0000000001',
          icon: APP_ICON,
          data: { url: '/reports' },
        },
      },
    ]);
    // The manifest's icon, which the app serves and precaches.
    expect(existsSync(join(projectRoot, 'public', APP_ICON))).toBe(true);
  });

  test.each(['panic', 'missed_check_in'])('%s sounds again when repeated and stays until acted on', async (kind) => {
    const registration = fakeRegistration();
    await showPush(registration, payload({ kind }));
    expect(registration.shown[0]!.options).toMatchObject({ renotify: true, requireInteraction: true });
  });

  test.each(['injury_report', 'call_acknowledged', 'missed_round', 'check_in_due'])(
    '%s neither sounds again nor stays',
    async (kind) => {
      const registration = fakeRegistration();
      await showPush(registration, payload({ kind }));
      expect(registration.shown[0]!.options.renotify).toBeUndefined();
      expect(registration.shown[0]!.options.requireInteraction).toBeUndefined();
    },
  );

  test('the same notification delivered twice (the sender delivers at least once) shows once', async () => {
    const registration = fakeRegistration();
    await showPush(registration, payload({}));
    await showPush(registration, payload({}));
    await showPush(registration, payload({ id: 'notif0000000002', title: 'Missed check-in: Bo Diaz' }));
    expect(registration.shown.map((n) => [n.options.tag, n.title])).toEqual([
      ['notif0000000001', 'Panic: Ann Lee'],
      ['notif0000000002', 'Missed check-in: Bo Diaz'],
    ]);
  });

  test.each<[string, string | null]>([
    ['no data', null],
    ['text that is not JSON', 'hello'],
    ['JSON that is not an object', '"panic"'],
    ['JSON without an id', payload({ id: undefined })],
    ['JSON without a title', payload({ title: 42 })],
  ])('%s: a generic notification rather than none', async (_, text) => {
    const registration = fakeRegistration();
    await showPush(registration, text);
    expect(registration.shown).toEqual([
      {
        title: GENERIC_NOTIFICATION.title,
        options: { body: GENERIC_NOTIFICATION.body, tag: GENERIC_NOTIFICATION.tag, icon: APP_ICON, data: { url: '/' } },
      },
    ]);
    expect(GENERIC_NOTIFICATION.title).toBe('SCMS: open the app');
  });
});

describe('a tap opens the app where the notification leads', () => {
  test.each<[unknown, string]>([
    ['/alerts/alert0000000001', `${ORIGIN}/alerts/alert0000000001`],
    ['/reports?day=2026-12-14#top', `${ORIGIN}/reports?day=2026-12-14#top`],
    ['https://evil.example/phish', `${ORIGIN}/`],
    ['//evil.example/phish', `${ORIGIN}/`],
    ['/\\evil.example', `${ORIGIN}/`],
    ['javascript:alert(1)', `${ORIGIN}/`],
    ['alerts/relative', `${ORIGIN}/`],
    ['', `${ORIGIN}/`],
    [undefined, `${ORIGIN}/`],
    [42, `${ORIGIN}/`],
  ])('%j → %s', (url, target) => {
    expect(notificationTarget(url, ORIGIN)).toBe(target);
  });

  /** Open windows; `navigate` answers null for one this worker does not control, as WindowClient does. */
  function fakeWindows(list: Array<{ url: string; focused?: boolean; controlled?: boolean }>) {
    const log: string[] = [];
    const windows: AppWindow[] = list.map((w, i) => ({
      url: w.url,
      focused: w.focused ?? false,
      async focus() {
        log.push(`focus ${i}`);
      },
      async navigate(url: string) {
        log.push(`navigate ${i} ${url}`);
        return w.controlled === false ? null : this;
      },
    }));
    const clients: AppWindows = {
      async matchAll(options) {
        expect(options).toEqual({ type: 'window', includeUncontrolled: true });
        return windows;
      },
      async openWindow(url) {
        log.push(`open ${url}`);
        return null;
      },
    };
    return { clients, log };
  }

  test('an open window of the app is brought forward and taken there', async () => {
    const { clients, log } = fakeWindows([{ url: `${ORIGIN}/homes` }]);
    await openFromNotification(clients, ORIGIN, '/alerts/a1');
    expect(log).toEqual(['focus 0', `navigate 0 ${ORIGIN}/alerts/a1`]);
  });

  test('of several, the focused one; a window of another site is never used', async () => {
    const { clients, log } = fakeWindows([
      { url: 'https://elsewhere.example/', focused: true },
      { url: `${ORIGIN}/homes` },
      { url: `${ORIGIN}/tours`, focused: true },
    ]);
    await openFromNotification(clients, ORIGIN, '/reports');
    expect(log).toEqual(['focus 2', `navigate 2 ${ORIGIN}/reports`]);
  });

  test('a window already there is only brought forward', async () => {
    const { clients, log } = fakeWindows([{ url: `${ORIGIN}/reports` }]);
    await openFromNotification(clients, ORIGIN, '/reports');
    expect(log).toEqual(['focus 0']);
  });

  test('no window of the app, or one the worker cannot navigate: a new window', async () => {
    const none = fakeWindows([{ url: 'https://elsewhere.example/' }]);
    await openFromNotification(none.clients, ORIGIN, '/alerts/a1');
    expect(none.log).toEqual([`open ${ORIGIN}/alerts/a1`]);
    const uncontrolled = fakeWindows([{ url: `${ORIGIN}/homes`, controlled: false }]);
    await openFromNotification(uncontrolled.clients, ORIGIN, 'https://evil.example/');
    expect(uncontrolled.log).toEqual(['focus 0', `navigate 0 ${ORIGIN}/`, `open ${ORIGIN}/`]);
  });
});

// ---- the server behind fetch, for renewing and forgetting ------------------------------

interface Row {
  id: string;
  user: string;
  endpoint: string;
}

let rows: Row[];
let requests: string[];
/** Every request answers this status (0: a network failure) when set. */
let failWith: number | null;

beforeEach(() => {
  rows = [];
  requests = [];
  failWith = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input));
      const method = init.method ?? 'GET';
      const user = /^token-of-(.+)$/.exec(new Headers(init.headers).get('Authorization') ?? '')?.[1];
      requests.push(`${method} ${url.pathname} as ${user ?? 'nobody'}`);
      if (failWith === 0) throw new TypeError('fetch failed');
      const answer = (status: number, body: unknown) =>
        new Response(status === 204 ? null : JSON.stringify(body), { status });
      if (failWith) return answer(failWith, { status: failWith, message: 'Down.' });
      const own = rows.filter((row) => row.user === user);
      const id = /\/records\/([a-z0-9]+)$/.exec(url.pathname)?.[1];
      if (method === 'GET') {
        const endpoint = JSON.parse(/^endpoint = (".*")$/.exec(url.searchParams.get('filter') ?? '')![1]!) as string;
        const items = own.filter((row) => row.endpoint === endpoint);
        return answer(200, { page: 1, perPage: 1, totalItems: items.length, totalPages: 1, items });
      }
      if (method === 'POST') {
        const body = JSON.parse(String(init.body)) as Row;
        const row = { ...body, id: `record${rows.length + 1}`.padEnd(15, '0') };
        rows.push(row);
        return answer(200, row);
      }
      const row = own.find((r) => r.id === id);
      if (!row) return answer(404, { status: 404, message: 'Not found.' });
      rows.splice(rows.indexOf(row), 1);
      return answer(204, null);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function fakeSubscription(endpoint: string, log: string[] = []) {
  return {
    endpoint,
    options: { applicationServerKey: new Uint8Array([4, 1, 2]).buffer, userVisibleOnly: true },
    toJSON: () => ({ endpoint, keys: { p256dh: `B${'x'.repeat(86)}`, auth: 'y'.repeat(22) } }),
    async unsubscribe() {
      log.push(`unsubscribe ${endpoint}`);
      return true;
    },
  } as unknown as PushSubscription;
}

const client = () => new PocketBase('https://patrol.scms.test');

describe('Log out drops this browser’s subscription (forgetSubscription)', () => {
  test('the browser drops it first, then the server deletes the record with the user’s token', async () => {
    rows.push({ id: 'record000000001', user: 'ann', endpoint: 'https://push.example/1' });
    rows.push({ id: 'record000000002', user: 'ann', endpoint: 'https://push.example/2' });
    const log: string[] = [];
    const subscription = fakeSubscription('https://push.example/1', log);
    const outcome = await forgetSubscription({ getSubscription: async () => subscription }, 'token-of-ann', client());
    expect(outcome).toBe('unsubscribed and deleted on the server');
    expect(log).toEqual(['unsubscribe https://push.example/1']);
    // Only this browser's record: the user's other phone keeps getting alerts.
    expect(rows.map((row) => row.endpoint)).toEqual(['https://push.example/2']);
    expect(requests).toEqual([
      'GET /api/collections/push_subscriptions/records as ann',
      'DELETE /api/collections/push_subscriptions/records/record000000001 as ann',
    ]);
  });

  test('offline, or with no session, the browser drops it all the same', async () => {
    const log: string[] = [];
    failWith = 0;
    const offline = await forgetSubscription(
      { getSubscription: async () => fakeSubscription('https://push.example/1', log) },
      'token-of-ann',
      client(),
    );
    expect(offline).toMatch(/^unsubscribed; the server could not be told/);
    const noSession = await forgetSubscription(
      { getSubscription: async () => fakeSubscription('https://push.example/2', log) },
      undefined,
      client(),
    );
    expect(noSession).toBe('unsubscribed; no session to tell the server with');
    expect(log).toEqual(['unsubscribe https://push.example/1', 'unsubscribe https://push.example/2']);
  });

  test('no subscription: nothing to do, nothing asked', async () => {
    expect(await forgetSubscription({ getSubscription: async () => null }, 'token-of-ann', client())).toBe(
      'no subscription',
    );
    expect(requests).toEqual([]);
  });
});

describe('a subscription the push service replaced (renewSubscription)', () => {
  const signedIn = (user: string) => async () => {
    const c = client();
    c.authStore.save(`token-of-${user}`, { id: user, community: 'community000001' } as never);
    return { client: c, userId: user };
  };

  test('subscribed again with the same key; the new record stored, the old one deleted', async () => {
    rows.push({ id: 'record000000001', user: 'ann', endpoint: 'https://push.example/old' });
    const old = fakeSubscription('https://push.example/old');
    const fresh = fakeSubscription('https://push.example/new');
    const subscribe = vi.fn(async () => fresh);
    const outcome = await renewSubscription(
      { oldSubscription: old, newSubscription: null },
      { subscribe },
      signedIn('ann'),
    );
    expect(outcome).toBe('renewed and stored');
    expect(subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: old.options.applicationServerKey,
    });
    expect(rows).toEqual([
      {
        id: expect.any(String),
        community: 'community000001',
        user: 'ann',
        endpoint: 'https://push.example/new',
        p256dh: `B${'x'.repeat(86)}`,
        auth: 'y'.repeat(22),
      },
    ]);
  });

  test('the old subscription was not the signed-in user’s: nothing is stored for them', async () => {
    rows.push({ id: 'record000000001', user: 'bob', endpoint: 'https://push.example/old' });
    const outcome = await renewSubscription(
      {
        oldSubscription: fakeSubscription('https://push.example/old'),
        newSubscription: fakeSubscription('https://push.example/new'),
      },
      { subscribe: vi.fn() },
      signedIn('ann'),
    );
    expect(outcome).toMatch(/not the signed-in user/);
    expect(rows.map((row) => [row.user, row.endpoint])).toEqual([['bob', 'https://push.example/old']]);
  });

  test('without the old subscription there is no key to renew with: left alone', async () => {
    const subscribe = vi.fn();
    expect(
      await renewSubscription({ oldSubscription: null, newSubscription: null }, { subscribe }, signedIn('ann')),
    ).toBe('no old subscription to renew');
    expect(subscribe).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });
});
