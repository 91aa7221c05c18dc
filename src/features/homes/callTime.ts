/**
 * How the home card and 'Call history' show the time of a call or an
 * attempt. Written out rather than with date-fns' format, whose pattern
 * parser and locale would weigh on the Homes screen's first load (its JS
 * budget, scripts/bundle-budget.ts) for two fixed patterns.
 */
import { isSameDay } from 'date-fns';
import { parsePbDate } from '../../domain/pbDate.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (n: number) => String(n).padStart(2, '0');

const clockOf = (date: Date) => `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;

/** Times of today read as 10:42 (as the card's 'Answered 10:42'); older ones with their day: 'Nov 20, 10:42'. */
export function callTime(value: string, now: Date = new Date()): string {
  const date = parsePbDate(value);
  if (!date) return '';
  return isSameDay(date, now) ? clockOf(date) : `${MONTHS[date.getMonth()]} ${date.getDate()}, ${clockOf(date)}`;
}

/**
 * The clock alone, 24-hour, on this device's time as every time of the app
 * ('08:00'): for a call's next try, which is always within a day (retries
 * are at most two hours apart, and quiet hours end within a day), so the
 * clock says it without a date even when it is tomorrow morning.
 */
export function clockTime(value: string): string {
  const date = parsePbDate(value);
  return date ? clockOf(date) : '';
}
