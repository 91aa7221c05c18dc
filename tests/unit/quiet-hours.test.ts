import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CALL_SETTINGS,
  TIME_ZONES,
  clockText,
  inQuietHours,
  localMinutes,
  quietHoursAt,
} from '../../src/domain/quietHours.ts';

/** The local 'HH:MM' as Intl (the full time-zone database) has it. */
function intlClock(zone: string, utcMs: number): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(utcMs);
  return `${parts.find((p) => p.type === 'hour')!.value}:${parts.find((p) => p.type === 'minute')!.value}`;
}

describe('local time without Intl', () => {
  it('agrees with Intl for every supported zone, 2010-2035, daylight-saving changes included', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TIME_ZONES),
        fc.integer({ min: Date.UTC(2010, 0, 1), max: Date.UTC(2035, 11, 31) }),
        (zone, t) => {
          expect(clockText(localMinutes(zone, t))).toBe(intlClock(zone, t));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('on the minutes around the 2026 changes in New York', () => {
    for (const t of [
      Date.UTC(2026, 2, 8, 6, 59),
      Date.UTC(2026, 2, 8, 7, 0),
      Date.UTC(2026, 10, 1, 5, 59),
      Date.UTC(2026, 10, 1, 6, 0),
    ]) {
      expect(clockText(localMinutes('America/New_York', t))).toBe(intlClock('America/New_York', t));
    }
  });
});

describe('quiet hours (default 21:00–08:00, New York)', () => {
  it('22:14 local is quiet, says the local time, and ends at 08:00 local', () => {
    const at = Date.UTC(2026, 10, 25, 3, 14); // 22:14 EST on the 24th
    const check = quietHoursAt(DEFAULT_CALL_SETTINGS, at);
    expect(check).toMatchObject({ quiet: true, localTime: '22:14' });
    expect(check.endsAt).toBe(Date.UTC(2026, 10, 25, 13, 0));
  });

  it('the edges: 20:59 and 08:00 are not quiet, 21:00 and 07:59 are', () => {
    const s = DEFAULT_CALL_SETTINGS;
    expect([20 * 60 + 59, 21 * 60, 7 * 60 + 59, 8 * 60].map((t) => inQuietHours(s, t))).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(inQuietHours({ quietStart: '13:00', quietEnd: '14:00' }, 13 * 60 + 30)).toBe(true);
    expect(inQuietHours({ quietStart: '13:00', quietEnd: '13:00' }, 13 * 60)).toBe(false);
    expect(inQuietHours({ quietStart: '25:00', quietEnd: '08:00' }, 23 * 60)).toBe(false);
  });

  it('ends at the local end time also across a daylight-saving change', () => {
    const check = quietHoursAt(DEFAULT_CALL_SETTINGS, Date.UTC(2026, 2, 8, 3, 0)); // 22:00 EST, Mar 7
    expect(check.quiet).toBe(true);
    expect(intlClock('America/New_York', check.endsAt)).toBe('08:00');
    expect(check.endsAt).toBe(Date.UTC(2026, 2, 8, 12, 0)); // 08:00 EDT
  });
});
