/**
 * Photos made small on the device before they are queued
 * (src/data/shrinkPhoto.ts), in Chromium against a real PocketBase, at a
 * phone:
 *
 * - a camera-like 4000×3000 JPEG of over 10 MB, and a sideways photo with
 *   an Exif Orientation of 6 and a GPS location, attached to a new report:
 *   the picker says it is preparing them; 'Create report' pressed meanwhile
 *   waits for them (nothing half prepared is queued); the server receives a
 *   JPEG of at most 2000 px and under 1 MB, and the sideways one upright
 *   (width and height swapped) with no Exif segment left, its location gone;
 * - a photo the browser cannot read (HEIC in Chromium) of over 10 MB is
 *   turned away with the reason;
 * - a home's image goes through the same preparation.
 *
 * The preparation is held at will (a wrapper of createImageBitmap waiting
 * for the test), so 'preparing' is seen every time, not only on a slow run.
 */
import type { Browser, Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { MAX_EDGE_PX, MAX_UPLOAD_BYTES, PHOTO_UNREADABLE, TARGET_BYTES } from '../../src/domain/photoSize.ts';
import { jpegInfo, photoJpeg, withExif } from '../support/jpeg.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { startDemoServer } from './pwa-helpers.ts';
import {
  COMMUNITY,
  fillNarrative,
  queuedReports,
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
/** A camera's 12 MP photo, over the server's 10 MB. */
let camera: Buffer;
/** A 600×400 photo stored sideways, to be shown turned right (Orientation 6), with where it was taken. */
let sideways: Buffer;
const LOCATION = { latitude: 26.934212, longitude: -80.094187 };
// A file over 10 MB crosses to the browser as base64 over the DevTools pipe: on a
// loaded two-core machine that alone took more than the journeys' 10 s for an action.
const BIG_FILES = { timeout: 60_000 };

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchChromium();
  const page = await browser.newPage();
  camera = await photoJpeg(page, { width: 4000, height: 3000, quality: 1, noise: 40 });
  sideways = withExif(await photoJpeg(page, { width: 600, height: 400, quality: 0.9, noise: 10 }), {
    orientation: 6,
    gps: LOCATION,
  });
  await page.close();
  expect(camera.length).toBeGreaterThan(MAX_UPLOAD_BYTES);
  expect(jpegInfo(sideways)).toMatchObject({
    width: 600,
    height: 400,
    segments: expect.arrayContaining(['APP1 Exif']),
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Holds every photo's decoding until `releasePhotos`: installed before the app's scripts run. */
function holdablePhotos(): void {
  const original = window.createImageBitmap.bind(window);
  const w = window as unknown as { photoHold?: Promise<void> };
  window.createImageBitmap = (async (...args: Parameters<typeof createImageBitmap>) => {
    await w.photoHold;
    return original(...args);
  }) as typeof createImageBitmap;
}

const holdPhotos = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { photoHold?: Promise<void>; photoRelease?: () => void };
    w.photoHold = new Promise((resolve) => (w.photoRelease = resolve));
  });
const releasePhotos = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { photoHold?: Promise<void>; photoRelease?: () => void };
    w.photoHold = undefined;
    w.photoRelease?.();
  });

