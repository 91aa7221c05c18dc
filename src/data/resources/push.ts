/**
 * Web Push on this phone (docs/product.md#on-duty-and-alerts): whether the
 * browser can receive notifications, subscribing it to the server's
 * pushes and unsubscribing it, and the user's choice of what they are sent.
 *
 * The server's half: the VAPID public key at `GET /api/scms/push/key`, the
 * collections `push_subscriptions` (a user's browsers) and
 * `notification_prefs` (the kinds a user muted), both readable and
 * writable by their own user only (pocketbase/pb_migrations/1765700000_duty_and_alerts.js),
 * and the sender that delivers to them (server/push/sender.ts). Neither
 * collection is mirrored: every action here needs a connection, and says
 * so offline (an `'offline'` outcome or PushProblem) rather than queueing,
 * since a subscription made on a later connection would be a surprise.
 *
 * Loaded with the Safety screen only (src/features/safety/NotificationSettings.tsx),
 * never with the first screen. Log out drops this browser's subscription
 * through the service worker (src/app/session.ts, sw/push.ts).
 */
import { ClientResponseError, type RecordModel } from 'pocketbase';
import { useCallback, useEffect, useState } from 'react';
import { pb } from '../../api/client.ts';
import type { SignedInUser } from '../auth.ts';

/** The kinds of notification the server sends (the `muted` select of notification_prefs). */
export const NOTIFICATION_KINDS = [
  'panic',
  'missed_check_in',
  'check_in_due',
  'injury_report',
  'call_acknowledged',
  'missed_round',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * What this browser can do about notifications:
 * - 'unsupported': no service worker, Push API or Notification API (an old
 *   browser, an insecure origin, an in-app browser);
 * - 'needs-install': an iPhone or iPad whose Safari has push only in the app
 *   added to the Home Screen (iOS 16.4 and later), and this is not it;
 * - 'denied' | 'default' | 'granted': Notification.permission.
 */
export type PushSupport = 'unsupported' | 'needs-install' | 'denied' | 'default' | 'granted';

/** What pushSupportOf reads from the browser (a plain object, so the rule is tested without one). */
export interface PushEnvironment {
  userAgent: string;
  platform: string;
  maxTouchPoints: number;
  /** Safari's navigator.standalone: true in the app opened from the Home Screen. */
  standalone: boolean | undefined;
  /** matchMedia('(display-mode: standalone)'), false where there is no matchMedia. */
  displayStandalone: boolean;
  serviceWorker: boolean;
  pushManager: boolean;
  /** Notification.permission; undefined without the Notification API. */
  permission: NotificationPermission | undefined;
}

/** iPhone, iPod, or an iPad (iPadOS 13+ calls itself a Mac, but a Mac has no touch screen). */
function isAppleMobile(env: PushEnvironment): boolean {
  return /iPhone|iPad|iPod/.test(env.userAgent) || (env.platform === 'MacIntel' && env.maxTouchPoints > 1);
}

export function pushSupportOf(env: PushEnvironment): PushSupport {
  // Checked first: Safari on iOS hides the Push and Notification APIs from a tab, so without this
  // an iPhone would read 'unsupported' when adding the app to the Home Screen would make it work.
  if (isAppleMobile(env) && env.standalone !== true && !env.displayStandalone) return 'needs-install';
  if (!env.serviceWorker || !env.pushManager || env.permission === undefined) return 'unsupported';
  return env.permission;
}

/** This browser's PushEnvironment. */
export function browserPushEnvironment(): PushEnvironment {
  const nav = globalThis.navigator as (Navigator & { standalone?: boolean }) | undefined;
  const matchMedia = globalThis.matchMedia as typeof window.matchMedia | undefined;
  return {
    userAgent: nav?.userAgent ?? '',
    platform: nav?.platform ?? '',
    maxTouchPoints: nav?.maxTouchPoints ?? 0,
    standalone: nav?.standalone,
    displayStandalone: typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches,
    serviceWorker: !!nav && 'serviceWorker' in nav,
    pushManager: typeof globalThis.PushManager !== 'undefined',
    permission: typeof globalThis.Notification !== 'undefined' ? globalThis.Notification.permission : undefined,
  };
}

export function pushSupport(): PushSupport {
  return pushSupportOf(browserPushEnvironment());
}

/**
 * Why turning notifications on or off failed, for the screen to put in
 * words (src/features/safety/notificationWords.ts):
 * - 'no-worker': no service worker took this page (the dev server has none; a first visit still installing it);
 * - 'push-service': the browser's push service refused or did not answer;
 * - 'no-keys': the browser gave a subscription without its keys.
 */
export class PushProblem extends Error {
  constructor(
    readonly reason: 'no-worker' | 'push-service' | 'no-keys',
    cause?: unknown,
  ) {
    super(`push: ${reason}`, { cause });
    this.name = 'PushProblem';
  }
}

/** How long turning on waits for the service worker to take the page. */
const WORKER_WAIT_MS = 10_000;
/** How long turning on waits for the browser's push service. */
const SUBSCRIBE_WAIT_MS = 30_000;

interface SubscriptionRecord extends RecordModel {
  endpoint: string;
}

interface PrefsRecord extends RecordModel {
  muted: string[];
}

function base64urlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** `promise`, or PushProblem(`reason`) once `ms` have passed without an answer. */
async function within<T>(promise: Promise<T>, ms: number, reason: PushProblem['reason']): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PushProblem(reason)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

// `ready` never settles on a page no worker will take (src/sw-register.ts registers it in production builds only).
const workerRegistration = () => within(navigator.serviceWorker.ready, WORKER_WAIT_MS, 'no-worker');

/** This browser's subscription, if it has one; never waits for a worker that is not there. */
async function browserSubscription(): Promise<PushSubscription | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager?.getSubscription()) ?? null;
}

