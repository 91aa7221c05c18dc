// @vitest-environment jsdom
/**
 * Notifications on the Safety screen (src/features/safety/NotificationSettings.tsx)
 * and what it stands on (src/data/resources/push.ts): what a browser can do
 * (pushSupportOf, the iPhone that must add the app to its Home Screen
 * first), turning on (the permission asked, the server's key, one
 * subscription record per endpoint, a phone whose subscription belongs to
 * someone who never logged out), turning off, offline, and the choices of
 * what a user is sent.
 *
 * jsdom lacks the Notification, Push and service worker APIs: they are
 * stood in for here, as small as the code uses them (a permission, a
 * registration whose push manager hands out subscriptions with a
 * browser's key sizes). The server is a fake PocketBase behind `fetch`
 * with the collections' own-only rules and the unique endpoint; the real
 * server's side is tests/integration/push.test.ts, and the built app in
 * Chromium is tests/e2e/push-subscribe.test.ts.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { pb } from '../../src/api/client.ts';
import type { UserType } from '../../src/api/records.ts';
import type { Staff } from '../../src/data/auth.ts';
import {
  disablePush,
  enablePush,
  pushSupportOf,
  readNotificationPrefs,
  saveNotificationPrefs,
  type PushEnvironment,
} from '../../src/data/resources/push.ts';
import { NotificationSettingsFor } from '../../src/features/safety/NotificationSettings.tsx';
import { KIND_CHOICES, NOTIFICATION_WORDS } from '../../src/features/safety/notificationWords.ts';

const COMMUNITY = 'community000001';
/** An uncompressed P-256 point, base64url, as the server's route answers it (its form is all that matters here). */
const SERVER_KEY = `B${'A'.repeat(86)}`;
const OTHER_KEY = `B${'Q'.repeat(86)}`;

const staff = (id: string, type: UserType): Staff => ({ id, community: COMMUNITY, type });
const officer = staff('officer00000001', 'regular');
const director = staff('director0000001', 'director');
const someoneElse = staff('officer00000002', 'regular');

// ---- the browser's side --------------------------------------------------------------

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

let endpoints = 0;

/** A push subscription as a browser makes it: an endpoint of a push service, a 65-byte key and a 16-byte secret. */
class FakeSubscription {
  readonly endpoint: string;
  readonly options: { applicationServerKey: ArrayBuffer; userVisibleOnly: boolean };
  private readonly keys: { p256dh: string; auth: string };
  unsubscribed = false;
  constructor(
    private readonly manager: FakePushManager,
    key: ArrayBuffer,
  ) {
    const n = ++endpoints;
    this.endpoint = `https://fcm.googleapis.com/fcm/send/device-${n}`;
    this.options = { applicationServerKey: key, userVisibleOnly: true };
    const p256dh = new Uint8Array(65).fill(n);
    p256dh[0] = 4;
    this.keys = { p256dh: base64url(p256dh), auth: base64url(new Uint8Array(16).fill(n)) };
  }
  toJSON() {
    return { endpoint: this.endpoint, keys: { ...this.keys } };
  }
  async unsubscribe() {
    this.unsubscribed = true;
    if (this.manager.current === this) this.manager.current = null;
    return true;
  }
}

class FakePushManager {
  current: FakeSubscription | null = null;
  subscribeCalls: Array<{ userVisibleOnly?: boolean; applicationServerKey?: unknown }> = [];
  async getSubscription() {
    return this.current;
  }
  async subscribe(options: { userVisibleOnly?: boolean; applicationServerKey?: unknown }) {
    this.subscribeCalls.push(options);
    if (this.current) return this.current;
    const key = options.applicationServerKey as Uint8Array;
    this.current = new FakeSubscription(this, key.slice().buffer);
    return this.current;
  }
}

interface FakeBrowser {
  pushManager: FakePushManager;
  permission: NotificationPermission;
  /** What the user answers when asked. */
  answer: NotificationPermission;
  asked: number;
}

let browser: FakeBrowser;

