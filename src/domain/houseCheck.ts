import { endOfDay, isWithinInterval, startOfDay } from 'date-fns';
import { parsePbDate } from './pbDate.ts';

export interface HouseCheckFields {
  house_check: boolean;
  house_check_start_date?: string | null;
  house_check_end_date?: string | null;
  house_check_last_date?: string | null;
}

/**
 * Spec §4: a house check is due when house_check is on, today lies within
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

/** Spec §7's house-check narrative, with DESIGN.md's spelling corrections. */
export const HOUSE_CHECK_OK_NARRATIVE =
  'House was inspected on the date and time mentioned above and everything is ok.';
export const HOUSE_CHECK_ISSUES_NARRATIVE = 'House was inspected and issues were found';

export function houseCheckNarrative(everythingOk: boolean, remark?: string): string {
  const trimmed = remark?.trim();
  if (trimmed) return trimmed;
  return everythingOk ? HOUSE_CHECK_OK_NARRATIVE : HOUSE_CHECK_ISSUES_NARRATIVE;
}
