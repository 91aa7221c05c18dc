import { endOfDay, endOfMonth, startOfDay, startOfMonth } from 'date-fns';

export interface DateRange {
  from: Date;
  to: Date;
}

/**
 * The default report range: the whole current month, day 1 00:00 to the
 * last day 23:59:59.999 (docs/product.md#decisions: not the second-to-last day).
 */
export function currentMonthRange(now: Date = new Date()): DateRange {
  return { from: startOfMonth(now), to: endOfMonth(now) };
}

/** A filter range: From at 00:00, To at the end of its day (docs/product.md#the-reports-list). */
export function dayRange(from: Date, to: Date): DateRange {
  return { from: startOfDay(from), to: endOfDay(to) };
}
