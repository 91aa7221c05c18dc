import { loadHookLib } from '../support/hook-lib.ts';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildHookLibs, generatedDir } from '../../scripts/pocketbase/hook-libs.ts';
import { twilioSignature as nodeSignature } from '../../scripts/standins/twilio-signature.ts';

// The PocketBase-side lib is pocketbase/hook-src/twilioSignature.ts with
// @noble/hashes' SHA-1 and HMAC bundled in, compiled to CommonJS for goja by
// the hook-libs step. It runs here as the server runs it: the generated file,
// as CommonJS in a bare vm context, which has no Buffer, TextEncoder, btoa or
// crypto either: a use of any of them fails here, as it would in goja.
await buildHookLibs();
type Params = Record<string, string | string[]>;
interface GojaLib {
  utf8Bytes(str: string): number[];
  hmacSha1Base64(key: string, message: string): string;
  twilioSignature(authToken: string, url: string, params: Params): string;
  validTwilioSignature(authToken: string, url: string, params: Params, signature: unknown): boolean;
}
function loadGojaLib(): GojaLib {
  const raw = loadHookLib<GojaLib>('generated/twilio_signature.js');
  // Arrays made in the vm context have that context's Array prototype.
  return { ...raw, utf8Bytes: (s) => Array.from(raw.utf8Bytes(s)) };
}
const lib = loadGojaLib();

const hmac = (key: string, msg: string): string => createHmac('sha1', key).update(msg, 'utf8').digest('base64');

