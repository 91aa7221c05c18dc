/**
 * The report screens' pure rules: CSV export, the narrative shown on a
 * card, the created-time rule, the filter's missing-dates rule, the
 * incident time and the photo limits.
 */
import { describe, expect, test } from 'vitest';
import type { HouseRecord, ResidentRecord, UserRecord } from '../../src/api/records.ts';
import type { ReportWithLinks } from '../../src/data/resources/reports.ts';
import { CSV_COLUMNS, reportsCsv } from '../../src/features/reports/csv.ts';
import { csvField } from '../../src/ui/csv.ts';
import { parsePbDate } from '../../src/domain/pbDate.ts';
import { formatCreated } from '../../src/ui/format.ts';
import { defaultNarrativeChoice, narrativeText, stripParagraph } from '../../src/features/reports/narrative.ts';
import { MAX_PHOTOS, pickPhotos, TOO_MANY_PHOTOS, WRONG_PHOTO_TYPE } from '../../src/features/reports/photos.ts';
import { applyDraft, defaultFilter } from '../../src/features/reports/reportFilter.ts';
import { incidentTime, reportFormDefaults } from '../../src/features/reports/reportForm.ts';
import { primaryPhone } from '../../src/data/resources/homes.ts';
import { reportSchema } from '../../src/domain/schemas.ts';

const stamp = '2026-03-01 10:00:00.000Z';
const base = { created: stamp, updated: stamp };

function linked(
  overrides: Partial<ReportWithLinks['report']> = {},
  links: Partial<ReportWithLinks> = {},
): ReportWithLinks {
  return {
    report: {
      id: 'report000000001',
      ...base,
      narative: 'Saw a car',
      ai_generated_narative: '',
      type: 'vehicle_tailgaite',
      weather: 'rainy',
      incident_time: '2026-03-01 09:30:00.000Z',
      phone_number: '+15615550100',
      injury: false,
      ems_pbso: true,
      photos: [],
      community: 'c',
      house: 'h',
      resident: 'r',
      created_by: 'u',
      ...overrides,
    },
    ...links,
  };
}

describe('CSV export', () => {
  test('quotes commas, quotes and line breaks; doubles quotes; leaves plain text alone', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvField('cr\r\nlf')).toBe('"cr\r\nlf"');
    expect(csvField('')).toBe('');
  });

  test('text a spreadsheet would run as a formula is made inert; numbers are not', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-cmd|calc')).toBe("'-cmd|calc");
    expect(csvField('+15615550100')).toBe('+15615550100');
    expect(csvField('-5')).toBe('-5');
  });

  test('one header row and one row per report, in the listed columns, CRLF separated', () => {
    const house = { ...base, id: 'h', address: '12 Palm Way', apt: '4B', member_number: 'M-77' } as HouseRecord;
    const resident = { ...base, id: 'r', first_name: 'Ana', last_name: 'Cruz' } as ResidentRecord;
    const officer = { ...base, id: 'u', first_name: 'Sam', last_name: 'Lee' } as UserRecord;
    const rows = [
      linked(
        {
          narative: '<p>Tailgated, then "left"\nquickly</p>',
          ai_generated_narative: 'A vehicle tailgated.',
          injury: true,
          logged_at: '2026-03-01 09:31:00.000Z',
          position: { latitude: 26.70512, longitude: -80.03641, accuracy: 12.4 },
        },
        { house, resident, officer },
      ),
      linked({ id: 'report000000002', narative: 'n', ems_pbso: false }),
    ];
    const csv = reportsCsv(rows);
    expect(csv.endsWith('\r\n')).toBe(true);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines[0]).toBe(
      'Incident time,Type,Everything ok,Weather,Address,Resident,Phone,Member number,Injury,EMS/PBSO,Officer,Narrative,AI narrative,Created,Logged on device,Latitude,Longitude,Accuracy (m)',
    );
    const created = parsePbDate(stamp)!;
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = (d: Date) =>
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
    const incident = parsePbDate('2026-03-01 09:30:00.000Z')!;
    expect(lines[1]).toBe(
      `${local(incident)},Vehicle tailgate,,Rainy,"12 Palm Way, 4B",Ana Cruz,+15615550100,M-77,Yes,Yes,Sam Lee,"Tailgated, then ""left""\nquickly",A vehicle tailgated.,${local(created)},${local(parsePbDate('2026-03-01 09:31:00.000Z')!)},26.70512,-80.03641,12`,
    );
    // A report without a home, resident, officer or position (an older one, or none was allowed) leaves those cells empty.
    expect(lines[2]).toBe(`${local(incident)},Vehicle tailgate,,Rainy,,,+15615550100,,No,No,,n,,${local(created)},,,,`);
    expect(lines).toHaveLength(4);
  });
});

