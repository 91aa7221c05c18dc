/**
 * The rounds of a shift (or of a past day) with how each stands: the
 * Tours screen's list, and the managers' figures. Built on the schedule
 * and lateness rule of tourRounds.ts from the records as the server keeps
 * them (dates in PocketBase's text), so the phone and anything the server
 * computes read the same rounds the same way.
 *
 * Two officers may walk the same round (each started it on a phone that
 * did not yet know of the other's walk): the round is then walked once,
 * from the first start, with every scan of both, ended when the last walk
 * ended.
 */
import { parsePbDate } from './pbDate.ts';
import { zonedDayStart } from './zonedTime.ts';
import {
  roundOutcome,
  roundsOfDay,
  roundsOfShift,
  type RoundOutcome,
  type RoundWalk,
  type Scan,
  type ScheduledRound,
  type TourSchedule,
} from './tourRounds.ts';

export interface BoardTour {
  id: string;
  name: string;
  checkpoints: readonly string[];
  start: string;
  end: string;
  every_minutes: number;
  round_minutes: number;
  ordered: boolean;
  active: boolean;
  /** When the tour was made (PocketBase's date text): no round closed before it was due. */
  created?: string;
  /** When it last changed: a tour turned off was off from then (as near as the records tell). */
  updated?: string;
}

export interface BoardWalk {
  id: string;
  tour: string;
  officer: string;
  round_start: string;
  started_at: string;
  ended_at: string;
  end_reason: string;
}

export interface BoardScan {
  id: string;
  walk: string;
  checkpoint: string;
  scanned_at: string;
}

export interface BoardRound<T extends BoardTour = BoardTour, W extends BoardWalk = BoardWalk> {
  tour: T;
  round: ScheduledRound;
  /** The walks of this round, first started first. */
  walks: W[];
  outcome: RoundOutcome;
}

export function scheduleOf(tour: BoardTour): TourSchedule {
  return { start: tour.start, end: tour.end, everyMinutes: tour.every_minutes, roundMinutes: tour.round_minutes };
}

const time = (value: string) => parsePbDate(value)?.getTime() ?? null;

/** The walks of one round as one walk (see above); null when nobody walked it. */
export function combinedWalk(walks: readonly BoardWalk[], scans: readonly BoardScan[]): RoundWalk | null {
  const ids = new Set(walks.map((walk) => walk.id));
  return combine(walks, scanTimes(scans.filter((scan) => ids.has(scan.walk))));
}

/** Scans with their moments read (those without a readable one count for nothing). */
function scanTimes(scans: readonly BoardScan[]): Scan[] {
  return scans.flatMap((scan) => {
    const at = time(scan.scanned_at);
    return at === null ? [] : [{ checkpoint: scan.checkpoint, at }];
  });
}

function combine(walks: readonly BoardWalk[], scans: readonly Scan[]): RoundWalk | null {
  const started = walks.map((walk) => time(walk.started_at)).filter((at): at is number => at !== null);
  if (started.length === 0) return null;
  const ends = walks.map((walk) => time(walk.ended_at));
  return {
    startedAt: Math.min(...started),
    endedAt: ends.some((end) => end === null) ? null : Math.max(...(ends as number[])),
    scans,
  };
}

export interface BoardOptions {
  /** The community's time zone. */
  zone: string;
  now: number;
  /** A day to show (any moment of it, UTC ms): its rounds; absent: the shift under way at `now`. */
  day?: number;
}

/**
 * Every round of the active tours for the shift under way (or a past day),
 * in time order, each with its walks and outcome. A tour turned off (from
 * then on), and the rounds that had closed before a tour was made, show
 * only the rounds someone walked; a walk of a round the schedule no longer
 * has (its times changed since) is still listed. Rounds nobody walked are
 * read against the tour as it is now: a changed schedule or checkpoint list
 * changes how its past unwalked rounds read.
 */
