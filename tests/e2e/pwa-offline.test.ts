/**
 * The app opens with no connection after one online visit (docs/architecture.md: an
 * officer in a dead zone): the service worker serves the app shell for any
 * route, keeps house images (protected files: asked for with a file token
 * online, kept in the signed-in user's cache without it), and keeps no other
 * API answer.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import type { TestServer } from '../support/pocketbase.ts';
import {
  saveScreenshot,
  signedInUserId,
  signIn,
  startDemoServer,
  waitForFirstSync,
  waitForWorkerControl,
} from './pwa-helpers.ts';

// The smallest valid PNG (1×1).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let imagePath = '';
let userId = '';

beforeAll(async () => {
  server = await startDemoServer();
  // A demo house gets a photo, served the way the Homes list will ask for it.
  const house = await server.admin.collection('houses').getFirstListItem('');
  const form = new FormData();
  form.append('image', new Blob([PNG], { type: 'image/png' }), 'front.png');
  const updated = await server.admin.collection('houses').update(house.id, form);
  imagePath = `/api/files/${updated.collectionId}/${updated.id}/${updated.image as string}`;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A file token for the signed-in user, fetched by the page as the app does. */
function fileToken(target: Page): Promise<string> {
  return target.evaluate(async () => {
    const auth = JSON.parse(localStorage.getItem('pocketbase_auth') ?? '{}') as { token?: string };
    const response = await fetch('/api/files/token', { method: 'POST', headers: { Authorization: auth.token ?? '' } });
    return ((await response.json()) as { token: string }).token;
  });
}

/** Shows the house photo in an <img>; resolves to its width, 0 when it failed. */
function showImage(target: Page, src: string): Promise<number> {
  return target.evaluate(
    (src) =>
      new Promise<number>((resolve) => {
        const img = document.createElement('img');
        img.onload = () => resolve(img.naturalWidth);
        img.onerror = () => resolve(0);
        img.src = src;
        document.body.append(img);
      }),
    src,
  );
}

test('after one online visit, /homes and /reports open with the network off', async () => {
  await page.goto(server.url);
  expect(await waitForWorkerControl(page)).toBe(`${server.url}/sw.js`);
  await signIn(page, server.url, DEMO_DIRECTOR);
  userId = await signedInUserId(page);
  await waitForFirstSync(page, userId);
  // A protected file: refused without a token, shown with one.
  expect(await showImage(page, imagePath)).toBe(0);
  expect(await showImage(page, `${imagePath}?token=${await fileToken(page)}`)).toBe(1);

  await context.setOffline(true);
  // The network really is off for the page: an API call fails.
  await expect(
    page.evaluate(() =>
      fetch('/api/health').then(
        () => 'reached',
        () => 'failed',
      ),
    ),
  ).resolves.toBe('failed');

  await page.reload();
  await page.getByRole('heading', { name: 'Homes' }).waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: /Sync status: Offline/ }).waitFor({ timeout: 10_000 });
  await saveScreenshot(page, 'pwa-offline-homes.png');

  // A route never opened before, typed into the address bar.
  await page.goto(`${server.url}/reports`);
  await page.getByRole('heading', { name: 'Reports' }).waitFor({ timeout: 10_000 });
  await saveScreenshot(page, 'pwa-offline-reports.png');
  // Not Chrome's offline page: the app's own document.
  await expect(page.title()).resolves.toBe('SCMS');
  await expect(page.locator('nav').getByText('SCMS', { exact: true }).count()).resolves.toBe(1);

  // The house photo comes from the user's image cache, though no token can be had offline.
  expect(await showImage(page, imagePath)).toBe(1);
  await context.setOffline(false);
});

test('the worker caches house images and no other API answer', async () => {
  const cached = await page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      // An image's key with its query: it must never hold a token.
      out[name] = (await cache.keys()).map(
        ({ url }) => new URL(url).pathname + (new URL(url).pathname.startsWith('/api/') ? new URL(url).search : ''),
      );
    }
    return out;
  });
  const images = `scms-images-${userId}`;
  expect(cached[images]).toEqual([imagePath]);
  const apiEntries = Object.entries(cached).flatMap(([name, paths]) =>
    paths.filter((path) => path.startsWith('/api/')).map((path) => `${name}: ${path}`),
  );
  expect(apiEntries).toEqual([`${images}: ${imagePath}`]);
  // The shell itself is precached.
  expect(Object.values(cached).flat()).toContain('/index.html');
});
