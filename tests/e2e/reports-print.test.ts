/**
 * Printing the report list on paper, in Chromium against a real PocketBase:
 * a month of 75 reports (narratives as officers and AI assist write them,
 * residents, phones, photos, positions, reports sent late) printed from the
 * Reports screen with Chromium's own PDF printer, on US Letter and on A4.
 * The list prints compact: at most 8 pages, every report on paper, none cut
 * by a page break, no buttons or photos; a single report's Print keeps the
 * whole card with its photos.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOfMonth } from 'date-fns';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { fill, TEMPLATES } from '../../scripts/seed/report-templates.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { REPORT_TYPE_VALUES, WEATHER_VALUES } from '../../src/domain/reportTypes.ts';
import { createInBatches } from '../support/batches.ts';
import { screenshots } from '../support/journey.ts';
import { pdfPages } from '../support/pdfText.ts';
import {
  createCommunity,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';
import { distDir, signedInUserId, signIn, waitForFirstSync } from './pwa-helpers.ts';
import { openReports, PNG, screenshot, SIZES } from './reports-helpers.ts';

const REPORTS = 75;
const HOMES = 20;
const WITH_PHOTOS = 6;
/** The most pages a month of 75 reports may take. */
const MAX_PAGES = 8;

let server: TestServer;
let browser: Browser;
let fixture: CommunityFixture;
let context: BrowserContext;
let page: Page;

/** The mark each report's narrative ends with, so the PDF's text shows which reports it holds. */
const tag = (n: number) => `ref${String(n + 1).padStart(3, '0')}`;

async function seed(): Promise<void> {
  const admin = server.admin;
  const community = fixture.community.id;
  const homes = Array.from({ length: HOMES }, (_, n) => ({
    address: `${1200 + n * 4} ${['Egret Way', 'Heron Cove Ln', 'Palm Grove Blvd', 'Ibis Ct'][n % 4]}`,
    apt: n % 5 === 0 ? `Unit ${n}` : '',
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    member_number: `PG${String(n).padStart(4, '0')}`,
    security_code: '',
    note: '',
    community,
  }));
  const homeBatch = admin.createBatch();
  for (const home of homes) homeBatch.collection('houses').create(home);
  const homeIds = (await homeBatch.send()).map((result) => (result.body as { id: string }).id);
  const residentBatch = admin.createBatch();
  homeIds.forEach((house, n) =>
    residentBatch.collection('residents').create({
      first_name: ['Maria', 'James', 'Linda', 'Robert'][n % 4],
      last_name: `Whitfield${n}`,
      owner: true,
      house,
    }),
  );
  const residentIds = (await residentBatch.send()).map((result) => (result.body as { id: string }).id);

  const from = startOfMonth(new Date()).getTime();
  const step = (Date.now() - 60_000 - from) / REPORTS;
  const rows = Array.from({ length: REPORTS }, (_, n) => {
    const type = REPORT_TYPE_VALUES[n % REPORT_TYPE_VALUES.length]!;
    const template = TEMPLATES[type][n % TEMPLATES[type].length]!;
    const at = new Date(from + Math.floor(n * step));
    const values = {
      addr: homes[n % HOMES]!.address,
      street: 'Egret Way',
      res: `Mr. Whitfield${n % HOMES}`,
      hrs: '2215 hrs',
      time: '22:15',
      veh: 'white Ford F-150',
      plate: 'FL ABC-1234',
    };
    return {
      narative: `${fill(template.raw, values)} ${tag(n)}`,
      // About a third with an AI-assisted narrative (the card, and paper, show it first).
      ai_generated_narative: n % 3 === 0 ? `${fill(template.ai, values)} ${tag(n)}` : '',
      type,
      weather: WEATHER_VALUES[n % WEATHER_VALUES.length],
      incident_time: pbDate(at),
      phone_number: n % 2 === 0 ? `+1561555${String(1000 + n).slice(-4)}` : '',
      injury: template.injury === true,
      ems_pbso: template.emsPbso === true,
      everything_ok: type === 'house_check' ? (n % 4 === 0 ? 'no' : 'yes') : '',
      position: n % 3 === 1 ? { latitude: 26.934 + n / 10_000, longitude: -80.094, accuracy: 12 } : null,
      // Some written offline and sent hours later: the card says both times.
      logged_at: n % 5 === 2 ? pbDate(new Date(at.getTime() - 3 * 3_600_000)) : '',
      community,
      house: homeIds[n % HOMES],
      resident: n % 4 === 3 ? '' : residentIds[n % HOMES],
      created_by: n % 2 === 0 ? fixture.regular.id : fixture.manager.id,
    };
  });
  // A few reports carry photos (sent as forms, one by one); the rest go in batches.
  const photoRows = rows.slice(0, WITH_PHOTOS);
  await createInBatches(admin, 'reports', rows.slice(WITH_PHOTOS));
  for (const row of photoRows) {
    const form = new FormData();
    for (const [key, value] of Object.entries(row)) {
      if (value !== null && value !== '')
        form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
    for (const name of ['porch.png', 'gate.png'])
      form.append('photos', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), name);
    await admin.collection('reports').create(form);
  }
}

