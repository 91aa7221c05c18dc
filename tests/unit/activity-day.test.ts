/**
 * The daily activity report's model: the day's house checks,
 * reports and calls from the mirror, one officer or all, in time order;
 * the mirror's query by index; and the PDF's text, read back with pdfjs.
 */
import { addDays } from 'date-fns';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportRecord, UserRecord } from '../../src/api/records.ts';
import {
  queryDayRecords,
  queryPeriodRecords,
  type CallRow,
  type DayRecords,
} from '../../src/data/resources/activity.ts';
import { closeUserDatabase, userDatabase } from '../../src/data/mirror/db.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import {
  ALL_OFFICERS,
  buildDayModel,
  callOutcomeWords,
  countsLine,
  dayReportFileName,
  entrySummary,
  roundSummary,
} from '../../src/features/activity/dayModel.ts';
import { drawDayReport, photoKey } from '../../src/features/activity/dayPdf.ts';
import { pdfImageCount, pdfText } from '../support/pdfText.ts';
import { houseRecord, reportRecord, STAMP } from '../support/records.ts';

const DAY = new Date(2026, 10, 24);
const at = (hour: number, minute = 0, day = DAY) =>
  pbDate(new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour, minute));

const report = (id: string, overrides: Partial<ReportRecord> = {}): ReportRecord =>
  reportRecord({ id, narative: `Narrative of ${id}`, incident_time: at(10), ...overrides });

function call(id: string, overrides: Partial<CallRow> = {}): CallRow {
  return {
    id,
    created: at(11),
    updated: at(11),
    house: 'h2',
    community: 'c1',
    concerns: ['k1'],
    to_number: '+15615550101',
    script: 'Hello.',
    status: 'completed',
    provider_call_id: 'CA1',
    error: '',
    created_by: 'u2',
    ...overrides,
  };
}

const user = (id: string, first: string, last: string) => ({ id, first_name: first, last_name: last }) as UserRecord;

function records(overrides: Partial<DayRecords> = {}): DayRecords {
  return {
    community: { id: 'c1', created: STAMP, updated: STAMP, name: 'Palm Grove Estates', address: '1 Blvd' },
    reports: [],
    calls: [],
    houses: new Map([
      ['h1', houseRecord({ id: 'h1', address: '12 Egret Way' })],
      ['h2', houseRecord({ id: 'h2', address: '4 Heron Cove Ln', apt: 'Unit 2' })],
    ]),
    residents: new Map([
      [
        'r1',
        { id: 'r1', created: STAMP, updated: STAMP, first_name: 'Ana', last_name: 'Diaz', owner: true, house: 'h1' },
      ],
    ]),
    concerns: new Map([
      [
        'k1',
        {
          id: 'k1',
          created: STAMP,
          updated: STAMP,
          name: 'Open garage',
          hint: '',
          say: '',
          added_by: '',
          community: 'c1',
        },
      ],
    ]),
    staff: [user('u1', 'Sam', 'Reyes'), user('u2', 'Kim', 'Lee')],
    ...overrides,
  };
}

