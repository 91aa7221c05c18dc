/// Twilio request signing (X-Twilio-Signature) for PocketBase JS hooks.
///
/// Why pure JS: hooks run in goja, which has no Node APIs (no Buffer,
/// TextEncoder, btoa or crypto module), and PocketBase's `$security` offers
/// HMAC-SHA256/512 but not the HMAC-SHA1 Twilio signs with. So this file
/// carries its own UTF-8 encoder, SHA-1, HMAC and base64. It depends on
/// nothing, keeps no state, and is loaded with require() (CommonJS).
///
/// The signature (https://www.twilio.com/docs/usage/security):
///   base64(HMAC-SHA1(authToken, url + name1 + value1 + name2 + value2 ...))
/// with the POST parameters sorted by name. `url` must be exactly the URL
/// Twilio requested, query string included.

/** UTF-8 bytes of a JS (UTF-16) string. A lone surrogate becomes U+FFFD, as
 *  Node's Buffer and TextEncoder do, so both sides hash the same bytes. */
function utf8Bytes(str) {
  const s = String(str);
  const out = [];
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
    if (cp < 0x80) {
      out.push(cp);
    } else if (cp < 0x800) {
      out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    } else {
      out.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 0x3f),
        0x80 | ((cp >> 6) & 0x3f),
        0x80 | (cp & 0x3f),
      );
    }
  }
  return out;
}

function rotl(x, n) {
  return (x << n) | (x >>> (32 - n));
}

/** SHA-1 (FIPS 180-4) of a byte array → 20-byte array. Values are kept as
 *  int32 with `| 0`; sums of five int32 stay exact in a double first. */
function sha1(bytes) {
  const msg = bytes.slice();
  const byteLen = bytes.length;
  msg.push(0x80);
  while (msg.length % 64 !== 56) msg.push(0);
  // 64-bit big-endian bit length; split so no bitwise op sees > 32 bits.
  const hi = Math.floor(byteLen / 0x20000000);
  const lo = (byteLen * 8) >>> 0;
  msg.push((hi >>> 24) & 0xff, (hi >>> 16) & 0xff, (hi >>> 8) & 0xff, hi & 0xff);
  msg.push((lo >>> 24) & 0xff, (lo >>> 16) & 0xff, (lo >>> 8) & 0xff, lo & 0xff);

  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  const w = new Array(80);
  for (let off = 0; off < msg.length; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + i * 4;
      w[i] = (msg[j] << 24) | (msg[j + 1] << 16) | (msg[j + 2] << 8) | msg[j + 3];
    }
    for (let i = 16; i < 80; i++) {
      w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      let f;
      let k;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc | 0;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6 | 0;
      }
      const t = (rotl(a, 5) + f + e + k + w[i]) | 0;
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  const out = [];
  [h0, h1, h2, h3, h4].forEach((h) => {
    out.push((h >>> 24) & 0xff, (h >>> 16) & 0xff, (h >>> 8) & 0xff, h & 0xff);
  });
  return out;
}

/** HMAC (RFC 2104) with SHA-1, block size 64 bytes. */
function hmacSha1(keyBytes, msgBytes) {
  let key = keyBytes.length > 64 ? sha1(keyBytes) : keyBytes.slice();
  while (key.length < 64) key.push(0);
  const inner = key.map((b) => b ^ 0x36);
  const outer = key.map((b) => b ^ 0x5c);
  return sha1(outer.concat(sha1(inner.concat(msgBytes))));
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with '=' padding (what Twilio sends). */
function base64(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const rest = bytes.length - i;
    const n = (bytes[i] << 16) | ((rest > 1 ? bytes[i + 1] : 0) << 8) | (rest > 2 ? bytes[i + 2] : 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    out += rest > 1 ? B64[(n >> 6) & 63] : '=';
    out += rest > 2 ? B64[n & 63] : '=';
  }
  return out;
}

/** base64(HMAC-SHA1(key, message)), both strings taken as UTF-8. */
function hmacSha1Base64(key, message) {
  return base64(hmacSha1(utf8Bytes(key), utf8Bytes(message)));
}

/** Code point order, which is also UTF-8 byte order. JS's default sort
 *  compares UTF-16 units and differs for characters beyond U+FFFF. */
function compareCodePoints(a, b) {
  const x = utf8Bytes(a);
  const y = utf8Bytes(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

/** A parameter value as a list of strings. Besides JS arrays this accepts
 *  array-likes, because a Go []string reaching a hook may not be one. */
function valuesOf(value) {
  if (value === null || value === undefined) return [''];
  if (typeof value === 'object' && typeof value.length === 'number') {
    const list = [];
    for (let i = 0; i < value.length; i++) list.push(String(value[i]));
    return list;
  }
  return [String(value)];
}

/**
 * X-Twilio-Signature for a request to `url` carrying form `params`
 * (name → string, or string[] for a repeated name).
 *
 * A repeated name contributes name+value once per distinct value, values
 * sorted: that is what Twilio's own validators do (twilio-node
 * `toFormUrlEncodedParam`, twilio-python `compute_signature`), so it is what
 * a real Twilio signature over repeated keys matches.
 */
function twilioSignature(authToken, url, params) {
  let data = String(url);
  const p = params || {};
  const names = Object.keys(p).sort(compareCodePoints);
  names.forEach((name) => {
    const values = valuesOf(p[name])
      .filter((v, i, all) => all.indexOf(v) === i)
      .sort(compareCodePoints);
    values.forEach((v) => {
      data += name + v;
    });
  });
  return hmacSha1Base64(authToken, data);
}

/** Compares without an early exit, so the time taken does not reveal how
 *  many leading characters of a forged signature were right. */
function constantTimeEqual(a, b) {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    diff |= (i < a.length ? a.charCodeAt(i) : 0) ^ (i < b.length ? b.charCodeAt(i) : 0);
  }
  return diff === 0;
}

/** True when `signature` (the X-Twilio-Signature header) matches. */
function validTwilioSignature(authToken, url, params, signature) {
  if (typeof signature !== 'string' || signature === '') return false;
  if (typeof authToken !== 'string' || authToken === '') return false;
  return constantTimeEqual(twilioSignature(authToken, url, params), signature);
}

module.exports = {
  utf8Bytes,
  base64,
  hmacSha1Base64,
  twilioSignature,
  validTwilioSignature,
};