// Every kind of UTF-16 content: ASCII, 2- and 3-byte characters, emoji
// (surrogate pairs) and lone surrogates.
const anyString = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({
    ...constraints,
    unit: fc.oneof(
      fc.constantFrom('a', 'Z', '0', '+', '=', '&', ' ', 'é', 'ß', '中', '€', '😀', '👩‍🚒', '\ud800', '\udfff', '\u0000'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
  });

// Twilio's published example (https://www.twilio.com/docs/usage/security).
// The page has printed it with two caller numbers over the years, each with
// its own signature; both are checked.
const DOC_TOKEN = '12345';
const DOC_URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const DOC_PARAMS = {
  CallSid: 'CA1234567890ABCDE',
  Caller: '+12349013030',
  Digits: '1234',
  From: '+12349013030',
  To: '+18005551212',
};
const DOC_SIGNATURE = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';
const DOC_PARAMS_2 = { ...DOC_PARAMS, Caller: '+14158675310', From: '+14158675310' };
const DOC_SIGNATURE_2 = 'GvWf1cFY/Q7PnoempGyD5oXAezc=';

describe('the generated hook library', () => {
  it('bundles @noble/hashes and carries no SHA-1 of its own', () => {
    const text = readFileSync(join(generatedDir, 'twilio_signature.js'), 'utf8');
    expect(text).toMatch(/^\/\/ GENERATED from pocketbase\/hook-src\/twilioSignature\.ts/);
    // @noble/hashes' SHA-1 class, and its round constants exactly once.
    expect(text).toContain('_SHA1');
    expect(text.match(/1518500249|0x5a827999/gi) ?? []).toHaveLength(1);
  });
});

describe('utf8Bytes', () => {
  it('matches Buffer for any string, surrogate pairs and lone surrogates included', () => {
    fc.assert(
      // Compared as bytes, not with toEqual: 500 deep comparisons of arrays took seconds on a loaded machine.
      // A failure still names the string (fast-check's counterexample).
      fc.property(anyString({ maxLength: 100 }), (s) => Buffer.from(lib.utf8Bytes(s)).equals(Buffer.from(s, 'utf8'))),
      { numRuns: 500 },
    );
    expect(lib.utf8Bytes('😀')).toEqual([0xf0, 0x9f, 0x98, 0x80]);
    expect(lib.utf8Bytes('a\ud83d')).toEqual([0x61, 0xef, 0xbf, 0xbd]);
  });
});

describe('hmacSha1Base64 (@noble/hashes, in goja)', () => {
  it('equals node:crypto for random unicode keys and messages', () => {
    fc.assert(
      fc.property(anyString({ maxLength: 80 }), anyString({ maxLength: 300 }), (key, msg) => {
        expect(lib.hmacSha1Base64(key, msg)).toBe(hmac(key, msg));
      }),
      { numRuns: 400 },
    );
  });

  it('equals node:crypto for keys longer than the 64-byte block', () => {
    fc.assert(
      fc.property(anyString({ minLength: 65, maxLength: 400 }), anyString({ maxLength: 100 }), (key, msg) => {
        expect(lib.hmacSha1Base64(key, msg)).toBe(hmac(key, msg));
      }),
      { numRuns: 100 },
    );
  });

  it('equals node:crypto at every length around the SHA-1 padding boundaries', () => {
    for (let n = 0; n <= 260; n++) {
      const s = 'x'.repeat(n);
      expect(lib.hmacSha1Base64(s, s), `length ${n}`).toBe(hmac(s, s));
    }
    const big = 'é😀'.repeat(20_000); // 120 kB message
    expect(lib.hmacSha1Base64('k', big)).toBe(hmac('k', big));
  });

  it('matches the RFC 2202 HMAC-SHA1 test vector', () => {
    const hex = Buffer.from(lib.hmacSha1Base64('Jefe', 'what do ya want for nothing?'), 'base64').toString('hex');
    expect(hex).toBe('effcdf6ae5eb2fa2d27416d5f184df9c259a7c79');
  });
});

describe('twilioSignature', () => {
  it("gives Twilio's documented example signatures, in both implementations", () => {
    expect(lib.twilioSignature(DOC_TOKEN, DOC_URL, DOC_PARAMS)).toBe(DOC_SIGNATURE);
    expect(nodeSignature(DOC_TOKEN, DOC_URL, DOC_PARAMS)).toBe(DOC_SIGNATURE);
    expect(lib.twilioSignature(DOC_TOKEN, DOC_URL, DOC_PARAMS_2)).toBe(DOC_SIGNATURE_2);
    expect(nodeSignature(DOC_TOKEN, DOC_URL, DOC_PARAMS_2)).toBe(DOC_SIGNATURE_2);
  });

  it('does not depend on the order the params come in', () => {
    const reversed = Object.fromEntries(Object.entries(DOC_PARAMS).reverse());
    expect(lib.twilioSignature(DOC_TOKEN, DOC_URL, reversed)).toBe(DOC_SIGNATURE);
  });

  it('is url + sorted name/value pairs, sorted by code point (not UTF-16 unit)', () => {
    // U+FF61 sorts before U+1F600 by code point / UTF-8 bytes, after it by UTF-16.
    const params = { '\u{1F600}': '2', '\uFF61': '1', B: 'b', a: 'A' };
    const expected = hmac('tok', 'https://x.test/h' + 'Bb' + 'aA' + '\uFF611' + '\u{1F600}2');
    expect(lib.twilioSignature('tok', 'https://x.test/h', params)).toBe(expected);
    expect(nodeSignature('tok', 'https://x.test/h', params)).toBe(expected);
  });

  it('signs a repeated name once per distinct value, values sorted (as the Twilio SDKs do)', () => {
    const params = { Event: ['ringing', 'answered', 'ringing'], To: '+15550001111' };
    const expected = hmac('tok', 'https://x.test/h' + 'Eventanswered' + 'Eventringing' + 'To+15550001111');
    expect(lib.twilioSignature('tok', 'https://x.test/h', params)).toBe(expected);
    expect(nodeSignature('tok', 'https://x.test/h', params)).toBe(expected);
  });

  it('agrees with the node:crypto implementation on random params', () => {
    const params = fc.dictionary(
      anyString({ minLength: 1, maxLength: 12 }),
      fc.oneof(anyString({ maxLength: 40 }), fc.array(anyString({ maxLength: 10 }), { maxLength: 3 })),
      { maxKeys: 8 },
    );
    fc.assert(
      fc.property(anyString({ maxLength: 70 }), anyString({ maxLength: 60 }), params, (token, url, p) => {
        expect(lib.twilioSignature(token, url, p)).toBe(nodeSignature(token, url, p));
      }),
      { numRuns: 300 },
    );
  });
});

describe('validTwilioSignature', () => {
  it('accepts the genuine signature', () => {
    expect(lib.validTwilioSignature(DOC_TOKEN, DOC_URL, DOC_PARAMS, DOC_SIGNATURE)).toBe(true);
    expect(lib.validTwilioSignature(DOC_TOKEN, DOC_URL, DOC_PARAMS_2, DOC_SIGNATURE_2)).toBe(true);
    expect(lib.validTwilioSignature(DOC_TOKEN, DOC_URL, DOC_PARAMS_2, DOC_SIGNATURE)).toBe(false);
  });

  it('rejects a tampered param, an added or dropped param', () => {
    expect(lib.validTwilioSignature(DOC_TOKEN, DOC_URL, { ...DOC_PARAMS, Digits: '1235' }, DOC_SIGNATURE)).toBe(false);
    expect(lib.validTwilioSignature(DOC_TOKEN, DOC_URL, { ...DOC_PARAMS, Extra: '' }, DOC_SIGNATURE)).toBe(false);
    const { Digits: _dropped, ...withoutDigits } = DOC_PARAMS;
    expect(lib.validTwilioSignature(DOC_TOKEN, DOC_URL, withoutDigits, DOC_SIGNATURE)).toBe(false);
  });

  it('rejects a tampered URL or a different token', () => {
    expect(lib.validTwilioSignature(DOC_TOKEN, DOC_URL.replace('foo=1', 'foo=2'), DOC_PARAMS, DOC_SIGNATURE)).toBe(
      false,
    );
    expect(
      lib.validTwilioSignature(DOC_TOKEN, 'http://mycompany.com/myapp.php?foo=1&bar=2', DOC_PARAMS, DOC_SIGNATURE),
    ).toBe(false);
    expect(lib.validTwilioSignature('12346', DOC_URL, DOC_PARAMS, DOC_SIGNATURE)).toBe(false);
  });

  it('rejects a tampered, truncated, extended or missing signature', () => {
    const flipped = (DOC_SIGNATURE[0] === 'A' ? 'B' : 'A') + DOC_SIGNATURE.slice(1);
    for (const bad of [
      flipped,
      DOC_SIGNATURE.slice(0, -1),
      DOC_SIGNATURE + '=',
      DOC_SIGNATURE + '\u0000',
      '',
      undefined,
      null,
    ]) {
      expect(lib.validTwilioSignature(DOC_TOKEN, DOC_URL, DOC_PARAMS, bad), String(bad)).toBe(false);
    }
    expect(lib.validTwilioSignature('', DOC_URL, DOC_PARAMS, hmac('', DOC_URL))).toBe(false);
  });
});
