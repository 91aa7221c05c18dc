import PocketBase from 'pocketbase';
import { apiBaseUrl } from './baseUrl.ts';

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
export const pb = new PocketBase(apiBaseUrl(globalThis.location?.origin ?? '/'));

// Several screens may load the same collection at once; cancelling the
// earlier request (the SDK's default) would lose data, not save work.
pb.autoCancellation(false);
