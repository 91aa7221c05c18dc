/**
 * Protected images in the browser, at phone
 * size, against a real PocketBase and the built app: a signed-in user sees a
 * home's image and a report's photo (the 400x300 thumbnails, and the whole
 * photo when opened), every image request carrying a file token; the service
 * worker keeps them in that user's own cache, `scms-images-<userId>`, keyed
 * without the token; offline, after a reload (no token can be had), the same
 * images still show from that cache, and without that cache they do not.
 */
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR, DEMO_MANAGER } from '../../scripts/seed/demo-account.ts';
import { solidPng } from '../support/png.ts';
import { signedInUserId, waitForWorkerControl } from './pwa-helpers.ts';
import { card, openReports } from './reports-helpers.ts';
import {
  DEMO_COMMUNITY_IDS,
  expectNoSeriousA11yViolations,
  navigate,
  screenshot,
  signedInPage,
  useScreensApp,
  type SizeName,
} from './screens-helpers.ts';

const env = useScreensApp();

const HOUSE_IMAGE = solidPng(800, 600, [20, 120, 200]);
const REPORT_PHOTO = solidPng(1000, 750, [220, 90, 30]);
/** Each size signs in as another user, so each has its own image cache. */
const ACCOUNTS = { phone: DEMO_DIRECTOR, desktop: DEMO_MANAGER } as const;

let house: RecordModel;
let report: RecordModel;

function withFile(field: string, bytes: Buffer, name: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append(field, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  return form;
}

beforeAll(async () => {
  const admin = env.app.server.admin;
  const community = DEMO_COMMUNITY_IDS.primary;
  const first = await admin
    .collection('houses')
    .getFirstListItem(admin.filter('community = {:community}', { community }), { sort: 'address' });
  house = await admin.collection('houses').update(first.id, withFile('image', HOUSE_IMAGE, 'front.png'));
  const director = await admin
    .collection('users')
    .getFirstListItem(admin.filter('email = {:email}', { email: DEMO_DIRECTOR.email }));
  // The newest report of the community: the first card of the Reports list.
  report = await admin.collection('reports').create(
    withFile('photos', REPORT_PHOTO, 'gate.png', {
      narative: 'Gate left open; photo of the latch attached.',
      type: 'open_garage_door',
      weather: 'clear',
      incident_time: new Date().toISOString(),
      community,
      created_by: director.id,
      house: house.id,
    }),
  );
});

/** The image's URL as the page asked for it, and whether the browser could draw it. */
async function shown(image: Locator): Promise<{ url: URL; drawn: boolean }> {
  const { src, drawn } = await image.evaluate((img: HTMLImageElement) => ({
    src: img.currentSrc || img.src,
    drawn: img.complete && img.naturalWidth > 0,
  }));
  return { url: new URL(src), drawn };
}

async function expectDrawn(image: Locator): Promise<URL> {
  await expect.poll(async () => (await shown(image)).drawn, { timeout: 10_000 }).toBe(true);
  return (await shown(image)).url;
}

async function homeCard(page: Page): Promise<Locator> {
  await page.getByLabel('Search homes').fill(String(house.address));
  const found = page.getByRole('article', { name: new RegExp(`^${String(house.address)}, `) });
  await found.waitFor();
  return found;
}

/** Every image cache of the origin with its keys (path and query, token or not). */
async function imageCaches(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      if (name === 'house-images' || name.startsWith('scms-images-')) {
        const cache = await caches.open(name);
        out[name] = (await cache.keys())
          .map((request) => new URL(request.url).pathname + new URL(request.url).search)
          .sort();
      }
    }
    return out;
  });
}

