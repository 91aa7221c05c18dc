/**
 * Today's house checks on two signed-in devices: the officer's
 * phone opens 'House checks' from Homes, sees the day's
 * progress, logs two checks with no connection (the progress and the Done
 * section follow at once, marked as not yet sent), and once back online
 * the manager's desk sees the same progress and
 * who checked each home, through realtime alone. The expected counts come
 * from the server's homes by the rule under test's own definition
 * (src/domain/todaysHouseChecks.ts), so the journey holds whatever the
 * demo's windows are today.
 */
import type { Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { describe, expect, test } from 'vitest';
import { DEMO_MANAGER, DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import type { HouseCheckFields } from '../../src/domain/houseCheck.ts';
import { todaysHouseChecks } from '../../src/domain/todaysHouseChecks.ts';
import { formatAddress } from '../../src/ui/format.ts';
import { LEASE_TTL_MS } from '../../src/data/sync/lease.ts';
import { signedInUserId, waitForWorkerControl } from './pwa-helpers.ts';
import {
  DEMO_COMMUNITY_IDS,
  expectNoSeriousA11yViolations,
  expectToast,
  isPhone,
  navArea,
  openedDialog,
  screenshot,
  signedInPage,
  useScreensApp,
  waitUntil,
} from './screens-helpers.ts';

const env = useScreensApp();

/** Today's homes of the demo community as the server holds them now. */
async function serverToday() {
  const admin = env.app.server.admin;
  const houses = await admin.collection('houses').getFullList({
    filter: admin.filter('community = {:c} && house_check = true', { c: DEMO_COMMUNITY_IDS.primary }),
  });
  return todaysHouseChecks(houses, (house) => house as unknown as HouseCheckFields, new Date());
}

const progress = (page: Page) => page.getByTestId('house-check-progress');
/** The first home is checked with Yes, the second with No. */
const ANSWERS = ['Everything ok: Yes', 'Everything ok: No'];

async function openHouseChecks(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'House checks' }).click();
  await page.getByRole('heading', { name: 'House checks', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/homes/house-checks');
  // Reached from Homes: its navigation entry stays the highlighted one (on a phone, in the drawer).
  const area = await navArea(page);
  await expect(area.locator('a[aria-current="page"]').allTextContents()).resolves.toEqual(['Homes']);
  if (isPhone(page)) {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }
}

function dueList(page: Page) {
  return page.getByRole('list', { name: 'House checks to do' });
}
function doneList(page: Page) {
  return page.getByRole('list', { name: 'House checks done today' });
}

async function checkOffline(page: Page, address: string, answer: 'Yes' | 'No'): Promise<void> {
  const card = dueList(page).getByRole('article', { name: address });
  await card.getByRole('button', { name: 'House check' }).click();
  const check = await openedDialog(page, 'House Check');
  await check.locator('label', { hasText: new RegExp(`^${answer}$`) }).click();
  await check.getByRole('button', { name: 'Submit' }).click();
  await check.waitFor({ state: 'detached' });
  await expectToast(page, 'Success', 'House check saved on this device; it will be sent when you are back online.');
}

// As they work: the officer on a phone, the manager at a desk (each screen at both sizes).
describe("an officer's phone and a manager's desk", () => {
  test('two checks logged offline count at once on the device, and on the other device once sent', async () => {
    const officer = await signedInPage(env.browser, env.app.server.url, 'phone', DEMO_REGULAR);
    const manager = await signedInPage(env.browser, env.app.server.url, 'desktop', DEMO_MANAGER);
    try {
      // The service worker serves the app to the offline reload below.
      await waitForWorkerControl(officer.page);
      const officerId = await signedInUserId(officer.page);
      const officerRecord = await env.app.server.admin.collection('users').getOne(officerId);
      const officerName = `${officerRecord.first_name} ${officerRecord.last_name}`;

      const before = await serverToday();
      expect(before.due.length, 'the demo has homes due today').toBeGreaterThanOrEqual(2);
      const [first, second] = before.due as RecordModel[];
      const addresses = [first!, second!].map((house) => formatAddress({ address: house.address, apt: house.apt }));
      const expected = (done: number) => `${before.done.length + done} of ${before.total} checked`;

      // The way in: a link beside Add Home, under the Homes heading's row.
      await officer.page.getByRole('link', { name: 'House checks' }).waitFor();
      await screenshot(officer.page, 'homes-house-checks-link');
      await openHouseChecks(officer.page);
      await openHouseChecks(manager.page);
      await progress(officer.page).getByText(expected(0)).waitFor();
      await progress(manager.page).getByText(expected(0)).waitFor();
      // Each due home shows its house check note and the action.
      const firstCard = dueList(officer.page).getByRole('article', { name: addresses[0] });
      if (first?.house_check_note) await firstCard.getByText(String(first.house_check_note)).waitFor();
      await screenshot(officer.page, 'house-checks');
      await expectNoSeriousA11yViolations(officer.page, "today's house checks");
      await expectNoSeriousA11yViolations(manager.page, "today's house checks");

      await officer.context.setOffline(true);
      await officer.page.getByText('You are offline: checks are saved on this device').waitFor();
      await checkOffline(officer.page, addresses[0]!, 'Yes');
      await progress(officer.page).getByText(expected(1)).waitFor();
      await checkOffline(officer.page, addresses[1]!, 'No');
      await progress(officer.page).getByText(expected(2)).waitFor();
      // Both moved to Done, with this officer and the answer, waiting to be sent.
      for (const [i, address] of addresses.entries()) {
        const done = doneList(officer.page).getByRole('article', { name: address });
        await done.getByText(new RegExp(`^Checked \\d{2}:\\d{2} by ${officerName}$`)).waitFor();
        await done.getByText(ANSWERS[i]!, { exact: true }).waitFor();
        await done.getByText('Not yet sent').waitFor();
        await expect(dueList(officer.page).getByRole('article', { name: address }).count()).resolves.toBe(0);
      }
      // Still offline, the screen reloads from the service worker and the mirror, checks and all.
      await officer.page.reload();
      await officer.page.getByRole('heading', { name: 'House checks', level: 1 }).waitFor();
      await progress(officer.page).getByText(expected(2)).waitFor();
      await doneList(officer.page).getByRole('article', { name: addresses[1] }).getByText('Not yet sent').waitFor();
      await officer.page.getByRole('heading', { name: /^Done \(\d+\)$/ }).scrollIntoViewIfNeeded();
      await screenshot(officer.page, 'house-checks-offline');
      await expectNoSeriousA11yViolations(officer.page, "today's house checks, offline");

      // Nothing has left the officer's device: the manager still sees the morning's count.
      await manager.page.waitForTimeout(500);
      await expect(progress(manager.page).textContent()).resolves.toBe(expected(0));

      await officer.context.setOffline(false);
      await waitUntil(
        'both checks on the server',
        serverToday,
        (today) => today.done.length === before.done.length + 2,
        // Usually at once; but the page reloaded above may have died holding the outbox lease
        // (src/data/sync/lease.ts), and then the new page's 30-second replay timer sends the checks.
        LEASE_TTL_MS + 15_000,
      );
      // The other device follows through realtime: count, Done section, officer, time and answer.
      await progress(manager.page).getByText(expected(2)).waitFor({ timeout: 20_000 });
      for (const [i, address] of addresses.entries()) {
        const done = doneList(manager.page).getByRole('article', { name: address });
        await done.getByText(new RegExp(`^Checked \\d{2}:\\d{2} by ${officerName}$`)).waitFor();
        await done.getByText(ANSWERS[i]!, { exact: true }).waitFor();
      }
      await expect(dueList(manager.page).getByRole('article', { name: addresses[0] }).count()).resolves.toBe(0);
      // Sent: the officer's own device drops the marker.
      await doneList(officer.page)
        .getByRole('article', { name: addresses[0] })
        .getByText('Not yet sent')
        .waitFor({ state: 'detached', timeout: 20_000 });
      await manager.page.getByRole('heading', { name: /^Done \(\d+\)$/ }).scrollIntoViewIfNeeded();
      await screenshot(manager.page, 'house-checks-other-device');
      await expectNoSeriousA11yViolations(manager.page, "today's house checks on the other device");
    } finally {
      await officer.context.close();
      await manager.context.close();
    }
  }, 150_000);
});