/** The signed-in user's record of this endpoint (the list rule shows a user their own only); null when none. */
async function ownSubscriptionRecord(endpoint: string): Promise<SubscriptionRecord | null> {
  const page = await pb.collection('push_subscriptions').getList<SubscriptionRecord>(1, 1, {
    filter: pb.filter('endpoint = {:endpoint}', { endpoint }),
    requestKey: null,
  });
  return page.items[0] ?? null;
}

/** The server refused a second record of the same endpoint (its unique index): another user's record holds it. */
function endpointTaken(error: unknown): boolean {
  if (!(error instanceof ClientResponseError) || error.status !== 400) return false;
  const endpoint = (error.response.data as Record<string, { code?: string }> | undefined)?.endpoint;
  return endpoint?.code === 'validation_not_unique';
}

/** Tells the server of `subscription` for `user` (nothing when it has it already). 'taken': another user's record holds the endpoint. */
async function storeSubscription(user: SignedInUser, subscription: PushSubscription): Promise<'stored' | 'taken'> {
  const { endpoint, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new PushProblem('no-keys');
  // Looked up first: turning on twice, or on a phone whose record is still there, makes no second record.
  if (await ownSubscriptionRecord(endpoint)) return 'stored';
  try {
    await pb
      .collection('push_subscriptions')
      .create(
        { community: user.community, user: user.id, endpoint, p256dh: keys.p256dh, auth: keys.auth },
        { requestKey: null },
      );
    return 'stored';
  } catch (error) {
    if (endpointTaken(error)) return 'taken';
    throw error;
  }
}

async function subscribe(registration: ServiceWorkerRegistration, key: Uint8Array<ArrayBuffer>) {
  try {
    // Chromium registers with its push service (FCM) here, and waits as long as that takes: on a signal
    // too weak for it the screen says so rather than spin. A subscription that completes later is the
    // one the next 'Turn on' finds (getSubscription) and stores.
    return await within(
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
      SUBSCRIBE_WAIT_MS,
      'push-service',
    );
  } catch (error) {
    throw error instanceof PushProblem ? error : new PushProblem('push-service', error);
  }
}

export type EnableOutcome = 'on' | 'offline' | Exclude<PushSupport, 'granted'>;

/**
 * Turns notifications on for `user` in this browser: asks the permission,
 * subscribes with the server's key and stores the subscription. Call it
 * straight from the button's click: Safari and Firefox ask for the
 * permission only within a user's gesture, so it is asked before anything
 * is awaited. Throws PushProblem, or the server's error.
 */
export async function enablePush(user: SignedInUser): Promise<EnableOutcome> {
  const support = pushSupport();
  if (support === 'unsupported' || support === 'needs-install') return support;
  if (!navigator.onLine) return 'offline';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission;
  const { publicKey } = await pb.send<{ publicKey: string }>('/api/scms/push/key', { requestKey: null });
  const key = base64urlToBytes(publicKey);
  const registration = await workerRegistration();
  let subscription = await registration.pushManager.getSubscription();
  // Made for another key (the server's keys were replaced): a push service would refuse the server's pushes.
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await subscribe(registration, key);
  if ((await storeSubscription(user, subscription)) === 'taken') {
    // The subscription of someone who used this phone before and never logged out (Log out
    // unsubscribes): a new one, so that their alerts stop coming here and this user's start.
    await subscription.unsubscribe();
    subscription = await subscribe(registration, key);
    if ((await storeSubscription(user, subscription)) === 'taken') throw new PushProblem('push-service');
  }
  return 'on';
}

/**
 * Turns notifications off in this browser: the server forgets the
 * subscription, then the browser drops it. Offline, or when the server
 * cannot be told, the browser drops it all the same: the phone stops
 * receiving at once, and the sender deletes the record the first time the
 * push service answers 404 or 410 for it (server/push/sender.ts). (Log out
 * does the same through the service worker: sw/push.ts, forgetSubscription.)
 */
export async function disablePush(): Promise<void> {
  const subscription = await browserSubscription();
  if (!subscription) return;
  if (navigator.onLine) {
    try {
      const record = await ownSubscriptionRecord(subscription.endpoint);
      if (record) await pb.collection('push_subscriptions').delete(record.id, { requestKey: null });
    } catch (error) {
      console.warn('The server could not be told to forget this browser; the push service will:', error);
    }
  }
  await subscription.unsubscribe();
}

/** Whether notifications are on for this phone: the browser can, is subscribed, and the server holds it for the signed-in user. */
export interface PushState {
  support: PushSupport;
  on: boolean;
}

export async function readPushState(online: boolean): Promise<PushState> {
  const support = pushSupport();
  if (support !== 'granted') return { support, on: false };
  const subscription = await browserSubscription();
  if (!subscription) return { support, on: false };
  // Offline the browser's word is all there is.
  if (!online) return { support, on: true };
  try {
    const record = await ownSubscriptionRecord(subscription.endpoint);
    // A subscription the server does not hold for this user (another user's, or one the sender
    // dropped) brings this user nothing: off, and 'Turn on' stores it again.
    return { support, on: record !== null };
  } catch {
    return { support, on: true };
  }
}

/**
 * The push state, read again when the permission changes (Chromium and
 * Firefox say so) and when the page is shown again (the user may come back
 * from the browser's settings: Safari does not say).
 */
export function usePushState(online: boolean): { state: PushState | undefined; refresh: () => void } {
  const [state, setState] = useState<PushState | undefined>(undefined);
  const [round, setRound] = useState(0);
  const refresh = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    let current = true;
    readPushState(online).then(
      (next) => current && setState(next),
      () => current && setState({ support: pushSupport(), on: false }),
    );
    return () => {
      current = false;
    };
  }, [online, round]);
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    let status: PermissionStatus | undefined;
    let gone = false;
    navigator.permissions
      ?.query({ name: 'notifications' })
      .then((answer) => {
        if (gone) return;
        status = answer;
        status.addEventListener('change', refresh);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
      document.removeEventListener('visibilitychange', onVisible);
      status?.removeEventListener('change', refresh);
    };
  }, [refresh]);
  return { state, refresh };
}

