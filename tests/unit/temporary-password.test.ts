/** The temporary-password rule the Users screen and the server's hooks share (src/domain/temporaryPassword.ts). */
import { randomInt } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { buildHookLibs } from '../../scripts/pocketbase/hook-libs.ts';
import { loadHookLib } from '../support/hook-lib.ts';
import { PASSWORD_LIMITS } from '../../src/domain/loginSchema.ts';
import { parsePbDate } from '../../src/domain/pbDate.ts';
import {
  DEFAULT_TEMPORARY_PASSWORD_HOURS,
  firstPasswordRefusal,
  newTemporaryPassword,
  TEMPORARY_PASSWORD_ALPHABET,
  temporaryPasswordGroups,
  type RandomCharacters,
  temporaryPasswordExpiry,
  temporaryPasswordHours,
  temporaryPasswordState,
} from '../../src/domain/temporaryPassword.ts';

const NOW = Date.parse('2026-11-24T18:00:00.000Z');

test.each([
  ['no flag', undefined, '2026-11-20 00:00:00.000Z', 'own'],
  ['the flag off', false, '2026-11-20 00:00:00.000Z', 'own'],
  ['the flag, expiry ahead', true, '2026-11-24 18:00:01.000Z', 'temporary'],
  ['the flag, expiry this very moment', true, '2026-11-24 18:00:00.000Z', 'expired'],
  ['the flag, expiry past', true, '2026-11-21 09:00:00.000Z', 'expired'],
  ['the flag without an expiry (set by hand)', true, '', 'temporary'],
  ['the flag with an unreadable expiry', true, 'soon', 'temporary'],
] as const)('%s: %s', (_name, flag, expires, state) => {
  expect(temporaryPasswordState(flag, expires, NOW)).toBe(state);
});

test('the expiry is the given hours from now, in PocketBase date text', () => {
  expect(temporaryPasswordExpiry(NOW, 72)).toBe('2026-11-27 18:00:00.000Z');
  expect(parsePbDate(temporaryPasswordExpiry(NOW, 1))!.getTime() - NOW).toBe(3600_000);
});

test('SCMS_TEMPORARY_PASSWORD_HOURS: unset is 72, whole numbers 1 to 720 are taken, anything else says what is wanted', () => {
  expect(temporaryPasswordHours(undefined)).toBe(DEFAULT_TEMPORARY_PASSWORD_HOURS);
  expect(temporaryPasswordHours('')).toBe(72);
  expect(temporaryPasswordHours('1')).toBe(1);
  expect(temporaryPasswordHours(' 24 ')).toBe(24);
  expect(temporaryPasswordHours('720')).toBe(720);
  for (const bad of ['0', '721', '-5', '1.5', '1e2', 'two', '0x10', '9'.repeat(400)]) {
    expect(() => temporaryPasswordHours(bad), bad).toThrow(
      'SCMS_TEMPORARY_PASSWORD_HOURS must be a whole number of hours from 1 to 720.',
    );
  }
});

/** Uniform, independent characters, as PocketBase's $security.randomStringWithAlphabet draws them. */
const secureRandom: RandomCharacters = (length, alphabet) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

/** Characters read or typed for one another: zero and O, one and l and I (and their other cases). */
const CONFUSABLE = /[0Oo1lIi]/;
const SHAPE = /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/;