function installBrowser(options: { permission?: NotificationPermission; answer?: NotificationPermission } = {}) {
  const pushManager = new FakePushManager();
  browser = {
    pushManager,
    permission: options.permission ?? 'default',
    answer: options.answer ?? 'granted',
    asked: 0,
  };
  const registration = { pushManager };
  vi.stubGlobal(
    'Notification',
    class {
      static get permission() {
        return browser.permission;
      }
      static async requestPermission() {
        browser.asked++;
        browser.permission = browser.answer;
        return browser.permission;
      }
    },
  );
  vi.stubGlobal('PushManager', FakePushManager);
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(registration), getRegistration: async () => registration },
  });
}

// ---- the server's side: a fake PocketBase behind fetch -------------------------------

interface Row {
  id: string;
  [field: string]: unknown;
}

const TOKENS = new Map<string, string>();
let server: {
  subscriptions: Row[];
  prefs: Row[];
  requests: string[];
  /** The next request to notification_prefs fails with this status. */
  failPrefs: number | null;
};
let ids = 0;

function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The value of `field = "…"` in an SDK filter (pb.filter quotes strings as JSON). */
function filterValue(filter: string | null, field: string): string | null {
  const m = new RegExp(`^${field} = (".*")$`).exec(filter ?? '');
  return m ? (JSON.parse(m[1]!) as string) : null;
}

async function fakePocketBase(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input));
  const method = (init.method ?? 'GET').toUpperCase();
  server.requests.push(`${method} ${url.pathname}`);
  const headers = new Headers(init.headers);
  const user = TOKENS.get(headers.get('Authorization') ?? '');
  if (!user) return json(401, { status: 401, message: 'The request requires valid record authorization token.' });
  if (url.pathname === '/api/scms/push/key') return json(200, { publicKey: SERVER_KEY });
  const m = /^\/api\/collections\/(push_subscriptions|notification_prefs)\/records(?:\/([a-z0-9]+))?$/.exec(
    url.pathname,
  );
  if (!m) return json(404, { status: 404, message: 'Not found.' });
  const [, collection, id] = m;
  if (collection === 'notification_prefs' && server.failPrefs) {
    const status = server.failPrefs;
    server.failPrefs = null;
    return json(status, { status, message: 'Something went wrong while processing your request.' });
  }
  const rows = collection === 'push_subscriptions' ? server.subscriptions : server.prefs;
  // Both collections: a user lists, views, changes and deletes their own records only.
  const own = rows.filter((row) => row.user === user);
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
  if (method === 'GET' && !id) {
    const filter = url.searchParams.get('filter');
    const field = collection === 'push_subscriptions' ? 'endpoint' : 'user';
    const wanted = filterValue(filter, field);
    const items = own.filter((row) => wanted === null || row[field] === wanted);
    return json(200, { page: 1, perPage: 1, totalItems: items.length, totalPages: 1, items: items.slice(0, 1) });
  }
  if (method === 'POST' && !id) {
    if (body.user !== user || body.community !== COMMUNITY) return json(400, { status: 400, message: 'Failed.' });
    const unique = collection === 'push_subscriptions' ? 'endpoint' : 'user';
    if (rows.some((row) => row[unique] === body[unique]))
      return json(400, {
        status: 400,
        message: 'Failed to create record.',
        data: { [unique]: { code: 'validation_not_unique', message: 'Value must be unique.' } },
      });
    const row = { ...body, id: `record${String(++ids).padStart(9, '0')}` } as Row;
    rows.push(row);
    return json(200, row);
  }
  const row = own.find((r) => r.id === id);
  if (!row) return json(404, { status: 404, message: "The requested resource wasn't found." });
  if (method === 'PATCH') {
    Object.assign(row, body);
    return json(200, row);
  }
  if (method === 'DELETE') {
    rows.splice(rows.indexOf(row), 1);
    return json(204, null);
  }
  return json(405, { status: 405, message: 'Method not allowed.' });
}

function signIn(who: Staff) {
  const token = `token-of-${who.id}`;
  TOKENS.set(token, who.id);
  pb.authStore.save(token, { id: who.id, community: who.community, type: who.type, collectionName: 'users' } as never);
}

beforeEach(() => {
  server = { subscriptions: [], prefs: [], requests: [], failPrefs: null };
  vi.stubGlobal('fetch', vi.fn(fakePocketBase));
  pb.baseURL = 'http://scms.test';
});

