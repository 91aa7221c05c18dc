/**
 * The daily activity report in Chromium against a real
 * PocketBase with the demo data, at a phone and a desktop size: from the
 * Reports toolbar, the day's preview, then 'Download PDF' (Playwright's
 * download event); the PDF's text (pdfjs) names the day's house checks,
 * reports and calls, its counts are the server's for that day, and another
 * day's report is not in it. Offline, the same from the mirror: another
 * officer chosen, and the day before. Screenshots online and offline.
 */
import { addDays, endOfDay, format, setHours, setMinutes, startOfDay } from 'date-fns';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR, DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { DEFAULT_CALL_SETTINGS } from '../../src/domain/quietHours.ts';
import { roundsBoard, type BoardScan, type BoardTour, type BoardWalk } from '../../src/domain/tourBoard.ts';
import { screenshots, sizeOf } from '../support/journey.ts';
import { pdfImageCount, pdfPageSizes, pdfText } from '../support/pdfText.ts';
import { waitForWorkerControl } from './pwa-helpers.ts';
import {
  DEMO_COMMUNITY_IDS,
  expectNoSeriousA11yViolations,
  isPhone,
  navigate,
  screenshot,
  signedInPage,
  SIZE_NAMES,
  useScreensApp,
} from './screens-helpers.ts';

const env = useScreensApp();
const COMMUNITY = DEMO_COMMUNITY_IDS.primary;
const today = startOfDay(new Date());
const yesterday = addDays(today, -1);
const at = (day: Date, hour: number, minute: number) => pbDate(setMinutes(setHours(day, hour), minute));
/**
 * Today's times so far (the server refuses incident times in the future):
 * the given fraction of the time since midnight.
 */
const soFarToday = (fraction: number) => pbDate(new Date(today.getTime() + (Date.now() - today.getTime()) * fraction));
/** Marks this run's records, so the PDF's text is checked against them and nothing else. */
const TAG = `dar${Date.now().toString(36)}`;

/** A tiny teal PNG (16×12), as a report photo. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR42mPgndJBEmIY1TCqATsCAIV93sFVhzWVAAAAAElFTkSuQmCC',
  'base64',
);

interface Seeded {
  officer: RecordModel;
  director: RecordModel;
  checkHome: RecordModel;
  reportHome: RecordModel;
}
let seeded: Seeded;

beforeAll(async () => {
  const pb = env.app.server.admin;
  const byEmail = (email: string) => pb.collection('users').getFirstListItem(pb.filter('email = {:e}', { e: email }));
  const [officer, director] = await Promise.all([byEmail(DEMO_REGULAR.email), byEmail(DEMO_DIRECTOR.email)]);
  const homes = await pb
    .collection('houses')
    .getList(1, 2, { filter: pb.filter('community = {:c}', { c: COMMUNITY }), sort: 'address' });
  const [checkHome, reportHome] = homes.items as [RecordModel, RecordModel];
  const base = { community: COMMUNITY, weather: 'clear', injury: false, ems_pbso: false, resident: '' };
  // Today: the officer's house check, the director's report with a photo; yesterday: a report that must not show.
  await pb.collection('reports').create({
    ...base,
    type: 'house_check',
    house: checkHome.id,
    created_by: officer.id,
    incident_time: soFarToday(0.3),
    narative: `House check ${TAG} gate locked`,
    everything_ok: 'no',
  });
  const form = new FormData();
  for (const [key, value] of Object.entries({
    ...base,
    type: 'loud_noise',
    house: reportHome.id,
    created_by: director.id,
    incident_time: soFarToday(0.6),
    narative: `Report ${TAG} music turned down`,
    injury: true,
  }))
    form.append(key, String(value));
  form.append('photos', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'porch.png');
  await pb.collection('reports').create(form);
  await pb.collection('reports').create({
    ...base,
    type: 'false_alarm',
    house: reportHome.id,
    created_by: director.id,
    incident_time: at(yesterday, 13, 20),
    narative: `Yesterday ${TAG} alarm reset`,
  });
  // A call placed today (the server sets `created`), ended in voicemail.
  await pb.collection('calls').create({
    house: reportHome.id,
    community: COMMUNITY,
    concerns: [],
    to_number: '+15615550102',
    script: 'Hello. This is Palm Grove Estates security team. Thank you. Good bye.',
    status: 'completed',
    progress: 'done',
    outcome: 'voicemail',
    acknowledged: false,
    created_by: director.id,
  });
  seeded = { officer, director, checkHome, reportHome };
});

/** What the server holds for a day (and officer): the counts the PDF must print. */
async function serverCounts(day: Date, officerId?: string): Promise<string> {
  const pb = env.app.server.admin;
  const [from, to] = [pbDate(startOfDay(day)), pbDate(endOfDay(day))];
  const who = officerId ? pb.filter(' && created_by = {:o}', { o: officerId }) : '';
  const reports = await pb.collection('reports').getFullList({
    filter:
      pb.filter('community = {:c} && incident_time >= {:f} && incident_time <= {:t}', {
        c: COMMUNITY,
        f: from,
        t: to,
      }) + who,
    fields: 'type,everything_ok',
  });
  const calls = await pb.collection('calls').getFullList({
    filter: pb.filter('community = {:c} && created >= {:f} && created <= {:t}', { c: COMMUNITY, f: from, t: to }) + who,
    fields: 'id',
  });
  const checks = reports.filter((r) => r.type === 'house_check').length;
  const issues = reports.filter((r) => r.type === 'house_check' && r.everything_ok === 'no').length;
  const checkWords = checks > 0 ? `${checks} house check(s), ${issues} with issues` : '0 house check(s)';
  const line = `${checkWords} · ${reports.length - checks} report(s) · ${calls.length} call(s)`;
  // The day's tour rounds (the demo's night patrol), by the rule the app reads them with, on the server's records.
  // The rounds that happened: walked, or missed (not those still ahead or due and not started).
  const mine = (await serverRounds(day)).filter(
    (r) =>
      r.outcome.status !== 'upcoming' &&
      r.outcome.status !== 'due' &&
      (!officerId || r.walks.some((w) => w.officer === officerId)),
  );
  if (mine.length === 0) return line;
  return `${line} · ${mine.length} round(s), ${mine.filter((r) => r.outcome.status === 'on_time').length} on time`;
}

