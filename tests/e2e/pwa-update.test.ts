/**
 * "New version available — Reload" (docs/product.md#navigation): a new deployment's worker
 * waits until the user chooses to reload; then it takes over and the page
 * reloads onto it. The new deployment is the built app with a changed
 * sw.js, served from a copy of dist/.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { distDir, saveScreenshot, startDemoServer, waitForWorkerControl } from './pwa-helpers.ts';

let server: TestServer;
let browser: Browser;
let publicDir = '';

// Appended to the deployed sw.js: makes its bytes differ (so the browser
// installs it) and lets the test ask a worker which build it runs.
const NEXT_BUILD = `
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'TEST_BUILD') event.ports[0].postMessage('next');
});
`;

beforeAll(async () => {
  publicDir = mkdtempSync(join(tmpdir(), 'scms-dist-'));
  cpSync(distDir, publicDir, { recursive: true });
  server = await startDemoServer(publicDir);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (publicDir) rmSync(publicDir, { recursive: true, force: true });
});

/** Which build the controlling worker runs: 'next' for the new one, 'first' when it does not answer. */
function controllerBuild(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(String(event.data));
        navigator.serviceWorker.controller!.postMessage({ type: 'TEST_BUILD' }, [channel.port2]);
        setTimeout(() => resolve('first'), 1_000);
      }),
  );
}

test('a new version waits behind a "New version available" banner and takes over on Reload', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(server.url);
  await waitForWorkerControl(page);
  const banner = page.getByRole('status').filter({ hasText: 'New version available' });
  expect(await banner.count()).toBe(0);

  appendFileSync(join(publicDir, 'sw.js'), NEXT_BUILD);
  // The browser checks on navigations and the app every hour; the test asks now.
  await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
  await banner.waitFor({ timeout: 15_000 });
  await saveScreenshot(page, 'pwa-update-banner.png');

  // Not modal: the login form stays usable, and the old worker still serves the page.
  await page.getByLabel('Email').fill('still@usable.example');
  expect(await controllerBuild(page)).toBe('first');
  await expect(
    page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
  ).resolves.toBe(true);

  const reload = banner.getByRole('button', { name: 'Reload' });
  await reload.focus();
  await expect(reload.evaluate((button) => document.activeElement === button)).resolves.toBe(true);
  const reloaded = page.waitForEvent('load');
  await page.keyboard.press('Enter');
  await reloaded;

  await page.getByText('Log in to manage your community').waitFor();
  await waitForWorkerControl(page);
  expect(await controllerBuild(page)).toBe('next');
  expect(await banner.count()).toBe(0);
  await expect(
    page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
  ).resolves.toBe(false);
});