describe('new temporary passwords', () => {
  test('the alphabet: lowercase letters and digits, none of them confusable, none twice', () => {
    expect(TEMPORARY_PASSWORD_ALPHABET).toMatch(/^[a-z2-9]+$/);
    expect(TEMPORARY_PASSWORD_ALPHABET).not.toMatch(CONFUSABLE);
    expect(new Set(TEMPORARY_PASSWORD_ALPHABET).size).toBe(TEMPORARY_PASSWORD_ALPHABET.length);
    expect(TEMPORARY_PASSWORD_ALPHABET.length).toBe(31);
  });

  test('over many draws: four groups of four, no confusable character, every character of the alphabet in use, no repeats', () => {
    const seen = new Set<string>();
    const passwords = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const password = newTemporaryPassword(secureRandom);
      expect(password).toMatch(SHAPE);
      expect(password).not.toMatch(CONFUSABLE);
      for (const c of password.replaceAll('-', '')) seen.add(c);
      passwords.add(password);
    }
    expect([...seen].sort().join('')).toBe([...TEMPORARY_PASSWORD_ALPHABET].sort().join(''));
    expect(passwords.size).toBe(5000);
  });

  test("inside the server's password rules (8 to 24 characters), and strong: at least 64 bits", () => {
    const password = newTemporaryPassword(secureRandom);
    expect(password.length).toBe(19);
    expect(password.length).toBeGreaterThanOrEqual(PASSWORD_LIMITS.min);
    expect(password.length).toBeLessThanOrEqual(PASSWORD_LIMITS.max);
    const drawn = password.replaceAll('-', '').length;
    expect(drawn * Math.log2(TEMPORARY_PASSWORD_ALPHABET.length)).toBeGreaterThan(64);
  });

  test('all 16 characters come from the source, in its order; a source that gives anything else is refused', () => {
    const asked: Array<[number, string]> = [];
    const fixed: RandomCharacters = (length, alphabet) => {
      asked.push([length, alphabet]);
      return 'abcdefghjkmnpqrs';
    };
    expect(newTemporaryPassword(fixed)).toBe('abcd-efgh-jkmn-pqrs');
    expect(asked).toEqual([[16, TEMPORARY_PASSWORD_ALPHABET]]);
    for (const bad of [
      'abcdefghjkmnpqr',
      'abcdefghjkmnpqrst',
      'abcdefghjkmnpqr0',
      'ABCDEFGHJKMNPQRS',
      'abcdefghjkmnpq-s',
    ]) {
      expect(() => newTemporaryPassword(() => bad), bad).toThrow('outside the temporary password alphabet');
    }
  });

  test('the compiled hook library (as the server runs it) makes the same shape', async () => {
    await buildHookLibs();
    const lib = loadHookLib<{ newTemporaryPassword: typeof newTemporaryPassword }>('generated/temporary_password.js');
    for (let i = 0; i < 200; i++) expect(lib.newTemporaryPassword(secureRandom)).toMatch(SHAPE);
  });

  test('shown in its groups', () => {
    expect(temporaryPasswordGroups('kp7m-x4rd-9tce-hw2a')).toEqual(['kp7m', 'x4rd', '9tce', 'hw2a']);
    expect(temporaryPasswordGroups('OldStyleRandom20chrs')).toEqual(['OldStyleRandom20chrs']);
  });
});

describe("the first password's body (the server's first-password route)", () => {
  const ok = 'chosen-by-me-42';
  test.each([
    ['two equal passwords of 8', { password: 'a'.repeat(8), passwordConfirm: 'a'.repeat(8) }, null],
    ['two equal passwords of 24', { password: 'b'.repeat(24), passwordConfirm: 'b'.repeat(24) }, null],
    [
      '7 characters',
      { password: 'a'.repeat(7), passwordConfirm: 'a'.repeat(7) },
      { password: 'validation_length_out_of_range' },
    ],
    [
      '25 characters',
      { password: 'a'.repeat(25), passwordConfirm: 'a'.repeat(25) },
      { password: 'validation_length_out_of_range' },
    ],
    [
      'no password',
      { passwordConfirm: ok },
      { password: 'validation_required', passwordConfirm: 'validation_values_mismatch' },
    ],
    [
      'a number',
      { password: 12345678, passwordConfirm: 12345678 },
      { password: 'validation_required', passwordConfirm: 'validation_values_mismatch' },
    ],
    [
      'another confirmation',
      { password: ok, passwordConfirm: `${ok}!` },
      { passwordConfirm: 'validation_values_mismatch' },
    ],
    ['another field', { password: ok, passwordConfirm: ok, type: 'director' }, { type: 'validation_unknown_field' }],
  ] as const)('%s', (_name, body, expected) => {
    const refusal = firstPasswordRefusal(body as Record<string, unknown>);
    expect(refusal && Object.fromEntries(Object.entries(refusal).map(([field, r]) => [field, r.code]))).toEqual(
      expected,
    );
  });
});
