/**
 * How the report screens show times, people, places and phones. Pure
 * functions of their inputs (and an explicit `now`), so the rules are tested
 * without a clock.
 */
import { differenceInMilliseconds, format, formatDistance } from 'date-fns';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { HouseRecord, ResidentRecord, UserRecord } from '../api/records.ts';
import { streetLine } from '../domain/address.ts';
import { parsePbDate } from '../domain/pbDate.ts';

import { DATE_TIME, NOT_AVAILABLE, TIME } from './dateTime.ts';

export { DATE, DATE_TIME, formatDate, formatDateTime, formatTime, NOT_AVAILABLE, TIME } from './dateTime.ts';
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/** For files (CSV): sorts as text and every spreadsheet reads it as a date. */
export const SORTABLE_DATE_TIME = `yyyy-MM-dd ${TIME}`;

/**
 * The seven-day rule (docs/product.md#decisions): within the last seven days a time reads
 * relative ("3 days ago"), older ones as a date and time.
 */
export function formatCreated(value: string | Date | null | undefined, now: Date): string {
  const date = value instanceof Date ? value : parsePbDate(value);
  if (!date) return NOT_AVAILABLE;
  // The list's clock ticks once a minute and the server's may run ahead: never "in a minute".
  const reference = date > now ? date : now;
  if (differenceInMilliseconds(reference, date) < SEVEN_DAYS_MS)
    return formatDistance(date, reference, { addSuffix: true });
  return format(date, DATE_TIME);
}

export function personName(person: Pick<UserRecord | ResidentRecord, 'first_name' | 'last_name'> | undefined): string {
  const name = [person?.first_name, person?.last_name].filter(Boolean).join(' ').trim();
  return name || NOT_AVAILABLE;
}

export function formatAddress(house: Pick<HouseRecord, 'address' | 'apt'> | undefined): string {
  if (!house?.address) return NOT_AVAILABLE;
  return streetLine(house);
}

/** E.164 as people read it: national form for US numbers, international otherwise. */
export function formatPhone(value: string | undefined): string {
  if (!value) return NOT_AVAILABLE;
  const phone = parsePhoneNumberFromString(value);
  if (!phone) return value;
  return phone.country === 'US' ? phone.formatNational() : phone.formatInternational();
}

export const yesNo = (value: boolean | undefined) => (value ? 'Yes' : 'No');

export function weatherLabel(value: string): string {
  return value ? value[0]!.toUpperCase() + value.slice(1) : NOT_AVAILABLE;
}
