/**
 * An expired or revoked session is said at once (docs/product.md#offline-sessions),
 * in Chromium against a real PocketBase with the demo data, on a phone:
 * - a house check queued offline, the session revoked on the server
 *   meanwhile: back online, the banner 'Your session expired. Log in again to
 *   send your changes.' shows within seconds (the badge no longer says
 *   'Synced'); offline, before any request was refused, it does not; 'Log in'
 *   leads to the login page with the outbox kept, and after signing in again
 *   the house check reaches the server exactly once;
 * - with nothing queued, a revoked session shows the banner at the first
 *   token refresh (the app opened again).
 * The session is revoked as an administrator would: a new tokenKey voids
 * every token issued before, the password stays.
 */
import type { Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { idb, signedInUserId, signIn, waitForFirstSync, waitForWorkerControl } from './pwa-helpers.ts';
import {
  expectNoSeriousA11yViolations,
  openedDialog,
  screenshot,
  signedInPage,
  useScreensApp,
  waitUntil,
  type SizeName,
} from './screens-helpers.ts';

const env = useScreensApp();

const BANNER_TEXT = 'Your session expired. Log in again to send your changes.';
/** Demo homes whose house check is due today (demo-data.ts: homes 3 and 10 of Palm Grove Estates), one per size. */
const DUE: Record<SizeName, string> = { desktop: 'PGE-1003', phone: 'PGE-1010' };
/** Within "a few seconds" of the refusal. */
const SOON_MS = 5_000;

function banner(page: Page) {
  return page.getByRole('alert').filter({ hasText: BANNER_TEXT });
}

/** Every token of the user issued so far stops working (PocketBase signs tokens with the user's tokenKey). */
async function revokeSessions(userId: string): Promise<void> {
  const tokenKey = `revoked-${Date.now()}-${Math.random().toString(36).slice(2)}`.padEnd(50, '0');
  await env.app.server.admin.collection('users').update(userId, { tokenKey });
}

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

/** The banner is on screen, not under the top bar: its Log in button is the topmost element at its own centre. */
async function expectBannerVisible(page: Page): Promise<void> {
  const logIn = banner(page).getByRole('button', { name: 'Log in' });
  await expect(logIn.isVisible()).resolves.toBe(true);
  const box = (await logIn.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  const onTop = await logIn.evaluate((button) => {
    const rect = button.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return hit !== null && button.contains(hit);
  });
  expect(onTop).toBe(true);
}

// At phone size only: what this journey checks happens below the screen (the outbox, the sync, the
// session), the same at both sizes; each screen's layout at both sizes is the screens-* journeys'.
describe.each(['phone'] as const)('at %s size', (size) => {
  test('a house check queued offline while the session is revoked: banner once back online, Log in, sent once after signing in again', async () => {
    const { context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR);
    try {
      const userId = await signedInUserId(page);
      const house = await houseByMember(DUE[size]);
      await page.getByLabel('Search homes').fill(DUE[size]);
      const card = page.getByRole('article');
      await expect.poll(() => card.count()).toBe(1);
      const checkButton = card.getByRole('button', { name: 'House check' });
      await checkButton.waitFor();

      // Lazy screens and dialogs offline come from the worker's precache: wait until it controls the page.
      await waitForWorkerControl(page);
      await context.setOffline(true);
      await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();
      await checkButton.click();
      const check = await openedDialog(page, 'House Check');
      await check.locator('label', { hasText: /^Yes$/ }).click();
      await check.getByRole('button', { name: 'Submit' }).click();
      await check.waitFor({ state: 'detached' });
      await checkButton.waitFor({ state: 'detached' });

      // Revoked while the device is offline: nothing has been refused yet, so nothing is said.
      await revokeSessions(userId);
      await page.waitForTimeout(1_500);
      await expect(banner(page).count()).resolves.toBe(0);

      await context.setOffline(false);
      await banner(page).waitFor({ timeout: SOON_MS });
      await expectBannerVisible(page);
      const badge = page.getByRole('button', { name: /^Sync status:/ });
      await expect(badge.textContent()).resolves.not.toContain('Synced');
      await expect(badge.getAttribute('aria-label')).resolves.toBe('Sync status: Session expired');
      await screenshot(page, 'session-expired-queued');
      await expectNoSeriousA11yViolations(page, 'the session-expired banner');
      // Nothing was accepted with the void token.
      expect(await houseCheckReports(house.id, userId)).toHaveLength(0);

      await banner(page).getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Log in to manage your community' }).waitFor();
      await screenshot(page, 'session-expired-login');
      // The queued house check is still on the device (one entry: its report and the house update).
      await expect(idb<number>(page, `scms-${userId}`, 'outbox', 'count')).resolves.toBe(1);

      await page.getByLabel('Email').fill(DEMO_DIRECTOR.email);
      await page.getByLabel('Password').fill(DEMO_DIRECTOR.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
      await waitUntil(
        'the house check on the server',
        () => houseCheckReports(house.id, userId),
        (reports) => reports.length > 0,
      );
      await page.getByRole('button', { name: 'Sync status: Synced' }).waitFor();
      await expect(banner(page).count()).resolves.toBe(0);
      // The window and the service worker may both replay: still exactly one a moment later.
      await page.waitForTimeout(1_500);
      expect(await houseCheckReports(house.id, userId)).toHaveLength(1);
      expect((await houseByMember(DUE[size])).house_check_last_date).not.toBe('');
      await expect(idb<number>(page, `scms-${userId}`, 'outbox', 'count')).resolves.toBe(0);
      await screenshot(page, 'session-expired-resent');
    } finally {
      await context.close();
    }
  }, 90_000);

  test('with nothing queued, a revoked session shows the banner at the first token refresh', async () => {
    const { context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR);
    try {
      const userId = await signedInUserId(page);
      await page.getByRole('button', { name: 'Sync status: Synced' }).waitFor();
      await revokeSessions(userId);
      await expect(banner(page).count()).resolves.toBe(0);

      // The officer opens the app again: its first refresh is refused.
      await page.reload();
      await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
      await banner(page).waitFor({ timeout: SOON_MS });
      await expectBannerVisible(page);
      await expect(page.getByRole('button', { name: /^Sync status:/ }).getAttribute('aria-label')).resolves.toBe(
        'Sync status: Session expired',
      );
      await screenshot(page, 'session-expired-empty');

      // Signing in again ends it.
      await banner(page).getByRole('button', { name: 'Log in' }).click();
      await signIn(page, env.app.server.url, DEMO_DIRECTOR);
      await waitForFirstSync(page, userId);
      await page.getByRole('button', { name: 'Sync status: Synced' }).waitFor();
      await expect(banner(page).count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  }, 90_000);
});