async function serverRounds(day: Date) {
  const pb = env.app.server.admin;
  const filter = pb.filter('community = {:c}', { c: COMMUNITY });
  const [tours, walks, scans, settings] = await Promise.all([
    pb.collection('tours').getFullList<BoardTour>({ filter }),
    pb.collection('tour_walks').getFullList<BoardWalk>({ filter }),
    pb.collection('checkpoint_scans').getFullList<BoardScan>({ filter }),
    pb.collection('call_settings').getFullList({ filter }),
  ]);
  const zone = String(settings[0]?.time_zone || DEFAULT_CALL_SETTINGS.timeZone);
  return roundsBoard(tours, walks, scans, { zone, now: Date.now(), day: startOfDay(day).getTime() + 12 * 3_600_000 });
}

/** Clicks 'Download PDF' and returns the file's name, text, number of pictures and page sizes. */
async function downloadPdf(
  page: Page,
): Promise<{ name: string; text: string; images: number; sizes: Array<[number, number]> }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download PDF' }).click(),
  ]);
  const file = await readFile(await download.path());
  // Kept beside the screenshots, for a person to look at.
  await download.saveAs(
    join(screenshots, `screens-${download.suggestedFilename().replace(/\.pdf$/, '')}-${sizeOf(page)}.pdf`),
  );
  return {
    name: download.suggestedFilename(),
    text: await pdfText(file),
    images: await pdfImageCount(file),
    sizes: await pdfPageSizes(file),
  };
}

const addressOf = (home: RecordModel) => String(home.address) + (home.apt ? `, ${String(home.apt)}` : '');