export function roundsBoard<T extends BoardTour, W extends BoardWalk>(
  tours: readonly T[],
  walks: readonly W[],
  scans: readonly BoardScan[],
  { zone, now, day }: BoardOptions,
): Array<BoardRound<T, W>> {
  const walksByRound = new Map<string, W[]>();
  for (const walk of walks) {
    const key = `${walk.tour}|${time(walk.round_start)}`;
    const list = walksByRound.get(key) ?? [];
    list.push(walk);
    walksByRound.set(key, list);
  }
  // Each scan's moment read once (a shift's board reads hundreds), grouped by walk.
  const scansByWalk = new Map<string, Scan[]>();
  for (const scan of scans) {
    const at = time(scan.scanned_at);
    if (at === null) continue;
    const list = scansByWalk.get(scan.walk) ?? [];
    list.push({ checkpoint: scan.checkpoint, at });
    scansByWalk.set(scan.walk, list);
  }
  const startedAt = new Map(walks.map((walk) => [walk, time(walk.started_at) ?? 0]));
  const byStart = (list: readonly W[]) => [...list].sort((a, b) => startedAt.get(a)! - startedAt.get(b)!);
  /** A round with its walks (first started first) and how it stands at `now`. */
  const entry = (tour: T, round: ScheduledRound, roundWalks: W[]): BoardRound<T, W> => ({
    tour,
    round,
    walks: roundWalks,
    outcome: roundOutcome(
      round,
      { checkpoints: tour.checkpoints, ordered: tour.ordered },
      combine(
        roundWalks,
        roundWalks.flatMap((w) => scansByWalk.get(w.id) ?? []),
      ),
      now,
    ),
  });
  const board: Array<BoardRound<T, W>> = [];
  for (const tour of tours) {
    for (const round of scheduledRounds(tour, { zone, now, day })) {
      const roundWalks = byStart(walksByRound.get(`${tour.id}|${round.startsAt}`) ?? []);
      // A round that had closed before the tour existed, or one after it was turned off, was never due: listed
      // only if someone walked it. (One still walkable when the tour was made is due: made at 14:05, the 14:00
      // round.) A tour's rounds before it was turned off keep their history: missed stays missed.
      const closes = round.dueBy + (round.dueBy - round.startsAt);
      const before = tour.created ? closes <= (time(tour.created) ?? 0) : false;
      const off = !tour.active && closes > (time(tour.updated ?? '') ?? -Infinity);
      if ((off || before) && roundWalks.length === 0) continue;
      walksByRound.delete(`${tour.id}|${round.startsAt}`);
      board.push(entry(tour, round, roundWalks));
    }
  }
  // Walks of a round the schedule no longer has (the tour's times changed since): still listed, as walked.
  // A walk of a round the schedule still has belongs to that round's shift and day (last night's rounds
  // are not this evening's, nor is a night's round after midnight the next day's).
  const byId = new Map(tours.map((tour) => [tour.id, tour] as const));
  const { from, to } = unscheduledReach({ zone, now, day });
  for (const unsorted of walksByRound.values()) {
    const roundWalks = byStart(unsorted);
    const tour = byId.get(roundWalks[0]!.tour);
    const startsAt = time(roundWalks[0]!.round_start);
    if (!tour || startsAt === null || startsAt < from || startsAt >= to) continue;
    if (isScheduledRound(tour, zone, startsAt)) continue;
    board.push(entry(tour, { startsAt, dueBy: startsAt + tour.round_minutes * MINUTE_MS }, roundWalks));
  }
  return board.sort((a, b) => a.round.startsAt - b.round.startsAt || a.tour.name.localeCompare(b.tour.name));
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Whether the tour's schedule has a round starting at `startsAt` (on its day, or as a night's round after midnight). */
function isScheduledRound(tour: BoardTour, zone: string, startsAt: number): boolean {
  const schedule = scheduleOf(tour);
  return [0, -1].some((days) =>
    roundsOfDay(schedule, zone, zonedDayStart(zone, startsAt, days)).some((round) => round.startsAt === startsAt),
  );
}

/** A tour's scheduled rounds on the board: the shift under way at `now`, or `day`'s. */
function scheduledRounds(tour: BoardTour, { zone, now, day }: BoardOptions): ScheduledRound[] {
  const schedule = scheduleOf(tour);
  return day === undefined ? roundsOfShift(schedule, zone, now) : roundsOfDay(schedule, zone, day);
}

/** Where a walk of a round the schedule no longer has is listed: a day either side of `now`, or `day` (end excluded). */
function unscheduledReach({ zone, now, day }: BoardOptions): { from: number; to: number } {
  if (day === undefined) return { from: now - DAY_MS, to: now + DAY_MS };
  return { from: zonedDayStart(zone, day), to: zonedDayStart(zone, day, 1) };
}

/**
 * The round starts (UTC ms, both ends included) of every walk a board can
 * list: its scheduled rounds and the walks of rounds the schedule no longer
 * has. A reader fetches the walks whose `round_start` is in it, and no more
 * (the phone's mirror and the server read as few as the board needs).
 */
export function boardReach(tours: readonly BoardTour[], options: BoardOptions): { from: number; to: number } {
  let { from, to } = unscheduledReach(options);
  for (const tour of tours) {
    const rounds = scheduledRounds(tour, options);
    if (rounds.length === 0) continue;
    from = Math.min(from, rounds[0]!.startsAt);
    to = Math.max(to, rounds[rounds.length - 1]!.startsAt);
  }
  return { from, to };
}

/**
 * A calendar day ('2026-11-25') as a moment of it, for `day`: its noon in
 * UTC, which is the same date in every zone the app offers (UTC to
 * UTC−10). null when the text is not a real day.
 */
export function dayMoment(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const noon = Date.UTC(year, month - 1, date, 12);
  const back = new Date(noon);
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === date ? noon : null;
}