describe('the day model', () => {
  it('orders house checks, reports and calls of the day by time, with their words', () => {
    const model = buildDayModel(
      records({
        reports: [
          report('late', { incident_time: at(22, 15), type: 'vehicle_tailgaite', resident: 'r1', injury: true }),
          report('check', { incident_time: at(6, 5), type: 'house_check', house: 'h2', everything_ok: 'yes' }),
          report('ai', { incident_time: at(9), ai_generated_narative: '<p>Cleaned up.</p>', photos: ['a.jpg'] }),
        ],
        calls: [call('call1', { created: at(9, 30), outcome: 'answered', acknowledged: true, progress: 'done' })],
      }),
      DAY,
      null,
    );
    expect(model.entries.map((e) => [e.time, e.kind, e.id])).toEqual([
      ['06:05', 'house_check', 'check'],
      ['09:00', 'report', 'ai'],
      ['09:30', 'call', 'call1'],
      ['22:15', 'report', 'late'],
    ]);
    expect(model.counts).toEqual({ house_check: 1, report: 2, call: 1 });
    expect(model.community).toBe('Palm Grove Estates');
    expect(model.officer).toBe(ALL_OFFICERS);
    expect(model.period).toBe('Nov 24, 2026 00:00 – 23:59');
    const [check, ai, placed, late] = model.entries;
    expect(check).toMatchObject({ home: '4 Heron Cove Ln, Unit 2', officer: 'Sam Reyes', type: 'House check' });
    // A house check's answer leads its details; a report has none.
    expect(entrySummary(check!)).toBe('Everything ok: Yes');
    expect(model.checksWithIssues).toBe(0);
    expect(ai).toMatchObject({ narrative: 'Cleaned up.', narrativeIsAi: true, photos: ['a.jpg'] });
    expect(late).toMatchObject({ narrative: 'Narrative of late', narrativeIsAi: false, resident: 'Ana Diaz' });
    expect(entrySummary(late!)).toBe('Vehicle tailgate · Resident Ana Diaz · Injury');
    expect(placed).toMatchObject({ outcome: 'Answered', acknowledged: true, officer: 'Kim Lee' });
    expect(entrySummary(placed!)).toBe('Answered, acknowledged · (561) 555-0101 · Open garage');
  });

  it("leaves out other days' records, and the other officers' when one is chosen", () => {
    const input = records({
      reports: [
        report('yesterday', { incident_time: at(23, 59, addDays(DAY, -1)) }),
        report('mine', { incident_time: at(0, 0) }),
        report('theirs', { incident_time: at(12), created_by: 'u2' }),
        report('tomorrow', { incident_time: at(0, 0, addDays(DAY, 1)) }),
      ],
      calls: [call('their-call'), call('my-call', { created_by: 'u1', created: at(23, 59) })],
    });
    expect(buildDayModel(input, DAY, null).entries.map((e) => e.id)).toEqual([
      'mine',
      'their-call',
      'theirs',
      'my-call',
    ]);
    const mine = buildDayModel(input, DAY, 'u1');
    expect(mine.entries.map((e) => e.id)).toEqual(['mine', 'my-call']);
    expect(mine.officer).toBe('Sam Reyes');
    expect(mine.counts).toEqual({ house_check: 0, report: 1, call: 1 });
  });

  it('reads call outcomes defensively: the job outcome, in progress, or the older status', () => {
    expect(callOutcomeWords({ status: 'completed', outcome: 'no_answer', progress: 'done' })).toBe('No answer');
    expect(callOutcomeWords({ status: 'ringing', outcome: '', progress: 'waiting' })).toBe('In progress');
    expect(callOutcomeWords({ status: 'no-answer' })).toBe('No answer');
    expect(callOutcomeWords({ status: 'completed', outcome: 'exploded' as 'failed' })).toBe('Completed');
  });

  it('names the file after the community and the day', () => {
    expect(dayReportFileName({ community: 'Palm Grove Estates', day: DAY })).toBe(
      'activity-palm-grove-estates-2026-11-24.pdf',
    );
    expect(dayReportFileName({ community: 'Café & Co.', day: DAY })).toBe('activity-cafe-co-2026-11-24.pdf');
  });
});

describe("the mirror's query", () => {
  const userId = 'activityunit01';
  afterEach(async () => {
    await userDatabase(userId).delete();
    closeUserDatabase(userId);
  });

  it("reads the day's reports by incident time and calls by creation, with the homes, residents and concerns they name", async () => {
    const db = userDatabase(userId);
    await db.communities.put(records().community!);
    await db.houses.bulkPut([...records().houses.values(), houseRecord({ id: 'h9', address: 'Elsewhere' })]);
    await db.residents.bulkPut([...records().residents.values()]);
    await db.concerns.bulkPut([...records().concerns.values()]);
    await db.users.bulkPut(records().staff);
    await db.reports.bulkPut([
      report('in', { resident: 'r1' }),
      report('before', { incident_time: at(23, 59, addDays(DAY, -1)), house: 'h9' }),
      report('after', { incident_time: at(0, 0, addDays(DAY, 1)), house: 'h9' }),
    ]);
    await db.calls.bulkPut([call('c-in'), call('c-out', { created: at(8, 0, addDays(DAY, -2)) })]);
    const day = await queryDayRecords(db, 'c1', new Date(2026, 10, 24), new Date(2026, 10, 24, 23, 59, 59, 999));
    expect(day.reports.map((r) => r.id)).toEqual(['in']);
    expect(day.calls.map((c) => c.id)).toEqual(['c-in']);
    expect([...day.houses.keys()].sort()).toEqual(['h1', 'h2']);
    expect([...day.residents.keys()]).toEqual(['r1']);
    expect([...day.concerns.keys()]).toEqual(['k1']);
    expect(day.community?.name).toBe('Palm Grove Estates');
    const model = buildDayModel(day, DAY, null);
    expect(model.entries.map((e) => e.id)).toEqual(['in', 'c-in']);

    const month = await queryPeriodRecords(db, new Date(2026, 10, 1), new Date(2026, 10, 30, 23, 59, 59, 999));
    expect(month.reports.map((r) => r.id).sort()).toEqual(['after', 'before', 'in']);
    expect(month.calls.map((c) => c.id).sort()).toEqual(['c-in', 'c-out']);
  });
});

