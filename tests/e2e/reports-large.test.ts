/**
 * The report list of a large community in Chromium against a real
 * PocketBase, at a phone and a desktop size: 3,000 reports in this month,
 * seeded as superuser in batches. The count is exact; the DOM holds a
 * screenful of cards, not three thousand; scrolling to the end shows the
 * oldest report, and the place is kept across a visit to another screen; a
 * report written offline heads the list (Newest first); printing the list
 * (once, at the phone's size: paper does not depend on the screen), or a
 * card, puts on paper every filtered report, or that one.
 */
import { startOfMonth } from 'date-fns';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import { REPORT_TYPE_VALUES, WEATHER_VALUES } from '../../src/domain/reportTypes.ts';
import { createInBatches } from '../support/batches.ts';
import {
  createCommunity,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';
import { expectInViewport } from './layout-helpers.ts';
import { distDir, signedInUserId, signIn, waitForFirstSync } from './pwa-helpers.ts';
import {
  card,
  expectNoSeriousA11yViolations,
  fillNarrative,
  openReports,
  queuedReports,
  screenshot,
  SIZES,
  uniqueTag,
  waitUntil,
  type SizeName,
} from './reports-helpers.ts';
import { navigate } from './screens-helpers.ts';

// A hundred times what a screen draws: enough to show that only what is on
// screen is in the DOM and that Print and the count still cover every report.
// The speed at a large community's size is the benchmarks' (docs/performance.md).
const REPORTS = 3_000;
const HOMES = 50;

let server: TestServer;
let browser: Browser;
let fixture: CommunityFixture;

interface Listed {
  id: string;
  created: string;
}

/** What the server holds for the community, newest first: what the list must show. */
async function serverReports(): Promise<Listed[]> {
  const rows = await server.admin.collection('reports').getFullList<Listed>({
    filter: server.admin.filter('community = {:c}', { c: fixture.community.id }),
    fields: 'id,created',
    batch: 5_000,
  });
  return rows.sort((a, b) => b.created.localeCompare(a.created));
}

/**
 * 50 homes and 3,000 reports between the 1st of this month and a second
 * ago, each created at its own millisecond (so Newest first has one right
 * order), through the batch API, four batches at a time.
 */
async function seed(): Promise<void> {
  const admin = server.admin;
  const homes = Array.from({ length: HOMES }, (_, n) => ({
    address: `${100 + n} Large Palm Way`,
    apt: '',
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    member_number: `LP${String(n).padStart(4, '0')}`,
    security_code: '',
    note: '',
    community: fixture.community.id,
  }));
  const homeBatch = admin.createBatch();
  for (const home of homes) homeBatch.collection('houses').create(home);
  const homeIds = (await homeBatch.send()).map((result) => (result.body as { id: string }).id);

  const from = startOfMonth(new Date()).getTime();
  const step = (Date.now() - 1_000 - from) / REPORTS;
  // In the first seconds of a month two reports would share a millisecond.
  expect(step, 'too early in the month to give each report its own creation time').toBeGreaterThanOrEqual(1);
  const reports = Array.from({ length: REPORTS }, (_, n) => {
    const at = pbDate(new Date(from + Math.floor(n * step)));
    return {
      narative: `Large list report ${n + 1}`,
      ai_generated_narative: '',
      type: REPORT_TYPE_VALUES[n % REPORT_TYPE_VALUES.length],
      weather: WEATHER_VALUES[n % WEATHER_VALUES.length],
      incident_time: at,
      original_created: at,
      phone_number: '',
      injury: false,
      ems_pbso: false,
      community: fixture.community.id,
      house: homeIds[n % HOMES],
      resident: '',
      created_by: fixture.regular.id,
    };
  });
  await createInBatches(admin, 'reports', reports);
}

beforeAll(async () => {
  server = await startTestServer({}, { publicDir: distDir });
  browser = await launchChromium();
  fixture = await createCommunity(server.admin, 'large', 'Large Palms');
  await seed();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The count line, e.g. '3000 report(s)'. */
const countLine = async (page: Page) => (await page.getByText(/^\d+ report\(s\)$/).textContent()) ?? '';
const listItems = (page: Page) =>
  page
    .getByRole('list', { name: 'Reports' })
    .getByRole('listitem')
    .filter({ has: page.locator('article') });
const item = (page: Page, position: number) => page.locator(`[role="listitem"][aria-posinset="${position}"]`);
/** The report id of the card at a list position. */
const idAt = async (page: Page, position: number) =>
  ((await item(page, position).locator('article').getAttribute('aria-labelledby')) ?? '')
    .replace(/^report-/, '')
    .replace(/-title$/, '');
/** The reports the page would print: the cards visible under print media, in order. */
const printedIds = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('article')]
      .filter((a) => a.checkVisibility())
      .map((a) => (a.getAttribute('aria-labelledby') ?? '').replace(/^print-report-/, '').replace(/-title$/, '')),
  );

/** The print dialog snapshots the page when window.print() is called: record how many reports it would print then. */
const recordPrintCopies = (page: Page) =>
  page.evaluate(() => {
    window.print = () => {
      document.body.dataset.printCopies = String(
        document.querySelectorAll('article[aria-labelledby^="print-report-"]').length,
      );
    };
  });

describe.each(['phone', 'desktop'] as SizeName[])('a community with 3,000 reports this month (%s)', (size) => {
  let context: BrowserContext;
  let page: Page;
  let userId = '';
  let expected: Listed[] = [];

  beforeAll(async () => {
    // The process's time zone: the list's month and the seed's must agree.
    context = await browser.newContext({
      viewport: SIZES[size],
      timezoneId: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signIn(page, server.url, { email: fixture.director.email, password: TEST_PASSWORD });
    userId = await signedInUserId(page);
    await waitForFirstSync(page, userId);
    expected = await serverReports();
  }, 120_000);
  afterAll(async () => {
    await context?.close();
  });

  test('the count is exact, newest first, and the DOM holds a screenful of cards, not all of them', async () => {
    // A phone's first run adds one more (the offline report below), sent before the desktop's.
    expect(expected.length).toBeGreaterThanOrEqual(REPORTS);
    await openReports(page);
    await expect.poll(() => countLine(page), { timeout: 30_000 }).toBe(`${expected.length} report(s)`);
    await expect(idAt(page, 1)).resolves.toBe(expected[0]!.id);
    await expect(item(page, 1).getAttribute('aria-setsize')).resolves.toBe(String(expected.length));
    const drawn = await listItems(page).count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(30);
    await screenshot(page, 'large-top');
    await expectNoSeriousA11yViolations(page, `the large report list (${size})`);
  });

  test('scrolling to the end shows the oldest report; the place is kept after a visit to Homes', async () => {
    const last = item(page, expected.length);
    // Rows are measured as they are drawn, so the end moves a little: scroll until the last card is there.
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          await page.waitForTimeout(100);
          return last.count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await expect(idAt(page, expected.length)).resolves.toBe(expected.at(-1)!.id);
    await expectInViewport(page, last.locator('h2'), 'the last report');
    await expect(last.getByText(`Large list report 1`, { exact: true }).count()).resolves.toBe(1);
    expect(await listItems(page).count()).toBeLessThan(30);
    await screenshot(page, 'large-end');

    await navigate(page, 'Homes');
    await navigate(page, 'Reports');
    await expect.poll(() => countLine(page), { timeout: 15_000 }).toBe(`${expected.length} report(s)`);
    await last.waitFor();
    await expectInViewport(page, last.locator('h2'), 'the last report, back from Homes');
  });

  test('Tab goes on through the cards past the first screen; the focused card stays drawn when scrolled away', async () => {
    const focusedPosition = () =>
      page.evaluate(() =>
        Number(document.activeElement?.closest('[role="listitem"]')?.getAttribute('aria-posinset') ?? 0),
      );
    await page.evaluate(() => window.scrollTo(0, 0));
    // Let the list settle at the top (rows drawn and measured after the jump from the end) before focusing in it.
    const firstTitle = item(page, 1).locator('h2');
    await firstTitle.waitFor();
    await expect
      .poll(async () => (await firstTitle.boundingBox())?.y ?? -1, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(0);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await item(page, 1)
      .getByRole('button', { name: /^Print / })
      .focus();
    await expect(focusedPosition()).resolves.toBe(1);
    // Three stops a card (Print, Original, Ai assist): 36 presses lead to the 13th card, well below the first screen.
    // The positions on the way are kept, so a failure says where the focus left the list.
    const positions: number[] = [];
    for (let n = 0; n < 36; n++) {
      await page.keyboard.press('Tab');
      // As a person's next press comes: after the list has drawn the cards the focus scrolled into view
      // (on a busy machine a press can come before that frame, and Tab leaves the drawn cards).
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      positions.push(await focusedPosition());
    }
    expect(positions.at(-1), `card positions after each Tab: ${positions.join(' ')}`).toBe(13);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).resolves.toMatch(
      /^Print /,
    );
    await expectInViewport(page, page.locator(':focus'), 'the focused Print button');

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    await page.waitForTimeout(300);
    await expect(focusedPosition()).resolves.toBe(13);
    expect(await listItems(page).count()).toBeLessThan(30);
    await page.keyboard.press('Tab');
    await expect(focusedPosition()).resolves.toBe(13);
  });

  test('a report written offline heads the list, Newest first', async () => {
    const narrative = `Large list offline report ${uniqueTag()}`;
    await page.getByRole('link', { name: 'Create Report' }).click();
    await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
    await context.setOffline(true);
    await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();
    await page.getByLabel('Type').selectOption('unauthorized_entry');
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await fillNarrative(page, narrative);
    await page.getByRole('button', { name: 'Create report', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Success' })
      .filter({ hasText: 'Report saved on this device; it will be sent when you are back online.' })
      .waitFor();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

    const queued = (await queuedReports(page, userId)).filter((r) => r.narative === narrative);
    expect(queued).toHaveLength(1);
    const id = queued[0]!.id;
    await expect.poll(() => countLine(page)).toBe(`${expected.length + 1} report(s)`);
    // At the top of the list, where the page opens after writing it.
    await expect.poll(() => idAt(page, 1)).toBe(id);
    await expect(idAt(page, 2)).resolves.toBe(expected[0]!.id);
    await expect(card(page, id).getByText('Not yet sent').isVisible()).resolves.toBe(true);
    await expectInViewport(page, card(page, id).locator('h2'), 'the offline report');
    await screenshot(page, 'large-offline');
    expected = [{ id, created: '' }, ...expected];
  });

  // Paper does not depend on the screen's size: the whole list goes to paper at one size (the phone's,
  // where officers print from); drawing every row for it is the heaviest step of this file.
  if (size === 'phone')
    test('Print puts every filtered report on paper, and so does the browser\u2019s own Print', async () => {
      await recordPrintCopies(page);
      // The click draws the whole list for paper before it returns (the dialog snapshots the page
      // when it opens): thousands of rows take seconds on a busy machine.
      await page.getByRole('button', { name: 'Print', exact: true }).click({ timeout: 60_000 });
      await expect(page.evaluate(() => document.body.dataset.printCopies)).resolves.toBe(String(expected.length));
      await page.emulateMedia({ media: 'print' });
      try {
        expect(await printedIds(page)).toEqual(expected.map((r) => r.id));
        await screenshot(page, 'large-print');
        // The screen's list, hidden on paper, measures 0 px a row: it must not take that as a reason to draw them all.
        await page.waitForTimeout(500);
        expect(await page.locator('[role="list"][aria-label="Reports"] [role="listitem"]').count()).toBeLessThan(30);
      } finally {
        await page.emulateMedia({ media: null });
      }
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      await expect.poll(() => page.locator('article[aria-labelledby^="print-report-"]').count()).toBe(0);

      // The browser's own Print (menu, Ctrl+P) announces itself with 'beforeprint': the whole list too.
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      await expect(page.locator('article[aria-labelledby^="print-report-"]').count()).resolves.toBe(expected.length);
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      await expect.poll(() => page.locator('article[aria-labelledby^="print-report-"]').count()).toBe(0);
      // The whole list drawn for paper twice and laid out under print media once: more than the default minute on a busy machine.
    }, 150_000);

  test('a card\u2019s Print puts only that report on paper', async () => {
    await recordPrintCopies(page);
    // Back to the top (print media, where it ran, laid the page out anew and may have moved the window).
    await page.evaluate(() => window.scrollTo(0, 0));
    await card(page, expected[1]!.id)
      .getByRole('button', { name: /^Print / })
      .click();
    await expect(page.evaluate(() => document.body.dataset.printCopies)).resolves.toBe('1');
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await printedIds(page)).toEqual([expected[1]!.id]);
    } finally {
      await page.emulateMedia({ media: null });
    }
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await expect.poll(() => page.locator('article[aria-labelledby^="print-report-"]').count()).toBe(0);
  });

  test('back online, the offline report reaches the server once', async () => {
    await context.setOffline(false);
    const id = expected[0]!.id;
    const onServer = await waitUntil('the offline report on the server', serverReports, (rows) =>
      rows.some((r) => r.id === id),
    );
    await card(page, id).getByText('Not yet sent').waitFor({ state: 'detached', timeout: 15_000 });
    expect(onServer.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });
});