afterEach(() => {
  cleanup();
  pb.authStore.clear();
  vi.unstubAllGlobals();
  // The unit layer keeps one jsdom for the files of a worker: leave its navigator as jsdom made it.
  for (const name of ['serviceWorker', 'userAgent', 'standalone'])
    Reflect.deleteProperty(navigator as unknown as Record<string, unknown>, name);
});

function renderSection(me: Staff, online = true) {
  signIn(me);
  return render(<NotificationSettingsFor me={me} online={online} />);
}

const state = () => screen.getByText((_, element) => element?.hasAttribute('data-push-state') ?? false);

// ---- what a browser can do -----------------------------------------------------------

const CHROME_ANDROID: PushEnvironment = {
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile',
  platform: 'Linux armv8l',
  maxTouchPoints: 5,
  standalone: undefined,
  displayStandalone: false,
  serviceWorker: true,
  pushManager: true,
  permission: 'default',
};
const IPHONE_SAFARI: PushEnvironment = {
  userAgent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  platform: 'iPhone',
  maxTouchPoints: 5,
  standalone: false,
  displayStandalone: false,
  // Safari hides the Push and Notification APIs from a tab.
  serviceWorker: true,
  pushManager: false,
  permission: undefined,
};

describe('what a browser can do (pushSupportOf)', () => {
  test.each<[string, Partial<PushEnvironment>, string]>([
    ['Chrome on Android, not asked yet', {}, 'default'],
    ['Chrome on Android, allowed', { permission: 'granted' }, 'granted'],
    ['Chrome on Android, blocked', { permission: 'denied' }, 'denied'],
    ['a browser without the Push API', { pushManager: false }, 'unsupported'],
    ['a browser without the Notification API', { permission: undefined }, 'unsupported'],
    ['an insecure page (no service worker)', { serviceWorker: false }, 'unsupported'],
  ])('%s: %s', (_, change, expected) => {
    expect(pushSupportOf({ ...CHROME_ANDROID, ...change })).toBe(expected);
  });

  test('an iPhone in Safari must add the app to its Home Screen first, where push exists', () => {
    expect(pushSupportOf(IPHONE_SAFARI)).toBe('needs-install');
    // Opened from the Home Screen: Safari's flag, or the display mode.
    const installed = { ...IPHONE_SAFARI, pushManager: true, permission: 'default' as const };
    expect(pushSupportOf({ ...installed, standalone: true })).toBe('default');
    expect(pushSupportOf({ ...installed, displayStandalone: true })).toBe('default');
    // iOS before 16.4: installed, still no Push API.
    expect(pushSupportOf({ ...IPHONE_SAFARI, standalone: true })).toBe('unsupported');
  });

  test('an iPad, which calls itself a Mac, is told the same; a Mac is not', () => {
    const ipad = {
      ...IPHONE_SAFARI,
      userAgent:
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1',
      platform: 'MacIntel',
    };
    expect(pushSupportOf(ipad)).toBe('needs-install');
    expect(pushSupportOf({ ...ipad, maxTouchPoints: 0, pushManager: true, permission: 'default' })).toBe('default');
  });
});

// ---- the section ---------------------------------------------------------------------

