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
    // A start the clock skips (02:00-02:59 the night summer time begins) comes the moment the clock jumps
    // (03:00): every skipped start lands on that one moment, before any later start, so none is dropped but
    // those that merge with each other. Summer time begins on the hour and lasts an hour in every zone here.
    if (localMinutes(zone, startsAt) !== wallMinutes % DAY_MINUTES)
      startsAt = zonedWallTime(zone, day, Math.floor(wallMinutes / 60) * 60 + 60);
    const previous = rounds[rounds.length - 1];
    if (previous && startsAt <= previous.startsAt) continue;
    rounds.push({ startsAt, dueBy: startsAt + schedule.roundMinutes * MINUTE });
  }
  return rounds;
}

/**
 * The rounds an officer sees at `utcMs`: those of the shift day under way,
 * which is yesterday's until today's first round starts when last night's
 * rounds run past midnight (at 03:00 the night that began at 20:00), with
 * yesterday's rounds still open ahead of today's (a round may still be
 * walked until its minutes have passed twice: roundOutcome).
 */
export function roundsOfShift(schedule: TourSchedule, zone: string, utcMs: number): ScheduledRound[] {
  const today = roundsOfDay(schedule, zone, utcMs);
  const yesterday = roundsOfDay(schedule, zone, zonedDayStart(zone, utcMs, -1));
  const open = yesterday.filter((r) => utcMs < closesAt(r));
  if (today.length > 0 && utcMs >= today[0]!.startsAt) return [...open, ...today];
  // Before today's first round: yesterday's shift while any of its rounds is open.
  return open.length > 0 ? yesterday : today;
}

/** When a round can no longer be walked: its minutes once more after it was due. */
function closesAt(round: ScheduledRound): number {
  return round.dueBy + (round.dueBy - round.startsAt);
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
  /** Past its due time and not done yet (due or in progress: still walkable, late). */
  overdue: boolean;
  /** When the last checkpoint was scanned, for a round walked in full. */
  finishedAt: number | null;
}

/**
 * How a round stands at `now`, from what had happened by then. A round may
 * be walked until its minutes have passed once more after it was due (it
 * is then late); a walk started later counts for nothing, and one left
 * open then counts as incomplete. A checkpoint counts once, at its first
 * scan; a scan of a checkpoint not on the tour, after the walk ended or
 * after the round closed counts for nothing. So a final status stays as it
 * is as time goes on.
 */
export function roundOutcome(
  round: ScheduledRound,
  tour: { checkpoints: readonly string[]; ordered: boolean },
  walk: RoundWalk | null,
  now: number,
): RoundOutcome {
  const closes = closesAt(round);
  const walked = walk && walk.startedAt <= now && walk.startedAt < closes ? walk : null;
  const ended = walked && walked.endedAt !== null && walked.endedAt <= now ? walked.endedAt : null;
  const listed = new Map(tour.checkpoints.map((id, index) => [id, index] as const));
  const firstScans = new Map<string, number>();
  for (const scan of [...(walked?.scans ?? [])].sort((a, b) => a.at - b.at)) {
    const counts = scan.at <= now && scan.at < closes && (walked!.endedAt === null || scan.at <= walked!.endedAt);
    if (counts && listed.has(scan.checkpoint) && !firstScans.has(scan.checkpoint))
      firstScans.set(scan.checkpoint, scan.at);
  }
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
  const outcome = (status: RoundStatus): RoundOutcome => ({
    status,
    scanned,
    missed,
    outOfOrder,
    overdue: (status === 'due' || status === 'in_progress') && now >= round.dueBy,
    finishedAt,
  });
  if (!walked) {
    if (now < round.startsAt) return outcome('upcoming');
    return now < closes ? outcome('due') : outcome('missed');
  }
  if (finishedAt !== null) return outcome(finishedAt <= round.dueBy ? 'on_time' : 'late');
  return ended !== null || now >= closes ? outcome('incomplete') : outcome('in_progress');
}
