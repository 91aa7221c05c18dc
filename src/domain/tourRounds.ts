/**
 * Checkpoint tours: when a tour's rounds are due, and how each round went.
 * One pure rule for the phone (the Tours screen, the officer walking a
 * round) and for the server (the manager's figures and reports), so the two
 * never disagree; free of Intl, like the zone table it reads
 * (quietHours.ts), because the server's JS engine has none.
 *
 * A tour's schedule is a clock pattern in the community's time zone: a
 * first round at `start`, one every `everyMinutes`, the last no later than
 * `end` (at or before `start`: the next morning, for a night's patrol).
 * Each round must be walked within `roundMinutes` of its start. The rounds
 * of a night belong to the day the night began (its "shift day").
 */
import { localMinutes, parseClock } from './quietHours.ts';
import { zonedDayStart, zonedWallTime } from './zonedTime.ts';

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

export interface TourSchedule {
  /** The first round's start, 'HH:MM' local. */
  start: string;
  /** The last round starts no later than this, 'HH:MM' local; at or before `start` it is the next day's. */
  end: string;
  /** Minutes from one round's start to the next. */
  everyMinutes: number;
  /** Minutes a round may take from its start. */
  roundMinutes: number;
}

export interface ScheduledRound {
  /** UTC ms the round starts. */
  startsAt: number;
  /** UTC ms by which every checkpoint must be scanned. */
  dueBy: number;
}

/** The limits a schedule is held to (the form's and the server's checks). */
export const SCHEDULE_LIMITS = { minEvery: 15, maxEvery: DAY_MINUTES, minRound: 5, maxRound: 12 * 60 } as const;

/** Minutes from the start to the last possible round start: a schedule whose end is at or before its start runs past midnight. */
function spanMinutes(schedule: TourSchedule): number {
  const start = parseClock(schedule.start);
  const end = parseClock(schedule.end);
  if (start < 0 || end < 0) throw new Error(`Not a clock time: '${schedule.start}' to '${schedule.end}'.`);
  return end > start ? end - start : end + DAY_MINUTES - start;
}

/**
 * The rounds of the shift day holding `utcMs` (its local date in `zone`),
 * in time order. Rounds follow the wall clock: every 2 hours from 20:00 is
 * 20:00, 22:00, 00:00… on any night, summer time or not. Two starts that
 * fall on the same moment (every 30 minutes, the night the clock skips
 * 02:00–03:00) make one round.
 */
export function roundsOfDay(schedule: TourSchedule, zone: string, utcMs: number): ScheduledRound[] {
  const first = parseClock(schedule.start);
  const span = spanMinutes(schedule);
  const every = Math.max(SCHEDULE_LIMITS.minEvery, Math.floor(schedule.everyMinutes));
  const day = zonedDayStart(zone, utcMs);
  const rounds: ScheduledRound[] = [];
  // A schedule of a whole day (end = start) does not start its next day's first round.
  const last = span === DAY_MINUTES ? span - 1 : span;
  for (let offset = 0; offset <= last; offset += every) {
    const wallMinutes = first + offset;
    let startsAt = zonedWallTime(zone, day, wallMinutes);
    // A start the clock skips (02:00 the night summer time begins) comes when the clock has jumped past
    // it, an hour later (03:00): a round is moved, never dropped. Summer time is an hour in every zone here.
    if (localMinutes(zone, startsAt) !== wallMinutes % DAY_MINUTES) startsAt += 60 * MINUTE;
    const previous = rounds[rounds.length - 1];
    if (previous && startsAt <= previous.startsAt) continue;
    rounds.push({ startsAt, dueBy: startsAt + schedule.roundMinutes * MINUTE });
  }
  return rounds;
}

/**
 * The rounds an officer sees at `utcMs`: those of the shift day under way,
 * which is yesterday's until today's first round starts when last night's
 * rounds run past midnight (at 03:00 the night that began at 20:00).
 */