describe('turning notifications on and off', () => {
  test('off at first; Turn on asks the permission, subscribes with the server key and stores one record', async () => {
    installBrowser();
    const user = userEvent.setup();
    renderSection(officer);
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.off));
    expect(screen.getByText(NOTIFICATION_WORDS.inApp)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: NOTIFICATION_WORDS.turnOn }));
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.on));
    expect(browser.asked).toBe(1);
    const [options] = browser.pushManager.subscribeCalls;
    expect(options?.userVisibleOnly).toBe(true);
    expect(base64url(options?.applicationServerKey as Uint8Array)).toBe(SERVER_KEY);
    const subscription = browser.pushManager.current!;
    expect(server.subscriptions).toEqual([
      {
        id: expect.any(String),
        community: COMMUNITY,
        user: officer.id,
        endpoint: subscription.endpoint,
        p256dh: subscription.toJSON().keys.p256dh,
        auth: subscription.toJSON().keys.auth,
      },
    ]);
    expect(server.subscriptions[0]!.p256dh).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect(server.subscriptions[0]!.auth).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(screen.getByRole('button', { name: NOTIFICATION_WORDS.turnOff })).toBeTruthy();

    // Once more (another tab, a second tap): still one record.
    await expect(enablePush(officer)).resolves.toBe('on');
    expect(server.subscriptions).toHaveLength(1);
  });

  test('Turn off: the server forgets the subscription and the browser drops it', async () => {
    installBrowser({ permission: 'granted' });
    const user = userEvent.setup();
    signIn(officer);
    await enablePush(officer);
    const subscription = browser.pushManager.current!;
    renderSection(officer);
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.on));
    await user.click(screen.getByRole('button', { name: NOTIFICATION_WORDS.turnOff }));
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.off));
    expect(subscription.unsubscribed).toBe(true);
    expect(server.subscriptions).toEqual([]);
  });

  test('offline, Turn off still drops the subscription in the browser (the sender drops the record on 410)', async () => {
    installBrowser({ permission: 'granted' });
    signIn(officer);
    await enablePush(officer);
    const subscription = browser.pushManager.current!;
    server.requests = [];
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      await disablePush();
    } finally {
      onLine.mockRestore();
    }
    expect(subscription.unsubscribed).toBe(true);
    expect(server.requests).toEqual([]);
    expect(server.subscriptions).toHaveLength(1);
  });

  test('a permission refused: nothing is subscribed, and the section says it is blocked', async () => {
    installBrowser({ answer: 'denied' });
    const user = userEvent.setup();
    renderSection(officer);
    await user.click(await screen.findByRole('button', { name: NOTIFICATION_WORDS.turnOn }));
    expect((await screen.findByRole('alert')).textContent).toBe(NOTIFICATION_WORDS.notAllowed);
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.blocked));
    expect(browser.pushManager.subscribeCalls).toEqual([]);
    expect(server.requests).not.toContain('GET /api/scms/push/key');
    expect(screen.queryByRole('button', { name: NOTIFICATION_WORDS.turnOn })).toBeNull();
  });

  test('a phone still subscribed for someone who never logged out: this user gets a subscription of their own', async () => {
    installBrowser({ permission: 'granted' });
    signIn(someoneElse);
    await enablePush(someoneElse);
    const theirs = browser.pushManager.current!;

    const user = userEvent.setup();
    renderSection(officer);
    // The browser has a subscription, but it brings this user nothing: off.
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.off));
    await user.click(screen.getByRole('button', { name: NOTIFICATION_WORDS.turnOn }));
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.on));
    const mine = browser.pushManager.current!;
    expect(theirs.unsubscribed).toBe(true);
    expect(mine.endpoint).not.toBe(theirs.endpoint);
    expect(server.subscriptions.map((row) => [row.user, row.endpoint])).toEqual([
      [someoneElse.id, theirs.endpoint],
      [officer.id, mine.endpoint],
    ]);
  });

  test("a subscription made for another key (the server's keys replaced) is made again for the server's", async () => {
    installBrowser({ permission: 'granted' });
    signIn(officer);
    const registration = await navigator.serviceWorker.ready;
    const old = (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: Uint8Array.from(atob(OTHER_KEY.replace(/-/g, '+').replace(/_/g, '/') + '='), (c) =>
        c.charCodeAt(0),
      ),
    })) as unknown as FakeSubscription;
    await expect(enablePush(officer)).resolves.toBe('on');
    expect(old.unsubscribed).toBe(true);
    expect(server.subscriptions.map((row) => row.endpoint)).toEqual([browser.pushManager.current!.endpoint]);
  });

  test('offline: Turn on is off and says why; the choices say they need a connection', async () => {
    installBrowser();
    renderSection(officer, false);
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.off));
    expect((screen.getByRole('button', { name: NOTIFICATION_WORDS.turnOn }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(NOTIFICATION_WORDS.offlineTurningOn)).toBeTruthy();
    expect(screen.getByText(NOTIFICATION_WORDS.offlineChoices)).toBeTruthy();
    expect(screen.queryAllByRole('checkbox')).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  test('an iPhone in Safari: add the app to the Home Screen first, in two steps; no button', async () => {
    // Safari on iOS hides the Push and Notification APIs from a tab: nothing of installBrowser() here.
    Object.defineProperty(navigator, 'userAgent', { configurable: true, value: IPHONE_SAFARI.userAgent });
    Object.defineProperty(navigator, 'standalone', { configurable: true, value: false });
    renderSection(officer);
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.needsInstall));
    const steps = [...document.querySelectorAll('ol > li')].map((step) => step.textContent);
    expect(steps).toEqual([...NOTIFICATION_WORDS.installSteps]);
    expect(screen.getByText(/Share, then Add to Home Screen/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: NOTIFICATION_WORDS.turnOn })).toBeNull();
    expect(screen.getByText(NOTIFICATION_WORDS.inApp)).toBeTruthy();
  });

  test('a browser without push says it cannot receive them; no button', async () => {
    renderSection(officer);
    await waitFor(() => expect(state().textContent).toBe(NOTIFICATION_WORDS.unsupported));
    expect(screen.queryByRole('button', { name: NOTIFICATION_WORDS.turnOn })).toBeNull();
  });
});

