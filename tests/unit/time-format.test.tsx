/**
 * One time format everywhere: 24-hour, as officers log incident times
 * (src/ui/dateTime.ts). Every place that writes a time, fed afternoon and
 * just-past-midnight times (13:05, 00:30: a 12-hour format would write
 * '1:05 PM' and '12:30 AM'): the shared formatter, the daily activity
 * report's model and PDF, the report card and the printed list's row, the
 * CSV, the call times of the Homes screen (the call settings' quiet hours:
 * call-settings-form.test.tsx); and no 12-hour pattern, locale time or
 * browser time input anywhere in the app's code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ReportRecord } from '../../src/api/records.ts';
import type { ReportWithLinks } from '../../src/data/resources/reports.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { buildDayModel } from '../../src/features/activity/dayModel.ts';
import { drawDayReport } from '../../src/features/activity/dayPdf.ts';
import { callTime } from '../../src/features/homes/callTime.ts';
import { reportsCsv } from '../../src/features/reports/csv.ts';
import { ReportCard } from '../../src/features/reports/ReportCard.tsx';
import { ReportPrintRow } from '../../src/features/reports/ReportPrintRow.tsx';
import { formatDate, formatDateTime, formatTime } from '../../src/ui/dateTime.ts';
import { pdfText } from '../support/pdfText.ts';
import { houseRecord, reportRecord, STAMP } from '../support/records.ts';

/** What a component shows, as text. */
const shown = (element: ReactElement) =>
  renderToStaticMarkup(element)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

/** A 12-hour time as any formatter would write it: '1:05 PM', '12:30 am', '1:05p.m.'. */
const TWELVE_HOUR = /\b\d{1,2}(:\d{2})?\s*([AaPp]\.?[Mm]\.?)(?![a-z])/;
const expect24 = (text: string) => expect(text, text).not.toMatch(TWELVE_HOUR);

const DAY = new Date(2026, 10, 24);
const AFTERNOON = new Date(2026, 10, 24, 13, 5);
const PAST_MIDNIGHT = new Date(2026, 10, 24, 0, 30);

const report = (id: string, overrides: Partial<ReportRecord> = {}) =>
  reportRecord({
    id,
    created: pbDate(new Date(2026, 10, 24, 15, 30)),
    narative: `Gate checked ${id}`,
    incident_time: pbDate(AFTERNOON),
    // Made on the device at 13:05, sent at 15:30: the card says both.
    logged_at: pbDate(AFTERNOON),
    ...overrides,
  });

const item = (overrides: Partial<ReportRecord> = {}): ReportWithLinks => ({
  report: report('r1', overrides),
  house: houseRecord({ id: 'h1', address: '12 Egret Way' }),
});

describe('the shared formatter', () => {
  it('writes times 24-hour', () => {
    expect(formatTime(AFTERNOON)).toBe('13:05');
    expect(formatTime(PAST_MIDNIGHT)).toBe('00:30');
    expect(formatDateTime(AFTERNOON)).toBe('Nov 24, 2026 13:05');
    expect(formatDateTime(pbDate(PAST_MIDNIGHT))).toBe('Nov 24, 2026 00:30');
    expect(formatDate(AFTERNOON)).toBe('Nov 24, 2026');
  });
});

describe('the daily activity report', () => {
  const records = {
    community: { id: 'c1', created: STAMP, updated: STAMP, name: 'Palm Grove Estates', address: 'Jupiter, FL' },
    reports: [report('r1'), report('r2', { incident_time: pbDate(PAST_MIDNIGHT) })],
    calls: [],
    houses: new Map([['h1', houseRecord({ id: 'h1', address: '12 Egret Way' })]]),
    residents: new Map(),
    concerns: new Map(),
    staff: [],
  };

  it("writes the entries' times and the period 24-hour", () => {
    const model = buildDayModel(records, DAY, null);
    expect(model.entries.map((entry) => entry.time)).toEqual(['00:30', '13:05']);
    expect(model.period).toBe('Nov 24, 2026 00:00 – 23:59');
  });

  it('prints 24-hour times in the PDF, the footer included', async () => {
    const doc = drawDayReport(buildDayModel(records, DAY, null), new Map(), new Date(2026, 10, 25, 13, 7));
    const text = await pdfText(doc.output('arraybuffer'));
    expect(text).toContain('Generated Nov 25, 2026 13:07');
    expect(text).toContain('13:05');
    expect(text).toContain('00:30');
    expect24(text);
  });
});

describe('the report list', () => {
  it('the card writes the incident, created, logged and sent times 24-hour', () => {
    const text = shown(
      <ReportCard item={item()} now={new Date(2026, 11, 30)} onPrint={() => {}} picked={undefined} onPick={() => {}} />,
    );
    expect(text).toContain('Nov 24, 2026 13:05');
    expect(text).toContain('Logged 13:05 (sent 15:30)');
    expect24(text);
  });

  it("the printed list's row writes them 24-hour too", () => {
    const text = shown(<ReportPrintRow item={item({ incident_time: pbDate(PAST_MIDNIGHT) })} picked={undefined} />);
    expect(text).toContain('Nov 24, 2026 00:30');
    expect(text).toContain('Created Nov 24, 2026 15:30');
    expect(text).toContain('Logged 13:05 (sent 15:30)');
    expect24(text);
  });

  it('the CSV writes sortable 24-hour times', () => {
    const csv = reportsCsv([item()]);
    expect(csv).toContain('2026-11-24 13:05');
    expect(csv).toContain('2026-11-24 15:30');
    expect24(csv);
  });
});

describe('the Homes screen', () => {
  it("a call's time is 24-hour, today's alone and an older one with its day", () => {
    expect(callTime(pbDate(AFTERNOON), new Date(2026, 10, 24, 18, 0))).toBe('13:05');
    expect(callTime(pbDate(PAST_MIDNIGHT), new Date(2026, 10, 26))).toBe('Nov 24, 00:30');
  });
});

describe("the app's code", () => {
  /** Every source file of the app and the server's hooks. */
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
      return /\.(ts|tsx|js)$/.test(entry.name) ? [path] : [];
    });
  }
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const files = [...sources(join(root, 'src')), ...sources(join(root, 'pocketbase', 'pb_hooks'))];

  it.each([
    [
      "date-fns' 12-hour hours (h, hh) or AM/PM (a) in a pattern",
      /['"`][^'"`\n]*\bh{1,2}:mm[^'"`\n]*['"`]|:mm\s*a+['"`]/,
    ],
    ["date-fns' locale times (p, Pp, PPpp)", /format\w*\([^)\n]*['"`]P*p{1,4}['"`]/],
    [
      "the browser's locale times",
      /toLocale(Time|Date)String\(|toLocaleString\(\s*['"`][^'"`]*['"`]\s*,\s*\{[^}]*(hour|minute)|hour12|timeStyle/,
    ],
    ["the browser's time input (12-hour in a US locale)", /type=["']time["']|type: ["']time["']/],
  ])('has no %s', (_what, pattern) => {
    expect(files.length).toBeGreaterThan(50);
    const found = files.filter((file) => pattern.test(readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
