/**
 * A house check's answer to 'Is everything ok?' as data (the report's
 * `everything_ok`): the rule that reads an older check's narrative, the
 * schema field, the server's record rules (the generated hook library, as
 * goja loads it), the outbox write, and every place that shows it: the
 * card's words, the CSV, the daily report's model, the dashboard's figures
 * and the list's filter.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildHookLibs } from '../../scripts/pocketbase/hook-libs.ts';
import type { ReportRecord } from '../../src/api/records.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { queryReports } from '../../src/data/resources/reports.ts';
import { queueHouseCheck } from '../../src/data/resources/houseChecks.ts';
import { HOUSE_CHECK_ISSUES_NARRATIVE, HOUSE_CHECK_OK_NARRATIVE } from '../../src/domain/houseCheck.ts';
import {
  answerFromNarrative,
  answerOf,
  EVERYTHING_OK_VALUES,
  everythingOkLine,
  everythingOkWord,
  hasIssues,
  ONLY_HOUSE_CHECKS,
} from '../../src/domain/houseCheckAnswer.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import type { FieldErrors, WriteBody, WriteOptions } from '../../src/domain/recordRules.ts';
import { buildDayModel, countsLine, entrySummary } from '../../src/features/activity/dayModel.ts';
import { houseCheckAnswers } from '../../src/features/dashboard/figures.ts';
import { reportRow, CSV_COLUMNS } from '../../src/features/reports/csv.ts';
import { applyDraft, draftOf, defaultFilter } from '../../src/features/reports/reportFilter.ts';
import { loadHookLib } from '../support/hook-lib.ts';
import { field, loadSchema } from '../support/migration-schema.ts';
import { STAMP } from '../support/records.ts';

type CheckWrite = (collection: string, body: WriteBody, options: WriteOptions) => FieldErrors;
let checkWrite: CheckWrite;
let serverAnswer: typeof answerFromNarrative;

beforeAll(async () => {
  await buildHookLibs();
  checkWrite = loadHookLib<{ checkWrite: CheckWrite }>('generated/record_rules.js').checkWrite;
  serverAnswer = loadHookLib<{ answerFromNarrative: typeof answerFromNarrative }>(
    'generated/house_check_answer.js',
  ).answerFromNarrative;
});

function report(id: string, overrides: Partial<ReportRecord> = {}): ReportRecord {
  return {
    id,
    created: STAMP,
    updated: STAMP,
    narative: `Narrative of ${id}`,
    ai_generated_narative: '',
    type: 'house_check',
    weather: 'clear',
    incident_time: pbDate(new Date(2026, 10, 24, 10)),
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

describe("an older check's narrative", () => {
  test.each([
    [HOUSE_CHECK_ISSUES_NARRATIVE, 'no'],
    [HOUSE_CHECK_OK_NARRATIVE, 'yes'],
    // The original app's spelling, HTML, white space and case are passed over.
    ['House was inpected and issues were found', 'no'],
    ['<p>House was inspected and issues were found</p>', 'no'],
    ['  \n<p> house was inspected and issues were found. Gate open.', 'no'],
    ['HOUSE WAS INSPECTED ON THE DATE AND TIME MENTIONED ABOVE AND EVERYTHING IS OK.', 'yes'],
    // A remark replaced the sentence: it tells nothing, so the answer stays unknown rather than a guess.
    ['Side gate unlatched, closed it.', ''],
    ['All quiet.', ''],
    ['Issues: House was inspected and issues were found', ''],
    ['', ''],
  ])('%j → %j, the same in the app and in the hook library', (narrative, answer) => {
    expect(answerFromNarrative(narrative)).toBe(answer);
    expect(serverAnswer(narrative)).toBe(answer);
  });
});

test('the words: Yes, No or Not recorded on a house check, nothing on other reports; issues only for No', () => {
  expect(everythingOkLine({ type: 'house_check', everything_ok: 'no' })).toBe('Everything ok: No');
  expect(everythingOkLine({ type: 'house_check', everything_ok: 'yes' })).toBe('Everything ok: Yes');
  expect(everythingOkLine({ type: 'house_check', everything_ok: '' })).toBe('Everything ok: Not recorded');
  expect(everythingOkLine({ type: 'house_check' })).toBe('Everything ok: Not recorded');
  expect(everythingOkLine({ type: 'loud_noise', everything_ok: '' })).toBe('');
  expect(everythingOkWord({ type: 'loud_noise', everything_ok: 'no' })).toBe('');
  expect(hasIssues({ type: 'house_check', everything_ok: 'no' })).toBe(true);
  expect(hasIssues({ type: 'house_check', everything_ok: 'yes' })).toBe(false);
  expect(hasIssues({ type: 'house_check' })).toBe(false);
  expect(hasIssues({ type: 'accident', everything_ok: 'no' })).toBe(false);
});

test('a check mirrored before the field existed reads as the backfill made it on the server; a value held wins', () => {
  const older = { type: 'house_check', narative: HOUSE_CHECK_ISSUES_NARRATIVE };
  expect(answerOf(older)).toBe('no');
  expect(everythingOkLine(older)).toBe('Everything ok: No');
  expect(hasIssues(older)).toBe(true);
  expect(answerOf({ type: 'house_check', narative: HOUSE_CHECK_OK_NARRATIVE })).toBe('yes');
  expect(everythingOkLine({ type: 'house_check', narative: 'Gate open.' })).toBe('Everything ok: Not recorded');
  // Pulled since: the server's value, even where the narrative seems to say otherwise.
  expect(answerOf({ ...older, everything_ok: '' })).toBe('');
  expect(answerOf({ ...older, everything_ok: 'yes' })).toBe('yes');
  expect(answerOf({ type: 'loud_noise', narative: HOUSE_CHECK_ISSUES_NARRATIVE })).toBe('');
});

test("the migration adds everything_ok as an optional choice of one with the app's values", () => {
  const everythingOk = field(loadSchema(), 'reports', 'everything_ok');
  expect(everythingOk).toMatchObject({ type: 'select', maxSelect: 1, values: [...EVERYTHING_OK_VALUES] });
  expect(everythingOk.required).toBeFalsy();
});

describe('the record rules', () => {
  const check = {
    narative: 'All quiet.',
    type: 'house_check',
    weather: 'clear',
    incident_time: '2026-11-20 10:00:00.000Z',
    community: 'abcdefghijklmno',
    created_by: 'abcdefghijklmno',
  };
  const create = (json: Record<string, unknown>, form?: Record<string, unknown>) =>
    checkWrite('reports', { json, form }, { create: true });

  test("a house check with 'yes', 'no', '' or none at all (an older app version) is accepted", () => {
    for (const value of ['yes', 'no', '']) expect(create({ ...check, everything_ok: value })).toEqual({});
    expect(create(check)).toEqual({});
    // Other reports leave it empty, or send it empty.
    expect(create({ ...check, type: 'accident' })).toEqual({});
    expect(create({ ...check, type: 'accident', everything_ok: '' })).toEqual({});
  });

  test.each([true, false, 1, 0, null, ['no'], { value: 'no' }])(
    'the wrong JSON type %j is refused, never converted',
    (value) => {
      expect(create({ ...check, everything_ok: value })).toEqual({
        everything_ok: { code: 'validation_invalid_type', message: 'Must be text' },
      });
    },
  );

  test.each(['maybe', 'No', 'YES', ' no', 'n', 'true', 'ok', 'no'.repeat(50_000)])(
    'an unknown value is refused (%#)',
    (value) => {
      expect(create({ ...check, everything_ok: value })).toEqual({
        everything_ok: { code: 'validation_invalid_value', message: 'Must be yes or no' },
      });
    },
  );

  test('set on a report that is not a house check: refused with a field message', () => {
    for (const value of ['yes', 'no'])
      expect(create({ ...check, type: 'loud_noise', everything_ok: value })).toEqual({
        everything_ok: { code: 'validation_invalid_value', message: ONLY_HOUSE_CHECKS },
      });
  });

  test('a modifier cannot slip the answer or the type past the rule that joins them', () => {
    for (const key of ['everything_ok+', 'everything_ok-', '+everything_ok'])
      expect(Object.keys(create({ ...check, type: 'accident', [key]: 'no' }))).toEqual([key]);
    expect(
      Object.keys(checkWrite('reports', { json: { 'type+': 'accident' } }, { create: false, existing: null })),
    ).toEqual(['type+']);
  });

  test('an update answers when it touches the type or the answer', () => {
    const saved = { ...check, ai_generated_narative: '', everything_ok: 'no' };
    const update = (json: Record<string, unknown>, existing = saved) =>
      checkWrite('reports', { json }, { create: false, existing });
    // A director corrects the answer, or changes the type and clears it in one go.
    expect(update({ everything_ok: 'yes' })).toEqual({});
    expect(update({ type: 'open_garage_door', everything_ok: '' })).toEqual({});
    expect(update({ narative: 'Edited.' })).toEqual({});
    // A check that becomes another type must not keep its answer; another type never gets one.
    expect(update({ type: 'open_garage_door' })).toEqual({
      everything_ok: { code: 'validation_invalid_value', message: ONLY_HOUSE_CHECKS },
    });
    expect(update({ everything_ok: 'no' }, { ...saved, type: 'accident', everything_ok: '' })).toEqual({
      everything_ok: { code: 'validation_invalid_value', message: ONLY_HOUSE_CHECKS },
    });
    expect(update({ everything_ok: 'maybe' })).toEqual({
      everything_ok: { code: 'validation_invalid_value', message: 'Must be yes or no' },
    });
  });

  test('form-data (a check with a photo): one text value of the two', () => {
    expect(create({}, { ...check, everything_ok: 'no' })).toEqual({});
    expect(create({}, { ...check, everything_ok: 'maybe' })).toHaveProperty('everything_ok');
    expect(create({}, { ...check, everything_ok: ['yes', 'no'] })).toHaveProperty('everything_ok');
    expect(create({}, { ...check, type: 'accident', everything_ok: 'yes' })).toHaveProperty('everything_ok');
  });
});

describe('the outbox write', () => {
  let db: ScmsDatabase;
  beforeEach(async () => {
    db = new ScmsDatabase(`answer-${Math.random()}`);
    await db.open();
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  test.each([
    [false, undefined, 'no', HOUSE_CHECK_ISSUES_NARRATIVE],
    [false, 'Back door open.', 'no', 'Back door open.'],
    [true, undefined, 'yes', HOUSE_CHECK_OK_NARRATIVE],
    [true, 'Package moved inside.', 'yes', 'Package moved inside.'],
  ])(
    'answer ok=%s, remark %j: everything_ok %j beside the narrative, in the entry and the mirror',
    async (ok, remark, value, narrative) => {
      const user = { id: 'officer00000001', community: 'community000001' };
      const id = await queueHouseCheck(
        db,
        user,
        { id: 'house0000000001', address: '9 Heron Ln' },
        { everythingOk: ok, remark },
      );
      const [entry] = await db.outbox.toArray();
      const body = entry!.ops.find((op) => op.collection === 'reports')!.body;
      expect(body).toMatchObject({ type: 'house_check', everything_ok: value, narative: narrative });
      expect(await db.reports.get(id)).toMatchObject({ everything_ok: value, narative: narrative });
    },
  );
});

describe('where it shows', () => {
  test("the CSV's Everything ok column: Yes, No, Not recorded for house checks, empty for other reports", () => {
    const column = CSV_COLUMNS.indexOf('Everything ok');
    expect(column).toBeGreaterThan(0);
    const cell = (overrides: Partial<ReportRecord>) => reportRow({ report: report('r', overrides) })[column];
    expect(cell({ everything_ok: 'no' })).toBe('No');
    expect(cell({ everything_ok: 'yes' })).toBe('Yes');
    expect(cell({ everything_ok: '' })).toBe('Not recorded');
    expect(cell({ type: 'loud_noise', everything_ok: '' })).toBe('');
  });

  test("the daily report: each check's answer in its details, and the checks with issues counted", () => {
    const model = buildDayModel(
      {
        reports: [
          report('a', { everything_ok: 'no', incident_time: pbDate(new Date(2026, 10, 24, 8)) }),
          report('b', { everything_ok: 'yes', incident_time: pbDate(new Date(2026, 10, 24, 9)) }),
          report('c', { everything_ok: 'no', incident_time: pbDate(new Date(2026, 10, 24, 10)) }),
          report('d', { type: 'loud_noise', incident_time: pbDate(new Date(2026, 10, 24, 11)) }),
        ],
        calls: [],
        houses: new Map(),
        residents: new Map(),
        concerns: new Map(),
        staff: [],
      },
      new Date(2026, 10, 24),
      null,
    );
    expect(model.entries.map(entrySummary)).toEqual([
      'Everything ok: No',
      'Everything ok: Yes',
      'Everything ok: No',
      'Loud noise',
    ]);
    expect(model.checksWithIssues).toBe(2);
    expect(countsLine(model)).toBe('3 house check(s), 2 with issues · 1 report(s) · 0 call(s)');
    expect(countsLine({ counts: { house_check: 0, report: 2, call: 1 }, checksWithIssues: 0 })).toBe(
      '0 house check(s) · 2 report(s) · 1 call(s)',
    );
  });

  test("the dashboard: the period's house checks per day by answer, up to now", () => {
    const at = (day: number, hour = 12) => pbDate(new Date(2026, 10, day, hour));
    const rows = [
      report('1', { everything_ok: 'no', incident_time: at(2) }),
      report('2', { everything_ok: 'yes', incident_time: at(2, 18) }),
      report('3', { everything_ok: '', incident_time: at(3) }),
      report('4', { everything_ok: 'no', incident_time: at(4) }),
      report('5', { type: 'accident', incident_time: at(4) }),
      // Outside the period, or after now: left out.
      report('6', { everything_ok: 'no', incident_time: pbDate(new Date(2026, 9, 31, 12)) }),
      report('7', { everything_ok: 'no', incident_time: at(6) }),
    ];
    const answers = houseCheckAnswers(
      rows,
      new Date(2026, 10, 1),
      new Date(2026, 10, 30, 23, 59, 59, 999),
      new Date(2026, 10, 5, 9),
    );
    expect(answers).toMatchObject({ checks: 4, issues: 2, unknown: 1 });
    expect(answers.days).toHaveLength(5);
    expect(answers.days.map(({ ok, issues, unknown }) => [ok, issues, unknown])).toEqual([
      [0, 0, 0],
      [1, 1, 0],
      [0, 0, 1],
      [0, 1, 0],
      [0, 0, 0],
    ]);
  });

  test("the filter: 'Only house checks with issues' narrows the list to the house checks answered No", async () => {
    const draft = { ...draftOf(defaultFilter(new Date(2026, 10, 24))), types: ['accident' as const], withIssues: true };
    const outcome = applyDraft(draft);
    expect(outcome.ok && outcome.filter).toMatchObject({ withIssues: true, types: ['house_check'], filtered: true });
    expect(draftOf(defaultFilter()).withIssues).toBe(false);

    const db = new ScmsDatabase(`answer-filter-${Math.random()}`);
    try {
      await db.reports.bulkPut([
        report('no1', { everything_ok: 'no' }),
        report('yes1', { everything_ok: 'yes' }),
        report('old1', { everything_ok: '' }),
        report('acc1', { type: 'accident' }),
        // Mirrored before the field existed: the narrative's answer, as the server backfilled it.
        report('pre1', { narative: HOUSE_CHECK_ISSUES_NARRATIVE }),
      ]);
      const found = async (withIssues: boolean) =>
        (
          await queryReports(db, {
            from: new Date(2026, 10, 1),
            to: new Date(2026, 10, 30, 23, 59, 59, 999),
            withIssues,
          })
        )
          .map((item) => item.report.id)
          .sort();
      expect(await found(true)).toEqual(['no1', 'pre1']);
      expect(await found(false)).toEqual(['acc1', 'no1', 'old1', 'pre1', 'yes1']);
      // A check answered No on another device: the filtered list follows the mirror.
      await db.reports.put(report('yes1', { everything_ok: 'no' }));
      expect(await found(true)).toEqual(['no1', 'pre1', 'yes1']);
    } finally {
      db.close();
      await db.delete();
    }
  });
});
