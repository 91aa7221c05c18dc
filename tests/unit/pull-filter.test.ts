import PocketBase from 'pocketbase';
import { describe, expect, test } from 'vitest';
import { MIRRORED_COLLECTIONS } from '../../src/api/records.ts';
import { ANSWERED_AT_ONCE, CURSOR_FILTER, isCursorFilter } from '../../src/domain/pullFilter.ts';

// The text the app sends, as the SDK writes it (src/data/sync/pull.ts).
const pb = new PocketBase('http://127.0.0.1');
const cursor = (u: string, id: string) => pb.filter(CURSOR_FILTER, { u, id });

describe('isCursorFilter', () => {
  test("a catch-up pull's filter, from the first cursor and from any later one", () => {
    expect(isCursorFilter(cursor('2026-11-27 12:00:00.123Z', 'k3v9x2m4q8w1z7p'))).toBe(true);
    expect(isCursorFilter(cursor('', ''))).toBe(true);
  });

  test('anything else: another filter, one added to the cursor, two different times, an escaped quote, none', () => {
    const pull = cursor('2026-11-27 12:00:00.123Z', 'k3v9x2m4q8w1z7p');
    expect(isCursorFilter('name = "no such concern"')).toBe(false);
    expect(isCursorFilter(`${pull} && name ~ "a"`)).toBe(false);
    expect(isCursorFilter(`(${pull})`)).toBe(false);
    expect(isCursorFilter(pull.replace('k3v9x2m4q8w1z7p', 'x" || name ~ "a'))).toBe(false);
    expect(isCursorFilter(pull.replace('(updated > "2026-11-27 12:00:00.123Z"', '(updated > "2026-01-01"'))).toBe(
      false,
    );
    expect(isCursorFilter(cursor('2026-11-27 12:00:00.123Z', 'a"b'))).toBe(false);
    expect(isCursorFilter('')).toBe(false);
    expect(isCursorFilter(undefined)).toBe(false);
  });
});

test('answered at once: every mirrored collection scoped by its own community field; residents and phones, scoped through their home, are not', () => {
  expect([...ANSWERED_AT_ONCE].sort()).toEqual(
    MIRRORED_COLLECTIONS.filter((c) => c !== 'residents' && c !== 'phones').sort(),
  );
});
