/**
 * Officers install the app on their phones' home screens (docs/product.md#who-uses-it): Chromium
 * must find nothing that stops installation. Needs a persistent profile:
 * an incognito context always answers 'in-incognito'.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchPersistentChromium } from '../../scripts/browser/chromium.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { saveScreenshot, startDemoServer, waitForWorkerControl } from './pwa-helpers.ts';

let server: TestServer;
let profile = '';
let context: BrowserContext;

beforeAll(async () => {
  server = await startDemoServer();
  profile = mkdtempSync(join(tmpdir(), 'scms-profile-'));
  context = await launchPersistentChromium(profile);
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await server?.stop();
});

test('Chromium reports no installability errors and reads the manifest', async () => {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(server.url);
  await waitForWorkerControl(page);
  await saveScreenshot(page, 'pwa-install-login.png');

  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  // Printed on failure, so the reason (e.g. 'manifest-missing-suitable-icon') is in the log.
  expect(installabilityErrors, JSON.stringify(installabilityErrors, null, 2)).toEqual([]);

  const manifest = await cdp.send('Page.getAppManifest');
  expect(manifest.errors, JSON.stringify(manifest.errors)).toEqual([]);
  expect(new URL(manifest.url).pathname).toBe('/manifest.webmanifest');
  const parsed = JSON.parse(manifest.data ?? '{}') as {
    name?: string;
    short_name?: string;
    start_url?: string;
    display?: string;
    icons?: Array<{ sizes: string; purpose?: string }>;
  };
  expect(parsed).toMatchObject({ name: 'SCMS', short_name: 'SCMS', start_url: '/homes', display: 'standalone' });
  expect(parsed.icons?.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);

  // Every icon the manifest names is served as a PNG.
  for (const icon of ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png']) {
    const response = await fetch(`${server.url}${icon}`);
    expect(response.headers.get('content-type'), icon).toBe('image/png');
  }
});
