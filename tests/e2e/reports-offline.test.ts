/**
 * Create report with the network off (docs/product.md#who-uses-it: an officer in a dead zone)
 * in Chromium against a real PocketBase with the demo data, at phone size:
 * Ai Assist is disabled with its reason, the report waits in the outbox and
 * shows "Not yet sent" (also after a reload served by the service worker),
 * and once the network is back it reaches the server exactly once, with its
 * photo, and the card stops being pending.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { startDemoServer, waitForWorkerControl } from './pwa-helpers.ts';
import {
  card,
  cardIds,
  chooseHome,
  COMMUNITY,
  fillNarrative,
  openReports,
  PNG,
  queuedReports,
  reportsByNarrative,
  screenshot,
  signedIn,
  uniqueTag,
  waitUntil,
  type SignedIn,
} from './reports-helpers.ts';

let server: TestServer;
let browser: Browser;
let session: SignedIn;
let page: Page;

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchChromium();
  session = await signedIn(browser, server, 'phone');
  page = session.page;
  // A reload with the network off is only served if the worker controls the page.
  expect(await waitForWorkerControl(page)).toBe(`${server.url}/sw.js`);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test('a report written offline waits as "Not yet sent", survives a reload, and reaches the server once with its photo', async () => {
  const house = await server.admin
    .collection('houses')
    .getFirstListItem(server.admin.filter('community = {:c}', { c: COMMUNITY }), { sort: 'address' });
  const address = house.address as string;
  const narrative = `res reported susp veh thru back gate w/o pass, ref ${uniqueTag()}`;

  await openReports(page);
  await page.getByRole('link', { name: 'Create Report' }).click();
  await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
  await session.context.setOffline(true);
  await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();

  await page.getByLabel('Type').selectOption('vehicle_tailgaite');
  await page.getByRole('button', { name: 'Now', exact: true }).click();
  // The homes come from the device's mirror: choosing one works offline.
  // The narrative first: right after a home is chosen the combobox takes the focus back.
  await fillNarrative(page, narrative);
  await chooseHome(page, address);
  await expect(page.getByLabel('Original narrative').inputValue()).resolves.toBe(narrative);

  // Ai Assist needs the server: disabled, and the form says why.
  const aiAssist = page.getByRole('button', { name: 'Ai Assist' });
  await expect(aiAssist.isDisabled()).resolves.toBe(true);
  const reasonId = await aiAssist.getAttribute('aria-describedby');
  await expect(page.locator(`[id="${reasonId}"]`).textContent()).resolves.toBe(
    'You are offline — Ai Assist needs a connection.',
  );
  await expect(page.getByRole('tab', { name: 'Ai Generated' }).count()).resolves.toBe(0);

  await page.locator('input[type="file"]').setInputFiles({ name: 'back-gate.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('img', { name: 'Photo 1' }).waitFor();
  await screenshot(page, 'offline-create', true);
  await page.getByRole('button', { name: 'Create report', exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: 'Success' })
    // Offline, the words say where the report is: on this device until the connection is back.
    .filter({ hasText: 'Report saved on this device; it will be sent when you are back online.' })
    .waitFor();
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

  // It waits in the outbox, with its photo, under the id the server will get.
  const queued = (await queuedReports(page, session.userId)).filter((r) => r.narative === narrative);
  expect(queued).toHaveLength(1);
  expect(queued[0]!.photos).toBe(1);
  const id = queued[0]!.id;

  const pending = async () => {
    const mine = card(page, id);
    await mine.waitFor();
    expect((await cardIds(page))[0]).toBe(id);
    await expect(mine.getByText('Not yet sent').isVisible()).resolves.toBe(true);
    await expect(mine.getByText('Photo waiting to upload').isVisible()).resolves.toBe(true);
    await mine.getByRole('button', { name: 'Original', exact: true }).click();
    await expect(mine.getByTestId('narrative').textContent()).resolves.toBe(narrative);
    await expect(mine.getByText(address).count()).resolves.toBe(1);
  };
  await pending();
  await screenshot(page, 'offline-pending');
  expect(await reportsByNarrative(server, narrative)).toHaveLength(0);

  // Still offline, a reload: the worker serves the app, the mirror and the outbox still hold it.
  await page.reload();
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();
  await pending();
  await screenshot(page, 'offline-reloaded');
  expect(await reportsByNarrative(server, narrative)).toHaveLength(0);

  await session.context.setOffline(false);
  const [saved] = await waitUntil(
    'the offline report on the server',
    () => reportsByNarrative(server, narrative),
    (found) => found.length > 0,
  );
  // Exactly once: the window and the worker may both replay, the record id keeps it single.
  await page.waitForTimeout(1_500);
  expect(await reportsByNarrative(server, narrative)).toHaveLength(1);
  expect(saved).toMatchObject({
    id,
    type: 'vehicle_tailgaite',
    house: house.id,
    created_by: session.userId,
    community: COMMUNITY,
  });
  expect(saved!.photos).toHaveLength(1);

  const mine = card(page, id);
  await mine.getByText('Not yet sent').waitFor({ state: 'detached', timeout: 15_000 });
  await mine.getByRole('button', { name: 'Open photo 1' }).waitFor();
  await expect.poll(() => queuedReports(page, session.userId)).toEqual([]);
  await screenshot(page, 'offline-sent');
});
