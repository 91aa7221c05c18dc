/**
 * The app's one way of writing dates and times: 24-hour, as officers type
 * incident times ('Nov 24, 2026 22:15'), on screen, on paper, in the PDF
 * and on the phone's sheets alike; files (CSV) use format.ts's sortable
 * form. Apart from format.ts (which also formats phone numbers, with their
 * metadata), so what every screen loads (the sync panel) stays small.
 */
import { format } from 'date-fns';
import { parsePbDate } from '../domain/pbDate.ts';

export const NOT_AVAILABLE = 'N/A';
export const DATE = 'MMM d, yyyy';
/** 24-hour, never 12-hour with AM/PM. */
export const TIME = 'HH:mm';
export const DATE_TIME = `${DATE} ${TIME}`;

export function formatDateTime(value: string | Date | null | undefined, pattern: string = DATE_TIME): string {
  const date = value instanceof Date ? value : parsePbDate(value);
  return date ? format(date, pattern) : NOT_AVAILABLE;
}

/** The time alone ('22:15'), for a day already said. */
export const formatTime = (value: string | Date | null | undefined) => formatDateTime(value, TIME);

/** The day alone ('Nov 24, 2026'). */
export const formatDate = (value: string | Date | null | undefined) => formatDateTime(value, DATE);
