/**
 * Today's house checks: which homes are today's, due or done,
 * the progress line, and who checked each home last today.
 */
import { describe, expect, test } from 'vitest';
import type { HouseCheckFields } from '../../src/domain/houseCheck.ts';
import {
  checkProgress,
  latestCheckByHome,
  todaysCheckState,
  todaysHouseChecks,
} from '../../src/domain/todaysHouseChecks.ts';
import { loggedAndSent, positionMapUrl, toReportPosition, isLoggedAtAllowed } from '../../src/domain/whereAndWhen.ts';

/** Local dates (the window's days are the device's days), written as PocketBase strings. */
const at = (day: number, hour = 12, minute = 0) =>
  new Date(2026, 10, day, hour, minute).toISOString().replace('T', ' ');
const startOf = (day: number) => at(day, 0, 0);
const endOf = (day: number) => new Date(2026, 10, day, 23, 59, 59, 999).toISOString().replace('T', ' ');
const NOW = new Date(2026, 10, 24, 14, 30);

interface Home extends HouseCheckFields {
  id: string;
}
const home = (id: string, fields: Partial<HouseCheckFields> = {}): Home => ({
  id,
  house_check: true,
  house_check_start_date: startOf(20),
  house_check_end_date: endOf(28),
  house_check_last_date: '',
  ...fields,
});

describe("a home's place in today's list", () => {
  test.each<[string, Partial<HouseCheckFields>, 'due' | 'done' | null]>([
    ['never checked in its window: due', {}, 'due'],
    ['last checked before its window: due', { house_check_last_date: at(10) }, 'due'],
    ['checked today: done', { house_check_last_date: at(24, 9, 15) }, 'done'],
    ['checked today at 00:00: done', { house_check_last_date: at(24, 0, 0) }, 'done'],
    [
      'checked a minute ago, by another device whose clock is ahead: done',
      { house_check_last_date: at(24, 15) },
      'done',
    ],
    [
      'checked yesterday within its window: not today’s (one check a window)',
      { house_check_last_date: at(23, 22) },
      null,
    ],
    ['house check off: not today’s', { house_check: false }, null],
    [
      'house check off although checked today: not today’s',
      { house_check: false, house_check_last_date: at(24) },
      null,
    ],
    ['window starts today: due', { house_check_start_date: startOf(24) }, 'due'],
    ['window ends today: due', { house_check_end_date: endOf(24) }, 'due'],
    [
      'window ends today, checked today: done',
      { house_check_end_date: endOf(24), house_check_last_date: at(24, 8) },
      'done',
    ],
    ['window starts tomorrow: not today’s', { house_check_start_date: startOf(25) }, null],
    ['window ended yesterday: not today’s', { house_check_end_date: endOf(23) }, null],
    [
      'window ended yesterday, checked today: not today’s',
      { house_check_end_date: endOf(23), house_check_last_date: at(24) },
      null,
    ],
    ['no end date: not today’s', { house_check_end_date: '' }, null],
    ['end before start: not today’s', { house_check_start_date: startOf(28), house_check_end_date: endOf(20) }, null],
    ['unreadable last date: due', { house_check_last_date: 'garbage' }, 'due'],
  ])('%s', (_, fields, expected) => {
    expect(todaysCheckState(home('h', fields), NOW)).toBe(expected);
  });
});

describe("today's list and its counts", () => {
  const homes = [
    home('due-1'),
    home('done-1', { house_check_last_date: at(24, 8) }),
    home('off', { house_check: false }),
    home('due-2', { house_check_last_date: at(1) }),
    home('earlier-in-window', { house_check_last_date: at(21) }),
    home('future-window', { house_check_start_date: startOf(26) }),
    home('done-2', { house_check_last_date: at(24, 13, 59) }),
    home('due-3', { house_check_end_date: endOf(24) }),
  ];

  test('due and done keep the order given; the total is both', () => {
    const today = todaysHouseChecks(homes, (h) => h, NOW);
    expect(today.due.map((h) => h.id)).toEqual(['due-1', 'due-2', 'due-3']);
    expect(today.done.map((h) => h.id)).toEqual(['done-1', 'done-2']);
    expect(today.total).toBe(5);
    expect(checkProgress(today)).toBe('2 of 5 checked');
  });

  test('checking a due home moves it to done: the total stays, the count goes up', () => {
    const checked = homes.map((h) => (h.id === 'due-2' ? { ...h, house_check_last_date: at(24, 14, 29) } : h));
    const today = todaysHouseChecks(checked, (h) => h, NOW);
    expect(today.due.map((h) => h.id)).toEqual(['due-1', 'due-3']);
    expect(today.done.map((h) => h.id)).toEqual(['done-1', 'due-2', 'done-2']);
    expect(checkProgress(today)).toBe('3 of 5 checked');
  });

  test('a home a house check report of today names is done, as the dashboard and the daily report count it, even before its last-checked date says so', () => {
    const reported = new Set(['due-2']);
    const today = todaysHouseChecks(
      homes,
      (h) => h,
      NOW,
      (h) => reported.has(h.id),
    );
    expect(today.due.map((h) => h.id)).toEqual(['due-1', 'due-3']);
    expect(today.done.map((h) => h.id)).toEqual(['done-1', 'due-2', 'done-2']);
    expect(today.total).toBe(5);
    // A report names a home outside its window: still not one of today's.
    expect(todaysCheckState(home('later', { house_check_start_date: startOf(26) }), NOW, true)).toBeNull();
    expect(todaysCheckState(home('off', { house_check: false }), NOW, true)).toBeNull();
  });

  test('at midnight the day turns: yesterday’s done homes with a window still open are due again', () => {
    const tomorrow = new Date(2026, 10, 25, 0, 1);
    const today = todaysHouseChecks(homes, (h) => h, tomorrow);
    // done-1 and done-2 were checked within their window (20–28): the due rule says not due again in that window.
    expect(today.done).toEqual([]);
    expect(today.due.map((h) => h.id)).toEqual(['due-1', 'due-2']);
    expect(checkProgress(today)).toBe('0 of 2 checked');
  });

  test('no homes, or none of today: 0 of 0', () => {
    expect(checkProgress(todaysHouseChecks([], (h: Home) => h, NOW))).toBe('0 of 0 checked');
    expect(checkProgress(todaysHouseChecks([home('x', { house_check: false })], (h) => h, NOW))).toBe('0 of 0 checked');
  });

  test('homes wrapped with their people are read through the picker', () => {
    const wrapped = homes.map((house) => ({ house, residents: [] }));
    const today = todaysHouseChecks(wrapped, (h) => h.house, NOW);
    expect(today.due.map((h) => h.house.id)).toEqual(['due-1', 'due-2', 'due-3']);
  });

  // How fast is bench:screens' figure (Homes → House checks, at 20,000 homes), not a time limit here.
  test('20,000 homes are sorted into today’s list (the screen runs this on every change)', () => {
    const many = Array.from({ length: 20_000 }, (_, i) =>
      home(`h${i}`, i % 10 === 0 ? {} : i % 10 === 1 ? { house_check_last_date: at(24, 9) } : { house_check: false }),
    );
    const today = todaysHouseChecks(many, (h) => h, NOW);
    expect(today.due).toHaveLength(2_000);
    expect(today.done).toHaveLength(2_000);
  });
});

