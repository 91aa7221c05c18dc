/**
 * The rounds of tours as the screens read them from the mirror: the shift
 * under way or a day (the Tours screen, the daily activity report) and a
 * period (the dashboard), each round with its walks and how it went
 * (src/domain/tourBoard.ts). Reads only: the writes are tours.ts's, so the
 * report and dashboard screens do not carry the outbox's side of tours.
 */
import type { UserRecord } from '../../api/records.ts';
import { pbDate } from '../../domain/pbDate.ts';
import { roundsBoard, type BoardRound } from '../../domain/tourBoard.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import type { MirrorRow, ScmsDatabase } from '../mirror/db.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';

export type Checkpoint = MirrorRow<'checkpoints'>;
export type Tour = MirrorRow<'tours'>;
export type TourWalk = MirrorRow<'tour_walks'>;
export type CheckpointScan = MirrorRow<'checkpoint_scans'>;

/**
 * The scans of a few walks: one keyed read per walk, all at once. `anyOf`
 * walks a cursor over the index, a main-thread turn per step, and grew with
 * the history (about 0.9 s with 25,000 scans in the mirror, against 25–50 ms
 * this way; the Homes screen's top learnt the same, resources/homes.ts).
 */
export async function scansOfWalks(db: ScmsDatabase, walks: ReadonlyArray<{ id: string }>): Promise<CheckpointScan[]> {
  const lists = await Promise.all(walks.map((walk) => db.checkpoint_scans.where('walk').equals(walk.id).toArray()));
  return lists.flat();
}

export interface ToursBoard {
  rounds: Array<BoardRound<Tour, TourWalk>>;
  checkpoints: Map<string, Checkpoint>;
  scans: CheckpointScan[];
  officers: Map<string, UserRecord>;
}

/** A day of rounds ends at most 36 hours after it began (a night past midnight, its late minutes): walks older than that are not its. */
const BOARD_REACH_MS = 48 * 60 * 60 * 1000;

/**
 * The rounds of the shift under way at `now` (or of `day`), with their
 * walks, scans and officers. Reads the walks by round start near that
 * time, and their scans by walk: a few dozen rows, whatever the history.
 */
export async function queryToursBoard(
  db: ScmsDatabase,
  options: { zone: string; now: number; day?: number },
): Promise<ToursBoard> {
  const centre = options.day ?? options.now;
  const [tours, checkpoints, walks] = await Promise.all([
    db.tours.toArray(),
    db.checkpoints.toArray(),
    db.tour_walks
      .where('round_start')
      .between(pbDate(new Date(centre - BOARD_REACH_MS)), pbDate(new Date(centre + BOARD_REACH_MS)), true, true)
      .toArray(),
  ]);
  const scans = await scansOfWalks(db, walks);
  const officerIds = [...new Set(walks.map((walk) => walk.officer).concat(scans.map((scan) => scan.officer)))];
  const officers = (await db.users.bulkGet(officerIds)).filter((user): user is MirrorRow<'users'> => !!user);
  return {
    rounds: roundsBoard(tours, walks, scans, options),
    checkpoints: new Map(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint])),
    scans,
    officers: new Map(officers.map((user) => [user.id, user])),
  };
}

/** The board, redrawn whenever a tour, checkpoint, walk or scan changes (this phone's or, through sync, anyone's). */
export function useToursBoard(options: { zone: string; now: number; day?: number }): ToursBoard | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['tours', 'checkpoints', 'tour_walks', 'checkpoint_scans', 'users'],
    () => queryToursBoard(db, options),
    [options.zone, options.now, options.day],
  );
}

export interface PeriodRounds {
  rounds: Array<BoardRound<Tour, TourWalk>>;
  checkpoints: Map<string, Checkpoint>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Every round of the shift days from `from` to `to` (the dashboard's
 * period), with how each went: the walks by round start within the period
 * and their scans by walk, so the cost follows the period.
 */
export async function queryPeriodRounds(
  db: ScmsDatabase,
  options: { zone: string; now: number; from: Date; to: Date },
): Promise<PeriodRounds> {
  const { zone, now, from, to } = options;
  const [tours, checkpoints, walks] = await Promise.all([
    db.tours.toArray(),
    db.checkpoints.toArray(),
    db.tour_walks
      .where('round_start')
      .between(pbDate(new Date(from.getTime() - DAY_MS)), pbDate(new Date(to.getTime() + 2 * DAY_MS)), true, true)
      .toArray(),
  ]);
  // A period's scans by time (a month is thousands of walks: one read of the index, not one per walk).
  const scans = await db.checkpoint_scans
    .where('scanned_at')
    .between(pbDate(new Date(from.getTime() - DAY_MS)), pbDate(new Date(to.getTime() + 3 * DAY_MS)), true, true)
    .toArray();
  const rounds: Array<BoardRound<Tour, TourWalk>> = [];
  // Each day's noon names that day (local midnight to midnight, as the period's dates are picked).
  for (let day = from.getTime() + DAY_MS / 2; day <= to.getTime(); day += DAY_MS)
    rounds.push(...roundsBoard(tours, walks, scans, { zone, now, day }));
  return { rounds, checkpoints: new Map(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint])) };
}