describe('narrative on a card', () => {
  const report = { narative: '<p>Gate left open</p>', ai_generated_narative: '' };

  test('opens on the AI narrative when there is one, else on the original (docs/product.md#decisions)', () => {
    expect(defaultNarrativeChoice({ narative: 'x', ai_generated_narative: '<p>The gate was open.</p>' })).toBe('ai');
    expect(defaultNarrativeChoice(report)).toBe('original');
    // An AI narrative that is only an empty paragraph does not count.
    expect(defaultNarrativeChoice({ narative: 'x', ai_generated_narative: ' <p> </p> ' })).toBe('original');
    // Neither: the card opens on Original and says N/A.
    expect(defaultNarrativeChoice({ narative: '', ai_generated_narative: '' })).toBe('original');
    expect(narrativeText({ narative: '', ai_generated_narative: '' }, 'original')).toBe('N/A');
  });

  test('says N/A when the chosen one is absent', () => {
    expect(narrativeText(report, 'ai')).toBe('N/A');
    expect(narrativeText(report, 'original')).toBe('Gate left open');
    expect(narrativeText({ narative: '', ai_generated_narative: 'The gate was open.' }, 'original')).toBe('N/A');
    expect(narrativeText({ narative: 'x', ai_generated_narative: '<p></p>' }, 'ai')).toBe('N/A');
  });

  test('strips only a leading <p> and a trailing </p>', () => {
    expect(stripParagraph('<p>One</p>')).toBe('One');
    expect(stripParagraph('  <P>One</P>  ')).toBe('One');
    expect(stripParagraph('<p>One</p><p>Two</p>')).toBe('One</p><p>Two');
    expect(stripParagraph('a <p>b</p> c')).toBe('a <p>b</p> c');
    expect(stripParagraph('<b>bold</b>')).toBe('<b>bold</b>');
  });
});

describe('created time (seven-day rule)', () => {
  const now = new Date(2026, 2, 20, 12, 0);
  test('within seven days: relative', () => {
    expect(formatCreated(new Date(2026, 2, 17, 12, 0), now)).toBe('3 days ago');
    expect(formatCreated(new Date(2026, 2, 20, 11, 55), now)).toBe('5 minutes ago');
    expect(formatCreated(new Date(2026, 2, 13, 12, 1), now)).toBe('7 days ago');
  });
  test('seven days or older: a date and time', () => {
    expect(formatCreated(new Date(2026, 2, 13, 12, 0), now)).toBe('Mar 13, 2026 12:00');
    expect(formatCreated(new Date(2025, 11, 24, 18, 5), now)).toBe('Dec 24, 2025 18:05');
  });
  test('a time a little ahead of the clock reads as just now, not as the future', () => {
    expect(formatCreated(new Date(2026, 2, 20, 12, 0, 40), now)).toBe('less than a minute ago');
  });
  test('reads PocketBase date strings and says N/A for none', () => {
    const created = new Date(2026, 2, 19, 12, 0);
    expect(formatCreated(created.toISOString().replace('T', ' '), now)).toBe('1 day ago');
    expect(formatCreated('', now)).toBe('N/A');
  });
});