describe('who checked a home today', () => {
  const report = (id: string, house: string, type: string, time: string, by: string) => ({
    id,
    house,
    type,
    incident_time: time,
    created_by: by,
  });

  test("each home's latest house check report; other types and reports without a home are not checks", () => {
    const latest = latestCheckByHome([
      report('r1', 'h1', 'house_check', at(24, 8), 'ann'),
      report('r2', 'h1', 'house_check', at(24, 13), 'bob'),
      report('r3', 'h1', 'loud_noise', at(24, 14), 'cy'),
      report('r4', 'h2', 'house_check', at(24, 9), 'cy'),
      report('r5', '', 'house_check', at(24, 10), 'dee'),
      report('r6', 'h2', 'house_check', at(24, 7), 'ann'),
    ]);
    expect([...latest.keys()].sort()).toEqual(['h1', 'h2']);
    expect(latest.get('h1')?.id).toBe('r2');
    expect(latest.get('h2')?.id).toBe('r4');
  });
});

describe('where and when', () => {
  const hhmm = (date: Date, withDay: boolean) =>
    (withDay ? `${date.getDate()}/` : '') +
    `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;

  test("'Logged .. (sent ..)' only when the device and server times differ by a minute or more", () => {
    const logged = new Date(2026, 10, 24, 2, 14, 10);
    expect(loggedAndSent(logged, new Date(2026, 10, 24, 2, 31, 0), hhmm)).toBe('Logged 02:14 (sent 02:31)');
    expect(loggedAndSent(logged, new Date(2026, 10, 24, 2, 15, 9), hhmm)).toBeNull();
    expect(loggedAndSent(logged, new Date(2026, 10, 24, 2, 15, 10), hhmm)).toBe('Logged 02:14 (sent 02:15)');
    expect(loggedAndSent(logged, null, hhmm)).toBeNull();
    expect(loggedAndSent(null, logged, hhmm)).toBeNull();
    // Kept overnight: both carry their day.
    expect(loggedAndSent(new Date(2026, 10, 23, 23, 50), new Date(2026, 10, 24, 0, 10), hhmm)).toBe(
      'Logged 23/23:50 (sent 24/00:10)',
    );
  });

  test('a position the device gives is kept only when the server would keep it', () => {
    expect(toReportPosition({ latitude: 26.7, longitude: -80.03, accuracy: 12.5 })).toEqual({
      latitude: 26.7,
      longitude: -80.03,
      accuracy: 12.5,
    });
    expect(toReportPosition(null)).toBeNull();
    expect(toReportPosition({ latitude: 26.7, longitude: -80.03, accuracy: 250_000 })).toBeNull();
    expect(toReportPosition({ latitude: Number.NaN, longitude: -80.03, accuracy: 5 })).toBeNull();
  });

  test('the map link opens OpenStreetMap at the position', () => {
    expect(positionMapUrl({ latitude: 26.70512, longitude: -80.03641, accuracy: 12 })).toBe(
      'https://www.openstreetmap.org/?mlat=26.705120&mlon=-80.036410#map=18/26.705120/-80.036410',
    );
  });

  test('a device time a few minutes ahead of the server is allowed, an hour ahead is not', () => {
    const now = new Date(2026, 10, 24, 12, 0);
    expect(isLoggedAtAllowed(new Date(2026, 10, 24, 12, 5), now)).toBe(true);
    expect(isLoggedAtAllowed(new Date(2026, 10, 24, 13, 0), now)).toBe(false);
    expect(isLoggedAtAllowed(new Date(2026, 10, 20, 13, 0), now)).toBe(true);
  });
});
