/** The temporary-password rule the Users screen and the server's hooks share (src/domain/temporaryPassword.ts). */
import { expect, test } from 'vitest';
import { parsePbDate } from '../../src/domain/pbDate.ts';
import {
  DEFAULT_TEMPORARY_PASSWORD_HOURS,
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
