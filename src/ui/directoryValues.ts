/**
 * A value of the homes directory as people read it, wherever a screen shows
 * one outside the form (a home's History, a conflict to settle): Yes/No,
 * phone numbers in their national form, states by name, dates as dates,
 * '(none)' for nothing.
 */
import { parsePbDate } from '../domain/pbDate.ts';
import { stateLabel } from '../domain/states.ts';
import { formatDate, formatPhone } from './format.ts';

export const NO_VALUE = '(none)';
const DATE_FIELDS = new Set(['house_check_start_date', 'house_check_end_date']);
const PHONE_TYPE_WORDS: Record<string, string> = { cell: 'Cell', home: 'Home', business: 'Business' };

export function valueWords(field: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value === null || value === undefined || value === '') return NO_VALUE;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (DATE_FIELDS.has(field)) return parsePbDate(text) ? formatDate(text) : text;
  if (field === 'phone_number') return formatPhone(text);
  if (field === 'type') return PHONE_TYPE_WORDS[text] ?? text;
  if (field === 'state') return stateLabel(text);
  return text;
}
