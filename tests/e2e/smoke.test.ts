import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { startTestServer, type TestServer } from '../support/pocketbase.ts';
import { distDir, saveScreenshot } from './pwa-helpers.ts';

// The built app (npm test builds it first) served by a real PocketBase.
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({}, { publicDir: distDir });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test('the login page of the built app opens in Chromium', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(server.url);
  await expect(page.getByText('Log in to manage your community').waitFor()).resolves.toBeUndefined();
  await expect(page.locator('header').innerText()).resolves.toBe('SCMS');
  await saveScreenshot(page, 'login-phone.png');
  expect(errors).toEqual([]);
});

test('a protected route without a session goes back to the login page', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/reports`);
  await page.getByText('Log in to manage your community').waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
});
