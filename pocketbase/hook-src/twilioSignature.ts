/**
 * Twilio request signing (X-Twilio-Signature) for the PocketBase hooks,
 * compiled into pb_hooks/lib/generated/twilio_signature.js by
 * scripts/pocketbase/hook-libs.ts.
 *
 * Why a bundled library: hooks run in goja, whose `$security` offers
 * HMAC-SHA256/512 but not the HMAC-SHA1 Twilio signs with, and which has no
 * Node API (no Buffer, TextEncoder, btoa or crypto module). SHA-1 and HMAC
 * come from @noble/hashes (audited, no dependencies, plain JS on
 * Uint8Array); the UTF-8 encoding and base64 around them stay here because
 * @noble/hashes leaves those to TextEncoder, which goja lacks.
 *
 * The signature (https://www.twilio.com/docs/usage/security):
 *   base64(HMAC-SHA1(authToken, url + name1 + value1 + name2 + value2 ...))
 * with the POST parameters sorted by name. `url` must be exactly the URL
 * Twilio requested, query string included.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';

/** UTF-8 bytes of a JS (UTF-16) string. A lone surrogate becomes U+FFFD, as
 *  Node's Buffer and TextEncoder do, so both sides hash the same bytes. */
export function utf8Bytes(text: string): number[] {
  const s = String(text);
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        cp = 0xfffd;
      }
    } else if (cp >= 0xdc00 && cp <= 0xdfff) {
      cp = 0xfffd;
    }
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with '=' padding (what Twilio sends, and what HTTP Basic
 *  credentials use). */
export function base64(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const rest = bytes.length - i;
    const n = (bytes[i]! << 16) | ((rest > 1 ? bytes[i + 1]! : 0) << 8) | (rest > 2 ? bytes[i + 2]! : 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    out += rest > 1 ? B64[(n >> 6) & 63] : '=';
    out += rest > 2 ? B64[n & 63] : '=';
  }
  return out;
}

/** base64(HMAC-SHA1(key, message)), both strings taken as UTF-8. */
export function hmacSha1Base64(key: string, message: string): string {
  return base64(hmac(sha1, Uint8Array.from(utf8Bytes(key)), Uint8Array.from(utf8Bytes(message))));
}

/** Code point order, which is also UTF-8 byte order. JS's default sort
 *  compares UTF-16 units and differs for characters beyond U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  const x = utf8Bytes(a);
  const y = utf8Bytes(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return x[i]! - y[i]!;
  }
  return x.length - y.length;
}

/** A parameter value as a list of strings. Besides JS arrays this accepts
 *  array-likes, because a Go []string reaching a hook may not be one. */
function valuesOf(value: unknown): string[] {
  if (value === null || value === undefined) return [''];
  if (typeof value === 'object' && typeof (value as ArrayLike<unknown>).length === 'number') {
    return Array.from(value as ArrayLike<unknown>, String);
  }
  return [String(value)];
}

export type TwilioParams = Record<string, unknown>;

/**
 * X-Twilio-Signature for a request to `url` carrying form `params`
 * (name → string, or string[] for a repeated name).
 *
 * A repeated name contributes name+value once per distinct value, values
 * sorted: that is what Twilio's own validators do (twilio-node
 * `toFormUrlEncodedParam`, twilio-python `compute_signature`), so it is what
 * a real Twilio signature over repeated keys matches.
 */
export function twilioSignature(authToken: string, url: string, params: TwilioParams | null | undefined): string {
  let data = String(url);
  const p = params ?? {};
  for (const name of Object.keys(p).sort(compareCodePoints)) {
    const values = valuesOf(p[name])
      .filter((v, i, all) => all.indexOf(v) === i)
      .sort(compareCodePoints);
    for (const value of values) data += name + value;
  }
  return hmacSha1Base64(authToken, data);
}

/** Compares without an early exit, so the time taken does not reveal how
 *  many leading characters of a forged signature were right. */
function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    diff |= (i < a.length ? a.charCodeAt(i) : 0) ^ (i < b.length ? b.charCodeAt(i) : 0);
  }
  return diff === 0;
}

/** True when `signature` (the X-Twilio-Signature header) matches. */
export function validTwilioSignature(
  authToken: unknown,
  url: string,
  params: TwilioParams | null | undefined,
  signature: unknown,
): boolean {
  if (typeof signature !== 'string' || signature === '') return false;
  if (typeof authToken !== 'string' || authToken === '') return false;
  return constantTimeEqual(twilioSignature(authToken, url, params), signature);
}

/**
 * The forms of `url` a valid signature may have been computed over: as
 * given, and with or without the scheme's default port (":443" for https,
 * ":80" for http). Twilio's own `validateRequest` (twilio-node, webhooks.ts)
 * accepts both, because which form Twilio signs depends on how the URL was
 * written where it was configured. Only the default port is added or
 * dropped: any other port is part of the address Twilio called.
 */
export function signatureUrlForms(url: string): string[] {
  const m = /^(https?):\/\/([^/?#]*@)?(\[[^\]]*\]|[^/?#:]*)(:(\d*))?(.*)$/i.exec(String(url));
  if (!m) return [String(url)];
  const [, scheme = '', userInfo = '', host = '', portPart = '', port = '', rest = ''] = m;
  const defaultPort = scheme.toLowerCase() === 'https' ? '443' : '80';
  const prefix = `${scheme}://${userInfo}${host}`;
  if (portPart === '') return [String(url), `${prefix}:${defaultPort}${rest}`];
  if (port === defaultPort) return [String(url), `${prefix}${rest}`];
  return [String(url)];
}

/** True when `signature` matches `url` in any of its signatureUrlForms. */
export function validTwilioSignatureForUrl(
  authToken: unknown,
  url: string,
  params: TwilioParams | null | undefined,
  signature: unknown,
): boolean {
  let valid = false;
  // Every form is checked (no early exit), so the time taken does not say which matched.
  for (const form of signatureUrlForms(url)) valid = validTwilioSignature(authToken, form, params, signature) || valid;
  return valid;
}
