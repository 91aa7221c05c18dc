/**
 * Where and when in the built app against a real PocketBase:
 * - with the position allowed (Chromium's emulated geolocation), a report
 *   and a house check reach the server with the device's position, and the
 *   report's card links to it on the map (a new tab);
 * - with the position refused, a report written offline is saved anyway,
 *   says it has no position, and once sent more than a minute later its
 *   card shows both times: 'Logged 02:14 (sent 02:31)'. The officer is not
 *   asked again.
 */
import { format } from 'date-fns';
import type { Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { describe, expect, test } from 'vitest';
import { DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import { parsePbDate } from '../../src/domain/pbDate.ts';
import { signedInUserId, waitForWorkerControl } from './pwa-helpers.ts';
import { card, fillNarrative, reportsByNarrative, uniqueTag } from './reports-helpers.ts';
import {
  expectNoSeriousA11yViolations,
  expectToast,
  navigate,
  openedDialog,
  screenshot,
  signedInPage,
  useScreensApp,
  waitUntil,
} from './screens-helpers.ts';

const env = useScreensApp();

const POSITION = { latitude: 26.70512, longitude: -80.03641, accuracy: 12 };

/** Writes a report through the Create report form (offline: the words say it is kept on the device); returns to the list. */
async function createReport(page: Page, narrative: string, offline = false): Promise<void> {
  const saved = offline
    ? 'Report saved on this device; it will be sent when you are back online.'
    : 'Report created successfully';
  await navigate(page, 'Reports');
  await page.getByRole('link', { name: 'Create Report' }).click();
  await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
  await page.getByLabel('Type').selectOption('loud_noise');
  await page.getByRole('button', { name: 'Now', exact: true }).click();
  await fillNarrative(page, narrative);
  await page.getByRole('button', { name: 'Create report', exact: true }).click();
  await expectToast(page, 'Success', saved);
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  // Read, then dismissed: the screenshots show the card under it.
  const toast = page.getByRole('status').filter({ hasText: saved });
  await toast.getByRole('button', { name: 'Close' }).click();
  await toast.waitFor({ state: 'detached' });
}

async function onlyReport(narrative: string): Promise<RecordModel> {
  const [report] = await waitUntil(
    'the report on the server',
    () => reportsByNarrative(env.app.server, narrative),
    (found) => found.length === 1,
    30_000,
  );
  return report!;
}

// At phone size only: what this journey checks happens below the screen (the outbox, the sync, the
// session), the same at both sizes; each screen's layout at both sizes is the screens-* journeys'.
describe.each(['phone'] as const)('at %s size', (size) => {
  test('with the position allowed: the report and a house check carry it, and the card links to the map', async () => {
    const { context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    try {
      await context.grantPermissions(['geolocation'], { origin: env.app.server.url });
      await context.setGeolocation(POSITION);
      const narrative = `music from the clubhouse after 11 pm, ref ${uniqueTag()}`;
      await createReport(page, narrative);

      const saved = await onlyReport(narrative);
      expect(saved.position).toEqual(POSITION);
      // Made on the device moments before the server received it.
      const logged = parsePbDate(saved.logged_at as string);
      const created = parsePbDate(saved.created as string);
      expect(logged).not.toBeNull();
      expect(Math.abs(created!.getTime() - logged!.getTime())).toBeLessThan(60_000);

      const shown = card(page, saved.id);
      const link = shown.getByRole('link', { name: /26\.70512, -80\.03641/ });
      await link.waitFor();
      await expect(link.getAttribute('href')).resolves.toBe(
        'https://www.openstreetmap.org/?mlat=26.705120&mlon=-80.036410#map=18/26.705120/-80.036410',
      );
      await expect(link.getAttribute('target')).resolves.toBe('_blank');
      await expect(link.getAttribute('rel')).resolves.toContain('noopener');
      await expect(shown.getByTestId('report-position').textContent()).resolves.toMatch(/\(±12 m\)$/);
      // Sent at once: one time is enough.
      await expect(shown.getByTestId('logged-sent').count()).resolves.toBe(0);
      await shown.scrollIntoViewIfNeeded();
      await screenshot(page, 'report-position');
      await expectNoSeriousA11yViolations(page, 'a report card with its position');

      // A house check made here carries the position too.
      await navigate(page, 'Homes');
      await page.getByRole('link', { name: 'House checks' }).click();
      const due = page.getByRole('list', { name: 'House checks to do' }).getByRole('article').first();
      const address = await due.getByRole('heading').textContent();
      await due.getByRole('button', { name: 'House check' }).click();
      const check = await openedDialog(page, 'House Check');
      await check.locator('label', { hasText: /^Yes$/ }).click();
      await check.getByRole('button', { name: 'Submit' }).click();
      await expectToast(page, 'Success', 'House check saved');
      const userId = await signedInUserId(page);
      const admin = env.app.server.admin;
      const [houseCheck] = await waitUntil(
        'the house check on the server',
        () =>
          admin.collection('reports').getFullList({
            filter: admin.filter("type = 'house_check' && created_by = {:user} && house.address = {:address}", {
              user: userId,
              address: address?.split(',')[0] ?? '',
            }),
          }),
        (found) => found.length > 0,
      );
      expect(houseCheck?.position).toEqual(POSITION);
      expect(houseCheck?.logged_at).not.toBe('');
    } finally {
      await context.close();
    }
  });

  test('with the position refused: saved offline without it, said so, and both times shown once sent a minute later', async () => {
    const { context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    try {
      // Chromium refuses a site no permission was granted to, as an officer tapping "Block" does.
      await context.clearPermissions();
      const narrative = `gate arm stuck open at the north entrance, ref ${uniqueTag()}`;
      // Lazy screens and dialogs offline come from the worker's precache: wait until it controls the page.
      await waitForWorkerControl(page);
      await context.setOffline(true);
      // Written two minutes before it is sent: the device's clock is set back for the writing
      // (rather than the test waiting out the minutes), then put right before the sending.
      await page.clock.setSystemTime(Date.now() - 2 * 60_000);
      await createReport(page, narrative, true);
      await page.clock.setSystemTime(Date.now());
      const first = page.getByRole('article').filter({ hasText: narrative });
      await first.getByText('Not yet sent').waitFor();
      await expect(first.getByTestId('report-position').textContent()).resolves.toBe('No position recorded');
      // The refusal is remembered: the app does not ask at the next report.
      await expect(page.evaluate(() => localStorage.getItem('scms.position-answer'))).resolves.toBe('denied');
      await first.scrollIntoViewIfNeeded();
      await screenshot(page, 'report-no-position-offline');

      // Kept on the device, then sent.
      await context.setOffline(false);
      const saved = await onlyReport(narrative);
      expect(saved.position ?? null).toBeNull();
      const logged = parsePbDate(saved.logged_at as string)!;
      const sent = parsePbDate(saved.created as string)!;
      expect(sent.getTime() - logged.getTime()).toBeGreaterThanOrEqual(60_000);

      const shown = card(page, saved.id);
      await shown.getByText('Not yet sent').waitFor({ state: 'detached', timeout: 20_000 });
      await expect(shown.getByTestId('logged-sent').textContent()).resolves.toBe(
        ` · Logged ${format(logged, 'HH:mm')} (sent ${format(sent, 'HH:mm')})`,
      );
      await expect(shown.getByTestId('report-position').textContent()).resolves.toBe('No position recorded');
      await shown.scrollIntoViewIfNeeded();
      await screenshot(page, 'report-logged-sent');
      await expectNoSeriousA11yViolations(page, 'a report card sent late, without a position');
    } finally {
      await context.close();
    }
  });
});