// At phone size only: who may read an image is the server's rule, the same for every screen.
describe.each(['phone'] as const)('at %s size', (size: SizeName) => {
  let context: BrowserContext;
  let page: Page;
  let userId = '';
  /** Every image request the page made under /api/files/, with whether the network was on. */
  const requests: Array<{ url: URL; online: boolean }> = [];
  let online = true;

  beforeAll(async () => {
    ({ context, page } = await signedInPage(env.browser, env.app.server.url, size, ACCOUNTS[size], {
      beforeSignIn: (page) =>
        page.on('request', (request: Request) => {
          const url = new URL(request.url());
          if (url.pathname.startsWith('/api/files/') && request.resourceType() === 'image')
            requests.push({ url, online });
        }),
    }));
    await waitForWorkerControl(page);
    userId = await signedInUserId(page);
  });
  afterAll(() => context?.close());

  const houseThumb = () => `/api/files/houses/${house.id}/${String(house.image)}?thumb=400x300`;
  const photoPath = () => `/api/files/reports/${report.id}/${(report.photos as string[])[0]!}`;

  test("online: the home image and the report photo show, asked for with a file token, and land in the user's own cache without it", async () => {
    const home = await homeCard(page);
    const homeUrl = await expectDrawn(home.getByRole('img', { name: /^Home at / }));
    expect(homeUrl.pathname + `?thumb=${homeUrl.searchParams.get('thumb')}`).toBe(houseThumb());
    expect(homeUrl.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await screenshot(page, 'images-home-online');

    await openReports(page);
    const reportCard = card(page, report.id);
    const thumb = reportCard.getByRole('button', { name: 'Open photo 1' }).locator('img');
    const thumbUrl = await expectDrawn(thumb);
    expect(thumbUrl.pathname).toBe(photoPath());
    expect(thumbUrl.searchParams.get('thumb')).toBe('400x300');
    // One token for every image on screen.
    expect(thumbUrl.searchParams.get('token')).toBe(homeUrl.searchParams.get('token'));
    // The server's thumbnail, not the whole photo scaled down by the browser.
    expect(await thumb.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([400, 300]);
    await screenshot(page, 'images-report-online');

    await reportCard.getByRole('button', { name: 'Open photo 1' }).click();
    const whole = page.getByRole('img', { name: 'Report photo 1' });
    const wholeUrl = await expectDrawn(whole);
    // Opened: the whole photo, not a thumbnail.
    expect(wholeUrl.pathname).toBe(photoPath());
    expect(wholeUrl.searchParams.has('thumb')).toBe(false);
    expect(wholeUrl.searchParams.get('token')).toBeTruthy();
    expect(await whole.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1000, 750]);
    await screenshot(page, 'images-photo-opened-online');
    await expectNoSeriousA11yViolations(page, 'an opened report photo');
    await page.getByRole('button', { name: 'Close' }).click();

    // Every image asked for online carried a token.
    const asked = requests.filter((r) => r.online);
    expect(asked.length).toBeGreaterThanOrEqual(3);
    expect(asked.filter((r) => !r.url.searchParams.get('token')).map((r) => r.url.href)).toEqual([]);

    // The worker kept the three in this user's cache, keyed without the token; no other image cache.
    await expect
      .poll(() => imageCaches(page), { timeout: 10_000 })
      .toEqual({ [`scms-images-${userId}`]: [houseThumb(), photoPath(), `${photoPath()}?thumb=400x300`].sort() });
  });

  test("offline after a reload: no token to be had, the same images show from the user's cache", async () => {
    online = false;
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    const reportCard = card(page, report.id);
    const thumb = reportCard.getByRole('button', { name: 'Open photo 1' }).locator('img');
    const thumbUrl = await expectDrawn(thumb);
    expect(thumbUrl.pathname).toBe(photoPath());
    expect(thumbUrl.searchParams.has('token')).toBe(false);
    await screenshot(page, 'images-report-offline');
    await reportCard.getByRole('button', { name: 'Open photo 1' }).click();
    await expectDrawn(page.getByRole('img', { name: 'Report photo 1' }));
    await screenshot(page, 'images-photo-opened-offline');
    await page.getByRole('button', { name: 'Close' }).click();

    await navigate(page, 'Homes');
    const home = await homeCard(page);
    const homeUrl = await expectDrawn(home.getByRole('img', { name: /^Home at / }));
    expect(homeUrl.searchParams.has('token')).toBe(false);
    await screenshot(page, 'images-home-offline');
    expect(requests.filter((r) => !r.online).length).toBeGreaterThanOrEqual(2);
  });

  test("offline without the user's image cache (what log out deletes), the home shows the default image", async () => {
    await page.evaluate((name) => caches.delete(name), `scms-images-${userId}`);
    await page.reload();
    const home = await homeCard(page);
    // The failed image gives way to the default one (no name: it says nothing about the home).
    await home.locator('img[src="/default-home.svg"]').waitFor();
    await expect(home.getByRole('img', { name: /^Home at / }).count()).resolves.toBe(0);
    await context.setOffline(false);
    online = true;
  });
});
