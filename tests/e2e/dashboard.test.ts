/**
 * The manager's view in Chromium against a real PocketBase with
 * the demo data plus a seeded month (reports spread over this month, house
 * check windows and checks, calls with each outcome), at a phone and a
 * desktop size: every figure's table says what the device's mirror holds,
 * counted here again independently of the app's code; the mirror holds
 * what the server does; offline (after a reload) the same figures show;
 * a regular officer has no Dashboard. Screenshots online and offline.
 */
import {
  addDays,
  endOfDay,
  endOfMonth,
  format,
  isSameDay,
  min,
  startOfDay,
  startOfMonth,
  startOfWeek,
  subMonths,
} from 'date-fns';
import type { Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR, DEMO_MANAGER, DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { reportTypeLabel } from '../../src/domain/reportTypes.ts';
import { idb, signedInUserId, waitForPagesUnpacked, waitForWorkerControl } from './pwa-helpers.ts';
import {
  DEMO_COMMUNITY_IDS,
  expectNoSeriousA11yViolations,
  navigate,
  screenshot,
  signedInPage,
  SIZE_NAMES,
  useScreensApp,
} from './screens-helpers.ts';

const env = useScreensApp();
const COMMUNITY = DEMO_COMMUNITY_IDS.primary;
const now = new Date();
const month = { from: startOfMonth(now), to: endOfMonth(now) };
const older = { from: startOfMonth(subMonths(now, 3)), to: endOfMonth(subMonths(now, 3)) };
const OUTCOMES: Record<string, string> = {
  answered: 'Answered',
  voicemail: 'Voicemail',
  busy: 'Busy',
  no_answer: 'No answer',
  failed: 'Failed',
};

const time = (value: string) => new Date(value.replace(' ', 'T'));
const inMonth = (value: string) => time(value) >= month.from && time(value) <= month.to;

beforeAll(async () => {
  const pb = env.app.server.admin;
  const director = await pb.collection('users').getFirstListItem(pb.filter('email = {:e}', { e: DEMO_DIRECTOR.email }));
  const homes = (
    await pb.collection('houses').getList(1, 4, {
      filter: pb.filter('community = {:c}', { c: COMMUNITY }),
      sort: '-address',
    })
  ).items;
  const [busiest, second, windowed, unchecked] = homes as [RecordModel, RecordModel, RecordModel, RecordModel];
  // The server refuses incident times in the future: the month's days up to today, at 10:15 or just before now.
  const days = now.getDate();
  const reportTime = (day: number, hour: number, minute: number) =>
    pbDate(min([new Date(now.getFullYear(), now.getMonth(), day, hour, minute), new Date(now.getTime() - 60_000)]));
  const base = {
    community: COMMUNITY,
    weather: 'clear',
    injury: false,
    ems_pbso: false,
    resident: '',
    created_by: director.id,
  };
  const types = ['accident', 'loud_noise', 'open_garage_door', 'ticket_issued', 'youths_fishing'];
  const creates: Promise<unknown>[] = [];
  // One report a day up to today, the types in turn; the busiest home gets every third one.
  for (let day = 1; day <= days; day++) {
    creates.push(
      pb.collection('reports').create({
        ...base,
        type: types[day % types.length],
        house: day % 3 === 0 ? busiest.id : second.id,
        incident_time: reportTime(day, 10, 15),
        narative: `Seeded month report ${day}`,
      }),
    );
  }
  // Two homes under a house-check window from the 1st to the 5th; one is checked on the 2nd.
  const windowEnd = endOfDay(addDays(month.from, 4));
  for (const home of [windowed, unchecked])
    creates.push(
      pb.collection('houses').update(home.id, {
        house_check: true,
        house_check_start_date: pbDate(month.from),
        house_check_end_date: pbDate(windowEnd),
        house_check_last_date: '',
      }),
    );
  creates.push(
    pb.collection('reports').create({
      ...base,
      type: 'house_check',
      house: windowed.id,
      incident_time: reportTime(Math.min(2, days), 8, 0),
      narative: 'Seeded month house check',
      everything_ok: 'no',
    }),
  );
  // Two more checks answered No and one answered Yes today, for the checks with issues.
  for (const [minute, answer] of [
    [1, 'no'],
    [2, 'no'],
    [3, 'yes'],
  ] as const)
    creates.push(
      pb.collection('reports').create({
        ...base,
        type: 'house_check',
        house: second.id,
        incident_time: reportTime(days, 0, minute),
        narative: `Seeded check ${minute}`,
        everything_ok: answer,
      }),
    );
  // Calls with each outcome, one still waiting to retry (the server sets `created`: now, in this month).
  const calls: Array<{ outcome: string; progress: string; acknowledged?: boolean }> = [
    { outcome: 'answered', progress: 'done', acknowledged: true },
    { outcome: 'answered', progress: 'done' },
    { outcome: 'voicemail', progress: 'done' },
    { outcome: 'busy', progress: 'done' },
    { outcome: 'no_answer', progress: 'done' },
    { outcome: 'failed', progress: 'done' },
    { outcome: '', progress: 'waiting' },
  ];
  calls.forEach((call, i) =>
    creates.push(
      pb.collection('calls').create({
        house: homes[i % 4]!.id,
        community: COMMUNITY,
        concerns: [],
        to_number: '+15615550101',
        script: 'Hello. This is Palm Grove Estates security team. Thank you. Good bye.',
        status: call.progress === 'done' ? 'completed' : 'busy',
        acknowledged: call.acknowledged ?? false,
        ...call,
        created_by: director.id,
      }),
    ),
  );
  // A month the first sync does not bring (it takes this month and the last): five reports of two types.
  for (let i = 0; i < 5; i++)
    creates.push(
      pb.collection('reports').create({
        ...base,
        type: i < 3 ? 'false_alarm' : 'damaged_mailbox',
        house: i < 4 ? busiest.id : second.id,
        incident_time: pbDate(new Date(older.from.getFullYear(), older.from.getMonth(), 3 + i * 5, 21, 30)),
        narative: `Seeded older month report ${i}`,
      }),
    );
  await Promise.all(
    creates.map((create) =>
      create.catch((error: { response?: unknown }) => {
        throw new Error(`seeding the month failed: ${JSON.stringify(error.response)}`, { cause: error });
      }),
    ),
  );
});

interface Mirror {
  reports: RecordModel[];
  calls: RecordModel[];
  houses: RecordModel[];
}

/** The device's mirror, read straight from IndexedDB (not through the app's code). */
async function readMirror(page: Page): Promise<Mirror> {
  const userId = await signedInUserId(page);
  await waitForPagesUnpacked(page, userId);
  const database = `scms-${userId}`;
  const [reports, calls, houses] = await Promise.all(
    (['reports', 'calls', 'houses'] as const).map((store) => idb<RecordModel[]>(page, database, store, 'getAll')),
  );
  return { reports: reports!, calls: calls!, houses: houses! };
}

const countBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

/** Each figure as the mirror gives it, counted here without the app's code. */
function expectedFigures(mirror: Mirror) {
  const reports = mirror.reports.filter((r) => inMonth(String(r.incident_time)));
  const byType = countBy(reports, (r) => reportTypeLabel(String(r.type)));
  const weeks: number[] = [];
  for (let start = startOfWeek(month.from, { weekStartsOn: 1 }); start <= month.to; start = addDays(start, 7)) {
    const end = addDays(start, 7);
    weeks.push(
      reports.filter((r) => time(String(r.incident_time)) >= start && time(String(r.incident_time)) < end).length,
    );
  }
  const calls = mirror.calls.filter((c) => inMonth(String(c.created)));
  const outcomes = countBy(
    calls,
    (c) =>
      OUTCOMES[String(c.outcome)] ??
      (c.progress === 'calling' || c.progress === 'waiting' ? 'In progress' : 'No outcome'),
  );
  for (const label of Object.values(OUTCOMES)) outcomes.set(label, outcomes.get(label) ?? 0);
  const houses = new Map(mirror.houses.map((h) => [String(h.id), h]));
  const address = (id: string) => {
    const h = houses.get(id);
    return h ? String(h.address) + (h.apt ? `, ${String(h.apt)}` : '') : 'N/A';
  };
  const top = [
    ...countBy(
      reports.filter((r) => r.house),
      (r) => String(r.house),
    ),
  ]
    .map(([id, count]) => [address(id), String(count)])
    .sort((a, b) => Number(b[1]) - Number(a[1]) || a[0]!.localeCompare(b[0]!, undefined, { numeric: true }))
    .slice(0, 10);

  // The due rule day by day: due from the window's first day until the day of its first check (that day counted done).
  let due = 0;
  let done = 0;
  const checks = mirror.reports.filter((r) => r.type === 'house_check');
  for (let day = month.from; day <= min([month.to, endOfDay(now)]); day = addDays(day, 1)) {
    for (const h of mirror.houses) {
      if (!h.house_check || !h.house_check_start_date || !h.house_check_end_date) continue;
      const [start, end] = [
        startOfDay(time(String(h.house_check_start_date))),
        endOfDay(time(String(h.house_check_end_date))),
      ];
      if (day < start || day > end || end < start) continue;
      const times = checks.filter((r) => r.house === h.id).map((r) => time(String(r.incident_time)));
      if (h.house_check_last_date) times.push(time(String(h.house_check_last_date)));
      if (times.some((t) => t >= start && t < day)) continue;
      due++;
      if (times.some((t) => isSameDay(t, day))) done++;
    }
  }
  // The month's house checks by their answer, day by day up to today: Everything ok, Issues found (, Not recorded).
  const monthChecks = reports.filter((r) => r.type === 'house_check');
  const unknown = monthChecks.filter((r) => r.everything_ok !== 'yes' && r.everything_ok !== 'no').length;
  const answerRows: string[][] = [];
  for (let day = month.from; day <= min([month.to, endOfDay(now)]); day = addDays(day, 1)) {
    const those = monthChecks.filter((r) => isSameDay(time(String(r.incident_time)), day));
    const row = [
      format(day, 'MMM d'),
      String(those.filter((r) => r.everything_ok === 'yes').length),
      String(those.filter((r) => r.everything_ok === 'no').length),
    ];
    if (unknown > 0)
      row.push(String(those.filter((r) => r.everything_ok !== 'yes' && r.everything_ok !== 'no').length));
    answerRows.push(row);
  }
  const answers = {
    checks: monthChecks.length,
    issues: monthChecks.filter((r) => r.everything_ok === 'no').length,
    rows: answerRows,
  };
  return { total: reports.length, byType, weeks, outcomes, callTotal: calls.length, top, due, done, answers };
}

/** A figure's table as rows of cells (row heading first). */
async function tableRows(page: Page, title: string): Promise<string[][]> {
  const table = page.getByRole('table', { name: title });
  await table.waitFor();
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim() ?? '')),
    );
}

