import { createHmac } from 'node:crypto';

// The Node twin of pocketbase/hook-src/twilioSignature.ts (the hooks' copy,
// with @noble/hashes bundled in for goja), built on node:crypto so the
// stand-in's signatures are an independent check of the hooks' signing
// (sort order, repeated names, UTF-8) rather than the same code twice.

export type TwilioParams = Record<string, string | readonly string[]>;

/** Code point order (= UTF-8 byte order); the default sort compares UTF-16
 *  code units, which differs for characters beyond U+FFFF. */
function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * base64(HMAC-SHA1(authToken, url + name + value ...)) with names sorted; a
 * repeated name adds each distinct value once, values sorted, as Twilio's own
 * validators (twilio-node, twilio-python) do.
 */
export function twilioSignature(authToken: string, url: string, params: TwilioParams = {}): string {
  let data = url;
  for (const name of Object.keys(params).sort(byCodePoint)) {
    const raw = params[name] ?? '';
    const values = typeof raw === 'string' ? [raw] : [...new Set(raw)].sort(byCodePoint);
    for (const value of values) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}
