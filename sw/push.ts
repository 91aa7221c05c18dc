/**
 * The service worker's side of Web Push (sw.ts adds the listeners): shows
 * what the server's sender pushes (server/push/sender.ts: JSON
 * `{id, kind, title, body, url}`), opens the app where a tap on it leads,
 * renews a subscription the push service replaced, and drops this
 * browser's subscription at Log out.
 *
 * Written against the few members of the worker's objects it uses, not
 * the WebWorker library's types, so that tests/unit/sw-push.test.ts runs
 * it with fakes in Node.
 */
import PocketBase from 'pocketbase';
import { clientFromSavedSession } from '../src/data/sync/session.ts';

export interface PushPayload {
  id: string;
  kind: string;
  title: string;
  body: string;
  url: string;
}

/** An alarm about an officer: it sounds again when repeated, and stays on screen until someone acts on it. */
const URGENT_KINDS = new Set(['panic', 'missed_check_in']);

/** The manifest's icon (vite.config.ts), precached with the app. */
export const APP_ICON = '/icons/icon-192.png';

/**
 * A push that cannot be read still shows something: a push without a
 * notification counts against the site (Chrome shows its own "updated in
 * the background" message, and Safari may end the subscription).
 */
export const GENERIC_NOTIFICATION = {
  title: 'SCMS: open the app',
  body: 'Something new is waiting for you in the app.',
  tag: 'scms-generic',
} as const;

/** The payload, or null when the text is not the sender's JSON. */
export function parsePushPayload(text: string | null | undefined): PushPayload | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const fields = value as Record<string, unknown>;
  const field = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  if (field('id') === '' || field('title') === '') return null;
  return { id: field('id'), kind: field('kind'), title: field('title'), body: field('body'), url: field('url') };
}

/** What showNotification is given; renotify is not in TypeScript's DOM library. */
export type ShownOptions = NotificationOptions & { renotify?: boolean };

export function notificationFor(payload: PushPayload | null): { title: string; options: ShownOptions } {
  if (!payload)
    return {
      title: GENERIC_NOTIFICATION.title,
      options: { body: GENERIC_NOTIFICATION.body, tag: GENERIC_NOTIFICATION.tag, icon: APP_ICON, data: { url: '/' } },
    };
  const urgent = URGENT_KINDS.has(payload.kind);
  return {
    title: payload.title,
    options: {
      body: payload.body,
      // The sender may deliver a notification twice (sender.ts: at least once): the same tag replaces it.
      tag: payload.id,
      icon: APP_ICON,
      data: { url: payload.url },
      ...(urgent ? { renotify: true, requireInteraction: true } : {}),
    },
  };
}

/** The `push` event's work: `text` is the message's data as text (null without data). */
export function showPush(
  registration: { showNotification(title: string, options?: NotificationOptions): Promise<void> },
  text: string | null,
): Promise<void> {
  const { title, options } = notificationFor(parsePushPayload(text));
  return registration.showNotification(title, options);
}

/**
 * Where a tap leads: a path of this app (the sender's url, '/alerts/…',
 * '/reports'), as a full URL of `origin`; anything else (another site, a
 * protocol-relative '//host', no url) opens the app's start.
 */
export function notificationTarget(url: unknown, origin: string): string {
  const start = new URL('/', origin).href;
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//') || url.includes('\\')) return start;
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? target.href : start;
  } catch {
    return start;
  }
}

/** The members of a WindowClient used here. */
export interface AppWindow {
  readonly url: string;
  readonly focused?: boolean;
  focus(): Promise<unknown>;
  /** Null, or a rejection, when the worker may not navigate it (a window it does not control). */
  navigate(url: string): Promise<unknown>;
}

/** The members of the worker's Clients used here. */
export interface AppWindows {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly AppWindow[]>;
  openWindow(url: string): Promise<unknown>;
}

/**
 * The `notificationclick` event's work, once the notification is closed:
 * an open window of the app is brought forward and taken to the target
 * (the focused one if any), else a new window opens at it.
 */
