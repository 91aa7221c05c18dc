/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell and serves the SPA for every
 * navigation, so the app opens with no connection after one online visit;
 * keeps house images for offline lists; replays the outbox on Background
 * Sync (Chromium) and when a window asks (every browser).
 */
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
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
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/_\//] }));

// House images (/api/files/{collection}/{record}/{file}). The houses
// collection's id differs per install, so images are told apart by what
// asked for them: an <img>. A file name changes when the image does, so a
// cached copy never goes stale. No other /api response is ever cached: they
// carry one user's data and the mirror keeps them offline.
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && url.pathname.startsWith('/api/files/') && request.destination === 'image',
  new CacheFirst({
    cacheName: 'house-images',
    plugins: [new ExpirationPlugin({ maxEntries: 500, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true })],
  }),
);

// The first install takes the open pages at once, so Background Sync and
// the offline shell work from the first visit. Updates still wait for the
// user's "Reload" (SKIP_WAITING below).
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function log(trigger: string, result: WorkerReplayResult): void {
  // The browser tests read this line to tell the worker's replay from the window's.
  console.info(`[scms-sw] outbox replay (${trigger}): ${result.outcome}, ${result.delivered} delivered, ${result.parked} parked`);
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
