/**
 * What the daily activity report and the manager's view read:
 * the reports and calls of a period (and a day's tour rounds), straight from the mirror's indexes
 * (reports by incident_time, calls by created), so their cost follows the
 * period, never the community (tens of thousands of reports at 20,000
 * homes), and they work offline for every range the mirror holds.
 */
import type { CommunityRecord, ConcernRecord, HouseRecord, ResidentRecord, UserRecord } from '../../api/records.ts';
import { communityCountry } from '../../domain/paper.ts';
import { pbDate } from '../../domain/pbDate.ts';
import { useSignedInStaff } from '../auth.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import type { MirrorRow, ScmsDatabase } from '../mirror/db.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';
import type { PeriodRounds, ToursBoard } from './tourBoards.ts';
import { BOARD_TABLES } from './tourTables.ts';

/** The tours' reads, loaded when a report or the dashboard first asks: they are not the Homes screen's. */
const tourBoards = () => import('./tourBoards.ts');

/**
 * A call as the mirror holds it. The job's fields (progress,
 * outcome, acknowledged) are optional: calls placed before them have none,
 * and readers check their values rather than trust them.
 */
export type CallRow = MirrorRow<'calls'>;

export interface PeriodRecords {
  /** Reports whose incident time lies in the period, oldest first. */
  reports: MirrorRow<'reports'>[];
  /** Calls placed in the period, oldest first. */
  calls: CallRow[];
}

/** Reports (by incident time) and calls (by creation) of [from, to], both ends included. */
export async function queryPeriodRecords(db: ScmsDatabase, from: Date, to: Date): Promise<PeriodRecords> {
  const [low, high] = [pbDate(from), pbDate(to)];
  const [reports, calls] = await Promise.all([
    db.reports.where('incident_time').between(low, high, true, true).toArray(),
    db.calls.where('created').between(low, high, true, true).toArray(),
  ]);
  return { reports, calls };
}

export interface DayRecords extends PeriodRecords {
  community?: CommunityRecord;
  /** The homes, residents and concerns those records name (only those). */
  houses: Map<string, HouseRecord>;
  residents: Map<string, ResidentRecord>;
  concerns: Map<string, ConcernRecord>;
  /** The community's staff (a few dozen at most): the officer choice and the names. */
  staff: UserRecord[];
  /** The community's country (ISO code) as its records tell it (src/domain/paper.ts); undefined when they do not. */
  country?: string;
  /** The day's tour rounds and how each went (src/domain/tourBoard.ts), with the names of their checkpoints; none when absent. */
  rounds?: ToursBoard['rounds'];
  checkpointNames?: Map<string, string>;
  /** The alerts raised in the period, each with its steps (oldest first); none when absent. */
  alerts?: Array<{ alert: MirrorRow<'alerts'>; steps: Array<MirrorRow<'alert_events'>> }>;
}

/** The alerts raised from `from` to `to` with their steps: alerts are few (a table read whole), steps by alert. */
async function alertsOf(db: ScmsDatabase, from: Date, to: Date): Promise<NonNullable<DayRecords['alerts']>> {
  const [since, until] = [pbDate(from), pbDate(to)];
  const alerts = (await db.alerts.toArray()).filter((alert) => alert.raised_at >= since && alert.raised_at <= until);
  alerts.sort((a, b) => a.raised_at.localeCompare(b.raised_at));
  const steps = await Promise.all(alerts.map((alert) => db.alert_events.where('alert').equals(alert.id).toArray()));
  return alerts.map((alert, i) => ({ alert, steps: steps[i]!.sort((a, b) => a.at.localeCompare(b.at)) }));
}

const present = <T>(rows: readonly (T | undefined)[]): T[] => rows.filter((row): row is T => row !== undefined);

