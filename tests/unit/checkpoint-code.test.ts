import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  distanceMetres,
  distanceText,
  matchScannedText,
  matchShortCode,
  qrText,
  SCAN_MESSAGES,
  scanPlace,
  SHORT_CODE_ALPHABET,
  shortCodeText,
  TOKEN_ALPHABET,
} from '../../src/domain/checkpointCode.ts';

const HERE = 'palmgrove000001';
const THERE = 'seabreeze000002';
const gate = { id: 'gate00000000001', community: HERE, token: 'k3v9x2m4q8w1z7p5r6t0', short_code: 'K7M4QX' };
const pool = { id: 'pool00000000002', community: HERE, token: 'a1b2c3d4e5f6g7h8i9j0', short_code: '23456A' };
const foreign = { id: 'gate00000000009', community: THERE, token: 'zzzzzzzzzzzzzzzzzzzz', short_code: 'K7M4QX' };
const checkpoints = [gate, pool, foreign];

describe('a scanned QR code', () => {
  test("this community's checkpoint by its token", () => {
    expect(matchScannedText(qrText(HERE, gate.token), HERE, checkpoints)).toEqual({ checkpoint: gate });
    expect(matchScannedText(` ${qrText(HERE, pool.token)}\n`, HERE, checkpoints)).toEqual({ checkpoint: pool });
  });

  test("another community's code, a made-up token, and text that is no checkpoint code each say so", () => {
    expect(matchScannedText(qrText(THERE, foreign.token), HERE, checkpoints)).toEqual({
      error: SCAN_MESSAGES.otherCommunity,
    });
    // The foreign checkpoint's token with this community's id: forged, matches nothing here.
    expect(matchScannedText(qrText(HERE, foreign.token), HERE, checkpoints)).toEqual({
      error: SCAN_MESSAGES.noSuchCheckpoint,
    });
    for (const text of ['', 'https://example.test', gate.id, `scms-cp:${HERE}`, `scms-cp:${HERE}:${gate.token}:x`])
      expect(matchScannedText(text, HERE, checkpoints)).toEqual({ error: SCAN_MESSAGES.notACheckpoint });
    expect(matchScannedText(qrText(HERE, gate.token.toUpperCase()), HERE, checkpoints)).toEqual({
      error: SCAN_MESSAGES.notACheckpoint,
    });
  });

  test('any other text is refused, never matched', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const match = matchScannedText(text, HERE, checkpoints);
        if ('checkpoint' in match) expect(text.trim()).toBe(qrText(HERE, match.checkpoint.token));
      }),
    );
  });
});

describe('a typed short code', () => {
  test('as printed, in small letters, with spaces or the dash: the checkpoint of this community', () => {
    expect(shortCodeText(gate.short_code)).toBe('K7M-4QX');
    for (const typed of ['K7M-4QX', 'k7m4qx', ' k7m 4qx ', 'K7M--4QX'])
      expect(matchShortCode(typed, HERE, checkpoints)).toEqual({ checkpoint: gate });
  });

  test('too short, a confusable character, or no such code here: told which', () => {
    expect(matchShortCode('K7M4Q', HERE, checkpoints)).toEqual({ error: SCAN_MESSAGES.shortCodeLength });
    expect(matchShortCode('K7M4Q0', HERE, checkpoints)).toEqual({ error: SCAN_MESSAGES.shortCodeCharacters });
    expect(matchShortCode('OIL4QX', HERE, checkpoints)).toEqual({ error: SCAN_MESSAGES.shortCodeCharacters });
    expect(matchShortCode('K7M4QY', HERE, checkpoints)).toEqual({ error: SCAN_MESSAGES.noSuchCheckpoint });
    // The same code in another community finds nothing there but its own.
    expect(matchShortCode('K7M4QX', THERE, checkpoints)).toEqual({ checkpoint: foreign });
  });

  test('the alphabets: no confusable character in a short code; tokens in the id alphabet', () => {
    for (const c of '01ILOU') expect(SHORT_CODE_ALPHABET).not.toContain(c);
    expect(new Set(SHORT_CODE_ALPHABET).size).toBe(SHORT_CODE_ALPHABET.length);
    expect(TOKEN_ALPHABET).toMatch(/^[a-z0-9]{36}$/);
  });
});

describe('where a scan was made', () => {
  // The clubhouse gate of a Palm Beach community; 0.001° of latitude is about 111 m.
  const checkpoint = { latitude: 26.7153, longitude: -80.0534, radius: 50 };
  const at = (dLat: number, accuracy = 10) => ({ latitude: 26.7153 + dLat, longitude: -80.0534, accuracy });

  test('distances: a known one, symmetric, zero to itself', () => {
    // Palm Beach to Miami, about 105 km.
    const miami = { latitude: 25.7617, longitude: -80.1918 };
    expect(distanceMetres(checkpoint, miami)).toBeGreaterThan(104_000);
    expect(distanceMetres(checkpoint, miami)).toBeLessThan(107_000);
    fc.assert(
      fc.property(
        fc.double({ min: -89, max: 89, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        (latitude, longitude) => {
          const p = { latitude, longitude };
          expect(distanceMetres(p, p)).toBe(0);
          expect(distanceMetres(p, checkpoint)).toBeCloseTo(distanceMetres(checkpoint, p), 3);
        },
      ),
    );
  });

  test('inside the radius, inside given the fix, outside, and unknown without a position or with a vague fix', () => {
    expect(scanPlace(checkpoint, at(0.0002))).toEqual({ place: 'inside', distance: 22 });
    // 67 m away with a fix good to 30 m: it may well have been within 50 m.
    expect(scanPlace(checkpoint, at(0.0006, 30))).toMatchObject({ place: 'inside', distance: 67 });
    expect(scanPlace(checkpoint, at(0.00216))).toMatchObject({ place: 'outside', distance: 240 });
    expect(scanPlace(checkpoint, at(0.00216, 400))).toMatchObject({ place: 'unknown', distance: 240 });
    // 5 km away: outside, even with a fix good only to 200 m.
    expect(scanPlace(checkpoint, at(0.045, 200))).toMatchObject({ place: 'outside' });
    expect(scanPlace(checkpoint, null)).toEqual({ place: 'unknown', distance: null });
    expect(scanPlace({ latitude: null, longitude: null, radius: 50 }, at(0))).toEqual({
      place: 'unknown',
      distance: null,
    });
    expect(distanceText(240)).toBe('Scanned 240 m from the checkpoint');
    expect(distanceText(1234)).toBe('Scanned 1.2 km from the checkpoint');
    expect(distanceText(999.6)).toBe('Scanned 1.0 km from the checkpoint');
    expect(distanceText(999.4)).toBe('Scanned 999 m from the checkpoint');
  });
});
