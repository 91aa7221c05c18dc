/**
 * Which server the app talks to, for the window and the service worker
 * alike.
 *
 * One server (the usual case): the app is served by PocketBase (or proxied
 * to it), so the API is at the page's origin, unless VITE_API_URL says
 * otherwise at build time.
 *
 * Several servers behind one proxy (docs/scaling.md, "Past one machine"):
 * each community's API is under `/c/<community>` on the app's origin, and
 * the proxy sends that prefix to the community's server. Which prefix is
 * learnt at sign-in (from the officer's link, `/?c=palm-grove`, or from the
 * directory route, src/data/auth.ts) and kept on the device: in local
 * storage for the window, and with the saved session in IndexedDB for the
 * service worker (src/data/sync/session.ts), so replays, Background Sync,
 * realtime, file tokens and calls all reach the same server. Log out
 * forgets it.
 */
import { COMMUNITY_SLUG, communityServerPath } from '../domain/communitySlug.ts';

/** `/c/<community>` and what follows it. */
const COMMUNITY_PREFIX = new RegExp(`^/c/(${COMMUNITY_SLUG.source.slice(1, -1)})(/.*)?$`);

/** The local-storage key of the window's copy. */
const SERVER_PATH_KEY = 'scms.serverPath';

/** `value` if it is a server path the app accepts ('' or `/c/<community>`), else null. */
export function validServerPath(value: unknown): string | null {
  if (value === '') return '';
  if (typeof value !== 'string') return null;
  const match = COMMUNITY_PREFIX.exec(value);
  return match && match[2] === undefined ? value : null;
}

/** The server path of a community's link (`?c=palm-grove`), or null when the link names none or a malformed one. */
export function serverPathOfCommunity(community: string | null | undefined): string | null {
  const slug = community?.trim().toLowerCase() ?? '';
  return COMMUNITY_SLUG.test(slug) ? communityServerPath(slug) : null;
}

/** The API's base URL for a server path: the origin (or VITE_API_URL) followed by the path. */
export function apiBaseUrl(origin: string, serverPath = keptServerPath()): string {
  const root = (import.meta.env.VITE_API_URL || origin).replace(/\/+$/, '');
  return `${root}${validServerPath(serverPath) ?? ''}`;
}

/** The part of local storage used here; the worker (and Node) has none. */
interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function windowStorage(): KeyValueStorage | undefined {
  try {
    return (globalThis as { localStorage?: KeyValueStorage }).localStorage;
  } catch {
    // A browser that refuses storage access (some privacy modes) throws on reading it.
    return undefined;
  }
}

/** The server path this window signed in with ('' when none: the origin's own server). The worker has none. */
export function keptServerPath(): string {
  return validServerPath(windowStorage()?.getItem(SERVER_PATH_KEY)) ?? '';
}

/** Keeps the window's server path ('' forgets it). */
export function keepServerPath(serverPath: string): void {
  const storage = windowStorage();
  if (!storage) return;
  if (serverPath === '') storage.removeItem(SERVER_PATH_KEY);
  else storage.setItem(SERVER_PATH_KEY, serverPath);
}

/**
 * The API path of a URL path on the app's origin, without a community's
 * prefix (`/c/palm-grove/api/files/…` → `/api/files/…`): what the service
 * worker routes by. The path itself when it has no prefix.
 */
export function apiPathOf(pathname: string): string {
  const match = COMMUNITY_PREFIX.exec(pathname);
  return match?.[2] ?? pathname;
}
