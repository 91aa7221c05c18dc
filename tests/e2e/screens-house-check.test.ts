/**
 * A house check done with no connection (docs/product.md#house-checks, offline
 * first): submitted offline, it survives a reload (the app shell comes from
 * the service worker, the home stays checked, the sync badge counts one
 * change to send), and once the connection is back exactly one house_check
 * report by that user reaches the server with the house's last-checked
 * date. The dialog is also opened at phone size for its screenshot and axe.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { LEASE_TTL_MS } from '../../src/data/sync/lease.ts';
import { expectNoOverlap } from './layout-helpers.ts';
import { signedInUserId, signIn, waitForFirstSync, waitForWorkerControl } from './pwa-helpers.ts';
import {
  expectNoSeriousA11yViolations,
  expectToast,
  openedDialog,
  screenshot,
  signedInPage,
  sizedContext,
  useScreensApp,
  waitUntil,
} from './screens-helpers.ts';

const env = useScreensApp();

/** Demo homes whose house check is due today (demo-data.ts: homes 3 and 10 of Palm Grove Estates). */
const DUE = { desktop: 'PGE-1003', phone: 'PGE-1010' } as const;
const OK_NARRATIVE = 'House was inspected on the date and time mentioned above and everything is ok.';

async function houseByMember(memberNumber: string): Promise<RecordModel> {
  return env.app.server.admin
    .collection('houses')
    .getFirstListItem(env.app.server.admin.filter('member_number = {:m}', { m: memberNumber }));
}

function houseCheckReports(houseId: string, userId: string): Promise<RecordModel[]> {
  const filter = env.app.server.admin.filter("type = 'house_check' && house = {:house} && created_by = {:user}", {
    house: houseId,
    user: userId,
  });
  return env.app.server.admin.collection('reports').getFullList({ filter });
}

/** Shows only the card of this home and returns it. */
async function findCard(page: Page, memberNumber: string) {
  await page.getByLabel('Search homes').fill(memberNumber);
  const card = page.getByRole('article');
  await expect.poll(() => card.count()).toBe(1);
  return card;
}

