/**
 * A house check answered No, end to end in Chromium against a real
 * PocketBase with the demo data, at a phone and a desktop size: the officer
 * answers No with a remark in the House check dialog; the server stores
 * everything_ok 'no' beside the remark; the report's card says
 * 'Everything ok: No'; 'Only house checks with issues' lists it (and only
 * checks answered No); the daily activity report says so in its entry.
 * Screenshots of the card, the filter and the daily report.
 */
import type { Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { describe, expect, test } from 'vitest';
import { DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import { formatAddress } from '../../src/ui/format.ts';
import { signedInUserId } from './pwa-helpers.ts';
import {
  expectNoSeriousA11yViolations,
  expectToast,
  navigate,
  openedDialog,
  screenshot,
  signedInPage,
  SIZE_NAMES,
  useScreensApp,
  waitUntil,
} from './screens-helpers.ts';

const env = useScreensApp();

/** Demo homes whose house check is due today (demo-data.ts: homes 3 and 10 of Palm Grove Estates). */
const DUE = { desktop: 'PGE-1003', phone: 'PGE-1010' } as const;
const TAG = `hca${Date.now().toString(36)}`;

async function houseByMember(memberNumber: string): Promise<RecordModel> {
  const admin = env.app.server.admin;
  return admin.collection('houses').getFirstListItem(admin.filter('member_number = {:m}', { m: memberNumber }));
}

/** The cards of the report list in view (the list is virtualised: the newest are at the top). */
const reportCard = (page: Page, id: string) => page.locator(`article[aria-labelledby="report-${id}-title"]`);

describe.each(SIZE_NAMES)('a house check answered No (%s)', (size) => {
  test("is stored as 'no', and the card, the filter and the daily report say 'Everything ok: No'", async () => {
    const { page, context } = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    try {
      const userId = await signedInUserId(page);
      const house = await houseByMember(DUE[size]);
      const remark = `Side gate ${TAG}-${size} unlatched, closed it`;

      // Homes: the due home's House check, answered No with a remark.
      await page.getByLabel('Search homes').fill(DUE[size]);
      const home = page.getByRole('article');
      await expect.poll(() => home.count()).toBe(1);
      await home.getByRole('button', { name: 'House check' }).click();
      const check = await openedDialog(page, 'House Check');
      await check.locator('label', { hasText: /^No$/ }).click();
      await check.getByLabel('Remark').fill(remark);
      await check.getByRole('button', { name: 'Submit' }).click();
      await check.waitFor({ state: 'detached' });
      await expectToast(page, 'Success', 'House check saved');
      // Dismissed, so the screenshots below show what is under it.
      const toast = page.getByRole('status').filter({ hasText: 'House check saved' });
      await toast.getByRole('button', { name: 'Close' }).click();
      await toast.waitFor({ state: 'detached' });

      const admin = env.app.server.admin;
      const [report] = await waitUntil(
        'the house check on the server',
        () =>
          admin.collection('reports').getFullList({
            filter: admin.filter('house = {:h} && created_by = {:u} && narative = {:n}', {
              h: house.id,
              u: userId,
              n: remark,
            }),
          }),
        (found) => found.length === 1,
      );
      expect(report).toMatchObject({ type: 'house_check', everything_ok: 'no', narative: remark });

      // The card: the answer beside the type, and the remark as the narrative.
      await navigate(page, 'Reports');
      const card = reportCard(page, report!.id);
      await card.scrollIntoViewIfNeeded();
      await expect(card.getByTestId('everything-ok').textContent()).resolves.toBe('Everything ok: No');
      await expect(card.getByTestId('narrative').textContent()).resolves.toBe(remark);
      await expect(card.getByTestId('everything-ok').isVisible()).resolves.toBe(true);
      await screenshot(page, 'house-check-answer-card');

      // The filter: only the house checks answered No.
      await page.getByRole('button', { name: 'Filter + Sort' }).click();
      const sheet = page.getByRole('dialog', { name: 'Filter + Sort' });
      await sheet.getByRole('button', { name: 'Filter', exact: true }).waitFor();
      await sheet.getByRole('checkbox', { name: 'Only house checks with issues' }).check();
      // The types follow it: house checks only, the others not to be picked against it.
      await sheet.getByRole('button', { name: /Report types/ }).click();
      await expect(sheet.getByRole('checkbox', { name: 'House check', exact: true }).isChecked()).resolves.toBe(true);
      await expect(sheet.getByRole('checkbox', { name: 'Loud noise' }).isDisabled()).resolves.toBe(true);
      await sheet.getByRole('checkbox', { name: 'Only house checks with issues' }).scrollIntoViewIfNeeded();
      await expect(sheet.getByRole('checkbox', { name: 'Only house checks with issues' }).isVisible()).resolves.toBe(
        true,
      );
      await screenshot(page, 'house-check-answer-filter-dialog');
      await expectNoSeriousA11yViolations(page, 'the filter dialog with checks with issues');
      await sheet.getByRole('button', { name: 'Filter', exact: true }).click();
      await sheet.waitFor({ state: 'detached' });
      await page.getByText('House checks with issues · Newest first').waitFor();
      await reportCard(page, report!.id).waitFor();
      const answers = await page.getByTestId('everything-ok').allTextContents();
      expect(answers.length).toBeGreaterThan(0);
      expect(new Set(answers)).toEqual(new Set(['Everything ok: No']));
      await screenshot(page, 'house-check-answer-filtered');
      await page.getByRole('button', { name: 'Clear filter' }).click();

      // The daily report: the entry's details name the answer; the counts the checks with issues.
      await page.getByRole('link', { name: 'Daily report' }).click();
      await page.getByRole('heading', { name: 'Daily activity report', level: 1 }).waitFor();
      const entry = page
        .getByRole('list', { name: 'Entries of the day' })
        .getByRole('listitem')
        .filter({ hasText: remark });
      await entry.getByText(/· Everything ok: No/).waitFor();
      await entry.getByText(formatAddress({ address: house.address, apt: house.apt })).waitFor();
      await page
        .getByTestId('day-counts')
        .getByText(/house check\(s\), [1-9]\d* with issues/)
        .waitFor();
      await entry.scrollIntoViewIfNeeded();
      await screenshot(page, 'house-check-answer-daily-report');
    } finally {
      await context.close();
    }
  });
});
