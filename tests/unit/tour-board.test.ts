/**
 * The rounds board (src/domain/tourBoard.ts): the rounds of a shift with
 * the walks that answer them, two officers' walks of one round read as one,
 * and a tour turned off showing only what was walked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pbDate } from '../../src/domain/pbDate.ts';
import { clockText, TIME_ZONES } from '../../src/domain/quietHours.ts';
import { roundsOfDay } from '../../src/domain/tourRounds.ts';
import { zonedDayStart } from '../../src/domain/zonedTime.ts';
import { tourFigures } from '../../src/features/dashboard/figures.ts';
import {
  boardReach,
  combinedWalk,
  roundsBoard,
  type BoardRound,
  type BoardScan,
  type BoardTour,
  type BoardWalk,
} from '../../src/domain/tourBoard.ts';

const ZONE = 'America/New_York';
const at = (iso: string) => Date.parse(iso);
const pb = (iso: string) => pbDate(new Date(iso));

const night: BoardTour = {
  id: 'tour00000000001',
  name: 'Night',
  checkpoints: ['cpa', 'cpb'],
  start: '20:00',
  end: '23:00',
  every_minutes: 120,
  round_minutes: 30,
  ordered: true,
  active: true,
};

const walk = (id: string, roundIso: string, started: string, ended = '', officer = 'officer1'): BoardWalk => ({
  id,
  tour: night.id,
  officer,
  round_start: pb(roundIso),
  started_at: pb(started),
  ended_at: ended ? pb(ended) : '',
  end_reason: '',
});
const scan = (id: string, walkId: string, checkpoint: string, iso: string): BoardScan => ({
  id,
  walk: walkId,
  checkpoint,
  scanned_at: pb(iso),
});

// 20:00 in New York on 25 November 2026 (EST, UTC-5) is 01:00 UTC on the 26th.
const ROUND_1 = '2026-11-26T01:00:00Z';
const ROUND_2 = '2026-11-26T03:00:00Z';

describe('roundsBoard', () => {
  it('lists the rounds of the shift in time order, each answered by its own walks', () => {
    const walks = [walk('w1', ROUND_1, '2026-11-26T01:02:00Z', '2026-11-26T01:20:00Z')];
    const scans = [scan('s1', 'w1', 'cpa', '2026-11-26T01:05:00Z'), scan('s2', 'w1', 'cpb', '2026-11-26T01:12:00Z')];
    const board = roundsBoard([night], walks, scans, { zone: ZONE, now: at('2026-11-26T03:10:00Z') });
    expect(board.map((r) => [new Date(r.round.startsAt).toISOString(), r.outcome.status])).toEqual([
      ['2026-11-26T01:00:00.000Z', 'on_time'],
      ['2026-11-26T03:00:00.000Z', 'due'],
    ]);
    expect(board[0]!.walks.map((w) => w.id)).toEqual(['w1']);
    expect(board[1]!.walks).toEqual([]);
  });

  it('reads two officers walking one round as one walk: first start, every scan, open while one is', () => {
    const walks = [
      walk('w2', ROUND_2, '2026-11-26T03:04:00Z', '', 'officer2'),
      walk('w1', ROUND_2, '2026-11-26T03:01:00Z', '2026-11-26T03:10:00Z'),
    ];
    const scans = [scan('s1', 'w1', 'cpa', '2026-11-26T03:06:00Z'), scan('s2', 'w2', 'cpb', '2026-11-26T03:08:00Z')];
    const board = roundsBoard([night], walks, scans, { zone: ZONE, now: at('2026-11-26T03:20:00Z') });
    const round = board.find((r) => r.round.startsAt === at(ROUND_2))!;
    expect(round.walks.map((w) => w.id)).toEqual(['w1', 'w2']);
    expect(round.outcome.status).toBe('on_time');
    expect(round.outcome.scanned).toEqual(['cpa', 'cpb']);
    expect(combinedWalk(walks, scans)).toEqual({
      startedAt: at('2026-11-26T03:01:00Z'),
      endedAt: null,
      scans: [
        { checkpoint: 'cpa', at: at('2026-11-26T03:06:00Z') },
        { checkpoint: 'cpb', at: at('2026-11-26T03:08:00Z') },
      ],
    });
  });

  it('a walk of another round or another tour does not answer this one', () => {
    const other = { ...walk('w3', ROUND_1, '2026-11-26T01:02:00Z'), tour: 'tour00000000002' };
    const board = roundsBoard([night], [other, walk('w4', ROUND_2, '2026-11-26T03:02:00Z')], [], {
      zone: ZONE,
      now: at('2026-11-26T01:40:00Z'),
    });
    expect(board[0]!.walks).toEqual([]);
    expect(board[0]!.outcome.status).toBe('due');
  });

  it('a tour turned off shows only the rounds someone walked', () => {
    const off = { ...night, active: false };
    const walks = [walk('w1', ROUND_1, '2026-11-26T01:02:00Z', '2026-11-26T01:09:00Z')];
    const board = roundsBoard([off], walks, [], { zone: ZONE, now: at('2026-11-26T04:00:00Z') });
    expect(board.map((r) => [r.round.startsAt, r.outcome.status])).toEqual([[at(ROUND_1), 'incomplete']]);
  });

  it('the rounds that had closed before the tour was made were never due: only a walked one shows', () => {
    // Made at 21:00 (02:00 UTC): the 20:00 round had closed at 21:00, the 22:00 one is due.
    const made = { ...night, created: pb('2026-11-26T02:00:00Z') };
    const board = roundsBoard([made], [], [], { zone: ZONE, now: at('2026-11-26T04:00:00Z') });
    expect(board.map((r) => [new Date(r.round.startsAt).toISOString(), r.outcome.status])).toEqual([
      ['2026-11-26T03:00:00.000Z', 'missed'],
    ]);
    const walked = roundsBoard([made], [walk('w1', ROUND_1, '2026-11-26T01:02:00Z')], [], {
      zone: ZONE,
      now: at('2026-11-26T04:00:00Z'),
    });
    expect(walked.map((r) => r.round.startsAt)).toEqual([at(ROUND_1), at(ROUND_2)]);
    // Made at 20:45: the 20:00 round could still be walked, late, so it was due.
    const late = roundsBoard([{ ...night, created: pb('2026-11-26T01:45:00Z') }], [], [], {
      zone: ZONE,
      now: at('2026-11-26T04:00:00Z'),
    });
    expect(late.map((r) => r.round.startsAt)).toEqual([at(ROUND_1), at(ROUND_2)]);
  });

  it('a tour turned off keeps its missed rounds from before; from then on only walked rounds show', () => {
    const off = { ...night, active: false, updated: pb('2026-11-26T03:40:00Z') };
    const board = roundsBoard([off], [], [], {
      zone: ZONE,
      now: at('2026-11-26T05:00:00Z'),
      day: at('2026-11-25T17:00:00Z'),
    });
    // 20:00 had closed (21:00) before it was turned off at 22:40; 22:00 closed at 23:00, after.
    expect(board.map((r) => [new Date(r.round.startsAt).toISOString(), r.outcome.status])).toEqual([
      ['2026-11-26T01:00:00.000Z', 'missed'],
    ]);
  });

  it('a walk of a round the schedule no longer has is still listed, as walked', () => {
    // Walked at 21:00 when the rounds were on the hour; the tour now starts at 20:00 every two hours.
    const walks = [walk('w9', '2026-11-26T02:00:00Z', '2026-11-26T02:01:00Z', '2026-11-26T02:20:00Z')];
    const scans = [scan('s1', 'w9', 'cpa', '2026-11-26T02:05:00Z'), scan('s2', 'w9', 'cpb', '2026-11-26T02:10:00Z')];
    const board = roundsBoard([night], walks, scans, {
      zone: ZONE,
      now: at('2026-11-26T05:00:00Z'),
      day: at('2026-11-25T17:00:00Z'),
    });
    expect(board.map((r) => [new Date(r.round.startsAt).toISOString(), r.outcome.status])).toEqual([
      ['2026-11-26T01:00:00.000Z', 'missed'],
      ['2026-11-26T02:00:00.000Z', 'on_time'],
      ['2026-11-26T03:00:00.000Z', 'missed'],
    ]);
  });

  it("a walk of another shift's round stays that shift's: last night's rounds are not this evening's, nor the next day's", () => {
    // 22:00, 00:00 and 02:00 in New York: a night's rounds after midnight belong to the day it began.
    const late: BoardTour = { ...night, start: '22:00', end: '02:00' };
    const lateWalk = (id: string, roundIso: string) => ({ ...walk(id, roundIso, roundIso), tour: late.id });
    const walks = [
      lateWalk('w1', '2026-11-26T05:00:00Z'), // 00:00 on the 26th: the night of the 25th
      lateWalk('w2', '2026-11-27T03:00:00Z'), // 22:00 on the 26th
      lateWalk('w3', '2026-11-27T05:00:00Z'),
      lateWalk('w4', '2026-11-27T07:00:00Z'),
    ];
    const iso = (board: BoardRound[]) =>
      board.map((r) => [new Date(r.round.startsAt).toISOString(), r.walks.map((w) => w.id)]);
    const dayOf26 = roundsBoard([late], walks, [], {
      zone: ZONE,
      now: at('2026-11-28T15:00:00Z'),
      day: at('2026-11-26T17:00:00Z'),
    });
    expect(iso(dayOf26)).toEqual([
      ['2026-11-27T03:00:00.000Z', ['w2']],
      ['2026-11-27T05:00:00.000Z', ['w3']],
      ['2026-11-27T07:00:00.000Z', ['w4']],
    ]);
    // At 16:00 on the 27th no round of last night is open: the shift is tonight's, nobody has walked it yet.
    const evening = roundsBoard([late], walks, [], { zone: ZONE, now: at('2026-11-27T21:00:00Z') });
    expect(iso(evening)).toEqual([
      ['2026-11-28T03:00:00.000Z', []],
      ['2026-11-28T05:00:00.000Z', []],
      ['2026-11-28T07:00:00.000Z', []],
    ]);
  });

  it('a past day shows that day’s rounds, whatever the time now', () => {
    const board = roundsBoard([night], [], [], {
      zone: ZONE,
      now: at('2026-11-29T15:00:00Z'),
      day: at('2026-11-25T17:00:00Z'),
    });
    expect(board.map((r) => [new Date(r.round.startsAt).toISOString(), r.outcome.status])).toEqual([
      ['2026-11-26T01:00:00.000Z', 'missed'],
      ['2026-11-26T03:00:00.000Z', 'missed'],
    ]);
  });
});

describe("the dashboard's tour figures", () => {
  const round = (status: string, missed: string[] = []) => ({ outcome: { status, missed } });
  it('counts finished rounds only, on time among them, and the checkpoints missed most', () => {
    const names: Record<string, string> = { a: 'Front gate', b: 'Pool gate', c: 'Boat ramp' };
    const figures = tourFigures(
      [
        round('on_time'),
        round('late'),
        round('incomplete', ['c']),
        round('missed', ['a', 'b', 'c']),
        round('due', ['a', 'b', 'c']),
        round('upcoming', ['a', 'b', 'c']),
      ],
      (id) => names[id] ?? id,
    );
    expect([figures.finished, figures.onTime]).toEqual([4, 1]);
    expect(figures.byStatus.map((row) => [row.label, row.count])).toEqual([
      ['On time', 1],
      ['Late', 1],
      ['Incomplete', 1],
      ['Missed', 1],
    ]);
    expect(figures.missedCheckpoints.map((row) => [row.label, row.count])).toEqual([
      ['Boat ramp', 2],
      ['Front gate', 1],
      ['Pool gate', 1],
    ]);
  });
});

describe('boardReach', () => {
  const clock = fc.integer({ min: 0, max: 24 * 60 - 1 }).map(clockText);
  const tour = (id: string): fc.Arbitrary<BoardTour> =>
    fc.record({
      id: fc.constant(id),
      name: fc.constant(id),
      checkpoints: fc.constant(['cpa']),
      start: clock,
      end: clock,
      every_minutes: fc.integer({ min: 15, max: 24 * 60 }),
      round_minutes: fc.integer({ min: 5, max: 12 * 60 }),
      ordered: fc.boolean(),
      active: fc.constant(true),
    });
  const HOUR = 60 * 60 * 1000;
  // Moments of 2025 to 2032, whole minutes (rounds start on them).
  const moment = fc
    .integer({ min: Date.UTC(2025, 0, 1) / 60_000, max: Date.UTC(2032, 11, 1) / 60_000 })
    .map((m) => m * 60_000);

  it('holds every walk a board lists: the board from the walks inside it is the board from all of them', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 3 })
          .chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => tour(`tour${i}`)))),
        fc.constantFrom(...TIME_ZONES),
        moment,
        fc.boolean(),
        fc.array(fc.integer({ min: -96, max: 96 }), { maxLength: 20 }),
        (tours, zone, now, pastDay, offsetsHours) => {
          const options = { zone, now, day: pastDay ? now - 3 * 24 * HOUR : undefined };
          // A walk of every scheduled round from four days before to four days after, and walks of rounds the
          // schedule never had (any hour around): the ones a board lists and many it does not.
          const walks: BoardWalk[] = [];
          for (const t of tours) {
            for (let d = -4; d <= 4; d++) {
              const day = zonedDayStart(zone, options.day ?? now, d);
              for (const round of roundsOfDay(
                { start: t.start, end: t.end, everyMinutes: t.every_minutes, roundMinutes: t.round_minutes },
                zone,
                day,
              ))
                walks.push({
                  ...walk(
                    `w${walks.length}`,
                    new Date(round.startsAt).toISOString(),
                    new Date(round.startsAt).toISOString(),
                  ),
                  tour: t.id,
                });
            }
            for (const hours of offsetsHours) {
              const startsAt = new Date((options.day ?? now) + hours * HOUR + 7 * 60_000).toISOString();
              walks.push({ ...walk(`w${walks.length}`, startsAt, startsAt), tour: t.id });
            }
          }
          const reach = boardReach(tours, options);
          const inside = walks.filter((w) => {
            const at = Date.parse(w.round_start.replace(' ', 'T'));
            return at >= reach.from && at <= reach.to;
          });
          const ids = (board: ReturnType<typeof roundsBoard>) =>
            board.map((r) => [r.tour.id, r.round.startsAt, r.walks.map((w) => w.id)]);
          expect(ids(roundsBoard(tours, inside, [], options))).toEqual(ids(roundsBoard(tours, walks, [], options)));
          // And it reads no more than a few days of rounds, whatever the history.
          expect(reach.to - reach.from).toBeLessThanOrEqual(4 * 24 * HOUR);
        },
      ),
      { numRuns: 300 },
    );
  });
});
