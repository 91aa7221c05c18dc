/**
 * Whether the telephony provider can reach SCMS_PUBLIC_URL. Real Twilio
 * posts every status callback to it, from the internet: a loopback, private
 * or single-label address silently loses every callback, so with real
 * credentials the server refuses to start (scripts/services.ts) and the call
 * route refuses to dial (pb_hooks/lib/calls.js) until it is public. The
 * local stand-in runs on this machine and may call any address.
 *
 * Compiled into pb_hooks/lib/generated/telephony_address.js by
 * scripts/pocketbase/hook-libs.ts; plain string work, no URL class (goja has
 * none).
 */

/** True when `apiBase` is Twilio's own API (unset counts as Twilio's). */
export function isRealTwilio(apiBase: string): boolean {
  const base = String(apiBase).trim();
  if (base === '') return true;
  const m = /^https?:\/\/([^/?#:]+)/i.exec(base);
  const host = (m?.[1] ?? '').toLowerCase();
  return host === 'twilio.com' || host.endsWith('.twilio.com');
}

function privateIpv4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

function privateIpv6(host: string): boolean {
  const h = host.toLowerCase();
  return (
    h === '::' || h === '::1' || /^f[cd][0-9a-f]{2}:/.test(h) || /^fe[89ab][0-9a-f]:/.test(h) || h.startsWith('::ffff:')
  );
}

/**
 * Why `publicUrl` cannot be reached from the internet, or '' when it can.
 * Names the variable, so the message says what to change.
 */
export function publicUrlProblem(publicUrl: string): string {
  const url = String(publicUrl).trim();
  const m = /^(https?):\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)(?::\d*)?(?:[/?#].*)?$/i.exec(url);
  if (!m)
    return `SCMS_PUBLIC_URL (${url === '' ? 'unset' : url}) must be an http(s) URL the telephony provider can reach, such as https://patrol.example.com.`;
  const rawHost = (m[2] ?? '').toLowerCase();
  const host = rawHost.replace(/^\[(.*)\]$/, '$1');
  const local =
    host === '' ||
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    host.endsWith('.lan') ||
    privateIpv4(host) ||
    (rawHost.startsWith('[') && privateIpv6(host)) ||
    (!rawHost.startsWith('[') && host.indexOf('.') === -1);
  if (local) {
    return `SCMS_PUBLIC_URL is ${url}, an address Twilio cannot reach: its status callbacks would be lost. Set it to this server's public URL, such as https://patrol.example.com.`;
  }
  return '';
}

/** The problem to refuse calling with, or '' when calls may go out. */
export function telephonyAddressProblem(apiBase: string, publicUrl: string): string {
  return isRealTwilio(apiBase) ? publicUrlProblem(publicUrl) : '';
}
