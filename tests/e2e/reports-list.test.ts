/**
 * The report list in Chromium against a real PocketBase with the demo data
 * (docs/product.md#the-reports-list, #list-search), at a phone and a desktop size:
 * it opens on this month newest first, search narrows it, 'Filter + Sort'
 * over last month with two types oldest first and 'Clear filter', the
 * house checks with issues (each check's card saying its answer), the
 * missing-dates error, the print view, and axe-core on the list and the
 * filter dialog. Every expectation is computed from the server's records.
 */
import { endOfDay, endOfMonth, format, startOfMonth, subMonths } from 'date-fns';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { startDemoServer } from './pwa-helpers.ts';
import {
  card,
  communityReports,
  expectList,
  expectNoSeriousA11yViolations,
  incidentBetween,
  listedCards,
  matchesSearch,
  openReports,
  screenshot,
  signedIn,
  type ServerReport,
  type SignedIn,
  type SizeName,
} from './reports-helpers.ts';

let server: TestServer;
let browser: Browser;
let reports: ServerReport[];
const now = new Date();
const thisMonth = { from: startOfMonth(now), to: endOfMonth(now) };
const lastMonthStart = startOfMonth(subMonths(now, 1));
const lastMonth = { from: lastMonthStart, to: endOfDay(endOfMonth(lastMonthStart)) };

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchChromium();
  reports = await communityReports(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const inThisMonth = () => reports.filter((r) => incidentBetween(r, thisMonth.from, thisMonth.to));

/** Picks a day in the open calendar, going back a month first when asked. */
async function pickDay(page: Page, field: 'From date' | 'To date', day: Date, previousMonth: boolean): Promise<void> {
  const sheet = page.getByRole('dialog', { name: 'Filter + Sort' });
  await sheet.getByRole('button', { name: new RegExp(`^${field}`) }).click();
  if (previousMonth) await sheet.getByRole('button', { name: 'Go to the Previous Month' }).click();
  await sheet.getByRole('button', { name: new RegExp(`^${format(day, 'd MMMM yyyy, EEEE')}`) }).click();
  await expect(
    sheet.getByRole('button', { name: new RegExp(`^${field} ${format(day, 'MMM d, yyyy')}$`) }).count(),
  ).resolves.toBe(1);
}

describe.each(['phone', 'desktop'] as SizeName[])('the report list (%s)', (size) => {
  let session: SignedIn;
  let page: Page;
  let defaultIds: string[] = [];

  beforeAll(async () => {
    session = await signedIn(browser, server, size);
    page = session.page;
  });
  afterAll(async () => {
    await session?.context.close();
  });

  test('opens on this month: the count and the cards are the community reports of this month, newest first', async () => {
    await openReports(page);
    const expected = inThisMonth();
    // The demo data puts about half of its ~150 reports in this month: a real list, not a trivial one.
    expect(expected.length).toBeGreaterThan(20);
    defaultIds = await expectList(page, expected, 'newest');
    await expect(
      page.getByText(`${format(thisMonth.from, 'MMM d, yyyy')} – ${format(thisMonth.to, 'MMM d, yyyy')}`).count(),
    ).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Clear filter' }).count()).resolves.toBe(0);
    await screenshot(page, 'list');
    await expectNoSeriousA11yViolations(page, `the report list (${size})`);
  });

  test('search narrows the list to the reports whose home or resident matches every word', async () => {
    const search = page.getByRole('searchbox', { name: 'Search reports' });
    // Two words of a street name, in mixed case.
    await search.fill('egret WAY');
    const street = inThisMonth().filter((r) => matchesSearch(r, 'egret way'));
    expect(street.length).toBeGreaterThan(0);
    expect(street.length).toBeLessThan(inThisMonth().length);
    await expectList(page, street, 'newest');
    for (const { text } of await listedCards(page)) expect(text).toMatch(/Egret Way/);
    await screenshot(page, 'list-search');

    // A resident's last name, shouted: the search ignores case.
    const lastName = String(inThisMonth().find((r) => r.expand?.resident)?.expand?.resident?.last_name);
    await search.fill(lastName.toUpperCase());
    const family = inThisMonth().filter((r) => matchesSearch(r, lastName));
    expect(family.length).toBeGreaterThan(0);
    await expectList(page, family, 'newest');

    // The officer who wrote them: a manager looking for one officer's reports.
    const officer = String(inThisMonth().find((r) => r.expand?.created_by)?.expand?.created_by?.last_name);
    await search.fill(officer);
    const theirs = inThisMonth().filter((r) => matchesSearch(r, officer));
    expect(theirs.length).toBeGreaterThan(0);
    await expectList(page, theirs, 'newest');

    // A word nothing has.
    await search.fill('egret zzzz');
    await expect.poll(() => page.getByText('No reports found').count()).toBe(1);
    await expect(page.getByText('0 report(s)').count()).resolves.toBe(1);

    await search.fill('');
    await expectList(page, inThisMonth(), 'newest');
  });

  test("'Filter + Sort' over last month with two types, oldest first; 'Clear filter' restores this month", async () => {
    await page.getByRole('button', { name: 'Filter + Sort' }).click();
    const sheet = page.getByRole('dialog', { name: 'Filter + Sort' });
    // The dialog's root has no box of its own (its panel is fixed): wait for what it shows.
    await sheet.getByRole('button', { name: 'Filter', exact: true }).waitFor();
    await pickDay(page, 'From date', lastMonth.from, true);
    await pickDay(page, 'To date', endOfMonth(lastMonth.from), true);
    await sheet.getByRole('button', { name: /Report types/ }).click();
    await sheet.getByRole('checkbox', { name: 'Open garage door' }).check();
    await sheet.getByRole('checkbox', { name: 'Vehicle tailgate' }).check();
    await sheet.getByLabel('Sort by').selectOption('oldest');
    await screenshot(page, 'filter-dialog');
    await expectNoSeriousA11yViolations(page, `the filter dialog (${size})`);
    await sheet.getByRole('button', { name: 'Filter', exact: true }).click();
    await sheet.waitFor({ state: 'detached' });

    const expected = reports.filter(
      (r) =>
        incidentBetween(r, lastMonth.from, lastMonth.to) &&
        (r.type === 'open_garage_door' || r.type === 'vehicle_tailgaite'),
    );
    const types = new Set(expected.map((r) => r.type));
    expect(types).toEqual(new Set(['open_garage_door', 'vehicle_tailgaite']));
    await expectList(page, expected, 'oldest');
    await expect(page.getByText('2 type(s) · Oldest first').count()).resolves.toBe(1);
    await screenshot(page, 'list-filtered');

    const clear = page.getByRole('button', { name: 'Clear filter' });
    await clear.click();
    await expect(clear.count()).resolves.toBe(0);
    expect(await expectList(page, inThisMonth(), 'newest')).toEqual(defaultIds);
  });

  test("'Only house checks with issues' lists this month's checks answered No; every check's card says its answer", async () => {
    await page.getByRole('button', { name: 'Filter + Sort' }).click();
    const sheet = page.getByRole('dialog', { name: 'Filter + Sort' });
    await sheet.getByRole('button', { name: 'Filter', exact: true }).waitFor();
    await sheet.getByRole('checkbox', { name: 'Only house checks with issues' }).check();
    await screenshot(page, 'filter-dialog-issues');
    await sheet.getByRole('button', { name: 'Filter', exact: true }).click();
    await sheet.waitFor({ state: 'detached' });

    const expected = inThisMonth().filter((r) => r.type === 'house_check' && r.everything_ok === 'no');
    // The demo data has checks answered both ways this month.
    expect(expected.length).toBeGreaterThan(0);
    expect(inThisMonth().some((r) => r.type === 'house_check' && r.everything_ok === 'yes')).toBe(true);
    await expectList(page, expected, 'newest');
    for (const { text } of await listedCards(page)) expect(text).toContain('Everything ok: No');
    await expect(page.getByText('House checks with issues · Newest first').count()).resolves.toBe(1);
    await screenshot(page, 'list-issues');

    await page.getByRole('button', { name: 'Clear filter' }).click();
    expect(await expectList(page, inThisMonth(), 'newest')).toEqual(defaultIds);
    // Unfiltered, each house check says its answer and no other report has one.
    const byId = new Map(inThisMonth().map((r) => [r.id, r]));
    const words: Record<string, string> = { yes: 'Yes', no: 'No', '': 'Not recorded' };
    for (const { id, text } of await listedCards(page)) {
      const shown = byId.get(id)!;
      if (shown.type === 'house_check')
        expect(text).toContain(`Everything ok: ${words[String(shown.everything_ok ?? '')]}`);
      else expect(text).not.toContain('Everything ok');
    }
  });

  test("a cleared date stops the filter with 'Filter error' — 'Dates must be selected', and the list stays as it was", async () => {
    await page.getByRole('button', { name: 'Filter + Sort' }).click();
    const sheet = page.getByRole('dialog', { name: 'Filter + Sort' });
    await sheet.getByRole('button', { name: /^From date/ }).click();
    // Tapping the chosen day clears it (docs/product.md#the-home-form).
    await sheet.getByRole('button', { name: /, selected$/ }).click();
    await expect(sheet.getByRole('button', { name: 'From date Pick a date' }).count()).resolves.toBe(1);
    await sheet.getByRole('button', { name: 'Filter', exact: true }).click();

    const toast = page
      .getByRole('alert')
      .filter({ hasText: 'Filter error' })
      .filter({ hasText: 'Dates must be selected' });
    // Raised from inside the sheet, the toast must live in it: outside, the open modal makes it inert (hidden from this query too).
    await toast.waitFor();
    await screenshot(page, 'filter-error');
    // The dialog stays open, nothing was applied.
    await expect(sheet.getByRole('button', { name: 'Filter', exact: true }).isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(await expectList(page, inThisMonth(), 'newest')).toEqual(defaultIds);
    await expect(page.getByRole('button', { name: 'Clear filter' }).count()).resolves.toBe(0);
  });

  test('the print view shows the reports without navigation or buttons', async () => {
    await page.emulateMedia({ media: 'print' });
    try {
      await expect(page.locator('nav').isHidden()).resolves.toBe(true);
      for (const name of ['Filter + Sort', 'Print', 'Export CSV']) {
        await expect(page.getByRole('button', { name, exact: true }).first().isHidden()).resolves.toBe(true);
      }
      await expect(page.getByRole('link', { name: 'Create Report' }).isHidden()).resolves.toBe(true);
      await expect(page.getByRole('searchbox', { name: 'Search reports' }).isHidden()).resolves.toBe(true);
      // Nor a notification (the previous journey's 'Filter error' may still be on screen).
      await expect(page.getByRole('region', { name: 'Notifications (F8)' }).isHidden()).resolves.toBe(true);
      const first = card(page, defaultIds[0]!);
      await expect(first.getByRole('group', { name: 'Narrative version' }).isHidden()).resolves.toBe(true);
      // The card opens on the AI narrative, the original without one (docs/product.md#decisions).
      const shown = reports.find((r) => r.id === defaultIds[0]);
      await expect(first.getByTestId('narrative').isVisible()).resolves.toBe(true);
      await expect(first.getByTestId('narrative').textContent()).resolves.toBe(
        shown?.ai_generated_narative || shown?.narative || 'N/A',
      );
      // Paper gets the creation date, not "3 minutes ago".
      await expect(first.getByText(/^Created [A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}$/).isVisible()).resolves.toBe(
        true,
      );
      await screenshot(page, 'print');
    } finally {
      await page.emulateMedia({ media: null });
    }
  });
});
