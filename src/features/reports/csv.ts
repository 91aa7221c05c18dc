/**
 * CSV export of the filtered report list (RFC 4180: comma separated, CRLF
 * rows, fields with a comma, quote or line break quoted, quotes doubled).
 */
import type { ReportWithLinks } from '../../data/resources/reports.ts';
import { everythingOkWord } from '../../domain/houseCheckAnswer.ts';
import { reportTypeLabel } from '../../domain/reportTypes.ts';
import {
  formatAddress,
  formatDateTime,
  NOT_AVAILABLE,
  personName,
  SORTABLE_DATE_TIME,
  weatherLabel,
  yesNo,
} from '../../ui/format.ts';
import { csvRow } from '../../ui/csv.ts';
import { stripParagraph } from './narrative.ts';

export const CSV_COLUMNS = [
  'Incident time',
  'Type',
  // A house check's answer to 'Is everything ok?' (Yes, No, Not recorded); empty for other reports.
  'Everything ok',
  'Weather',
  'Address',
  'Resident',
  'Phone',
  'Member number',
  'Injury',
  'EMS/PBSO',
  'Officer',
  'Narrative',
  'AI narrative',
  'Created',
  // When it was made on the device (Created is when the server received it) and where.
  'Logged on device',
  'Latitude',
  'Longitude',
  'Accuracy (m)',
] as const;

const orEmpty = (value: string) => (value === NOT_AVAILABLE ? '' : value);

export function reportRow({ report, house, resident, officer }: ReportWithLinks): string[] {
  return [
    orEmpty(formatDateTime(report.incident_time, SORTABLE_DATE_TIME)),
    reportTypeLabel(report.type),
    everythingOkWord(report),
    weatherLabel(report.weather),
    orEmpty(formatAddress(house)),
    orEmpty(personName(resident)),
    report.phone_number ?? '',
    house?.member_number ?? '',
    yesNo(report.injury),
    yesNo(report.ems_pbso),
    orEmpty(personName(officer)),
    stripParagraph(report.narative ?? ''),
    stripParagraph(report.ai_generated_narative ?? ''),
    orEmpty(formatDateTime(report.created, SORTABLE_DATE_TIME)),
    report.logged_at ? orEmpty(formatDateTime(report.logged_at, SORTABLE_DATE_TIME)) : '',
    report.position ? String(report.position.latitude) : '',
    report.position ? String(report.position.longitude) : '',
    report.position ? String(Math.round(report.position.accuracy)) : '',
  ];
}

export function reportsCsv(rows: readonly ReportWithLinks[]): string {
  return [csvRow(CSV_COLUMNS), ...rows.map((row) => csvRow(reportRow(row)))].join('\r\n') + '\r\n';
}
