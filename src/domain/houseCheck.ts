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

/** Spec §7's house-check narratives live beside the answer they used to stand for. */
export { HOUSE_CHECK_ISSUES_NARRATIVE, HOUSE_CHECK_OK_NARRATIVE };

/** Spec §7's narrative of a check: the remark, else the sentence of the answer (the answer itself is the report's everything_ok). */
export function houseCheckNarrative(everythingOk: boolean, remark?: string): string {
  const trimmed = remark?.trim();
  if (trimmed) return trimmed;
  return everythingOk ? HOUSE_CHECK_OK_NARRATIVE : HOUSE_CHECK_ISSUES_NARRATIVE;
}