export function roundsOfShift(schedule: TourSchedule, zone: string, utcMs: number): ScheduledRound[] {
  const today = roundsOfDay(schedule, zone, utcMs);
  if (today.length > 0 && utcMs >= today[0]!.startsAt) return today;
  const yesterday = roundsOfDay(schedule, zone, zonedDayStart(zone, utcMs, -1));
  const lastOfYesterday = yesterday[yesterday.length - 1];
  // Yesterday's shift is still the one under way while its last round has not ended.
  return lastOfYesterday && utcMs < lastOfYesterday.dueBy + schedule.roundMinutes * MINUTE ? yesterday : today;
}

export interface Scan {
  checkpoint: string;
  /** UTC ms of the scan (the phone's clock when it was made). */
  at: number;
}

/** An officer's walk of one round: started, perhaps ended, and its scans. */
export interface RoundWalk {
  startedAt: number;
  /** When the officer ended it ('End tour'); null while it is open. */
  endedAt: number | null;
  scans: readonly Scan[];
}

export type RoundStatus = 'upcoming' | 'due' | 'in_progress' | 'on_time' | 'late' | 'incomplete' | 'missed';

/** The statuses a round keeps once reached. */
export const FINAL_STATUSES: readonly RoundStatus[] = ['on_time', 'late', 'incomplete', 'missed'];

export interface RoundOutcome {
  status: RoundStatus;
  /** Checkpoints scanned, in the order of their first scan. */
  scanned: string[];
  /** Checkpoints not scanned: those left when the round ended or was missed, else those still to scan. */
  missed: string[];
  /** In a tour whose order matters: checkpoints scanned after one listed later than them. */
  outOfOrder: string[];
  /** Past its due time and not done (in progress: still walked, late). */
  overdue: boolean;
  /** When the last checkpoint was scanned, for a round walked in full. */
  finishedAt: number | null;
}

/**
 * How a round stands at `now`. A walk left open is given the round's
 * minutes once more after it was due; past that it counts as incomplete.
 * A checkpoint counts once, at its first scan; a scan of a checkpoint not
 * on the tour counts for nothing.
 */
export function roundOutcome(
  round: ScheduledRound,
  tour: { checkpoints: readonly string[]; ordered: boolean },
  walk: RoundWalk | null,
  now: number,
): RoundOutcome {
  const listed = new Map(tour.checkpoints.map((id, index) => [id, index] as const));
  const firstScans = new Map<string, number>();
  for (const scan of [...(walk?.scans ?? [])].sort((a, b) => a.at - b.at))
    if (listed.has(scan.checkpoint) && !firstScans.has(scan.checkpoint)) firstScans.set(scan.checkpoint, scan.at);
  const scanned = [...firstScans.keys()];
  const missed = tour.checkpoints.filter((id) => !firstScans.has(id));
  const outOfOrder: string[] = [];
  if (tour.ordered) {
    let furthest = -1;
    for (const id of scanned) {
      const index = listed.get(id)!;
      if (index < furthest) outOfOrder.push(id);
      else furthest = index;
    }
  }
  const finishedAt = missed.length === 0 && scanned.length > 0 ? Math.max(...firstScans.values()) : null;
  const allowance = round.dueBy - round.startsAt;
  const outcome = (status: RoundStatus, overdue = false): RoundOutcome => ({
    status,
    scanned,
    missed,
    outOfOrder,
    overdue,
    finishedAt,
  });
  if (!walk) {
    if (now < round.startsAt) return outcome('upcoming');
    return now < round.dueBy ? outcome('due') : outcome('missed', true);
  }
  if (finishedAt !== null) return outcome(finishedAt <= round.dueBy ? 'on_time' : 'late', finishedAt > round.dueBy);
  if (walk.endedAt !== null || now >= round.dueBy + allowance) return outcome('incomplete', true);
  return outcome('in_progress', now >= round.dueBy);
}
