/**
 * The community's days and clock (src/domain/zonedTime.ts), which the demo
 * seed writes in whatever zone its machine runs: checked against Intl, over
 * the daylight-saving changes.
 */
import { describe, expect, test } from 'vitest';
import { zonedClock, zonedDayStart, zonedMonthStart } from '../../src/domain/zonedTime.ts';
import { intlWall } from '../support/intl-time.ts';

const ZONES = ['America/New_York', 'America/Phoenix', 'Pacific/Honolulu', 'UTC'];
const HOUR = 3_600_000;
// Around both of 2026's US changes (Mar 8, Nov 1), and a month turning.
const MOMENTS = [
  Date.UTC(2026, 2, 7, 12),
  Date.UTC(2026, 2, 8, 6, 59),
  Date.UTC(2026, 2, 8, 7, 1),
  Date.UTC(2026, 2, 9, 3, 30),
  Date.UTC(2026, 9, 31, 23),
  Date.UTC(2026, 10, 1, 5, 30),
  Date.UTC(2026, 10, 1, 6, 30),
  Date.UTC(2026, 10, 2, 4, 59),
  Date.UTC(2026, 11, 1, 3),
];

describe.each(ZONES)('in %s', (zone) => {
  test.each(MOMENTS)('the clock, the day and the month of %d are as Intl says', (ms) => {
    const wall = intlWall(zone, ms);
    expect(zonedClock(zone, ms)).toBe(wall.slice(11));
    const dayStart = zonedDayStart(zone, ms);
    expect(intlWall(zone, dayStart)).toBe(`${wall.slice(0, 10)} 00:00`);
    expect(dayStart).toBeLessThanOrEqual(ms);
    expect(ms - dayStart).toBeLessThan(25 * HOUR);
    // Two days on, and back.
    expect(intlWall(zone, zonedDayStart(zone, ms, 2)).slice(11)).toBe('00:00');
    expect(zonedDayStart(zone, zonedDayStart(zone, ms, 2), -2)).toBe(dayStart);
    const monthStart = zonedMonthStart(zone, ms);
    expect(intlWall(zone, monthStart)).toBe(`${wall.slice(0, 8)}01 00:00`);
    expect(intlWall(zone, zonedMonthStart(zone, ms, -1)).slice(8)).toBe('01 00:00');
  });
});