describe('at desktop size', () => {
  let context: BrowserContext;
  let page: Page;
  let userId = '';
  beforeAll(async () => {
    context = await sizedContext(env.browser, 'desktop');
    page = await context.newPage();
    await page.goto(env.app.server.url);
    await waitForWorkerControl(page);
    await signIn(page, env.app.server.url, DEMO_DIRECTOR);
    userId = await signedInUserId(page);
    await waitForFirstSync(page, userId);
  });
  afterAll(() => context?.close());

  test('a house check submitted offline survives a reload and reaches the server once, back online', async () => {
    const house = await houseByMember(DUE.desktop);
    expect(house.house_check_last_date).toBe('');
    const card = await findCard(page, DUE.desktop);
    const checkButton = card.getByRole('button', { name: 'House check' });
    await checkButton.waitFor();

    await context.setOffline(true);
    await page.getByText('You are offline — calls need a connection.').waitFor();
    await checkButton.click();
    const check = await openedDialog(page, 'House Check');
    await expect(check.getByRole('button', { name: 'Submit' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'house-check-dialog');
    await expectNoSeriousA11yViolations(page, 'the House check dialog');
    await check.locator('label', { hasText: /^Yes$/ }).click();
    await check.getByRole('button', { name: 'Submit' }).click();
    await check.waitFor({ state: 'detached' });
    // Said so, and that it waits for the connection.
    await expectToast(page, 'Success', 'House check saved on this device; it will be sent when you are back online.');
    // Checked at once on this device.
    await checkButton.waitFor({ state: 'detached' });

    // Still offline: the reload is served by the worker, the mirror still has the check.
    await page.reload();
    await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
    const reloaded = await findCard(page, DUE.desktop);
    await expect(reloaded.getByRole('button', { name: 'House check' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Sync status: Offline · 1 waiting' }).click();
    await page.getByText('1 waiting to be sent · 0 failed').waitFor();
    await page.getByText(`House check: ${house.address}`).waitFor();
    await page.keyboard.press('Escape');
    // Nothing left the device.
    expect(await houseCheckReports(house.id, userId)).toHaveLength(0);

    await context.setOffline(false);
    // Usually at once. But the page reloaded above may have died while its
    // replay held the outbox lease (src/data/sync/lease.ts): then every replayer
    // answers 'busy' until that lease expires (30 s), and the new page's
    // 30-second replay timer sends the entry. Wait for that worst case.
    const [report] = await waitUntil(
      'the house check report on the server',
      () => houseCheckReports(house.id, userId),
      (reports) => reports.length > 0,
      LEASE_TTL_MS + 15_000,
    );
    expect(report).toMatchObject({
      type: 'house_check',
      narative: OK_NARRATIVE,
      everything_ok: 'yes',
      community: house.community,
    });
    const checked = await houseByMember(DUE.desktop);
    expect(checked.house_check_last_date).not.toBe('');
    // The last-checked date is the report's incident time, both made on the device.
    expect(new Date(checked.house_check_last_date.replace(' ', 'T')).getTime()).toBe(
      new Date(String(report?.incident_time).replace(' ', 'T')).getTime(),
    );
    await page.getByRole('button', { name: 'Sync status: Synced' }).waitFor();
    // The window and the service worker both replay the outbox: still exactly one report a moment later.
    await page.waitForTimeout(1_500);
    expect(await houseCheckReports(house.id, userId)).toHaveLength(1);
    await expect(reloaded.getByRole('button', { name: 'House check' }).count()).resolves.toBe(0);
  }, 90_000);
});

describe('at phone size', () => {
  test('the House check dialog opens from the card, closes without saving, and saves online with a toast', async () => {
    const { context, page } = await signedInPage(env.browser, env.app.server.url, 'phone', DEMO_DIRECTOR);
    try {
      const userId = await signedInUserId(page);
      const card = await findCard(page, DUE.phone);
      await card.getByRole('button', { name: 'House check' }).click();
      const check = await openedDialog(page, 'House Check');
      await expect(check.getByText('Is everything ok?').isVisible()).resolves.toBe(true);
      await check.locator('label', { hasText: /^No$/ }).click();
      await expect(check.getByRole('button', { name: 'Submit' }).isEnabled()).resolves.toBe(true);
      await screenshot(page, 'house-check-dialog');
      await expectNoSeriousA11yViolations(page, 'the House check dialog');
      await check.getByRole('button', { name: 'Close' }).click();
      await check.waitFor({ state: 'detached' });
      // Closed, not submitted: the check is still due, and nothing was queued.
      await card.getByRole('button', { name: 'House check' }).waitFor();
      await expect(page.getByRole('button', { name: 'Sync status: Synced' }).count()).resolves.toBe(1);

      // Online this time, answered No with a remark: saved, and said so.
      await card.getByRole('button', { name: 'House check' }).click();
      const again = await openedDialog(page, 'House Check');
      await again.locator('label', { hasText: /^No$/ }).click();
      await again.getByLabel('Remark').fill('Pool gate left open; closed it.');
      await again.getByRole('button', { name: 'Submit' }).click();
      await again.waitFor({ state: 'detached' });
      await expectToast(page, 'Success', 'House check saved');
      await screenshot(page, 'house-check-saved');
      // On a phone the toast keeps clear of the top bar, the heading and Add Home.
      await expectNoOverlap({
        toast: page.getByRole('status').filter({ hasText: 'House check saved' }),
        'top bar': page.locator('nav').first(),
        heading: page.getByRole('heading', { name: 'Homes', level: 1 }),
        'Add Home': page.getByRole('button', { name: 'Add Home' }),
      });
      await card.getByRole('button', { name: 'House check' }).waitFor({ state: 'detached' });
      const house = await houseByMember(DUE.phone);
      const [report] = await waitUntil(
        'the house check on the server',
        () => houseCheckReports(house.id, userId),
        (reports) => reports.length === 1,
      );
      // The answer is data beside the remark, which stays the narrative (docs/product.md#house-checks).
      expect(report).toMatchObject({ everything_ok: 'no', narative: 'Pool gate left open; closed it.' });
    } finally {
      await context.close();
    }
  });
});
