/**
 * A phone out of storage, in Chromium against a real PocketBase, at a phone
 * and a desktop size: IndexedDB refuses the report's write with a
 * QuotaExceededError, and Create report says the phone is out of storage
 * and what to do, keeping the form as it was; with room again, the same
 * form is sent once. The sync panel shows whether the browser keeps the
 * data and the space used and left.
 *
 * How the storage is made full: the DevTools protocol's
 * Storage.overrideQuotaForOrigin does lower the origin's quota in this
 * Chromium (Storage.getUsageAndQuota then says 1 kB, and Cache Storage
 * refuses a write), but its IndexedDB goes on accepting writes of many MB
 * past it. So the page's IndexedDB is made to answer as a full one does:
 * IDBObjectStore's put and add throw the browser's own QuotaExceededError
 * DOMException while `window.storageFull` is set (an init script, before
 * the app's code), and Dexie wraps it as it would the real one.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { OUT_OF_STORAGE } from '../../src/api/errorMessage.ts';
import { STORAGE_HINT, STORAGE_KEPT, STORAGE_NOT_KEPT } from '../../src/app/storageText.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { startDemoServer } from './pwa-helpers.ts';
import {
  fillNarrative,
  reportsByNarrative,
  screenshot,
  signedIn,
  uniqueTag,
  waitUntil,
  type SignedIn,
  type SizeName,
} from './reports-helpers.ts';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** IndexedDB as on a full phone while `window.storageFull` is set. */
function fullWhenAsked(): void {
  for (const method of ['put', 'add'] as const) {
    const original = IDBObjectStore.prototype[method];
    IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: Parameters<typeof original>) {
      if ((window as unknown as { storageFull?: boolean }).storageFull)
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return original.apply(this, args);
    };
  }
}

const setStorageFull = (page: Page, full: boolean) =>
  page.evaluate((value) => ((window as unknown as { storageFull?: boolean }).storageFull = value), full);

describe.each(['phone', 'desktop'] as SizeName[])('out of storage (%s)', (size) => {
  let session: SignedIn;
  let page: Page;

  beforeAll(async () => {
    session = await signedIn(browser, server, size);
    page = session.page;
    await session.context.addInitScript(fullWhenAsked);
  });
  afterAll(async () => {
    await session?.context.close();
  });

  test('Create report says the phone is out of storage and keeps the form; with room again it is sent once', async () => {
    await page.goto(`${server.url}/reports/create`);
    await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
    const narrative = `Gate arm broken, ref ${uniqueTag()}`;
    await page.getByLabel('Type').selectOption('unauthorized_entry');
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await fillNarrative(page, narrative);

    await setStorageFull(page, true);
    try {
      await page.getByRole('button', { name: 'Create report', exact: true }).click();
      // A failure's toast is an alert.
      const toast = page.getByRole('alert').filter({ hasText: 'Fail' }).filter({ hasText: OUT_OF_STORAGE });
      await toast.waitFor();
      await screenshot(page, 'out-of-storage');
      // The form is exactly as it was, on the same page.
      expect(new URL(page.url()).pathname).toBe('/reports/create');
      await expect(page.getByLabel('Original narrative').inputValue()).resolves.toBe(narrative);
      await expect(page.getByLabel('Type').inputValue()).resolves.toBe('unauthorized_entry');
      await expect(page.getByLabel('Hour').inputValue()).resolves.toMatch(/^\d{2}$/);
      expect(await reportsByNarrative(server, narrative)).toHaveLength(0);
    } finally {
      await setStorageFull(page, false);
    }

    await page.getByRole('button', { name: 'Create report', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Success' })
      .filter({ hasText: 'Report created successfully' })
      .waitFor();
    await waitUntil(
      'the report on the server',
      () => reportsByNarrative(server, narrative),
      (found) => found.length > 0,
    );
    await page.waitForTimeout(1_000);
    expect(await reportsByNarrative(server, narrative)).toHaveLength(1);
  });

  test('the sync panel says whether the browser keeps the data, and the space used and left', async () => {
    await page.getByRole('button', { name: /^Sync status:/ }).click();
    const panel = page.getByRole('dialog');
    const status = panel.getByTestId('storage-status');
    await status.getByText(/^\d+(\.\d)? (B|kB|MB|GB) used · \d+(\.\d)? (B|kB|MB|GB|TB) free$/).waitFor();
    const kept = await page.evaluate(() => navigator.storage.persisted());
    await status.getByText(kept ? STORAGE_KEPT : STORAGE_NOT_KEPT, { exact: true }).waitFor();
    // The hint on keeping the data after a refusal: at the panel's first opening on this device (each size is
    // a browser context of its own, a device of its own), never again.
    await expect(status.getByText(STORAGE_HINT).count()).resolves.toBe(kept ? 0 : 1);
    await screenshot(page, 'sync-panel-storage');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    if (!kept) {
      await page.getByRole('button', { name: /^Sync status:/ }).click();
      await status.waitFor();
      await expect(status.getByText(STORAGE_HINT).count()).resolves.toBe(0);
      await page.keyboard.press('Escape');
    }
  });
});