describe('what a user is sent', () => {
  const labels = () =>
    screen.getAllByRole('checkbox').map((box) => box.closest('label')!.textContent!.replace(/\s+/g, ' ').trim());

  test('an officer is offered what concerns officers; panic and missed check-ins are recommended', async () => {
    installBrowser();
    renderSection(officer);
    await screen.findAllByRole('checkbox');
    expect(labels()).toEqual([
      'Panic alertsRecommended',
      'Missed check-insRecommended',
      'A resident acknowledged my call',
      'Missed tour rounds',
    ]);
    // Nothing saved yet: everything that concerns them is sent.
    for (const box of screen.getAllByRole('checkbox')) expect((box as HTMLInputElement).checked).toBe(true);
  });

  test('a director is offered reports with an injury or EMS too', async () => {
    installBrowser();
    renderSection(director);
    await screen.findAllByRole('checkbox');
    expect(labels()).toHaveLength(KIND_CHOICES.length);
    expect(screen.getByRole('checkbox', { name: 'Reports with an injury or EMS' })).toBeTruthy();
  });

  test('a choice is saved at once, to the one record of the user; a failed save is undone and said', async () => {
    installBrowser();
    const user = userEvent.setup();
    renderSection(officer);
    await user.click(await screen.findByRole('checkbox', { name: /^Missed check-ins/ }));
    expect(await screen.findByText(NOTIFICATION_WORDS.saved)).toBeTruthy();
    expect(server.prefs).toEqual([
      { id: expect.any(String), community: COMMUNITY, user: officer.id, muted: ['missed_check_in'] },
    ]);

    await user.click(screen.getByRole('checkbox', { name: /^A resident acknowledged my call/ }));
    await waitFor(() => expect(server.prefs[0]!.muted).toEqual(['missed_check_in', 'call_acknowledged']));
    expect(server.prefs).toHaveLength(1);
    await user.click(screen.getByRole('checkbox', { name: /^Missed check-ins/ }));
    await waitFor(() => expect(server.prefs[0]!.muted).toEqual(['call_acknowledged']));
    expect((screen.getByRole('checkbox', { name: /^Missed check-ins/ }) as HTMLInputElement).checked).toBe(true);

    server.failPrefs = 500;
    await user.click(screen.getByRole('checkbox', { name: /^Panic alerts/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong while processing your request.');
    expect((screen.getByRole('checkbox', { name: /^Panic alerts/ }) as HTMLInputElement).checked).toBe(true);
    expect(server.prefs[0]!.muted).toEqual(['call_acknowledged']);
  });

  test('choices saved elsewhere are shown; a second phone saving first is updated, not duplicated', async () => {
    signIn(officer);
    server.prefs.push({ id: 'prefs0000000001', community: COMMUNITY, user: officer.id, muted: ['missed_round'] });
    expect(await readNotificationPrefs(officer)).toEqual(['missed_round']);
    // Another user's record is not this user's.
    server.prefs.push({ id: 'prefs0000000002', community: COMMUNITY, user: someoneElse.id, muted: ['panic'] });
    expect(await saveNotificationPrefs(officer, ['missed_round', 'call_acknowledged'])).toEqual([
      'missed_round',
      'call_acknowledged',
    ]);
    expect(server.prefs.map((row) => [row.user, row.muted])).toEqual([
      [officer.id, ['missed_round', 'call_acknowledged']],
      [someoneElse.id, ['panic']],
    ]);
  });
});
