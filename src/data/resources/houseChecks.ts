/**
 * House checks (docs/product.md#house-checks): logging one (a house_check
 * report and the home's last-checked date in one outbox entry), and today's
 * house checks from the mirror, for the patrol screen.
 * Works offline and follows every device: checks logged elsewhere reach
 * the mirror through realtime (the house's last-checked date and the
 * report together), and the lists redraw.
 *
 * Cheap at 20,000 homes: the homes come from the search index the Homes
 * screen keeps in memory anyway (sorting them into today's list is one
 * pass, no IndexedDB read); who checked each home comes from the day's
 * reports only, read by the incident_time index, and their officers by id.
 */
import { endOfDay, startOfDay } from 'date-fns';
import { useMemo } from 'react';
import type { HouseRecord, UserRecord } from '../../api/records.ts';
import { houseCheckNarrative } from '../../domain/houseCheck.ts';
import { everythingOkOf } from '../../domain/houseCheckAnswer.ts';
import { pbDate } from '../../domain/pbDate.ts';
import { DEFAULT_WEATHER } from '../../domain/reportTypes.ts';
import { latestCheckByHome, todaysHouseChecks, type TodaysHouseChecks } from '../../domain/todaysHouseChecks.ts';
import type { ReportPosition } from '../../domain/whereAndWhen.ts';
import type { SignedInUser } from '../auth.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import type { MirrorRow, OutboxOperation, ScmsDatabase } from '../mirror/db.ts';
import { enqueue } from '../sync/outbox.ts';
import { firstResident, useHouses, type HouseWithPeople } from './homes.ts';
import { reportOperation } from './reports.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';

export interface DayChecks {
  /** Each home's latest house check report of the day. */
  byHome: Map<string, MirrorRow<'reports'>>;
  /** The officers of those reports. */
  officers: Map<string, UserRecord>;
}

/** The house check reports of the day of `day` (by the incident_time index), with their officers. */
export async function queryDayChecks(db: ScmsDatabase, day: Date): Promise<DayChecks> {
  const reports = await db.reports
    .where('incident_time')
    .between(pbDate(startOfDay(day)), pbDate(endOfDay(day)), true, true)
    .toArray();
  const byHome = latestCheckByHome(reports);
  const ids = [...new Set([...byHome.values()].map((report) => report.created_by).filter(Boolean))];
  const users = await db.users.bulkGet(ids);
  return { byHome, officers: new Map(users.filter((u) => u !== undefined).map((u) => [u.id, u])) };
}

export interface TodaysChecksView {
  /** Undefined while the homes load. */
  today: TodaysHouseChecks<HouseWithPeople> | undefined;
  /** Undefined while the day's reports load. */
  checks: DayChecks | undefined;
}

/** Today's due and done homes as of `now` (the screen's clock), with who checked them. */
export function useTodaysHouseChecks(now: Date): TodaysChecksView {
  const { db } = useSyncEngine();
  const homes = useHouses('');
  const day = startOfDay(now).getTime();
  const checks = useMirrorQuery(db, ['reports', 'users'], () => queryDayChecks(db, new Date(day)), [day]);
  const today = useMemo(
    () =>
      homes
        ? todaysHouseChecks(
            homes,
            (home) => home.house,
            now,
            (home) => checks?.byHome.has(home.house.id) === true,
          )
        : undefined,
    [homes, now, checks],
  );
  return { today, checks };
}

/**
 * Logs a house check (docs/product.md#house-checks): a house_check report and the home's
 * last-checked date, sent together so neither lands without the other.
 */
export async function queueHouseCheck(
  db: ScmsDatabase,
  user: SignedInUser,
  house: Pick<HouseRecord, 'id' | 'address'>,
  answer: { everythingOk: boolean; remark?: string; position?: ReportPosition | null },
  now: Date = new Date(),
): Promise<string> {
  const resident = await firstResident(db, house.id);
  const report = reportOperation(
    user,
    {
      type: 'house_check',
      weather: DEFAULT_WEATHER,
      incidentTime: now,
      narative: houseCheckNarrative(answer.everythingOk, answer.remark),
      houseId: house.id,
      residentId: resident?.id ?? '',
      position: answer.position,
    },
    now,
  );
  // The answer itself, beside the narrative (docs/product.md#house-checks): the card, the lists and the figures read this.
  report.body.everything_ok = everythingOkOf(answer.everythingOk);
  const houseUpdate: OutboxOperation = {
    action: 'update',
    collection: 'houses',
    id: house.id,
    body: { house_check_last_date: pbDate(now) },
  };
  await enqueue(db, { userId: user.id, label: `House check: ${house.address}`, ops: [report, houseUpdate] }, now);
  return report.id;
}
