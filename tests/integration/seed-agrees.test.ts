/**
 * The demo data agrees with itself: seeded into a real PocketBase and read
 * back as the demo director reads it, the three screens that count house
 * checks (today's House checks, the daily activity report, the dashboard)
 * count the same checks on every day of this month, the House checks screen
 * can name who made each of today's checks, narratives give the community's
 * local time, and the calls of the last weeks show on the dashboard's chart
 * and on the home cards.
 *
 * The seed runs as `npm start` runs it, its own command on a server whose
 * clock is UTC; the screens count in the device's days, and the device here
 * is in the community's time zone (America/New_York, the demo's), so the
 * seed's days and times must be the community's, not its machine's.
 */
process.env.TZ = 'America/New_York';

import { spawnSync } from 'node:child_process';
import { addDays, endOfDay, endOfMonth, isSameDay, min, startOfDay, startOfMonth } from 'date-fns';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COMMUNITIES } from '../../scripts/seed/communities.ts';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { DEMO_COMMUNITY_IDS } from '../../scripts/seed/demo-data.ts';
import { projectRoot } from '../../scripts/pocketbase/paths.ts';
import type { CallAttemptRecord, CallRecord, HouseRecord, ReportRecord, UserRecord } from '../../src/api/records.ts';
import type { DayRecords } from '../../src/data/resources/activity.ts';
import type { MirrorRow } from '../../src/data/mirror/db.ts';
import { latestCallRows } from '../../src/data/mirror/latestCalls.ts';
import { CALL_OUTCOME_LABELS, latestCallWord } from '../../src/domain/callOutcome.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { latestCheckByHome, todaysHouseChecks } from '../../src/domain/todaysHouseChecks.ts';
import { zonedClock } from '../../src/domain/zonedTime.ts';
import { buildDayModel } from '../../src/features/activity/dayModel.ts';
import { dashboardFigures } from '../../src/features/dashboard/figures.ts';
import { callJobFields } from '../../src/features/homes/homeNotices.ts';
import { startTestServer, SUPERUSER, type TestServer } from '../support/pocketbase.ts';
import { scriptProcess } from '../support/script-process.ts';

const ZONE = COMMUNITIES[0]!.timeZone;

let t: TestServer;
let now: Date;
let houses: HouseRecord[];
let reports: ReportRecord[];
let calls: CallRecord[];
let attempts: CallAttemptRecord[];
let staff: UserRecord[];

beforeAll(async () => {
  t = await startTestServer();
  const seed = spawnSync(
    ...scriptProcess(
      'scripts/seed/cli.ts',
      '--url',
      t.url,
      '--superuser-email',
      SUPERUSER.email,
      '--superuser-password',
      SUPERUSER.password,
    ),
    { cwd: projectRoot, env: { ...process.env, TZ: 'UTC' }, encoding: 'utf8' },
  );
  expect(seed.status, seed.stderr).toBe(0);
  now = new Date();
  // As the demo director's device holds them (the API rules decide what it gets).
  const pb = await t.signIn(DEMO_DIRECTOR.email, DEMO_DIRECTOR.password);
  const all = <R>(collection: string) =>
    pb.collection(collection).getFullList({ batch: 1000 }) as Promise<(R & RecordModel)[]>;
  [houses, reports, calls, attempts, staff] = await Promise.all([
    all<HouseRecord>('houses'),
    all<ReportRecord>('reports'),
    all<CallRecord>('calls'),
    all<CallAttemptRecord>('call_attempts'),
    all<UserRecord>('users'),
  ]);
});
afterAll(async () => {
  await t?.stop();
});

test("the device runs in the community's time zone", () => {
  expect(ZONE).toBe('America/New_York');
  // January: Eastern Standard Time, 5 hours behind UTC.
  expect(new Date(Date.UTC(2026, 0, 15)).getTimezoneOffset()).toBe(300);
});

/** The reports whose incident lies on `day` (as the House checks screen reads them: queryDayChecks). */
const reportsOf = (day: Date) => {
  const [low, high] = [pbDate(startOfDay(day)), pbDate(endOfDay(day))];
  return reports.filter((r) => r.incident_time >= low && r.incident_time <= high);
};

/** The House checks screen's count for `day`, as it was at `at` (the screen's clock). */
function houseChecksScreen(day: Date, at: Date) {
  const byHome = latestCheckByHome(reportsOf(day));
  const today = todaysHouseChecks(
    houses,
    (h) => h,
    at,
    (h) => byHome.has(h.id),
  );
  return { today, byHome };
}

/** The daily activity report's count of house checks for `day`, all officers. */
function activityReport(day: Date): number {
  const records: DayRecords = {
    reports: reportsOf(day) as MirrorRow<'reports'>[],
    calls: [],
    houses: new Map(houses.map((h) => [h.id, h])),
    residents: new Map(),
    concerns: new Map(),
    staff,
  };
  return buildDayModel(records, day, null).counts.house_check;
}

function dashboard() {
  const [from, to] = [startOfMonth(now), endOfMonth(now)];
  const [low, high] = [pbDate(from), pbDate(to)];
  return dashboardFigures({
    from,
    to,
    now,
    reports: reports.filter((r) => r.incident_time >= low && r.incident_time <= high),
    calls: calls.filter((c) => c.created >= low && c.created <= high),
    homes: houses,
    checkReports: reports,
  });
}

