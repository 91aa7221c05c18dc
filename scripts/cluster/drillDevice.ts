/**
 * An officer's phone in the drill (scripts/cluster/drill.ts): the built app
 * in Chromium at 390×844, signed in through the cluster's one address,
 * filing reports through its screens, its outbox read from IndexedDB.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DemoAccount } from '../seed/demo-account.ts';

export interface Device {
  name: string;
  context: BrowserContext;
  page: Page;
  userId: string;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((wait) => setTimeout(wait, 250));
  }
}

/** Signs in on a new phone; `link` is the address the officer was given (with or without `?c=`). */
export async function signedInDevice(
  browser: Browser,
  name: string,
  link: string,
  account: DemoAccount,
): Promise<Device> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  // SCMS_DRILL_VERBOSE=1: the phone's console, to see what its sync engine and worker did.
  if (process.env.SCMS_DRILL_VERBOSE === '1')
    page.on('console', (message) =>
      process.stdout.write(`  [${name} ${new Date().toISOString().slice(11, 23)}] ${message.text()}\n`),
    );
  await page.goto(link);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('heading', { name: 'Homes' }).waitFor({ timeout: 60_000 });
  const userId = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('pocketbase_auth') ?? '{}') as { record?: { id?: string } }).record?.id ?? '',
  );
  // The first pull done: the mirror holds the homes a report is filed on.
  await until(`${name}'s first sync`, () =>
    page.evaluate(
      (database) =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open(database);
          open.onerror = () => resolve(false);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('syncState')) return resolve(false);
            const request = db.transaction('syncState').objectStore('syncState').get('lastSyncAt');
            request.onsuccess = () => resolve(Boolean((request.result as { value?: number } | undefined)?.value));
            request.onerror = () => resolve(false);
          };
        }),
      `scms-${userId}`,
    ),
  );
  return { name, context, page, userId };
}

/** The server path the app kept for this device (src/api/baseUrl.ts). */
export function keptServerPath(device: Device): Promise<string> {
  return device.page.evaluate(() => localStorage.getItem('scms.serverPath') ?? '');
}

/** Files a report through the Create report screen; resolves once the app says it is saved (sent or queued). */
export async function fileReport(device: Device, address: string, narrative: string, photo?: Buffer): Promise<void> {
  const { page } = device;
  await page.goto(new URL('/reports/create', page.url()).href);
  await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
  await page.getByLabel('Type').selectOption('vehicle_tailgaite');
  await page.getByRole('button', { name: 'Now', exact: true }).click();
  const narrativeBox = page.getByLabel('Original narrative');
  await narrativeBox.fill(narrative);
  const homeBox = page.getByRole('combobox', { name: 'Home' });
  await homeBox.fill(address);
  await page
    .getByRole('listbox')
    .getByRole('option', { name: new RegExp(`^${address}`) })
    .click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  await until('the chosen home', async () => (await homeBox.inputValue()) === address, 10_000);
  if ((await narrativeBox.inputValue()) !== narrative) await narrativeBox.fill(narrative);
  if (photo) {
    await page.locator('input[type="file"]').setInputFiles({ name: 'gate.png', mimeType: 'image/png', buffer: photo });
    await page.getByRole('img', { name: 'Photo 1' }).waitFor();
  }
  await page.getByRole('button', { name: 'Create report', exact: true }).click();
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
}

/** How many writes wait in the device's outbox. */
export function queuedWrites(device: Device): Promise<number> {
  return device.page.evaluate(
    (database) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(database);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('outbox').objectStore('outbox').count();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        };
      }),
    `scms-${device.userId}`,
  );
}

/** Waits until the device's outbox is empty: everything it wrote reached its server. */
export async function outboxEmptied(device: Device, timeoutMs = 180_000): Promise<void> {
  await until(`${device.name}'s outbox to empty`, async () => (await queuedWrites(device)) === 0, timeoutMs);
}

export { until };
