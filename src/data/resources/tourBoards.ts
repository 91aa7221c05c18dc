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
import type { MirrorRow, ScmsDatabase } from '../mirror/db.ts';
import { readCallSettings } from './callSettings.ts';
import { BOARD_TABLES } from './tourTables.ts';

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

/** What a board is made of: the community's zone, tours and checkpoints, and the walks of a span of round starts with their scans and officers. */
export interface BoardInputs {
  zone: string;
  /** By name. */
  tours: Tour[];
  checkpoints: Map<string, Checkpoint>;
  /** The walks whose round starts from `from` to `to` (UTC ms, both included), and their scans. */
  walks: TourWalk[];
  scans: CheckpointScan[];
  officers: Map<string, UserRecord>;
  from: number;
  to: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A board's inputs in one read transaction (a transaction per read, and
 * waiting for the zone before reading the rest, were most of the wait):
 * the walks of the round starts `span` gives for the community's tours and
 * zone, and their scans. A shift's or a day's scans are read by walk (a
 * few dozen rows, whatever the history); a period's (`scansBy: 'time'`, a
 * month is thousands of walks) in one read of the time index, to a day
 * past the last round start.
 */
export async function readBoardInputs(
  db: ScmsDatabase,
  community: string,
  span: (tours: readonly Tour[], zone: string) => { from: number; to: number },
  scansBy: 'walk' | 'time' = 'walk',
): Promise<BoardInputs> {
  return db.transaction('r', [...BOARD_TABLES], async () => {
    const [callSettings, tours, checkpoints] = await Promise.all([
      readCallSettings(db, community),
      db.tours.toArray(),
      db.checkpoints.toArray(),
    ]);
    tours.sort(byName);
    const zone = callSettings.settings.timeZone;
    const { from, to } = span(tours, zone);
    const walks = await db.tour_walks
      .where('round_start')
      .between(pbDate(new Date(from)), pbDate(new Date(to)), true, true)
      .toArray();
    const scans =
      scansBy === 'walk'
        ? await scansOfWalks(db, walks)
        : await db.checkpoint_scans
            .where('scanned_at')
            .between(pbDate(new Date(from)), pbDate(new Date(to + DAY_MS)), true, true)
            .toArray();
    const officerIds = [...new Set(walks.map((walk) => walk.officer).concat(scans.map((scan) => scan.officer)))];
    const officers = (await db.users.bulkGet(officerIds)).filter((user): user is MirrorRow<'users'> => !!user);
    return {
      zone,
      tours,
      checkpoints: new Map(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint])),
      walks,
      scans,
      officers: new Map(officers.map((user) => [user.id, user])),
      from,
      to,
    };
  });
}

/** Whether the inputs hold every walk the board at `now` (or of `day`) can list. */
export function inputsCover(inputs: BoardInputs, options: { now: number; day?: number }): boolean {
  const reach = boardReach(inputs.tours, { zone: inputs.zone, ...options });
  return inputs.from <= reach.from && reach.to <= inputs.to;
}

/** The board at `now` (the shift under way, or `day`'s rounds) from inputs that cover it. */
export function boardOf(inputs: BoardInputs, options: { now: number; day?: number }): ToursBoard {
  return {
    zone: inputs.zone,
    rounds: roundsBoard(inputs.tours, inputs.walks, inputs.scans, { zone: inputs.zone, ...options }),
    tours: inputs.tours,
    checkpoints: inputs.checkpoints,
    officers: inputs.officers,
  };
}

/** The rounds of the shift under way at `now` (or of `day`) in the community's time zone, with their walks and officers. */
export async function queryToursBoard(
  db: ScmsDatabase,
  options: { community: string; now: number; day?: number },
): Promise<ToursBoard> {
  const { now, day } = options;
  const inputs = await readBoardInputs(db, options.community, (tours, zone) => boardReach(tours, { zone, now, day }));
  return boardOf(inputs, { now, day });
}

export interface PeriodRounds {
  rounds: Array<BoardRound<Tour, TourWalk>>;
  checkpoints: Map<string, Checkpoint>;
}

/**
 * Every round of the shift days from `from` to `to` (the dashboard's
 * period) in the community's time zone, with how each went: the walks by
 * round start within the period and their scans by time, so the cost
 * follows the period.
 */
export async function queryPeriodRounds(
  db: ScmsDatabase,
  options: { community: string; now: number; from: Date; to: Date },
): Promise<PeriodRounds> {
  const { now, from, to } = options;
  const inputs = await readBoardInputs(
    db,
    options.community,
    () => ({ from: from.getTime() - DAY_MS, to: to.getTime() + 2 * DAY_MS }),
    'time',
  );
  const rounds: Array<BoardRound<Tour, TourWalk>> = [];
  // Each day's noon names that day (local midnight to midnight, as the period's dates are picked).
  for (let day = from.getTime() + DAY_MS / 2; day <= to.getTime(); day += DAY_MS)
    rounds.push(...roundsBoard(inputs.tours, inputs.walks, inputs.scans, { zone: inputs.zone, now, day }));
  return { rounds, checkpoints: inputs.checkpoints };
}
