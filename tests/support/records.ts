/**
 * Mirror records for unit tests: a home and a report with every field of
 * spec §3 set to its empty value, so a test names only what it is about.
 */
import type { HouseRecord, ReportRecord } from '../../src/api/records.ts';

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