describe('the PDF', () => {
  it('prints the header, every entry and the narratives, and says which photos are not available offline', async () => {
    const model = buildDayModel(
      records({
        reports: [
          report('check', {
            incident_time: at(6, 5),
            type: 'house_check',
            house: 'h2',
            narative: 'All quiet at the door.',
            everything_ok: 'no',
          }),
          report('noise', { incident_time: at(21), photos: ['a.jpg', 'b.jpg'], narative: 'Music turned down.' }),
        ],
        calls: [call('call1', { created: at(9, 30), outcome: 'voicemail', progress: 'done' })],
      }),
      DAY,
      null,
    );
    // One tiny JPEG for the first photo; the second is not on the device.
    const jpeg = Uint8Array.from(
      Buffer.from(
        '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
        'base64',
      ),
    );
    const photos = new Map([[photoKey('noise', 'a.jpg'), { data: jpeg, width: 1, height: 1 }]]);
    const file = drawDayReport(model, photos, new Date(2026, 10, 25, 7, 0)).output('arraybuffer');
    const text = await pdfText(file);
    // The photo the device has is drawn; the other one is named as missing.
    expect(await pdfImageCount(file)).toBe(1);
    for (const words of [
      'Daily activity report',
      'Palm Grove Estates',
      'Nov 24, 2026 00:00 – 23:59',
      'Officer: All officers',
      '1 house check(s), 1 with issues · 1 report(s) · 1 call(s)',
      'Everything ok: No',
      '4 Heron Cove Ln, Unit 2',
      'All quiet at the door.',
      'Music turned down.',
      'Voicemail',
      'Photo 2 is not available offline.',
      'Page 1 of 1',
    ])
      expect(text).toContain(words);
    expect(text.indexOf('06:05')).toBeLessThan(text.indexOf('09:30'));
    expect(text.indexOf('09:30')).toBeLessThan(text.indexOf('21:00'));
  });

  it('says when nothing was logged', async () => {
    const text = await pdfText(
      drawDayReport(buildDayModel(records(), DAY, 'u1'), new Map(), DAY).output('arraybuffer'),
    );
    expect(text).toContain('Nothing was logged on this day.');
    expect(text).toContain('Officer: Sam Reyes');
  });
});

