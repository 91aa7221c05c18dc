/**
 * The house-check due rule applied to each day of a past period (for
 * the manager's view): how many checks were due on a day and how many of
 * those were done. The rule itself is isHouseCheckDue; here the "last check"
 * is the home's last check before that day, found in its check history.
 */
import { addDays, endOfDay, startOfDay } from 'date-fns';
import { isHouseCheckDue, type HouseCheckFields } from './houseCheck.ts';
import { parsePbDate, pbDate } from './pbDate.ts';

export interface HouseCheckHome extends HouseCheckFields {
  id: string;
}

/**
 * Whether a home's check is due on `day`: house_check is on, the day lies in
 * the home's window, and no check was made in that window before the day
 * (the due rule as it read at the day's start). A check made on the day itself
 * leaves the day due: that check is what did it.
 *
 * The home's window is the one it holds now; the mirror keeps no earlier
 * windows, so a day of an older window counts as not due.
 */
export function isHouseCheckDueOn(home: HouseCheckFields, day: Date, checks: readonly Date[]): boolean {
  const dayStart = startOfDay(day);
  let lastBefore: Date | null = null;
  for (const at of checks) if (at < dayStart && (!lastBefore || at > lastBefore)) lastBefore = at;
  return isHouseCheckDue({ ...home, house_check_last_date: lastBefore ? pbDate(lastBefore) : '' }, dayStart);
}

export interface HouseCheckDay {
  /** 00:00 of the day. */
  day: Date;
  /** Homes whose check was due that day. */
  due: number;
  /** Of those, the homes checked that day. */
  done: number;
}

/**
 * Due and done per day from `from` to `to` (both taken as whole days), each
 * day as the due rule saw it (isHouseCheckDueOn, worked out once per home rather
 * than per home and day: a dashboard month has thousands of homes under a
 * window). `checks` holds each home's check times (its house check reports;
 * the home's house_check_last_date counts as one too, for a check whose
 * report the device does not hold).
 *
 * Per home: the window runs from the start day's 00:00 to the end day's
 * 23:59:59.999, and the first check made in it ends what is due. A day is
 * due when its 00:00 lies in the window and that first check is not before
 * it; it is done when the first check falls on that day.
 */
export function houseChecksByDay(
  homes: readonly HouseCheckHome[],
  checks: ReadonlyMap<string, readonly Date[]>,
  from: Date,
  to: Date,
): HouseCheckDay[] {
  const windows: Array<{ start: number; end: number; firstCheck: number }> = [];
  for (const home of homes) {
    if (!home.house_check) continue;
    const start = parsePbDate(home.house_check_start_date);
    const end = parsePbDate(home.house_check_end_date);
    if (!start || !end || end < start) continue;
    const window = { start: startOfDay(start).getTime(), end: endOfDay(end).getTime(), firstCheck: Infinity };
    const consider = (at: number) => {
      if (at >= window.start && at < window.firstCheck) window.firstCheck = at;
    };
    for (const at of checks.get(home.id) ?? []) consider(at.getTime());
    const last = parsePbDate(home.house_check_last_date);
    if (last) consider(last.getTime());
    windows.push(window);
  }
  const days: HouseCheckDay[] = [];
  const lastDay = endOfDay(to);
  for (let day = startOfDay(from); day <= lastDay; day = addDays(day, 1)) {
    const [dayStart, dayEnd] = [day.getTime(), endOfDay(day).getTime()];
    let due = 0;
    let done = 0;
    for (const window of windows) {
      if (dayStart < window.start || dayStart > window.end || window.firstCheck < dayStart) continue;
      due++;
      if (window.firstCheck <= dayEnd) done++;
    }
    days.push({ day, due, done });
  }
  return days;
}
