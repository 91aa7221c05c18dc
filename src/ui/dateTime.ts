/**
 * The app's date and time, 24-hour as officers type incident times. Apart
 * from format.ts (which also formats phone numbers, with their metadata),
 * so what every screen loads (the sync panel) stays small.
 */
import { format } from 'date-fns';
import { parsePbDate } from '../domain/pbDate.ts';

export const NOT_AVAILABLE = 'N/A';
export const DATE_TIME = 'MMM d, yyyy HH:mm';

export function formatDateTime(value: string | Date | null | undefined, pattern: string = DATE_TIME): string {
  const date = value instanceof Date ? value : parsePbDate(value);
  return date ? format(date, pattern) : NOT_AVAILABLE;
}
