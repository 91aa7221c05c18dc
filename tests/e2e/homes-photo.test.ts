/**
 * A home added with a photo, at phone and desktop size: online
 * the app keeps rendering and the card shows the server's photo; offline the
 * card shows the photo from the device at once and after a reload with no
 * connection; back online, each photo reaches the server exactly once (one
 * house with that address, one image file holding the picked bytes). And
 * a home record the card cannot draw shows 'Something went wrong' in its
 * place while the other homes still show.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { LEASE_TTL_MS } from '../../src/data/sync/lease.ts';
import type { HouseRecord } from '../../src/api/records.ts';
import { compareHomeKeys, homeAddressKey } from '../../src/domain/homeOrder.ts';
import { idb, signedInUserId, waitForWorkerControl } from './pwa-helpers.ts';
import {
  DEMO_COMMUNITY_IDS,
  dialog,
  expectNoSeriousA11yViolations,
  expectToast,
  screenshot,
  SIZE_NAMES,
  signedInPage,
  useScreensApp,
  waitUntil,
} from './screens-helpers.ts';
import { everyHomeCard } from './homes-helpers.ts';
// Solid colours, so the screenshots show which photo a card holds.
import { solidPng } from '../support/png.ts';

const env = useScreensApp();

const HOMES = {
  phone: { online: '921 Photo Test Ln', offline: '922 Photo Test Ln' },
  desktop: { online: '931 Photo Test Ln', offline: '932 Photo Test Ln' },
} as const;
const ONLINE_PHOTO = solidPng(80, 60, [20, 120, 200]);
const OFFLINE_PHOTO = solidPng(80, 60, [220, 90, 30]);

/** Every house on the server with this address. */
function serverHouses(address: string): Promise<RecordModel[]> {
  const admin = env.app.server.admin;
  return admin.collection('houses').getFullList({ filter: admin.filter('address = {:address}', { address }) });
}

/** The bytes of a house's image as the server stores them (file downloads need a file token). */
async function storedImage(house: RecordModel): Promise<Buffer> {
  const admin = env.app.server.admin;
  const token = await admin.files.getToken();
  const response = await fetch(admin.files.getURL(house, String(house.image), { token }));
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function addHomeWithPhoto(page: Page, address: string, photo: Buffer, offline = false): Promise<void> {
  await page.getByRole('button', { name: 'Add Home' }).first().click();
  const add = dialog(page, 'Add Home');
  await add.getByLabel('Address').fill(address);
  await add.getByLabel('City').fill('Jupiter');
  await add.getByLabel('Zip').fill('33458');
  await add.getByLabel('Add image').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: photo });
  // The picked photo shows before it is saved, with a way to change the mind.
  await expect.poll(async () => drawn(add.getByRole('img', { name: 'The new image' }))).toBe(true);
  await add.getByRole('button', { name: 'Remove image' }).waitFor();
  await add.getByRole('button', { name: 'Add Home' }).click();
  await expectToast(
    page,
    'Success',
    offline ? 'New home saved on this device; it will be sent when you are back online.' : 'New home added',
  );
  await add.waitFor({ state: 'detached' });
}

/** Shows only this home's card and returns it. */
async function findCard(page: Page, address: string): Promise<Locator> {
  await page.getByLabel('Search homes').fill(address);
  const card = page.getByRole('article', { name: new RegExp(`^${address}, Jupiter`) });
  await card.waitFor();
  return card;
}

/** Whether the browser could draw an image. */
function drawn(img: Locator): Promise<boolean> {
  return img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0);
}

/** The card's photo: its address and whether the browser could draw it. */
async function cardPhoto(card: Locator): Promise<{ src: string; drawn: boolean }> {
  return card.getByRole('img', { name: /^Home at / }).evaluate((img: HTMLImageElement) => ({
    src: img.currentSrc || img.src,
    drawn: img.complete && img.naturalWidth > 0,
  }));
}

/** On a failure: the card's images and what the device's mirror and outbox hold for the home. */
async function whatTheCardShows(page: Page, card: Locator, houseId: string): Promise<string> {
  const images = await card
    .locator('img, div[aria-hidden="true"]')
    .evaluateAll((nodes) => nodes.map((node) => node.outerHTML.slice(0, 300)));
  const userId = await signedInUserId(page);
  const row = await idb<{ image?: unknown; updated?: unknown; _pending?: unknown } | undefined>(
    page,
    `scms-${userId}`,
    'houses',
    'get',
    houseId,
  );
  const outbox = await idb<number>(page, `scms-${userId}`, 'outbox', 'count');
  return `card: ${JSON.stringify(images)}\nmirror row: ${JSON.stringify({ image: row?.image, updated: row?.updated, pending: row?._pending })}; outbox entries: ${outbox}`;
}

