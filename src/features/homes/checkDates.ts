/**
 * The house-check window's date rules (docs/product.md#the-home-form) as pure functions:
 * which days the start and end pickers refuse, and the times the window is
 * saved with.
 */
import { addDays, endOfDay, isBefore, startOfDay } from 'date-fns';
import { pbDate } from '../../domain/pbDate.ts';

/** Start dates earlier than the day after today are disabled. */
export function isStartDayDisabled(day: Date, today: Date): boolean {
  return isBefore(startOfDay(day), addDays(startOfDay(today), 1));
}

/** End dates before the day after the start date are disabled (all of them while there is no start). */
export function isEndDayDisabled(day: Date, start: Date | null): boolean {
  if (!start) return true;
  return isBefore(startOfDay(day), addDays(startOfDay(start), 1));
}

/** The window is saved from 00:00:00 of the start day to 23:59:59.999 of the end day. */
export function checkStartValue(date: Date | null): string {
  return date ? pbDate(startOfDay(date)) : '';
}

export function checkEndValue(date: Date | null): string {
  return date ? pbDate(endOfDay(date)) : '';
}