async function expectFiguresOfMirror(page: Page, mirror: Mirror): Promise<void> {
  const expected = expectedFigures(mirror);
  await page.getByText(`${expected.total} report(s)`, { exact: true }).waitFor();
  const types = await tableRows(page, 'Reports by type');
  expect(new Map(types.map(([label, count]) => [label, Number(count)]))).toEqual(expected.byType);
  expect((await tableRows(page, 'Reports by week')).map((row) => Number(row[1]))).toEqual(expected.weeks);
  await page.getByText(new RegExp(`^${expected.done} of ${expected.due} due check\\(s\\) done`)).waitFor();
  const { checks, issues, rows } = expected.answers;
  await page.getByText(new RegExp(`^${checks} house check\\(s\\), ${issues} with issues \\(`)).waitFor();
  expect(await tableRows(page, 'House checks with issues')).toEqual(rows);
  const calls = await tableRows(page, 'Calls by outcome');
  expect(new Map(calls.map(([label, count]) => [label, Number(count)]))).toEqual(expected.outcomes);
  await page.getByText(`${expected.callTotal} call(s)`, { exact: true }).waitFor();
  expect(await tableRows(page, 'Homes with the most reports')).toEqual(expected.top);
}

describe.each(SIZE_NAMES)('the dashboard (%s)', (size) => {
  let page: Page;

  beforeAll(async () => {
    ({ page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR));
    // The offline reload is served by the service worker: it must control the page.
    await waitForWorkerControl(page);
  });

  test("this month's figures are the mirror's, and the mirror holds the server's month", async () => {
    await navigate(page, 'Reports');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    const mirror = await readMirror(page);
    const pb = env.app.server.admin;
    const serverMonth = await pb.collection('reports').getFullList({
      filter: pb.filter('community = {:c} && incident_time >= {:f} && incident_time <= {:t}', {
        c: COMMUNITY,
        f: pbDate(month.from),
        t: pbDate(month.to),
      }),
      fields: 'id',
    });
    const expected = expectedFigures(mirror);
    expect(expected.total).toBe(serverMonth.length);
    // The seeded month is in: a report every day so far, five types, calls of every outcome, one check done of the due.
    expect(expected.total).toBeGreaterThanOrEqual(now.getDate());
    expect(expected.callTotal).toBeGreaterThanOrEqual(7);
    expect(expected.due).toBeGreaterThan(expected.done);
    expect(expected.done).toBeGreaterThanOrEqual(1);
    // The seeded checks answered No are among the month's checks with issues.
    expect(expected.answers.issues).toBeGreaterThanOrEqual(3);
    expect(expected.answers.rows.at(-1)![2]).not.toBe('0');

    await expectFiguresOfMirror(page, mirror);
    // Every chart drew on a canvas of the page's width at most (readable on a phone).
    const canvases = page.locator('canvas');
    // Six of reports, checks and calls; the tours' two once a round of the demo's night patrol (made with the
    // demo data, minutes ago) has ended, each saying so until then.
    await page.getByRole('heading', { name: 'Tour rounds', level: 2 }).waitFor();
    await page.getByRole('heading', { name: 'Missed checkpoints by place', level: 2 }).waitFor();
    const toursEmpty = await page.getByText('No tour rounds ended in this period.').count();
    await expect(canvases.count()).resolves.toBe(toursEmpty === 1 ? 6 : 8);
    const width = page.viewportSize()!.width;
    for (const box of await canvases.evaluateAll((all) => all.map((c) => c.getBoundingClientRect().width)))
      expect(box).toBeLessThanOrEqual(width);
    await screenshot(page, 'dashboard');
    await screenshot(page, 'dashboard-full', true);
    // The checks with issues beside the checks done against due.
    await page
      .getByRole('heading', { name: 'House checks with issues', level: 2 })
      // Clear of the fixed top bar.
      .evaluate((heading) => window.scrollBy(0, heading.getBoundingClientRect().top - 80));
    await screenshot(page, 'dashboard-checks-with-issues');
    await expectNoSeriousA11yViolations(page, 'the dashboard');
  });

  test('offline, after a reload, the same figures come from the mirror', async () => {
    const mirror = await readMirror(page);
    await page.context().setOffline(true);
    try {
      await page.reload();
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();
      await expectFiguresOfMirror(page, mirror);
      await screenshot(page, 'dashboard-offline');
    } finally {
      await page.context().setOffline(false);
    }
  });
});