/** Nothing blanked the app: the Homes screen is there and no part of it failed. */
async function expectAppRendered(page: Page, errors: string[]): Promise<void> {
  expect(errors).toEqual([]);
  await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
  await expect(page.getByText('Something went wrong').count()).resolves.toBe(0);
}

/** How long the server takes to answer a new house here: long enough to see the card before the upload lands. */
const UPLOAD_DELAY_MS = 2_500;

/**
 * Spoils a home in the device's mirror the way a bug once did (a value the
 * card cannot draw), straight in IndexedDB as an older version could have
 * left it. The server's copy is untouched, so no pull repairs it meanwhile.
 */
async function spoilMirrorHome(page: Page, userId: string, houseId: string): Promise<void> {
  await page.evaluate(
    ({ database, houseId }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(database);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const houses = db.transaction('houses', 'readwrite').objectStore('houses');
          const read = houses.get(houseId);
          read.onsuccess = () => {
            const write = houses.put({ ...read.result, note: { not: 'a text' } });
            write.onsuccess = () => {
              db.close();
              resolve();
            };
            write.onerror = () => reject(write.error);
          };
        };
      }),
    { database: `scms-${userId}`, houseId },
  );
}

describe.each(SIZE_NAMES)('at %s size', (size) => {
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  const reported: string[] = [];
  beforeAll(async () => {
    ({ context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR, {
      beforeSignIn: (page) => {
        // An error no boundary caught is what blanked the app.
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') reported.push(message.text());
        });
      },
    }));
    // The worker serves the app shell for the reload offline.
    await waitForWorkerControl(page);
  });
  afterAll(() => context?.close());

  test('online: the app keeps rendering and the card ends on the server photo, stored once', async () => {
    const address = HOMES[size].online;
    // A slow upload, so the card is always drawn from the queued home first
    // (with a fast one that happens only now and then). The context's route
    // also holds the service worker's requests.
    await context.route('**/api/collections/houses/records*', async (route) => {
      if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, UPLOAD_DELAY_MS));
      await route.fallback();
    });
    await addHomeWithPhoto(page, address, ONLINE_PHOTO);
    await expectAppRendered(page, errors);
    const card = await findCard(page, address);
    // While the upload is on its way: the photo from the device.
    await card.getByText('Not yet sent').waitFor();
    await expect.poll(async () => cardPhoto(card)).toEqual({ src: expect.stringMatching(/^blob:/), drawn: true });
    await screenshot(page, 'homes-photo-uploading');
    await context.unroute('**/api/collections/houses/records*');

    const [saved] = await waitUntil(
      'the home and its photo on the server',
      () => serverHouses(address),
      (houses) => houses.some((h) => h.image),
    );
    await card.getByText('Not yet sent').waitFor({ state: 'detached' });
    await expect.poll(async () => (await cardPhoto(card)).src).toContain(`/api/files/houses/${saved!.id}/`);
    await expect.poll(async () => (await cardPhoto(card)).drawn).toBe(true);
    await screenshot(page, 'homes-photo-online');
    await expectAppRendered(page, errors);

    // The window and the service worker both replay: still one house, one file, a moment later.
    await page.waitForTimeout(1_500);
    const houses = await serverHouses(address);
    expect(houses).toHaveLength(1);
    expect(typeof houses[0]!.image).toBe('string');
    expect(await storedImage(houses[0]!)).toEqual(ONLINE_PHOTO);
  });

  test('Update Home shows the saved photo with Replace image and Remove image; Remove takes it away on the server', async () => {
    const address = HOMES[size].online;
    const card = await findCard(page, address);
    await card.getByRole('button', { name: /^Edit / }).click();
    const update = dialog(page, 'Update Home');
    const current = update.getByRole('img', { name: /^Home at / });
    await expect.poll(async () => drawn(current)).toBe(true);
    await update.getByRole('button', { name: 'Remove image' }).waitFor();
    await screenshot(page, 'homes-photo-update');
    await expectNoSeriousA11yViolations(page, 'Update Home with a photo');

    // A photo picked over it shows in its place; Remove then means no photo at all.
    await update
      .getByLabel('Replace image')
      .setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: OFFLINE_PHOTO });
    await expect.poll(async () => drawn(update.getByRole('img', { name: 'The new image' }))).toBe(true);
    await update.getByRole('button', { name: 'Remove image' }).click();
    await update.getByText('The image will be removed when you save.').waitFor();
    expect(await update.getByRole('img').count()).toBe(0);
    // Changed minds come back: Keep image shows the saved one again.
    await update.getByRole('button', { name: 'Keep image' }).click();
    await expect.poll(async () => drawn(current)).toBe(true);
    await update.getByRole('button', { name: 'Remove image' }).click();
    await update.getByRole('button', { name: 'Update Home' }).click();
    await update.waitFor({ state: 'detached' });

    const [saved] = await waitUntil(
      'the photo taken away on the server',
      () => serverHouses(address),
      (houses) => houses.length === 1 && !houses[0]!.image,
    );
    expect(saved!.address).toBe(address);
    // The card is back to the stand-in drawing, which has no name.
    await expect.poll(() => card.getByRole('img', { name: /^Home at / }).count()).toBe(0);
  });

  test(
    'offline: the card shows the photo from the device, across a reload, and it reaches the server once when back online',
    async () => {
      const address = HOMES[size].offline;
      await page.getByLabel('Search homes').fill('');
      await context.setOffline(true);
      await page.getByText('You are offline — calls need a connection.').waitFor();
      await addHomeWithPhoto(page, address, OFFLINE_PHOTO, true);
      await expectAppRendered(page, errors);
      let card = await findCard(page, address);
      await card.getByText('Not yet sent').waitFor();
      await expect.poll(async () => cardPhoto(card)).toEqual({ src: expect.stringMatching(/^blob:/), drawn: true });
      await expectAppRendered(page, errors);

      // Still offline: the worker serves the app, the mirror and the outbox still hold the home and its photo.
      await page.reload();
      await expectAppRendered(page, errors);
      card = await findCard(page, address);
      await expect.poll(async () => cardPhoto(card)).toEqual({ src: expect.stringMatching(/^blob:/), drawn: true });
      await screenshot(page, 'homes-photo-offline');
      expect(await serverHouses(address)).toHaveLength(0);

      await context.setOffline(false);
      // Usually at once; if the reloaded page died holding the outbox lease, the next replay comes after it expires.
      const [saved] = await waitUntil(
        'the offline home and its photo on the server',
        () => serverHouses(address),
        (houses) => houses.some((h) => h.image),
        LEASE_TTL_MS + 15_000,
      );
      // The card trades the device's copy for the server's photo.
      await card.getByText('Not yet sent').waitFor({ state: 'detached', timeout: 15_000 });
      await expect
        .poll(async () => (await cardPhoto(card)).src)
        .toContain(`/api/files/houses/${saved!.id}/`)
        .catch(async (error: Error) => {
          throw new Error(`${error.message}\n${await whatTheCardShows(page, card, saved!.id)}`);
        });
      await expect.poll(async () => (await cardPhoto(card)).drawn).toBe(true);
      await screenshot(page, 'homes-photo-synced');
      await expectAppRendered(page, errors);

      await page.waitForTimeout(1_500);
      const houses = await serverHouses(address);
      expect(houses).toHaveLength(1);
      expect(typeof houses[0]!.image).toBe('string');
      expect(await storedImage(houses[0]!)).toEqual(OFFLINE_PHOTO);
    },
    LEASE_TTL_MS + 60_000,
  );

  test('a home the card cannot draw shows Something went wrong in its place; the other homes still show', async () => {
    const admin = env.app.server.admin;
    const houses = await admin
      .collection('houses')
      .getFullList<HouseRecord>({ filter: admin.filter('community = {:c}', { c: DEMO_COMMUNITY_IDS.primary }) });
    // The first card of the list (street, then number), so it is drawn without scrolling at any size.
    const [spoiled] = [...houses].sort((x, y) => compareHomeKeys(homeAddressKey(x), homeAddressKey(y)));
    if (!spoiled) throw new Error('the demo community has no homes');
    await spoilMirrorHome(page, await signedInUserId(page), spoiled.id);
    // The app's own live queries see only its own writes: a reload reads the spoiled row.
    await page.reload();
    await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
    await page.getByLabel('Search homes').fill('');
    await page.getByText(`Showing ${houses.length} home(s)`).waitFor();
    const notice = page.getByText('Something went wrong');
    await notice.waitFor();
    await expect(notice.count()).resolves.toBe(1);
    // Every other home is still there (scrolled through: the list draws only the cards near the screen).
    const cards = await everyHomeCard(page);
    expect(cards).toHaveLength(houses.length - 1);
    expect(cards.filter((name) => name.startsWith(`${spoiled.address}, `))).toEqual([]);
    expect(reported.some((text) => text.startsWith('List item failed to render:'))).toBe(true);
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await screenshot(page, 'homes-card-error');
    await expectNoSeriousA11yViolations(page, 'Homes with a card that failed');
  });
});