// ---- what the user is sent ------------------------------------------------------------

const isKind = (value: string): value is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(value);

async function ownPrefs(user: SignedInUser): Promise<PrefsRecord | null> {
  const page = await pb.collection('notification_prefs').getList<PrefsRecord>(1, 1, {
    filter: pb.filter('user = {:user}', { user: user.id }),
    requestKey: null,
  });
  return page.items[0] ?? null;
}

/** The kinds `user` muted (none saved: none muted, everything that concerns them is sent). */
export async function readNotificationPrefs(user: SignedInUser): Promise<NotificationKind[]> {
  return ((await ownPrefs(user))?.muted ?? []).filter(isKind);
}

/** Saves the kinds `user` does not want pushed; answers what the server saved. */
export async function saveNotificationPrefs(
  user: SignedInUser,
  muted: NotificationKind[],
): Promise<NotificationKind[]> {
  const update = async (record: PrefsRecord) =>
    pb.collection('notification_prefs').update<PrefsRecord>(record.id, { muted }, { requestKey: null });
  const existing = await ownPrefs(user);
  let saved: PrefsRecord;
  if (existing) saved = await update(existing);
  else {
    try {
      saved = await pb
        .collection('notification_prefs')
        .create<PrefsRecord>({ community: user.community, user: user.id, muted }, { requestKey: null });
    } catch (error) {
      // One record per user (a unique index): another phone of the same user saved first.
      const made = await ownPrefs(user);
      if (!made) throw error;
      saved = await update(made);
    }
  }
  return (saved.muted ?? []).filter(isKind);
}

export type NotificationPrefs =
  | { status: 'loading' }
  | { status: 'offline' }
  | { status: 'failed'; error: unknown }
  | { status: 'ready'; muted: NotificationKind[] };

/**
 * The user's choices from the server, read when the section opens and
 * again when the connection comes back; offline, the last read stays.
 * `set` shows a saved answer.
 */
export function useNotificationPrefs(
  user: SignedInUser,
  online: boolean,
): { prefs: NotificationPrefs; set: (muted: NotificationKind[]) => void } {
  const { id, community } = user;
  const [read, setRead] = useState<NotificationPrefs | null>(null);
  useEffect(() => {
    if (!online) return;
    let current = true;
    readNotificationPrefs({ id, community }).then(
      (muted) => current && setRead({ status: 'ready', muted }),
      (error: unknown) => current && setRead({ status: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [id, community, online]);
  const set = useCallback((muted: NotificationKind[]) => setRead({ status: 'ready', muted }), []);
  const prefs: NotificationPrefs =
    read?.status === 'ready' ? read : !online ? { status: 'offline' } : (read ?? { status: 'loading' });
  return { prefs, set };
}
