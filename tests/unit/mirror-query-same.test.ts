/**
 * A mirror query whose new result says nothing new leaves the screen as it
 * is (src/data/mirror/useMirrorQuery.ts, sameResult): a pull writes its
 * cursors as it goes, and the sync badge's counts ran again at each.
 */
import { describe, expect, it } from 'vitest';
import { sameResult } from '../../src/data/mirror/useMirrorQuery.ts';

describe('sameResult', () => {
  it('the same primitive, or a flat object of the same primitives', () => {
    expect(sameResult(3, 3)).toBe(true);
    expect(sameResult(null, null)).toBe(true);
    expect(sameResult(undefined, undefined)).toBe(true);
    expect(sameResult({ pending: 0, failed: 1, at: null }, { pending: 0, failed: 1, at: null })).toBe(true);
  });

  it('a different value, key or shape is new', () => {
    expect(sameResult(3, 4)).toBe(false);
    expect(sameResult(null, 0)).toBe(false);
    expect(sameResult({ pending: 0 }, { pending: 1 })).toBe(false);
    expect(sameResult({ pending: 0 }, { pending: 0, failed: 0 })).toBe(false);
    expect(sameResult({ pending: 0 }, { failed: 0 })).toBe(false);
    expect(sameResult({ pending: 0 }, null)).toBe(false);
  });

  it('lists and nested records are always new: comparing them would cost what drawing them saves', () => {
    const rows = [{ id: 'a' }];
    expect(sameResult(rows, [...rows])).toBe(false);
    const home = { id: 'h' };
    expect(sameResult({ home }, { home })).toBe(false);
  });
});
