import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { clockText, TIME_ZONES } from '../../src/domain/quietHours.ts';
import {
  FINAL_STATUSES,
  roundOutcome,
  roundsOfDay,
  roundsOfShift,
  type RoundWalk,
  type ScheduledRound,
  type TourSchedule,
} from '../../src/domain/tourRounds.ts';
import { intlWall } from '../support/intl-time.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The local date and clock of an instant, by Intl: independent of the rule's own zone table. */
function local(zone: string, utcMs: number): { date: string; clock: string } {
  const [date, clock] = intlWall(zone, utcMs).split(' ') as [string, string];
  return { date, clock };
}

/** UTC ms of noon on a local date, found by Intl: a moment inside that day in any of the zones. */
function noonOf(zone: string, date: string): number {
  let t = Date.parse(`${date}T12:00:00Z`);
  for (let i = 0; i < 3; i++) {
    const [h, m] = local(zone, t).clock.split(':').map(Number) as [number, number];
    t += (12 * 60 - (h * 60 + m)) * MINUTE;
  }
  return t;
}

const clock = fc.integer({ min: 0, max: 24 * 60 - 1 }).map(clockText);
const schedule: fc.Arbitrary<TourSchedule> = fc.record({
  start: clock,
  end: clock,
  everyMinutes: fc.integer({ min: 15, max: 24 * 60 }),
  roundMinutes: fc.integer({ min: 5, max: 12 * 60 }),
});
const zone = fc.constantFrom(...TIME_ZONES);
const dateText = (y: number, m: number, d: number) =>
  `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
/** The US's second Sunday of March and first of November (summer time begins, ends), and the day before each. */
const clockChangeDays = (y: number) => {
  const sunday = (month: number, nth: number) =>
    1 + ((7 - new Date(Date.UTC(y, month - 1, 1)).getUTCDay()) % 7) + 7 * (nth - 1);
  return [
    dateText(y, 3, sunday(3, 2) - 1),
    dateText(y, 3, sunday(3, 2)),
    dateText(y, 10, 31),
    dateText(y, 11, sunday(11, 1)),
  ];
};
// Any day of the years the app will see, and as often the days the clocks change.
const day = fc.oneof(
  fc
    .tuple(fc.integer({ min: 2025, max: 2032 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(([y, m, d]) => dateText(y, m, d)),
  fc.integer({ min: 2025, max: 2032 }).chain((y) => fc.constantFrom(...clockChangeDays(y))),
);

const minutesOf = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3));

/** The clock times a schedule names, in order: the first, then every `everyMinutes` to the end. */
function namedClocks(s: TourSchedule): string[] {
  const start = minutesOf(s.start);
  const end = minutesOf(s.end);
  const span = end > start ? end - start : end + 24 * 60 - start;
  const last = span === 24 * 60 ? span - 1 : span;
  const clocks: string[] = [];
  for (let offset = 0; offset <= last; offset += s.everyMinutes) clocks.push(clockText((start + offset) % (24 * 60)));
  return clocks;
}

describe('roundsOfDay', () => {
  test('in every zone and on any day: rounds at the clock times the schedule names, in order, each due its minutes after its start', () => {
    fc.assert(
      fc.property(schedule, zone, day, (s, z, date) => {
        const rounds = roundsOfDay(s, z, noonOf(z, date));
        const named = namedClocks(s);
        for (let i = 1; i < rounds.length; i++) expect(rounds[i]!.startsAt).toBeGreaterThan(rounds[i - 1]!.startsAt);
        for (const round of rounds) expect(round.dueBy - round.startsAt).toBe(s.roundMinutes * MINUTE);
        // The first round is on the shift day itself (its clock is checked with the others below).
        expect(local(z, rounds[0]!.startsAt).date).toBe(date);
        const shown = rounds.map((r) => local(z, r.startsAt).clock);
        if (!hasClockChange(z, date)) expect(shown).toEqual(named);
        else {
          // The night the clock changes: a start it skips comes at 03:00, when it jumps; one it shows twice, once.
          for (const text of shown) expect(named.includes(text) || text === '03:00').toBe(true);
          // Starts in the skipped hour that land on a later one make one round with it.
          expect(named.length - shown.length).toBeGreaterThanOrEqual(0);
          expect(named.length - shown.length).toBeLessThanOrEqual(Math.ceil(60 / s.everyMinutes));
        }
      }),
      { numRuns: 400 },
    );
  });

  test('a night patrol in New York the nights summer time begins and ends, and in Phoenix, which keeps no summer time', () => {
    const night = { start: '20:00', end: '06:00', everyMinutes: 120, roundMinutes: 30 };
    const clocks = (z: string, date: string) =>
      roundsOfDay(night, z, noonOf(z, date)).map((r) => `${local(z, r.startsAt).date} ${local(z, r.startsAt).clock}`);
    // 2026-03-08 02:00 does not exist in New York: that round comes at 03:00.
    expect(clocks('America/New_York', '2026-03-07')).toEqual([
      '2026-03-07 20:00',
      '2026-03-07 22:00',
      '2026-03-08 00:00',
      '2026-03-08 03:00',
      '2026-03-08 04:00',
      '2026-03-08 06:00',
    ]);
    // 2026-11-01 01:00-02:00 happens twice; rounds follow the clock.
    expect(clocks('America/New_York', '2026-10-31')).toEqual([
      '2026-10-31 20:00',
      '2026-10-31 22:00',
      '2026-11-01 00:00',
      '2026-11-01 02:00',
      '2026-11-01 04:00',
      '2026-11-01 06:00',
    ]);
    expect(clocks('America/Phoenix', '2026-03-07')).toHaveLength(6);
  });

  test('every 40 minutes from 01:20 across the skipped hour: the skipped starts come at 03:00, and 03:20 is kept', () => {
    const s = { start: '01:20', end: '05:00', everyMinutes: 40, roundMinutes: 10 };
    const shown = roundsOfDay(s, 'America/New_York', noonOf('America/New_York', '2026-03-08')).map(
      (r) => local('America/New_York', r.startsAt).clock,
    );
    // Named: 01:20, 02:00, 02:40, 03:20, 04:00, 04:40; 02:00 and 02:40 do not exist that night.
    expect(shown).toEqual(['01:20', '03:00', '03:20', '04:00', '04:40']);
  });

  test('every 30 minutes across the skipped hour: 01:30, then 03:00, never twice the same moment', () => {
    const s = { start: '00:00', end: '04:00', everyMinutes: 30, roundMinutes: 10 };
    const shown = roundsOfDay(s, 'America/Chicago', noonOf('America/Chicago', '2026-03-08')).map(
      (r) => local('America/Chicago', r.startsAt).clock,
    );
    expect(shown).toEqual(['00:00', '00:30', '01:00', '01:30', '03:00', '03:30', '04:00']);
  });
});

/** Whether the zone's offset changes between the date's first hour and the end of the next day, when its rounds can be (Intl's view). */
function hasClockChange(z: string, date: string): boolean {
  const noon = noonOf(z, date);
  const offsetAt = (t: number) => {
    const { clock } = local(z, t);
    return (minutesOf(clock) - (new Date(t).getUTCHours() * 60 + new Date(t).getUTCMinutes()) + 1440) % 1440;
  };
  return offsetAt(noon - 13 * HOUR) !== offsetAt(noon + 37 * HOUR);
}

describe('roundsOfShift', () => {
  test('at the start of any round, the shift under way holds it: a night round after midnight belongs to the night before', () => {
    fc.assert(
      fc.property(schedule, zone, day, fc.nat(), (s, z, date, pick) => {
        const rounds = roundsOfDay(s, z, noonOf(z, date));
        const round = rounds[pick % rounds.length]!;
        expect(roundsOfShift(s, z, round.startsAt)).toContainEqual(round);
      }),
      { numRuns: 300 },
    );
  });

  test("a round of yesterday still open when today's first has started comes first", () => {
    const hourly = { start: '00:00', end: '23:00', everyMinutes: 60, roundMinutes: 120 };
    const z = 'UTC';
    const rounds = roundsOfShift(hourly, z, Date.parse('2026-06-11T00:30:00Z'));
    // Two-hour rounds may be walked until two hours after they were due: 21:00's until 01:00.
    expect(rounds.map((r) => intlWall(z, r.startsAt)).slice(0, 4)).toEqual([
      '2026-06-10 21:00',
      '2026-06-10 22:00',
      '2026-06-10 23:00',
      '2026-06-11 00:00',
    ]);
  });

  test('at 03:00 the rounds of the night that began at 20:00; at 21:00 the next night', () => {
    const night = { start: '20:00', end: '06:00', everyMinutes: 120, roundMinutes: 30 };
    const z = 'America/New_York';
    const at = (date: string, clockAt: string) => noonOf(z, date) + (minutesOf(clockAt) - 12 * 60) * MINUTE;
    expect(local(z, roundsOfShift(night, z, at('2026-06-11', '03:00'))[0]!.startsAt)).toEqual({
      date: '2026-06-10',
      clock: '20:00',
    });
    expect(local(z, roundsOfShift(night, z, at('2026-06-11', '21:00'))[0]!.startsAt)).toEqual({
      date: '2026-06-11',
      clock: '20:00',
    });
  });
});

describe('roundOutcome', () => {
  const round: ScheduledRound = { startsAt: 1_000 * MINUTE, dueBy: 1_030 * MINUTE };
  const tour = { checkpoints: ['gate', 'pool', 'garage'], ordered: true };
  const at = (minutes: number) => minutes * MINUTE;

  test('not walked: upcoming, due, due and overdue while it could still be walked late, then missed with every checkpoint', () => {
    expect(roundOutcome(round, tour, null, at(999)).status).toBe('upcoming');
    expect(roundOutcome(round, tour, null, at(1_000))).toMatchObject({ status: 'due', overdue: false });
    expect(roundOutcome(round, tour, null, at(1_030))).toMatchObject({ status: 'due', overdue: true });
    expect(roundOutcome(round, tour, null, at(1_060))).toMatchObject({ status: 'missed', missed: tour.checkpoints });
    // A walk started after the round closed counts for nothing.
    const tooLate = { startedAt: at(1_061), endedAt: null, scans: [{ checkpoint: 'gate', at: at(1_062) }] };
    expect(roundOutcome(round, tour, tooLate, at(1_070))).toMatchObject({ status: 'missed', scanned: [] });
  });

  test('scans after the walk ended or after the round closed count for nothing', () => {
    const ended = {
      startedAt: at(1_001),
      endedAt: at(1_010),
      scans: [
        { checkpoint: 'gate', at: at(1_005) },
        { checkpoint: 'pool', at: at(1_012) },
        { checkpoint: 'garage', at: at(1_013) },
      ],
    };
    expect(roundOutcome(round, tour, ended, at(1_020))).toMatchObject({ status: 'incomplete', scanned: ['gate'] });
    const open = {
      ...ended,
      endedAt: null,
      scans: [...ended.scans.slice(0, 2), { checkpoint: 'garage', at: at(1_061) }],
    };
    expect(roundOutcome(round, tour, open, at(1_070))).toMatchObject({ status: 'incomplete', missed: ['garage'] });
  });

  test('one scanned, one typed, the third skipped and the tour ended with a reason: incomplete, the third missed', () => {
    const walk: RoundWalk = {
      startedAt: at(1_001),
      endedAt: at(1_020),
      scans: [
        { checkpoint: 'gate', at: at(1_005) },
        { checkpoint: 'pool', at: at(1_012) },
      ],
    };
    expect(roundOutcome(round, tour, walk, at(1_021))).toMatchObject({
      status: 'incomplete',
      scanned: ['gate', 'pool'],
      missed: ['garage'],
      outOfOrder: [],
    });
  });

  test('all scanned in time is on time, after the due time late; out of order is told apart when the order matters', () => {
    const scans = [
      { checkpoint: 'pool', at: at(1_004) },
      { checkpoint: 'gate', at: at(1_008) },
      { checkpoint: 'garage', at: at(1_025) },
    ];
    const walk = { startedAt: at(1_001), endedAt: null, scans };
    expect(roundOutcome(round, tour, walk, at(1_026))).toMatchObject({ status: 'on_time', outOfOrder: ['gate'] });
    expect(roundOutcome(round, { ...tour, ordered: false }, walk, at(1_026)).outOfOrder).toEqual([]);
    const late = { ...walk, scans: [...scans.slice(0, 2), { checkpoint: 'garage', at: at(1_031) }] };
    expect(roundOutcome(round, tour, late, at(1_040))).toMatchObject({ status: 'late', finishedAt: at(1_031) });
  });

  test('an open walk is in progress, overdue past its time, and incomplete once its minutes have passed again', () => {
    const walk = { startedAt: at(1_001), endedAt: null, scans: [{ checkpoint: 'gate', at: at(1_002) }] };
    expect(roundOutcome(round, tour, walk, at(1_010))).toMatchObject({ status: 'in_progress', overdue: false });
    expect(roundOutcome(round, tour, walk, at(1_045))).toMatchObject({ status: 'in_progress', overdue: true });
    expect(roundOutcome(round, tour, walk, at(1_060)).status).toBe('incomplete');
  });

  const checkpointIds = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { minLength: 1 });
  // Walks as they would be at the end: started any time, perhaps ended, scans at any time (before the start too).
  const walkOf = (ids: string[]) =>
    fc.option(
      fc.record({
        startedAt: fc.integer({ min: 990, max: 1_080 }).map(at),
        endedAt: fc.option(fc.integer({ min: 990, max: 1_100 }).map(at)),
        scans: fc.array(
          fc.record({
            checkpoint: fc.constantFrom(...ids, 'elsewhere'),
            at: fc.integer({ min: 990, max: 1_080 }).map(at),
          }),
        ),
      }),
    );

  test('any walk: scanned and missed split the checkpoints; a final status never changes as time goes on', () => {
    fc.assert(
      fc.property(
        checkpointIds.chain((ids) => fc.tuple(fc.constant(ids), fc.boolean(), walkOf(ids))),
        fc.integer({ min: 980, max: 1_100 }),
        fc.integer({ min: 0, max: 200 }),
        ([ids, ordered, walk], now, later) => {
          const t = { checkpoints: ids, ordered };
          const first = roundOutcome(round, t, walk, at(now));
          expect([...first.scanned, ...first.missed].sort()).toEqual([...ids].sort());
          if (!ordered) expect(first.outOfOrder).toEqual([]);
          if (first.status === 'on_time') expect(first.finishedAt).toBeLessThanOrEqual(round.dueBy);
          if (first.status === 'late') expect(first.finishedAt).toBeGreaterThan(round.dueBy);
          if (walk === null)
            expect(first.status === 'missed').toBe(at(now) >= round.dueBy + (round.dueBy - round.startsAt));
          if (first.overdue) expect(['due', 'in_progress']).toContain(first.status);
          if (FINAL_STATUSES.includes(first.status))
            expect(roundOutcome(round, t, walk, at(now + later)).status).toBe(first.status);
        },
      ),
      { numRuns: 500 },
    );
  });
});
