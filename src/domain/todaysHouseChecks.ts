/**
 * Today's house checks: the homes an officer on shift has to
 * check today, and how many of them are done.
 *
 * "Today's" homes are exactly:
 * - due: the due rule (isHouseCheckDue): house_check on, today within the
 *   home's window, and no check yet within that window;
 * - done: house_check on, today within the home's window, and a check
 *   made today: its last-checked date, or a house check report of today
 *   (isHouseCheckReport: the dashboard and the daily activity report count
 *   the same checks). Checking a due home moves it from the first group to
 *   the second, so the total stays the same through the day.
 * A home checked on an earlier day of its window is neither (docs/product.md#house-checks: one
 * check per window), nor is a home whose window does not hold today.
 * "Today" and the window's days are the device's local days, as on the
 * Homes screen.
 */
import { endOfDay, isSameDay, isWithinInterval, startOfDay } from 'date-fns';
import { isHouseCheckDue, isHouseCheckReport, type HouseCheckFields } from './houseCheck.ts';
import { parsePbDate } from './pbDate.ts';

export type TodaysCheckState = 'due' | 'done';

/**
 * A home's place in today's list, or null when it is not one of today's.
 * `reportedToday`: a house check report of today names the home (its
 * last-checked date may not say so yet, as for a report made on the report
 * form).
 */
export function todaysCheckState(
  home: HouseCheckFields,
  now: Date = new Date(),
  reportedToday = false,
): TodaysCheckState | null {
  if (!home.house_check) return null;
  const start = parsePbDate(home.house_check_start_date);
  const end = parsePbDate(home.house_check_end_date);
  if (!start || !end || end < start) return null;
  if (!isWithinInterval(now, { start: startOfDay(start), end: endOfDay(end) })) return null;
  const last = parsePbDate(home.house_check_last_date);
  // Today lies in the window, so a check made today lies in it too.
  if (reportedToday || (last && isSameDay(last, now))) return 'done';
  return isHouseCheckDue(home, now) ? 'due' : null;
}

export interface TodaysHouseChecks<T> {
  /** Still to check, in the order given (the Homes list's address order). */
  due: T[];
  /** Checked today, in the order given. */
  done: T[];
  /** due + done: the homes of today. */
  total: number;
}

/**
 * Today's homes out of all of them; `fields` picks a home's house-check
 * fields (a record, or a home with its people), `reportedToday` says whether
 * a house check report of today names it (latestCheckByHome of the day's
 * reports).
 */
export function todaysHouseChecks<T>(
  homes: readonly T[],
  fields: (home: T) => HouseCheckFields,
  now: Date = new Date(),
  reportedToday: (home: T) => boolean = () => false,
): TodaysHouseChecks<T> {
  const due: T[] = [];
  const done: T[] = [];
  for (const home of homes) {
    const state = todaysCheckState(fields(home), now, reportedToday(home));
    if (state === 'due') due.push(home);
    else if (state === 'done') done.push(home);
  }
  return { due, done, total: due.length + done.length };
}

/** The progress line: '7 of 12 checked'. */
export function checkProgress({ done, total }: { done: readonly unknown[]; total: number }): string {
  return `${done.length} of ${total} checked`;
}

export interface CheckReport {
  house: string;
  type: string;
  incident_time: string;
  created_by: string;
}

/**
 * Each home's latest house check report among `reports` (the day's reports):
 * who checked it and when, for the done list. Other report types are not
 * checks, even with the home named.
 */
export function latestCheckByHome<R extends CheckReport>(reports: readonly R[]): Map<string, R> {
  const latest = new Map<string, R>();
  for (const report of reports) {
    if (!isHouseCheckReport(report)) continue;
    const seen = latest.get(report.house);
    if (!seen || report.incident_time > seen.incident_time) latest.set(report.house, report);
  }
  return latest;
}
