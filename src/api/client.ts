import PocketBase from 'pocketbase';
import { apiBaseUrl, keepServerPath } from './baseUrl.ts';

/**
 * The one PocketBase client of the app. The API is served from the same
 * origin as the app (PocketBase serves the built PWA; the dev server proxies
 * /api), so the base URL is the page's origin unless VITE_API_URL says
 * otherwise. The SDK keeps the token and user in local storage, which is
 * what lets the app start offline with the cached session (docs/product.md#offline-sessions).
 *
 * Safe to import anywhere: it reads `location` through globalThis (the
 * window's and the service worker's alike; none in Node, where tests set
 * `baseURL` themselves), and the SDK keeps the session in memory where
 * there is no local storage (the worker fills it from IndexedDB,
 * src/data/sync/session.ts).
 */
export const pb = new PocketBase(apiBaseUrl(pageOrigin()));

function pageOrigin(): string {
  return globalThis.location?.origin ?? '/';
}

/**
 * Points the app's client at a server ('' : the page's own; `/c/<community>`
 * behind a proxy of several, src/api/baseUrl.ts) and keeps it on the device
 * for the next start; the service worker gets it with the session.
 */
export function switchServerPath(serverPath: string): void {
  keepServerPath(serverPath);
  pb.baseURL = apiBaseUrl(pageOrigin(), serverPath);
}

/** A client for another server path than the signed-in one's, for questions asked before a sign-in. */
export function clientForServerPath(serverPath: string): PocketBase {
  const client = new PocketBase(apiBaseUrl(pageOrigin(), serverPath));
  client.autoCancellation(false);
  return client;
}

// Several screens may load the same collection at once; cancelling the
// earlier request (the SDK's default) would lose data, not save work.
pb.autoCancellation(false);
