/**
 * Mirror records for unit tests: a home, a report and a tour with every
 * field of the schema set to its empty value, so a test names only what it
 * is about.
 */
import type { CallSettingsRecord, HouseRecord, ReportRecord, TourRecord } from '../../src/api/records.ts';

export const STAMP = '2026-01-01 00:00:00.000Z';

export function houseRecord(overrides: Partial<HouseRecord> = {}): HouseRecord {
  return {
    id: 'h1',
    created: STAMP,
    updated: STAMP,
    address: '12 Palm Way',
    apt: '',
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    image: '',
    member_number: '',
    security_code: '',
    note: '',
    pending_call_concerns_ids: '',
    house_check: false,
    house_check_start_date: '',
    house_check_end_date: '',
    house_check_last_date: '',
    house_check_note: '',
    community: 'c1',
    ...overrides,
  };
}

/** Quiet hours (UTC) starting `hoursAhead` hours from now's hour, `length` hours long: (12, 1) is never now. */
export function quietHoursFrom(hoursAhead: number, length: number) {
  const at = (h: number) => `${String((new Date().getUTCHours() + h + 24) % 24).padStart(2, '0')}:00`;
  return { quiet_start: at(hoursAhead), quiet_end: at(hoursAhead + length), time_zone: 'UTC' };
}

/** Community c1's call settings as the mirror keeps them; by default quiet hours far from now, whatever hour the test runs. */
export function callSettingsRecord(quiet = quietHoursFrom(12, 1)): CallSettingsRecord {
  return {
    id: 'settings0000001',
    created: STAMP,
    updated: STAMP,
    community: 'c1',
    retries: 2,
    retry_minutes: 5,
    text_fallback: false,
    ...quiet,
  };
}

export function reportRecord(overrides: Partial<ReportRecord> = {}): ReportRecord {
  return {
    id: 'r1',
    created: STAMP,
    updated: STAMP,
    narative: '',
    ai_generated_narative: '',
    type: 'loud_noise',
    weather: 'clear',
    incident_time: STAMP,
    phone_number: '',
    injury: false,
    ems_pbso: false,
    photos: [],
    community: 'c1',
    house: 'h1',
    resident: '',
    created_by: 'u1',
    ...overrides,
  };
}

/** A tour walked every quarter hour all day, half an hour a round (a round has always started in the shift under way). */
export function tourRecord(overrides: Partial<TourRecord> = {}): TourRecord {
  return {
    id: 'tour00000000001',
    created: STAMP,
    updated: STAMP,
    community: 'community000001',
    name: 'Perimeter',
    checkpoints: ['checkpoint00001'],
    start: '00:00',
    end: '23:45',
    every_minutes: 15,
    round_minutes: 30,
    ordered: false,
    active: true,
    created_by: '',
    ...overrides,
  };
}
