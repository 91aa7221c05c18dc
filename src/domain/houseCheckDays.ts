/**
 * Spec §4's house-check rule applied to each day of a past period (issue 16,
 * the manager's view): how many checks were due on a day and how many of
 * those were done. The rule itself is isHouseCheckDue; here the "last check"
 * is the home's last check before that day, found in its check history.
 */
import { addDays, endOfDay, isSameDay, startOfDay } from 'date-fns';
import { isHouseCheckDue, type HouseCheckFields } from './houseCheck.ts';
import { parsePbDate, pbDate } from './pbDate.ts';

export interface HouseCheckHome extends HouseCheckFields {
  id: string;
}

/**
 * Whether a home's check is due on `day`: house_check is on, the day lies in
 * the home's window, and no check was made in that window before the day
 * (spec §4 as it read at the day's start). A check made on the day itself
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

/** Whether one of the checks was made on `day`. */
export function isCheckedOn(day: Date, checks: readonly Date[]): boolean {
  return checks.some((at) => isSameDay(at, day));
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
 * day as spec §4 saw it. `checks` holds each home's check times (its house
 * check reports; the home's house_check_last_date counts as one too, for a
 * check whose report the device does not hold).
 */
export function houseChecksByDay(
  homes: readonly HouseCheckHome[],
  checks: ReadonlyMap<string, readonly Date[]>,
  from: Date,
  to: Date,
): HouseCheckDay[] {
  const withHistory = homes
    .filter((home) => home.house_check)
    .map((home) => {
      const last = parsePbDate(home.house_check_last_date);
      const times = [...(checks.get(home.id) ?? [])];
      if (last && !times.some((at) => at.getTime() === last.getTime())) times.push(last);
      return { home, times };
    });
  const days: HouseCheckDay[] = [];
  const last = endOfDay(to);
  for (let day = startOfDay(from); day <= last; day = addDays(day, 1)) {
    let due = 0;
    let done = 0;
    for (const { home, times } of withHistory) {
      if (!isHouseCheckDueOn(home, day, times)) continue;
      due++;
      if (isCheckedOn(day, times)) done++;
    }
    days.push({ day, due, done });
  }
  return days;
}
