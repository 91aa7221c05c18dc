/**
 * Which push service addresses the server sends to: the sender's copy of
 * the rule pocketbase/pb_hooks/lib/push.js applies when a subscription is
 * created (the hook is the gate; this is the second line, for a
 * subscription written some other way, e.g. by a superuser in the admin
 * UI). tests/integration/push.test.ts checks both answer alike.
 *
 * The server POSTs to whatever endpoint a browser handed it: without this
 * rule any signed-in user could make it send requests to an internal
 * address. SCMS_PUSH_HOSTS: comma-separated `host`, `*.domain` or
 * `host:port`; https only, on its default port, unless the entry names the
 * port (then http too: the test stand-in on 127.0.0.1).
 */

/** The public push services of Chrome, Firefox, Safari and Edge. */
export const DEFAULT_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

interface HostEntry {
  wildcard: boolean;
  host: string;
  /** '' when the entry names no port. */
  port: string;
}

export function pushHostEntries(configured: string | undefined): HostEntry[] {
  const list = (configured ?? '').trim() === '' ? DEFAULT_PUSH_HOSTS : (configured ?? '').split(',');
  const entries: HostEntry[] = [];
  for (const raw of list) {
    const m = /^(\*\.)?([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(raw.trim().toLowerCase());
    if (m) entries.push({ wildcard: m[1] !== undefined, host: m[2]!, port: m[3] ?? '' });
  }
  return entries;
}

/** '' when the server may send to `endpoint`, else why not. */
export function pushEndpointProblem(endpoint: string, configured: string | undefined): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(endpoint);
  if (!m) return 'Must be the address of a push service.';
  const scheme = m[1]!.toLowerCase();
  const authority = m[2]!.toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') return 'Must be the address of a push service.';
  if (authority.includes('@')) return 'Must not carry a user name or password.';
  const hp = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(authority);
  if (!hp) return 'Must be the address of a push service.';
  const host = hp[1]!;
  const port = hp[2] ?? (scheme === 'https' ? '443' : '80');
  let hostKnown = false;
  for (const entry of pushHostEntries(configured)) {
    if (entry.port !== '') {
      if (entry.host === host && entry.port === port) return '';
      continue;
    }
    if (entry.wildcard ? host.endsWith(`.${entry.host}`) : host === entry.host) {
      hostKnown = true;
      if (scheme === 'https' && port === '443') return '';
    }
  }
  if (hostKnown) return 'Must be an https address on the default port.';
  return `The push service ${host} is not one this server sends to (SCMS_PUSH_HOSTS).`;
}
