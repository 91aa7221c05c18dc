/**
 * Exactly once in the real app (built app, Chromium, real
 * PocketBase with the demo data, at phone size): a report
 * created online whose answer is lost after the server committed it (the
 * flaky proxy between the browser and PocketBase drops it), then deleted on
 * the server by a colleague before the device tries again, is not created
 * again when the connection comes back: the outbox entry is settled, the
 * card leaves the list and the mirror, and nothing is left "Not yet sent".
 *
 * The app is served through the proxy (same origin for the page), as behind
 * a reverse proxy; the proxy buffers answers, so realtime does not reach the
 * page and what it shows comes from its own replay.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { startFlakyProxy, type FlakyProxy, type SeenRequest } from '../support/flaky-proxy.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { idb, signedInUserId, signIn, startDemoServer, waitForFirstSync } from './pwa-helpers.ts';
import {
  card,
  fillNarrative,
  openReports,
  queuedReports,
  reportsByNarrative,
  screenshot,
  SIZES,
  uniqueTag,
  waitUntil,
  type SizeName,
} from './reports-helpers.ts';

let server: TestServer;
let proxy: FlakyProxy;
let browser: Browser;

beforeAll(async () => {
  server = await startDemoServer();
  proxy = await startFlakyProxy(server.url);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.stop();
});

async function signedInThroughProxy(size: SizeName): Promise<{ context: BrowserContext; page: Page; userId: string }> {
  const context = await browser.newContext({
    viewport: SIZES[size],
    timezoneId: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await signIn(page, proxy.url, DEMO_DIRECTOR);
  const userId = await signedInUserId(page);
  await waitForFirstSync(page, userId);
  return { context, page, userId };
}

// At phone size only: what this journey checks happens below the screen (the outbox, the sync, the
// session), the same at both sizes; each screen's layout at both sizes is the screens-* journeys'.
describe.each(['phone'] as const)('at %s size', (size) => {
  test('a report whose answer was lost and that was deleted on the server before the retry is not created again', async () => {
    const { context, page, userId } = await signedInThroughProxy(size);
    try {
      const narrative = `Gate left open at the north entrance, ref ${uniqueTag()}`;
      const carries = (r: SeenRequest) =>
        r.method === 'POST' && r.path.startsWith('/api/') && r.body.includes(narrative);
      // The first send lands on the server; its answer never reaches the browser,
      // and the server stays out of reach until the colleague has deleted it
      // (as when the server was killed right after committing).
      proxy.dropResponses(carries, 1);
      proxy.afterResponse = (r) => {
        if (carries(r)) proxy.setOffline(true);
      };

      await openReports(page);
      await page.getByRole('link', { name: 'Create Report' }).click();
      await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
      await page.getByLabel('Type').selectOption('open_garage_door');
      await page.getByRole('button', { name: 'Now', exact: true }).click();
      await fillNarrative(page, narrative);
      await page.getByRole('button', { name: 'Create report', exact: true }).click();
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

      await waitUntil(
        'the create reached the server, its answer dropped',
        async () => proxy.requests.filter(carries).map((r) => r.outcome),
        (o) => o.includes('dropped'),
      );
      const [stored] = await reportsByNarrative(server, narrative);
      expect(stored).toBeDefined();
      const id = stored!.id;
      // The device does not know: its entry waits, the card says so.
      expect((await queuedReports(page, userId)).map((r) => r.id)).toEqual([id]);
      await card(page, id).getByText('Not yet sent').waitFor();

      // A colleague at a desk deletes it.
      const director = await server.signIn(DEMO_DIRECTOR.email, DEMO_DIRECTOR.password);
      await director.collection('reports').delete(id);

      // The connection comes back: the replay tries again at once.
      proxy.afterResponse = undefined;
      proxy.setOffline(false);
      await context.setOffline(true);
      await context.setOffline(false);
      await waitUntil(
        'the outbox is settled',
        () => idb<number>(page, `scms-${userId}`, 'outbox', 'count'),
        (n) => n === 0,
        30_000,
      );

      expect(await reportsByNarrative(server, narrative)).toEqual([]);
      // Reached the server twice (tries while it was out of reach were refused by the network): the second time refused as deleted since.
      expect(
        proxy.requests
          .filter(carries)
          .map((r) => r.outcome)
          .filter((o) => o !== 'refused'),
      ).toEqual(['dropped', 409]);
      expect(await idb<unknown>(page, `scms-${userId}`, 'reports', 'get', id)).toBeUndefined();
      await card(page, id).waitFor({ state: 'detached' });
      await expect(page.getByText('Not yet sent').count()).resolves.toBe(0);
      // From the top of the list (it keeps the scroll offset the form had when Create report was pressed).
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'deleted-since');

      // And after a reload (the mirror and outbox as the device keeps them): still gone, nothing sent again.
      await page.reload();
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      await page.waitForTimeout(1_000);
      expect(await card(page, id).count()).toBe(0);
      expect(await reportsByNarrative(server, narrative)).toEqual([]);
      expect(proxy.requests.filter(carries).filter((r) => r.outcome !== 'refused')).toHaveLength(2);
    } finally {
      proxy.reset();
      await context.close();
    }
  }, 120_000);
});
