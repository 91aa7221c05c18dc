/** The sync panel's storage line (src/app/storageText.ts): the browser's answer and the space, in a phone's words. */
import { describe, expect, test } from 'vitest';
import {
  formatBytes,
  STORAGE_KEPT,
  STORAGE_NOT_KEPT,
  storageKeptLine,
  storageSpaceLine,
} from '../../src/app/storageText.ts';

describe('the storage line', () => {
  test('bytes in decimal units, one decimal below 10', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1_000)).toBe('1.0 kB');
    expect(formatBytes(850_000)).toBe('850 kB');
    expect(formatBytes(12_345_678)).toBe('12 MB');
    expect(formatBytes(3_210_000_000)).toBe('3.2 GB');
    expect(formatBytes(999_700_000)).toBe('1.0 GB');
    expect(formatBytes(-5)).toBe('0 B');
  });
  test("'12 MB used · 3.2 GB free': free is what the origin may still use", () => {
    expect(storageSpaceLine(12_000_000, 3_212_000_000)).toBe('12 MB used · 3.2 GB free');
    // Over the quota (it was lowered): nothing free, never a negative size.
    expect(storageSpaceLine(5_000_000, 1_000)).toBe('5.0 MB used · 0 B free');
  });
  test('kept or not, in words; nothing while the browser has not answered', () => {
    expect(storageKeptLine(true)).toBe(STORAGE_KEPT);
    expect(storageKeptLine(false)).toBe(STORAGE_NOT_KEPT);
    expect(storageKeptLine(null)).toBeNull();
    expect(STORAGE_KEPT).toBe('Kept on this device');
    expect(STORAGE_NOT_KEPT).toBe('The browser may clear this data when space runs low');
  });
});
