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

/** Times of today read as 10:42 (as the card's 'Answered 10:42'); older ones with their day: 'Nov 20, 10:42'. */
export function callTime(value: string, now: Date = new Date()): string {
  const date = parsePbDate(value);
  if (!date) return '';
  const clock = `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
  return isSameDay(date, now) ? clock : `${MONTHS[date.getMonth()]} ${date.getDate()}, ${clock}`;
}