beforeAll(async () => {
  server = await startTestServer({}, { publicDir: distDir });
  browser = await launchChromium();
  fixture = await createCommunity(server.admin, 'printing', 'Print Palms');
  await seed();
  // The process's time zone: the list's month and the seed's must agree.
  context = await browser.newContext({
    viewport: SIZES.desktop,
    timezoneId: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  await signIn(page, server.url, { email: fixture.director.email, password: TEST_PASSWORD });
  await waitForFirstSync(page, await signedInUserId(page));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const printed = (p: Page) => p.locator('article[aria-labelledby^="print-report-"]');

/** The pages of a PDF as its objects say (each page is a '/Type /Page' object), checked against pdfjs's count. */
async function pageCount(pdf: Buffer): Promise<number> {
  const objects = pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  expect((await pdfPages(pdf)).length).toBe(objects);
  return objects;
}

/** Keeps the PDF for a person to look at: test-results/screenshots/reports-print-{name}.pdf. */
function keep(pdf: Buffer, name: string): void {
  mkdirSync(screenshots, { recursive: true });
  writeFileSync(join(screenshots, `reports-print-${name}.pdf`), pdf);
}

describe('printing the report list', () => {
  test(`a month of ${REPORTS} reports prints on at most ${MAX_PAGES} pages, every report whole, no buttons or photos`, async () => {
    await openReports(page);
    await page.getByText(`${REPORTS} report(s)`, { exact: true }).waitFor({ timeout: 30_000 });
    // The print dialog would snapshot the page at window.print(): Chromium's PDF printer stands in for it.
    await page.evaluate(() => {
      window.print = () => {};
    });
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    await expect.poll(() => printed(page).count()).toBe(REPORTS);

    // Chromium's PDF printer announces itself as the browser's own Print does ('beforeprint', 'afterprint'):
    // the second PDF is the Ctrl+P path, the list drawn for paper again.
    for (const format of ['Letter', 'A4'] as const) {
      const pdf = await page.pdf({ format });
      keep(pdf, `list-${format.toLowerCase()}`);
      const pages = await pageCount(pdf);
      expect(pages, `${format} pages`).toBeLessThanOrEqual(MAX_PAGES);
      // Every report is on paper (its narrative's mark), once.
      const text = (await pdfPages(pdf)).join('\n');
      for (let n = 0; n < REPORTS; n++) expect(text.split(tag(n)).length - 1, tag(n)).toBe(1);
    }

    // The list as paper lays it out.
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    await expect.poll(() => printed(page).count()).toBe(REPORTS);
    await page.emulateMedia({ media: 'print' });
    try {
      const layout = await printed(page).evaluateAll((articles) =>
        articles.map((article) => ({
          breakInside: getComputedStyle(article).breakInside,
          buttons: [...article.querySelectorAll('button')].filter((b) => b.checkVisibility()).length,
          images: [...article.querySelectorAll('img')].filter((i) => i.checkVisibility()).length,
        })),
      );
      expect(new Set(layout.map((l) => l.breakInside))).toEqual(new Set(['avoid']));
      expect(layout.reduce((sum, l) => sum + l.buttons + l.images, 0)).toBe(0);
      // The reports with photos say they have them.
      await expect(
        printed(page)
          .getByText(/ · 2 photos$/)
          .count(),
      ).resolves.toBe(WITH_PHOTOS);
      await screenshot(page, 'print-compact');
    } finally {
      await page.emulateMedia({ media: null });
    }
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await expect.poll(() => printed(page).count()).toBe(0);
  });

  test("one report's Print keeps the whole card with its photos", async () => {
    const withPhotos = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('list', { name: 'Photos' }) })
      .first();
    await withPhotos.getByRole('button', { name: /^Print / }).click();
    await expect.poll(() => printed(page).count()).toBe(1);
    await page.emulateMedia({ media: 'print' });
    try {
      const card = printed(page);
      await expect(card.getByRole('list', { name: 'Photos' }).locator('img').count()).resolves.toBe(2);
      await expect(card.getByText('Incident time', { exact: true }).isVisible()).resolves.toBe(true);
    } finally {
      await page.emulateMedia({ media: null });
    }
    const pdf = await page.pdf({ format: 'Letter' });
    keep(pdf, 'one');
    await expect(pageCount(pdf)).resolves.toBe(1);
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await expect.poll(() => printed(page).count()).toBe(0);
  });
});