/** Picks a day on one of the period's calendars, going back `monthsBack` months from the one it opens on. */
async function pickDay(page: Page, field: 'From date' | 'To date', day: Date, monthsBack: number): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${field}`) }).click();
  for (let i = 0; i < monthsBack; i++) await page.getByRole('button', { name: 'Go to the Previous Month' }).click();
  await page.getByRole('button', { name: new RegExp(`^${format(day, 'd MMMM yyyy, EEEE')}`) }).click();
  // Picking closes the calendar; the field shows the day.
  await page.getByRole('button', { name: `${field} ${format(day, 'MMM d, yyyy')}` }).waitFor();
}

describe.each(SIZE_NAMES)('the dashboard over an older month (%s)', (size) => {
  test("a month the device does not hold is pulled into the mirror, and its figures are the server's", async () => {
    const { page, context } = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR);
    await page.goto(`${env.app.server.url}/reports/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await pickDay(page, 'From date', older.from, 3);
    await pickDay(page, 'To date', older.to, 3);
    await page.getByText(`${format(older.from, 'MMM d, yyyy')} – ${format(older.to, 'MMM d, yyyy')}`).waitFor();

    const pb = env.app.server.admin;
    const server = await pb.collection('reports').getFullList({
      filter: pb.filter('community = {:c} && incident_time >= {:f} && incident_time <= {:t}', {
        c: COMMUNITY,
        f: pbDate(older.from),
        t: pbDate(older.to),
      }),
    });
    expect(server.length).toBeGreaterThanOrEqual(5);
    await page.getByText(`${server.length} report(s)`, { exact: true }).waitFor({ timeout: 20_000 });
    const types = await tableRows(page, 'Reports by type');
    expect(new Map(types.map(([label, count]) => [label, Number(count)]))).toEqual(
      countBy(server, (r) => reportTypeLabel(String(r.type))),
    );
    // And the mirror now holds that month (so it shows offline too).
    const mirror = await readMirror(page);
    expect(
      mirror.reports.filter(
        (r) => time(String(r.incident_time)) >= older.from && time(String(r.incident_time)) <= older.to,
      ).length,
    ).toBe(server.length);
    await screenshot(page, 'dashboard-older-month');
    await context.close();
  });
});

describe.each(SIZE_NAMES)('who sees the dashboard (%s)', (size) => {
  test('a manager does; a regular officer has no Dashboard button and is told it is for directors and managers', async () => {
    const manager = await signedInPage(env.browser, env.app.server.url, size, DEMO_MANAGER);
    await navigate(manager.page, 'Reports');
    await manager.page.getByRole('link', { name: 'Dashboard' }).click();
    await manager.page.getByRole('table', { name: 'Reports by type' }).waitFor();
    await manager.context.close();

    const officer = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    const { page } = officer;
    await navigate(page, 'Reports');
    await page.getByRole('link', { name: 'Daily report' }).waitFor();
    await expect(page.getByRole('link', { name: 'Dashboard' }).count()).resolves.toBe(0);
    await page.goto(`${env.app.server.url}/reports/dashboard`);
    await page.getByText('The dashboard is for directors and managers.').waitFor();
    await expect(page.getByRole('table').count()).resolves.toBe(0);
    await screenshot(page, 'dashboard-regular');
    await expectNoSeriousA11yViolations(page, 'the dashboard for an officer');
    // Not a dead end: the way back to the reports is on the page.
    await page.getByRole('link', { name: '← Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await officer.context.close();
  });
});