export async function openFromNotification(windows: AppWindows, origin: string, url: unknown): Promise<void> {
  const target = notificationTarget(url, origin);
  const open = (await windows.matchAll({ type: 'window', includeUncontrolled: true })).filter((window) => {
    try {
      return new URL(window.url).origin === origin;
    } catch {
      return false;
    }
  });
  const chosen = open.find((window) => window.focused) ?? open[0];
  if (chosen) {
    try {
      // Focus first: the browser lets a worker focus a window only while the click's activation lasts.
      await chosen.focus();
      if (chosen.url === target || (await chosen.navigate(target)) !== null) return;
    } catch (error) {
      console.warn('[scms-sw] could not take the open window to the notification:', error);
    }
  }
  await windows.openWindow(target);
}

export interface SubscriptionChange {
  oldSubscription: PushSubscription | null;
  newSubscription: PushSubscription | null;
}

interface SubscriptionRecord {
  id: string;
}

/**
 * `pushsubscriptionchange` (Firefox fires it when its push service
 * replaces a subscription; Chromium never does): subscribes again with the
 * same key and tells the server with the session the window saved
 * (src/data/sync/session.ts), best effort. The new subscription is stored
 * only for the user whose record held the old one, so a phone another
 * user signed in to since does not start getting their alerts; otherwise
 * the Safety screen shows notifications off, and 'Turn on' stores it.
 * Returns what happened, for the worker's log.
 */
export async function renewSubscription(
  change: SubscriptionChange,
  pushManager: Pick<PushManager, 'subscribe'>,
  session: () => Promise<{ client: PocketBase; userId: string } | undefined> = clientFromSavedSession,
): Promise<string> {
  const old = change.oldSubscription;
  const key = old?.options.applicationServerKey;
  if (!old || !key) return 'no old subscription to renew';
  const fresh =
    change.newSubscription ?? (await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  const signedIn = await session();
  if (!signedIn) return 'renewed in the browser; nobody signed in to tell the server';
  const { client, userId } = signedIn;
  const records = client.collection('push_subscriptions');
  const byEndpoint = async (endpoint: string) =>
    (
      await records.getList<SubscriptionRecord>(1, 1, {
        filter: client.filter('endpoint = {:endpoint}', { endpoint }),
        requestKey: null,
      })
    ).items[0] ?? null;
  const previous = await byEndpoint(old.endpoint);
  if (!previous) return 'renewed in the browser; the old subscription was not the signed-in user’s';
  const { endpoint, keys } = fresh.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) return 'the new subscription has no keys';
  if (!(await byEndpoint(endpoint)))
    await records.create(
      {
        community: String(client.authStore.record?.community ?? ''),
        user: userId,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
      },
      { requestKey: null },
    );
  await records.delete(previous.id, { requestKey: null });
  return 'renewed and stored';
}

/**
 * The window's message at Log out (src/app/session.ts, which spells the
 * same text): `{ type, token }`, the session's token read before the
 * window forgets it.
 */
export const FORGET_PUSH_MESSAGE = 'SCMS_FORGET_PUSH';

/** Past this the server is not waited for (the browser has dropped the subscription already). */
const FORGET_TIMEOUT_MS = 10_000;

/**
 * Log out on a shared phone: the next person must not get the previous
 * user's alerts. Done here rather than in the window so that Log out
 * waits for nothing and the Homes screen carries none of this code. The
 * browser drops the subscription first (the phone stops receiving at
 * once, whatever the network); then, best effort, the server deletes its
 * record with the user's token (still valid: signing out only forgets it
 * on the device). A record the server keeps is deleted by the sender the
 * first time the push service answers 404 or 410 (server/push/sender.ts).
 */
export async function forgetSubscription(
  pushManager: Pick<PushManager, 'getSubscription'>,
  token: unknown,
  client: PocketBase,
): Promise<string> {
  const subscription = await pushManager.getSubscription();
  if (!subscription) return 'no subscription';
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  if (typeof token !== 'string' || token === '') return 'unsubscribed; no session to tell the server with';
  client.authStore.save(token, null);
  try {
    const signal = AbortSignal.timeout(FORGET_TIMEOUT_MS);
    const records = client.collection('push_subscriptions');
    const found = await records.getList<SubscriptionRecord>(1, 1, {
      filter: client.filter('endpoint = {:endpoint}', { endpoint }),
      requestKey: null,
      signal,
    });
    const record = found.items[0];
    if (!record) return 'unsubscribed; the server had no record of it';
    await records.delete(record.id, { requestKey: null, signal });
    return 'unsubscribed and deleted on the server';
  } catch (error) {
    return `unsubscribed; the server could not be told (${String(error)})`;
  } finally {
    client.authStore.clear();
  }
}
