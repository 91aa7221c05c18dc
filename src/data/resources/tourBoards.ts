/**
 * The rounds of tours as the screens read them from the mirror: the shift
 * under way or a day (the Tours screen, the daily activity report) and a
 * period (the dashboard), each round with its walks and how it went
 * (src/domain/tourBoard.ts). Reads only: the writes are tours.ts's, so the
 * report and dashboard screens do not carry the outbox's side of tours.
 */
import type { UserRecord } from '../../api/records.ts';
import { pbDate } from '../../domain/pbDate.ts';
import { boardReach, roundsBoard, type BoardRound } from '../../domain/tourBoard.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import { readCallSettings } from './callSettings.ts';
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
  /** The community's time zone the rounds were read in. */
  zone: string;
  rounds: Array<BoardRound<Tour, TourWalk>>;
  /** Every tour of the community, on or off, by name. */
  tours: Tour[];
  checkpoints: Map<string, Checkpoint>;
  officers: Map<string, UserRecord>;
}

/** Tours and checkpoints are listed by name. */
export const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * The rounds of the shift under way at `now` (or of `day`) in the
 * community's time zone, with their walks, scans and officers, in one read
 * transaction (a transaction per read, and waiting for the zone before
 * reading the rest, were most of the wait). Reads the walks of the rounds
 * the board can list (boardReach) and their scans by walk: a few dozen
 * rows, whatever the history.
 */
export async function queryToursBoard(
  db: ScmsDatabase,
  options: { community: string; now: number; day?: number },
): Promise<ToursBoard> {
  const tables = [db.call_settings, db.tours, db.checkpoints, db.tour_walks, db.checkpoint_scans, db.users];
  return db.transaction('r', tables, async () => {
    const [callSettings, tours, checkpoints] = await Promise.all([
      readCallSettings(db, options.community),
      db.tours.toArray(),
      db.checkpoints.toArray(),
    ]);
    tours.sort(byName);
    const boardOptions = { zone: callSettings.settings.timeZone, now: options.now, day: options.day };
    const reach = boardReach(tours, boardOptions);
    const walks = await db.tour_walks
      .where('round_start')
      .between(pbDate(new Date(reach.from)), pbDate(new Date(reach.to)), true, true)
      .toArray();
    const scans = await scansOfWalks(db, walks);
    const officerIds = [...new Set(walks.map((walk) => walk.officer).concat(scans.map((scan) => scan.officer)))];
    const officers = (await db.users.bulkGet(officerIds)).filter((user): user is MirrorRow<'users'> => !!user);
    return {
      zone: boardOptions.zone,
      rounds: roundsBoard(tours, walks, scans, boardOptions),
      tours,
      checkpoints: new Map(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint])),
      officers: new Map(officers.map((user) => [user.id, user])),
    };
  });
}

/** The board, redrawn whenever the zone, a tour, checkpoint, walk or scan changes (this phone's or, through sync, anyone's). */
export function useToursBoard(options: { community: string; now: number; day?: number }): ToursBoard | undefined {
  const { db } = useSyncEngine();
  const { community, now, day } = options;
  return useMirrorQuery(
    db,
    ['call_settings', 'tours', 'checkpoints', 'tour_walks', 'checkpoint_scans', 'users'],
    () => queryToursBoard(db, { community, now, day }),
    [community, now, day],
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