/** A file as the server stores it (downloads need a file token). */
async function serverFile(record: RecordModel, name: string): Promise<Buffer> {
  const admin = server.admin;
  const response = await fetch(admin.files.getURL(record, name, { token: await admin.files.getToken() }));
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Neither the Exif segment nor its location (the GPS tags' rational of the latitude's degrees) is anywhere in the file. */
function expectNoMetadata(bytes: Buffer): void {
  expect(jpegInfo(bytes).segments.filter((s) => s.startsWith('APP1'))).toEqual([]);
  expect(bytes.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
  const degrees = Buffer.alloc(8);
  degrees.writeUInt32BE(26_000, 0);
  degrees.writeUInt32BE(1000, 4);
  expect(bytes.includes(degrees)).toBe(false);
}

// At phone size only (photos are taken on phones): the shrinking happens below the screen, the same at a desk.
describe.each(['phone'] as SizeName[])('photos made small on the device (%s)', (size) => {
  let session: SignedIn;
  let page: Page;

  beforeAll(async () => {
    session = await signedIn(browser, server, size);
    page = session.page;
    await session.context.addInitScript(holdablePhotos);
  });
  afterAll(async () => {
    await session?.context.close();
  });

  async function openCreateReport(): Promise<void> {
    await page.goto(`${server.url}/reports/create`);
    await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
  }

  test('a 12 MP photo over 10 MB and a sideways photo with a location: queued small, upright, without metadata', async () => {
    await openCreateReport();
    const narrative = `Photos of the gate, ref ${uniqueTag()}`;
    await page.getByLabel('Type').selectOption('unauthorized_entry');
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await fillNarrative(page, narrative);

    await holdPhotos(page);
    await page.locator('input[type="file"]').setInputFiles(
      [
        { name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: camera },
        { name: 'IMG_0002.jpg', mimeType: 'image/jpeg', buffer: sideways },
      ],
      BIG_FILES,
    );
    // Accepted, not refused for its size: shown as being prepared.
    await page.getByText('Preparing 2 photos…').waitFor();
    await expect(page.getByText('(2/5)').count()).resolves.toBe(1);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await page.getByRole('status', { name: 'Preparing photo 1' }).waitFor();
    await page.getByText('Preparing 2 photos…').scrollIntoViewIfNeeded();
    await screenshot(page, 'photos-preparing');

    // Pressed while the photos are prepared: it waits for them, and nothing is queued half prepared.
    await page.getByRole('button', { name: 'Create report', exact: true }).click();
    await page.getByRole('button', { name: 'Preparing photos…' }).waitFor();
    const queuedMeanwhile = await queuedReports(page, session.userId);
    expect(queuedMeanwhile.filter((r) => r.narative === narrative)).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/reports/create');

    await releasePhotos(page);
    await page
      .getByRole('status')
      .filter({ hasText: 'Success' })
      .filter({ hasText: 'Report created successfully' })
      .waitFor({ timeout: 30_000 });
    const [saved] = await waitUntil(
      'the report and its photos on the server',
      () => reportsByNarrative(server, narrative),
      (found) => found.length > 0,
    );
    expect(saved!.community).toBe(COMMUNITY);
    const names = saved!.photos as string[];
    expect(names).toHaveLength(2);
    const files = await Promise.all(names.map((name) => serverFile(saved!, name)));
    const infos = files.map((bytes) => ({ bytes, ...jpegInfo(bytes) }));
    for (const name of names) expect(name).toMatch(/\.jpg$/);

    const big = infos.find((i) => i.width === MAX_EDGE_PX);
    expect(big, JSON.stringify(infos.map(({ width, height }) => [width, height]))).toBeDefined();
    expect(big!.height).toBe(1500);
    expect(big!.bytes.length).toBeLessThan(TARGET_BYTES);
    console.log(`12 MP photo: ${camera.length} bytes picked, ${big!.bytes.length} bytes queued and stored`);

    // Stored sideways (600×400) with Orientation 6: upright now, 400×600, and nothing of the camera's metadata left.
    const upright = infos.find((i) => i.width !== MAX_EDGE_PX)!;
    expect([upright.width, upright.height]).toEqual([400, 600]);
    expectNoMetadata(upright.bytes);
    expectNoMetadata(big!.bytes);
  });

  test('a photo the browser cannot read is refused past 10 MB, with the reason; readable ones show', async () => {
    await openCreateReport();
    const heic = Buffer.alloc(MAX_UPLOAD_BYTES + 1024, 7);
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'IMG_0003.HEIC', mimeType: 'image/heic', buffer: heic }, BIG_FILES);
    await page.getByRole('alert').filter({ hasText: PHOTO_UNREADABLE }).waitFor();
    await expect(page.getByText('(0/5)').count()).resolves.toBe(1);

    await page.locator('input[type="file"]').setInputFiles(
      [
        { name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: camera },
        { name: 'IMG_0002.jpg', mimeType: 'image/jpeg', buffer: sideways },
      ],
      BIG_FILES,
    );
    for (const name of ['Photo 1', 'Photo 2']) {
      const thumb = page.getByRole('img', { name });
      await expect
        .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
          timeout: 20_000,
        })
        .toBe(true);
    }
    await expect(page.getByText('(2/5)').count()).resolves.toBe(1);
    await page.getByRole('img', { name: 'Photo 1' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'photos-ready');
    // The sideways photo's thumbnail is upright too.
    const shape = await page
      .getByRole('img', { name: 'Photo 2' })
      .evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    expect(shape).toEqual([400, 600]);
  });

  test("a home's image is prepared the same way before it is queued", async () => {
    const address = `${size === 'phone' ? 941 : 951} Shrink Test Ln`;
    await page.goto(`${server.url}/homes`);
    await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add Home' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Home' });
    await add.getByLabel('Address').fill(address);
    await add.getByLabel('City').fill('Jupiter');
    await add.getByLabel('Zip').fill('33458');
    await holdPhotos(page);
    await add
      .getByLabel('Add image')
      .setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: camera }, BIG_FILES);
    await add.getByText('Preparing image…').waitFor();
    await add.getByText('Preparing image…').scrollIntoViewIfNeeded();
    await screenshot(page, 'home-image-preparing');
    await add.getByRole('button', { name: 'Add Home' }).click();
    await add.getByRole('button', { name: 'Preparing image…' }).waitFor();
    await releasePhotos(page);
    await page.getByRole('status').filter({ hasText: 'New home added' }).waitFor({ timeout: 30_000 });

    const admin = server.admin;
    const [house] = await waitUntil(
      'the home and its image on the server',
      () => admin.collection('houses').getFullList({ filter: admin.filter('address = {:address}', { address }) }),
      (houses) => houses.some((h) => h.image),
      // A replay with a 2,000 px upload, beside the other journeys on CI's two cores: over 20 s once.
      60_000,
    );
    expect(String(house!.image)).toMatch(/\.jpg$/);
    const stored = await serverFile(house!, String(house!.image));
    expect(jpegInfo(stored)).toMatchObject({ width: 2000, height: 1500 });
    expect(stored.length).toBeLessThan(TARGET_BYTES);
    expectNoMetadata(stored);
  });
});
