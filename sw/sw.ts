/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell and serves the SPA for every
 * navigation, so the app opens with no connection after one online visit;
 * keeps house images for offline lists; replays the outbox on Background
 * Sync (Chromium) and when a window asks (every browser); shows the
 * server's push notifications (push.ts).
 */
import type { RouteHandlerCallbackOptions, WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';
import PocketBase from 'pocketbase';
import { apiBaseUrl, apiPathOf, validServerPath } from '../src/api/baseUrl.ts';
import { imageCacheName, USER_MESSAGE } from '../src/domain/imageCache.ts';
import { loadSession } from '../src/data/sync/session.ts';
import { FORGET_PUSH_MESSAGE, forgetSubscription, openFromNotification, renewSubscription, showPush } from './push.ts';
import { replayForSync, replayFromWorker, SYNC_TAG, type WorkerReplayResult } from './replay.ts';

declare const self: ServiceWorkerGlobalScope;

// Background Sync is not in TypeScript's WebWorker library.
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}
declare global {
  interface ServiceWorkerGlobalScopeEventMap {
    sync: SyncEvent;
  }
}

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every navigation outside the API and the admin UI gets the app shell.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/_\//, /^\/c\//] }),
);

// Images of protected files (/api/files/{collection}/{record}/{file}: house
// images and report photos), kept for offline lists in one cache per
// signed-in user, `scms-images-<userId>`, which log out deletes (every cache
// named scms-images-*). The collections' ids differ per install, so images
// are told apart by what asked for them: an <img>. A file name changes when
// the image does, so a cached copy never goes stale. No other /api response
// is ever cached: they carry one user's data and the mirror keeps them offline.
/** The one unscoped cache of earlier versions: images any user of the device saw. */
const LEGACY_IMAGE_CACHE = 'house-images';
const USER_ID = /^[a-z0-9]{1,50}$/;

/**
 * The user the window says is signed in (null: nobody); undefined until it
 * has said so since this worker started, when the saved session tells.
 */
let announcedUser: string | null | undefined;

/** The user a file token was given to (its payload's id); null when the URL has none. */
function tokenUser(url: URL): string | null {
  const token = url.searchParams.get('token');
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { id?: unknown; type?: unknown };
    return claims.type === 'file' && typeof claims.id === 'string' ? claims.id : null;
  } catch {
    return null;
  }
}

/** Whose cache an image request reads and fills: the token's user, else the signed-in one; null when none is known. */
async function imageCacheUser(url: URL): Promise<string | null> {
  const user =
    tokenUser(url) ?? (announcedUser !== undefined ? announcedUser : ((await loadSession())?.record?.id ?? null));
  return user && USER_ID.test(user) ? user : null;
}

/** The cache key is the URL without its token: a new token still finds the image offline. */
const keyWithoutToken: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => {
    const url = new URL(request.url);
    if (!url.searchParams.has('token')) return request;
    url.searchParams.delete('token');
    return url.href;
  },
};

const imageStrategies = new Map<string, CacheFirst>();
function imageStrategy(user: string): CacheFirst {
  let strategy = imageStrategies.get(user);
  if (!strategy) {
    strategy = new CacheFirst({
      cacheName: imageCacheName(user),
      plugins: [
        keyWithoutToken,
        new ExpirationPlugin({ maxEntries: 500, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
      ],
    });
    imageStrategies.set(user, strategy);
  }
  return strategy;
}
// With no user known, an image is neither cached nor read from a cache.
const uncachedImages = new NetworkOnly();

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    apiPathOf(url.pathname).startsWith('/api/files/') &&
    request.destination === 'image',
  async (options: RouteHandlerCallbackOptions) => {
    const user = await imageCacheUser(options.url);
    return (user ? imageStrategy(user) : uncachedImages).handle(options);
  },
);

// The first install takes the open pages at once, so Background Sync and
// the offline shell work from the first visit. Updates still wait for the
// user's "Reload" (SKIP_WAITING below).
self.addEventListener('activate', (event) =>
  event.waitUntil(Promise.all([self.clients.claim(), caches.delete(LEGACY_IMAGE_CACHE)])),
);

function log(trigger: string, result: WorkerReplayResult): void {
  // The browser tests read this line to tell the worker's replay from the window's.
  console.info(
    `[scms-sw] outbox replay (${trigger}): ${result.outcome}, ${result.delivered} delivered, ${result.parked} parked`,
  );
}

self.addEventListener('sync', (event) => {
  if (event.tag !== SYNC_TAG) return;
  event.waitUntil(
    replayForSync().then((result) => {
      log('sync', result);
      // A rejected sync event is retried by the browser later (with its own back-off).
      if (result.retry) throw new Error(`outbox replay: ${result.outcome}`);
    }),
  );
});

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  if (type === USER_MESSAGE) {
    const userId = (event.data as { userId?: unknown }).userId;
    announcedUser = typeof userId === 'string' ? userId : null;
  }
  if (type === 'REPLAY') {
    // For browsers without Background Sync; the answer goes to the port the window sent, if any.
    const reply = event.ports[0];
    event.waitUntil(
      replayFromWorker().then(
        (result) => {
          log('message', result);
          reply?.postMessage({ type: 'REPLAY_RESULT', ...result });
        },
        (error: unknown) => {
          reply?.postMessage({ type: 'REPLAY_RESULT', outcome: 'error', error: String(error) });
        },
      ),
    );
  }
});

// Web Push (push.ts): every push shows a notification, a tap opens the app where it leads.
self.addEventListener('push', (event) => {
  let text: string | null = null;
  try {
    text = event.data?.text() ?? null;
  } catch {
    // Data the browser could not decode: the generic notification.
  }
  event.waitUntil(showPush(self.registration, text));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  event.waitUntil(openFromNotification(self.clients, self.location.origin, data?.url));
});

self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    renewSubscription(event, self.registration.pushManager).then(
      (outcome) => console.info(`[scms-sw] push subscription changed: ${outcome}`),
      (error: unknown) => console.warn('[scms-sw] push subscription changed; renewing it failed:', error),
    ),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; token?: unknown; server?: unknown } | null;
  if (data?.type !== FORGET_PUSH_MESSAGE) return;
  // The server the session was on: the window forgets it as it logs out.
  const client = new PocketBase(apiBaseUrl(self.location.origin, validServerPath(data.server) ?? ''));
  event.waitUntil(
    forgetSubscription(self.registration.pushManager, data.token, client).then(
      (outcome) => console.info(`[scms-sw] log out: push ${outcome}`),
      (error: unknown) => console.warn('[scms-sw] log out: dropping the push subscription failed:', error),
    ),
  );
});
