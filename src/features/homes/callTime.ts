/**
 * How the home card and 'Call history' show the time of a call or an
 * attempt. Apart from src/ui/format.ts, whose phone formatting would bring
 * libphonenumber into the Homes screen's first load.
 */
import { format, isSameDay } from 'date-fns';
import { parsePbDate } from '../../domain/pbDate.ts';

/** Times of today read as 10:42 (as the card's 'Answered 10:42'); older ones with their day. */
export function callTime(value: string, now: Date = new Date()): string {
  const date = parsePbDate(value);
  if (!date) return '';
  return format(date, isSameDay(date, now) ? 'HH:mm' : 'MMM d, HH:mm');
}
