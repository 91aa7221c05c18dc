/**
 * One bar of signal in a patrol car: the uplink throttled to 100 KB/s (the
 * DevTools protocol's network emulation, which throttles the page's
 * uploads), a report with a 3 MB photo queued, then a report without one.
 * The text report reaches the server first, while the photo is on its way;
 * the badge says it is sending, with progress, never 'Offline'; the photo
 * report arrives too, once, though it takes longer than any fixed time-out
 * would allow.
 *
 * The page runs without its service worker, so the window (which sees the
 * upload's progress) is the one replaying, and every request goes through
 * the throttled network. The 3 MB photo is put in the outbox as the app
 * queues one: photos picked in the app are made small first (tested in
 * photos-shrink.test.ts), and this is about the bytes that remain.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import { newId, type TestServer } from '../support/pocketbase.ts';
import { signedInUserId, signIn, startDemoServer, waitForFirstSync } from './pwa-helpers.ts';
import {
  chooseHome,
  COMMUNITY,
  fillNarrative,
  openReports,
  reportsByNarrative,
  screenshot,
  SIZES,
  uniqueTag,
  waitUntil,
} from './reports-helpers.ts';

const UPLINK_BYTES_PER_S = 100 * 1024;

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: SIZES.phone, serviceWorkers: 'block' });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  await signIn(page, server.url, DEMO_REGULAR);
  await waitForFirstSync(page, await signedInUserId(page));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Queues a report with a ~3 MB PNG of noise (nothing compresses it) in the outbox, as queueReport does. */
async function queuePhotoReport(
  userId: string,
  houseId: string,
  narrative: string,
): Promise<{ id: string; bytes: number }> {
  const id = newId();
  const bytes = await page.evaluate(
    async ({ userId, houseId, narrative, id, community }) => {
      const canvas = new OffscreenCanvas(900, 850);
      const context = canvas.getContext('2d')!;
      const pixels = context.createImageData(900, 850);
      for (let i = 0; i < pixels.data.length; i++) pixels.data[i] = (Math.random() * 256) | 0;
      context.putImageData(pixels, 0, 0);
      const photo = await canvas.convertToBlob({ type: 'image/png' });
      const stamp = new Date().toISOString().replace('T', ' ');
      const entry = {
        userId,
        createdAt: new Date().toISOString(),
        label: 'Report',
        ops: [
          {
            action: 'create',
            collection: 'reports',
            id,
            body: {
              narative: narrative,
              ai_generated_narative: '',
              type: 'loud_noise',
              weather: 'clear',
              incident_time: stamp,
              phone_number: '',
              injury: false,
              ems_pbso: false,
              community,
              house: houseId,
              resident: '',
              created_by: userId,
              position: null,
              logged_at: stamp,
            },
            files: { photos: [photo] },
          },
        ],
        recordKeys: [`reports:${id}`],
        status: 'pending',
        attempts: 0,
        nextAttemptAt: 0,
      };
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(`scms-${userId}`);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          tx.objectStore('outbox').add(entry);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      });
      return photo.size;
    },
    { userId, houseId, narrative, id, community: COMMUNITY },
  );
  return { id, bytes };
}

test(
  'a text report queued after a 3 MB photo arrives first; the photo arrives too, the badge showing its progress, never offline',
  { timeout: 240_000 },
  async () => {
    const userId = await signedInUserId(page);
    const house = await server.admin
      .collection('houses')
      .getFirstListItem(server.admin.filter('community = {:c}', { c: COMMUNITY }), { sort: 'address' });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 40,
      downloadThroughput: 1_000_000,
      uploadThroughput: UPLINK_BYTES_PER_S,
    });

    const photoNarrative = `Photo of the broken gate ${uniqueTag()}`;
    const photo = await queuePhotoReport(userId, house.id, photoNarrative);
    // Longer than the old fixed 20 s time-out at this rate.
    expect(photo.bytes / UPLINK_BYTES_PER_S).toBeGreaterThan(25);

    // The next report, written in the app: no photo.
    const textNarrative = `Loud music at the pool ${uniqueTag()}`;
    await openReports(page);
    await page.getByRole('link', { name: 'Create Report' }).click();
    await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
    await page.getByLabel('Type').selectOption('loud_noise');
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await fillNarrative(page, textNarrative);
    await chooseHome(page, String(house.address));
    await page.getByRole('button', { name: 'Create report' }).click();

    // What the badge says, sampled until the photo has landed.
    const badgeSays = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const label = await page
          .locator('button[aria-label^="Sync status:"]')
          .first()
          .getAttribute('aria-label')
          .catch(() => null);
        if (label) badgeSays.add(label);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();

    try {
      await waitUntil(
        'the text report on the server',
        () => reportsByNarrative(server, textNarrative),
        (r) => r.length === 1,
        30_000,
      );
      // It passed the photo, which is still on its way.
      expect(await reportsByNarrative(server, photoNarrative)).toHaveLength(0);
      const sending = page.getByRole('button', { name: /^Sync status: Sending 1 of \d · photo \d+ %$/ });
      await sending.waitFor({ timeout: 30_000 });
      await screenshot(page, 'sending-photo');
      const landed = await waitUntil(
        'the photo report on the server',
        () => reportsByNarrative(server, photoNarrative),
        (r) => r.length === 1,
        150_000,
      );
      expect(landed[0]!.photos).toHaveLength(1);
      await page.getByRole('button', { name: 'Sync status: Synced' }).waitFor({ timeout: 30_000 });
    } finally {
      sampling = false;
      await sampler;
    }
    expect([...badgeSays].filter((label) => label.includes('Offline'))).toEqual([]);
    // The progress moved while the badge was watched.
    expect([...badgeSays].some((label) => /photo [1-9]\d* %/.test(label))).toBe(true);
    // Exactly once each.
    expect(await reportsByNarrative(server, photoNarrative)).toHaveLength(1);
    expect(await reportsByNarrative(server, textNarrative)).toHaveLength(1);
  },
);