describe('house checks', () => {
  test('the three screens count the same checks on every day of this month, and in all of it', () => {
    const figures = dashboard();
    const days: Array<{ day: string; screen: number; activity: number; dashboard: number }> = [];
    for (let day = startOfMonth(now); day <= now; day = addDays(day, 1)) {
      const at = min([endOfDay(day), now]);
      const row = figures.houseChecks.days.find((d) => isSameDay(d.day, day));
      days.push({
        day: day.toDateString(),
        screen: houseChecksScreen(day, at).today.done.length,
        activity: activityReport(day),
        dashboard: row?.done ?? -1,
      });
    }
    for (const row of days) expect({ ...row, activity: row.screen, dashboard: row.screen }).toEqual(row);
    const month = days.reduce((sum, row) => sum + row.screen, 0);
    expect(figures.houseChecks.done).toBe(month);
    // The dashboard's other house check card counts them too.
    expect(figures.answers.checks).toBe(month);
    // Every house check report of the community is one of these checks.
    const monthStart = pbDate(startOfMonth(now));
    expect(
      reports.filter((r) => r.type === 'house_check' && r.incident_time >= monthStart && r.incident_time <= pbDate(now))
        .length,
    ).toBe(month);
    // Today one check is done, and some are not yet.
    const today = days.at(-1)!;
    expect(today.screen).toBeGreaterThanOrEqual(1);
    expect(figures.houseChecks.due).toBeGreaterThan(figures.houseChecks.done);
  });

  test("today's done checks name the officer who made them, at the home's last-checked time", () => {
    const { today, byHome } = houseChecksScreen(now, now);
    expect(today.done.length).toBeGreaterThanOrEqual(1);
    expect(today.due.length).toBeGreaterThanOrEqual(2);
    for (const home of today.done) {
      const report = byHome.get(home.id);
      expect(report, `the report of the check of ${home.address}`).toBeDefined();
      expect(report!.incident_time).toBe(home.house_check_last_date);
      const officer = staff.find((u) => u.id === report!.created_by);
      expect(officer?.first_name).toBeTruthy();
    }
  });

  test('every home checked in its window has the report of that check, and no other house check report exists', () => {
    const checkReports = reports.filter((r) => r.type === 'house_check');
    expect(checkReports.length).toBeGreaterThanOrEqual(10);
    for (const report of checkReports) {
      const home = houses.find((h) => h.id === report.house);
      expect(home?.house_check).toBe(true);
      expect(home?.house_check_last_date).toBe(report.incident_time);
      expect(report.incident_time >= home!.house_check_start_date).toBe(true);
      expect(report.incident_time <= home!.house_check_end_date).toBe(true);
      expect(['yes', 'no']).toContain(report.everything_ok);
    }
  });
});

test("narratives give the community's local time of the incident", () => {
  const timed = reports.filter((r) => /approx \d{4} hrs/.test(r.narative));
  expect(timed.length).toBeGreaterThan(10);
  for (const report of timed) {
    const hrs = /approx (\d\d)(\d\d) hrs/.exec(report.narative)!;
    const local = new Date(report.incident_time.replace(' ', 'T'));
    expect(`${hrs[1]}:${hrs[2]}`).toBe(zonedClock(ZONE, local.getTime()));
    // What the report's card shows on a device in the community's zone.
    expect(`${hrs[1]}:${hrs[2]}`).toBe(
      `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`,
    );
  }
});

describe('calls', () => {
  test("this month's calls chart has calls of every outcome", () => {
    const figures = dashboard();
    expect(figures.callTotal).toBeGreaterThan(0);
    const counted = figures.calls.filter((row) => row.count > 0);
    expect(counted.length).toBeGreaterThan(0);
    // The last weeks' calls, in all this month and the one before: every outcome.
    expect(new Set(calls.map((c) => c.outcome))).toEqual(new Set(Object.keys(CALL_OUTCOME_LABELS)));
    for (const call of calls) {
      expect(call.community).toBe(DEMO_COMMUNITY_IDS.primary);
      expect(call.created <= pbDate(new Date())).toBe(true);
      expect(call.progress).toBe('done');
    }
  });

  test("the home cards say how each home's last call went, with its attempts as the call jobs write them", () => {
    const rows = latestCallRows(calls as MirrorRow<'calls'>[]);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const time = (value: string) => value.slice(11, 16);
    const words = rows.map((row) => {
      const own = attempts.filter((a) => a.call === row.call).sort((a, b) => a.sequence - b.sequence);
      expect(own.length).toBeGreaterThan(0);
      for (const attempt of own) {
        expect(attempt.state).toBe('ended');
        expect(attempt.house).toBe(row.id);
        expect(attempt.created >= row.created).toBe(true);
      }
      expect(own.at(-1)!.outcome).toBe(row.outcome);
      return latestCallWord(callJobFields(row), own, time);
    });
    for (const word of words) expect(word).not.toBe('');
    expect(words.some((word) => /^Answered \d\d:\d\d$/.test(word) || word === 'Acknowledged')).toBe(true);
    expect(words.some((word) => /^No answer after \d+ tries$/.test(word))).toBe(true);
  });
});
