import { endOfDay, isWithinInterval, startOfDay } from 'date-fns';
import { HOUSE_CHECK_ISSUES_NARRATIVE, HOUSE_CHECK_OK_NARRATIVE } from './houseCheckAnswer.ts';
import { parsePbDate } from './pbDate.ts';

export interface HouseCheckFields {
  house_check: boolean;
  house_check_start_date?: string | null;
  house_check_end_date?: string | null;
  house_check_last_date?: string | null;
}

/**
 * A house check (docs/product.md#house-checks) is due when house_check is on, today lies within
 * the start and end dates, and the last check is not already within that
 * window.
 */
export function isHouseCheckDue(house: HouseCheckFields, now: Date = new Date()): boolean {
  if (!house.house_check) return false;
  const start = parsePbDate(house.house_check_start_date);
  const end = parsePbDate(house.house_check_end_date);
  if (!start || !end || end < start) return false;
  const window = { start: startOfDay(start), end: endOfDay(end) };
  if (!isWithinInterval(now, window)) return false;
  const last = parsePbDate(house.house_check_last_date);
  return !(last && isWithinInterval(last, window));
}

/**
 * What counts as a house check done, on every screen that counts them
 * (today's house checks, the daily activity report, the dashboard): a
 * house_check report that names a home. Other report types are not checks,
 * even with the home named. The check is done on the day of its
 * incident_time; a home's last-checked date stands for a check whose report
 * the device does not hold yet (houseCheckTimes).
 */
export function isHouseCheckReport(report: { type: string; house?: string | null }): boolean {
  return report.type === 'house_check' && !!report.house;
}

/** Each home's checks among `reports` (isHouseCheckReport), as moments, by home id. */
export function houseCheckTimes<R extends { type: string; house?: string | null; incident_time: string }>(
  reports: readonly R[],
): Map<string, Date[]> {
  const times = new Map<string, Date[]>();
  for (const report of reports) {
    const at = parsePbDate(report.incident_time);
    if (!isHouseCheckReport(report) || !at) continue;
    const list = times.get(report.house!) ?? [];
    list.push(at);
    times.set(report.house!, list);
  }
  return times;
}

/** The house-check narratives live beside the answer they used to stand for. */
export { HOUSE_CHECK_ISSUES_NARRATIVE, HOUSE_CHECK_OK_NARRATIVE };

/** The narrative of a check: the remark, else the sentence of the answer (the answer itself is the report's everything_ok). */
export function houseCheckNarrative(everythingOk: boolean, remark?: string): string {
  const trimmed = remark?.trim();
  if (trimmed) return trimmed;
  return everythingOk ? HOUSE_CHECK_OK_NARRATIVE : HOUSE_CHECK_ISSUES_NARRATIVE;
}