describe('report filter', () => {
  test('opens on the whole current month, newest first, unfiltered', () => {
    const filter = defaultFilter(new Date(2026, 1, 14, 10));
    expect(filter).toEqual({
      from: new Date(2026, 1, 1),
      to: new Date(2026, 1, 28, 23, 59, 59, 999),
      types: [],
      sort: 'newest',
      withIssues: false,
      filtered: false,
    });
  });
  test('missing dates: Filter error, Dates must be selected, no filter', () => {
    for (const draft of [
      { from: undefined, to: new Date(2026, 0, 5) },
      { from: new Date(2026, 0, 5), to: undefined },
      { from: undefined, to: undefined },
    ]) {
      expect(applyDraft({ ...draft, types: [], sort: 'newest', withIssues: false })).toEqual({
        ok: false,
        title: 'Filter error',
        message: 'Dates must be selected',
      });
    }
  });
  test('dates given: From at 00:00, To at the end of its day, in order', () => {
    const outcome = applyDraft({
      from: new Date(2026, 0, 9, 15),
      to: new Date(2026, 0, 5, 8),
      types: ['accident'],
      sort: 'oldest',
      withIssues: false,
    });
    expect(outcome).toEqual({
      ok: true,
      filter: {
        from: new Date(2026, 0, 5),
        to: new Date(2026, 0, 9, 23, 59, 59, 999),
        types: ['accident'],
        sort: 'oldest',
        withIssues: false,
        filtered: true,
      },
    });
  });
});

describe('create report form', () => {
  test('defaults for every field pass the schema once the required ones are filled', () => {
    const defaults = reportFormDefaults();
    expect(defaults).toEqual({
      type: '',
      weather: 'clear',
      incident_date: undefined,
      hour: '',
      minute: '',
      narative: '',
      ai_generated_narative: '',
      house: '',
      resident: '',
      injury: false,
      ems_pbso: false,
    });
    expect(
      reportSchema.safeParse({
        ...defaults,
        type: 'accident',
        incident_date: new Date(),
        hour: '7',
        minute: '05',
        narative: 'x',
      }).success,
    ).toBe(true);
  });
  test('the incident time is the picked day at the typed hour and minute, local time', () => {
    expect(incidentTime(new Date(2026, 4, 3), '23', '07')).toEqual(new Date(2026, 4, 3, 23, 7));
    expect(incidentTime(new Date(2026, 4, 3, 18, 30), '0', '0')).toEqual(new Date(2026, 4, 3, 0, 0));
    expect(() => incidentTime(new Date(2026, 4, 3), '24', '00')).toThrow('Incorrect hour and/or minute');
  });
  test('the phone is the primary one, else the oldest', () => {
    const phone = (id: string, created: string, primary: boolean) => ({
      id,
      created,
      updated: created,
      phone_number: `+1561555010${id}`,
      primary,
      type: 'cell' as const,
      house: 'h',
    });
    expect(primaryPhone([phone('2', '2026-02', false), phone('1', '2026-01', false)])?.id).toBe('1');
    expect(primaryPhone([phone('1', '2026-01', false), phone('2', '2026-02', true)])?.id).toBe('2');
    expect(primaryPhone([])).toBeUndefined();
  });
  test('photos: at most five, images only, of any size (each is made small on the device)', () => {
    const jpeg = (size = 1000) => ({ type: 'image/jpeg', size });
    const four = [jpeg(), jpeg(), jpeg(), jpeg()];
    expect(pickPhotos(0, four)).toEqual({ accepted: four, message: null });
    const overflow = pickPhotos(4, [jpeg(1), jpeg(2), jpeg(3)]);
    expect(overflow.accepted).toEqual([jpeg(1)]);
    expect(overflow.message).toBe(TOO_MANY_PHOTOS);
    expect(TOO_MANY_PHOTOS).toBe(`You can attach up to ${MAX_PHOTOS} photos.`);
    expect(pickPhotos(0, [{ type: 'application/pdf', size: 10 }])).toEqual({ accepted: [], message: WRONG_PHOTO_TYPE });
    const camera = jpeg(48 * 1024 * 1024);
    expect(pickPhotos(0, [camera])).toEqual({ accepted: [camera], message: null });
    expect(pickPhotos(0, [{ type: '', size: 10 }]).accepted).toHaveLength(1);
  });
});