/** The period's records with everything the daily activity report names. */
export async function queryDayRecords(
  db: ScmsDatabase,
  communityId: string,
  from: Date,
  to: Date,
): Promise<DayRecords> {
  const period = await queryPeriodRecords(db, from, to);
  const houseIds = new Set<string>();
  const residentIds = new Set<string>();
  const concernIds = new Set<string>();
  for (const report of period.reports) {
    if (report.house) houseIds.add(report.house);
    if (report.resident) residentIds.add(report.resident);
  }
  for (const call of period.calls) {
    if (call.house) houseIds.add(call.house);
    for (const id of call.concerns ?? []) concernIds.add(id);
  }
  // The rounds of the day that began at `from` (its noon is that day wherever the community is).
  const [community, houses, residents, concerns, staff, tours, alerts] = await Promise.all([
    db.communities.get(communityId),
    db.houses.bulkGet([...houseIds]),
    db.residents.bulkGet([...residentIds]),
    db.concerns.bulkGet([...concernIds]),
    db.users.toArray(),
    tourBoards().then(({ queryToursBoard }) =>
      queryToursBoard(db, { community: communityId, now: Date.now(), day: from.getTime() + 12 * 60 * 60 * 1000 }),
    ),
    alertsOf(db, from, to),
  ]);
  const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
  return {
    ...period,
    community,
    country: await countryOf(db, community),
    houses: byId(present(houses)),
    residents: byId(present(residents)),
    concerns: byId(present(concerns)),
    staff,
    rounds: tours.rounds,
    checkpointNames: new Map([...tours.checkpoints].map(([id, checkpoint]) => [id, checkpoint.name])),
    alerts,
  };
}

/** The community's country: its address, else a home's State, else its phones' country (a few rows, read only when needed). */
async function countryOf(db: ScmsDatabase, community: CommunityRecord | undefined): Promise<string | undefined> {
  const byAddress = communityCountry({ address: community?.address });
  if (byAddress) return byAddress;
  const [homes, phones] = await Promise.all([db.houses.limit(1).toArray(), db.phones.limit(20).toArray()]);
  return communityCountry({
    homeStates: homes.map((home) => home.state),
    phoneNumbers: phones.map((phone) => phone.phone_number),
  });
}

/** The day's records, live (a report logged or a call placed on any device shows at once); undefined while loading. */
export function useDayRecords(from: Date, to: Date): DayRecords | undefined {
  const { db } = useSyncEngine();
  const community = useSignedInStaff()?.community ?? '';
  const [fromMs, toMs] = [from.getTime(), to.getTime()];
  return useMirrorQuery(
    db,
    [
      'reports',
      'calls',
      'houses',
      'residents',
      'concerns',
      'users',
      'communities',
      'call_settings',
      'tours',
      'checkpoints',
      'tour_walks',
      'checkpoint_scans',
      'alerts',
      'alert_events',
    ],
    () => queryDayRecords(db, community, new Date(fromMs), new Date(toMs)),
    [community, fromMs, toMs],
  );
}

/** The period's reports and calls, live; undefined while loading. */
export function usePeriodRecords(from: Date, to: Date): PeriodRecords | undefined {
  const { db } = useSyncEngine();
  const [fromMs, toMs] = [from.getTime(), to.getTime()];
  return useMirrorQuery(db, ['reports', 'calls'], () => queryPeriodRecords(db, new Date(fromMs), new Date(toMs)), [
    fromMs,
    toMs,
  ]);
}

/**
 * The house-check reports from `from` to `to`: the manager's view reads the
 * checks made in the homes' windows before its period this way (the due rule's
 * "not already checked in the window"). Empty when from is after to.
 */
export function useHouseCheckReports(from: Date, to: Date): MirrorRow<'reports'>[] | undefined {
  const { db } = useSyncEngine();
  const [fromMs, toMs] = [from.getTime(), to.getTime()];
  return useMirrorQuery(
    db,
    ['reports'],
    async () =>
      fromMs > toMs
        ? []
        : (
            await db.reports
              .where('incident_time')
              .between(pbDate(new Date(fromMs)), pbDate(new Date(toMs)), true, true)
              .toArray()
          ).filter((report) => report.type === 'house_check'),
    [fromMs, toMs],
  );
}

/** The rounds of the period's days with how each went (the dashboard's tour figures), live; undefined while loading. */
export function usePeriodRounds(community: string, now: number, from: Date, to: Date): PeriodRounds | undefined {
  const { db } = useSyncEngine();
  const [fromMs, toMs] = [from.getTime(), to.getTime()];
  return useMirrorQuery(
    db,
    BOARD_TABLES,
    async () =>
      (await tourBoards()).queryPeriodRounds(db, { community, now, from: new Date(fromMs), to: new Date(toMs) }),
    [community, now, fromMs, toMs],
  );
}
