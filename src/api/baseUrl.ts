/**
 * The API's base URL, for the window and the service worker alike: the
 * app is served by PocketBase (or proxied to it), so the same origin,
 * unless VITE_API_URL says otherwise at build time.
 */
export function apiBaseUrl(origin: string): string {
  return import.meta.env.VITE_API_URL || origin;
}