describe.each(SIZE_NAMES)('the daily activity report (%s)', (size) => {
  let page: Page;

  beforeAll(async () => {
    ({ page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR));
    // The photo is kept for offline by the service worker: it must control the page.
    await waitForWorkerControl(page);
  });

  test("from the Reports toolbar: today's preview and its PDF name the day's house checks, reports and calls, not another day's", async () => {
    await navigate(page, 'Reports');
    await page.getByRole('link', { name: 'Daily report' }).waitFor();
    await screenshot(page, 'reports-toolbar');
    await page.getByRole('link', { name: 'Daily report' }).click();
    await page.getByRole('heading', { name: 'Daily activity report', level: 1 }).waitFor();
    // The Reports entry stays the highlighted one.
    if (!isPhone(page))
      await expect(
        page.locator('nav').getByRole('link', { name: 'Reports', exact: true }).getAttribute('aria-current'),
      ).resolves.toBe('page');

    const entries = page.getByRole('list', { name: 'Entries of the day' });
    await entries.getByText(`House check ${TAG} gate locked`).waitFor();
    await entries.getByText(`Report ${TAG} music turned down`).waitFor();
    // The check's answer to 'Is everything ok?' is in its details.
    await entries
      .getByRole('listitem')
      .filter({ hasText: `House check ${TAG} gate locked` })
      .getByText(/· Everything ok: No/)
      .waitFor();
    await expect(entries.getByText(`Yesterday ${TAG}`).count()).resolves.toBe(0);
    const counts = await serverCounts(today);
    await page.getByText(counts, { exact: true }).waitFor();
    // The photo shows as a thumbnail (and so lands in the worker's image cache).
    await expect
      .poll(() => entries.getByRole('img', { name: 'Photo 1' }).evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(page, 'daily-report');
    await screenshot(page, 'daily-report-full', true);
    await expectNoSeriousA11yViolations(page, 'the daily activity report');

    const { name, text, images, sizes } = await downloadPdf(page);
    expect(name).toBe(`activity-palm-grove-estates-${format(today, 'yyyy-MM-dd')}.pdf`);
    // A Florida community (Jupiter, FL) prints on US Letter.
    expect(new Set(sizes.map((size) => size.join(' × ')))).toEqual(new Set(['612 × 792']));
    for (const words of [
      'Daily activity report',
      'Palm Grove Estates',
      `${format(today, 'MMM d, yyyy')} 00:00 – 23:59`,
      'Officer: All officers',
      counts,
      `House check ${TAG} gate locked`,
      `Report ${TAG} music turned down`,
      addressOf(seeded.checkHome),
      'Everything ok: No',
      'Voicemail · (561) 555-0102',
    ])
      expect(text).toContain(words);
    expect(text).not.toContain(`Yesterday ${TAG}`);
    // Online, the photo is in the file as a thumbnail, not listed as missing.
    expect(text).not.toContain('not available offline');
    expect(images).toBe(1);
    // Time order: the house check before the report.
    expect(text.indexOf(`House check ${TAG}`)).toBeLessThan(text.indexOf(`Report ${TAG}`));
    // The check's answer heads its narrative.
    const narrative = text.indexOf(`House check ${TAG} gate locked`);
    expect(text.lastIndexOf('Everything ok: No', narrative)).toBeGreaterThan(narrative - 200);
  });

  test('offline, from the mirror: one officer, then the day before', async () => {
    const context = page.context();
    await context.setOffline(true);
    try {
      await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();
      await page.getByLabel('Officer').selectOption(seeded.officer.id);
      const entries = page.getByRole('list', { name: 'Entries of the day' });
      await expect.poll(() => entries.getByText(`Report ${TAG}`).count()).toBe(0);
      await entries.getByText(`House check ${TAG} gate locked`).waitFor();
      const mine = await serverCounts(today, seeded.officer.id);
      await page.getByText(mine, { exact: true }).waitFor();
      await screenshot(page, 'daily-report-offline');
      let { text } = await downloadPdf(page);
      expect(text).toContain(`Officer: ${String(seeded.officer.first_name)} ${String(seeded.officer.last_name)}`);
      expect(text).toContain(mine);
      expect(text).toContain(`House check ${TAG} gate locked`);
      expect(text).not.toContain(`Report ${TAG}`);

      // All officers again, offline: the photo the preview showed comes from the image cache.
      await page.getByLabel('Officer').selectOption('');
      await entries.getByText(`Report ${TAG} music turned down`).waitFor();
      const all = await downloadPdf(page);
      expect(all.text).toContain(`Report ${TAG} music turned down`);
      expect(all.text).not.toContain('not available offline');
      expect(all.images).toBe(1);

      // The day before, picked on the calendar: held by the mirror (the first sync brings two months).
      await page.getByRole('button', { name: /^Day / }).click();
      if (yesterday.getMonth() !== today.getMonth())
        await page.getByRole('button', { name: 'Go to the Previous Month' }).click();
      await page.getByRole('button', { name: new RegExp(`^${format(yesterday, 'd MMMM yyyy, EEEE')}`) }).click();
      await entries.getByText(`Yesterday ${TAG} alarm reset`).waitFor();
      await page.getByText(await serverCounts(yesterday), { exact: true }).waitFor();
      ({ text } = await downloadPdf(page));
      expect(text).toContain(`Yesterday ${TAG} alarm reset`);
      expect(text).toContain(`${format(yesterday, 'MMM d, yyyy')} 00:00 – 23:59`);
      expect(text).not.toContain(`House check ${TAG}`);
      await screenshot(page, 'daily-report-offline-yesterday');
    } finally {
      await context.setOffline(false);
    }
  });
});