describe("the day's tour rounds", () => {
  const tour = {
    id: 'tour1',
    name: 'Night patrol',
    checkpoints: ['cp1', 'cp2', 'cp3'],
    start: '20:00',
    end: '06:00',
    every_minutes: 120,
    round_minutes: 30,
    ordered: true,
    active: true,
  };
  const walk = (id: string, officer: string, reason = '') => ({
    id,
    tour: 'tour1',
    officer,
    round_start: at(20),
    started_at: at(20, 2),
    ended_at: at(20, 20),
    end_reason: reason,
  });
  const outcome = (status: 'on_time' | 'incomplete' | 'missed', scanned: string[], missed: string[]) => ({
    status,
    scanned,
    missed,
    outOfOrder: [],
    overdue: false,
    finishedAt: null,
  });
  const rounds = [
    {
      tour,
      round: { startsAt: new Date(DAY.getTime() + 20 * 3_600_000).getTime(), dueBy: 0 },
      walks: [walk('w1', 'u1', 'Pool closed')],
      outcome: outcome('incomplete', ['cp1', 'cp2'], ['cp3']),
    },
    {
      tour,
      round: { startsAt: new Date(DAY.getTime() + 22 * 3_600_000).getTime(), dueBy: 0 },
      walks: [walk('w2', 'u2')],
      outcome: outcome('on_time', ['cp1', 'cp2', 'cp3'], []),
    },
  ] as unknown as NonNullable<DayRecords['rounds']>;
  const checkpointNames = new Map([
    ['cp1', 'Front gate'],
    ['cp2', 'Clubhouse'],
  ]);

  it('lists each round with its status, who walked it, the missed checkpoints and the reason', () => {
    const model = buildDayModel(records({ rounds, checkpointNames }), DAY, null);
    expect(model.rounds.map((r) => [r.time, r.tour, r.statusWords, roundSummary(r)])).toEqual([
      [
        '20:00',
        'Night patrol',
        'Incomplete',
        '2 of 3 checkpoints · Sam Reyes · Missed: A deleted checkpoint · Reason: Pool closed',
      ],
      ['22:00', 'Night patrol', 'On time', '3 of 3 checkpoints · Kim Lee'],
    ]);
    expect(countsLine(model)).toBe('0 house check(s) · 0 report(s) · 0 call(s) · 2 round(s), 1 on time');
  });

  it('for one officer, only the rounds they walked; the counts say nothing of rounds on a day without them', () => {
    const mine = buildDayModel(records({ rounds, checkpointNames }), DAY, 'u2');
    expect(mine.rounds.map((r) => r.time)).toEqual(['22:00']);
    expect(countsLine(buildDayModel(records(), DAY, null))).toBe('0 house check(s) · 0 report(s) · 0 call(s)');
  });

  it('the PDF has the rounds', async () => {
    const model = buildDayModel(records({ rounds, checkpointNames }), DAY, null);
    const text = await pdfText(drawDayReport(model, new Map(), DAY).output('arraybuffer'));
    expect(text).toContain('Tour rounds');
    expect(text).toContain('Reason: Pool closed');
    expect(text).toContain('On time');
  });
});

describe("the day's alerts", () => {
  const alert = (
    id: string,
    officer: string,
    raisedAt: string,
    ended: Partial<Record<'ended_at' | 'end_kind', string>> = {},
  ) => ({ id, officer, kind: 'panic', raised_at: raisedAt, ended_at: '', end_kind: '', ...ended }) as never;
  const step = (id: string, by: string, kind: string, when: string) => ({ id, by, kind, at: when }) as never;
  const alerts = [
    {
      alert: alert('a1', 'u2', at(22, 41), { ended_at: at(22, 50), end_kind: 'safe' }),
      steps: [step('e1', 'u1', 'responding', at(22, 43)), step('e2', 'u2', 'safe', at(22, 50))],
    },
    { alert: alert('a2', 'u1', at(23, 5)), steps: [] },
    // The day before: not this day's.
    { alert: alert('a0', 'u2', at(23, 0, new Date(2026, 10, 23))), steps: [] },
  ] as unknown as NonNullable<DayRecords['alerts']>;

  it('each alert of the day with its state and every step, in time order', () => {
    const model = buildDayModel(records({ alerts }), DAY, null);
    const names = new Map(model.alerts.map((line) => [line.id, line]));
    expect(model.alerts.map((line) => line.id)).toEqual(['a1', 'a2']);
    expect(names.get('a1')).toMatchObject({ time: '22:41', kind: 'Panic', state: 'Safe' });
    expect(names.get('a1')!.steps).toMatch(/^22:43 \S.* responding · 22:50 \S.* is safe$/);
    expect(names.get('a2')).toMatchObject({ state: 'On', steps: '' });
  });

  it('for one officer: their alerts and those they took a step on; the PDF lists them', async () => {
    expect(buildDayModel(records({ alerts }), DAY, 'u1').alerts.map((line) => line.id)).toEqual(['a1', 'a2']);
    expect(buildDayModel(records({ alerts }), DAY, 'u3').alerts).toEqual([]);
    const model = buildDayModel(records({ alerts }), DAY, null);
    const text = await pdfText(drawDayReport(model, new Map(), DAY).output('arraybuffer'));
    expect(text).toContain('Alerts');
    expect(text).toContain('Panic');
    expect(text).toContain('is safe');
  });
});
