/**
 * The service worker replays the outbox (docs/architecture.md: a report written in a
 * dead zone reaches the server exactly once, later, even with the app
 * closed). The entries are written straight into the user's IndexedDB in
 * the shape of src/data/mirror/db.ts's OutboxEntry: the production bundle's modules
 * cannot be imported from a test, and there is no report screen yet.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { SYNC_TAG } from '../../src/data/sync/engine.ts';
import { newId, type TestServer } from '../support/pocketbase.ts';
import {
  idb,
  saveScreenshot,
  signedInUserId,
  signIn,
  startDemoServer,
  waitForFirstSync,
  waitForWorkerControl,
} from './pwa-helpers.ts';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let userId = '';
let community = '';
/** Console lines of every page and of the service worker. */
const consoleLines: string[] = [];

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchChromium();
  context = await browser.newContext();
  context.on('console', (message) => consoleLines.push(message.text()));
  const page = await context.newPage();
  await page.goto(server.url);
  await waitForWorkerControl(page);
  await signIn(page, server.url, DEMO_DIRECTOR);
  userId = await signedInUserId(page);
  community = (await server.admin.collection('users').getOne(userId)).community as string;
  await waitForFirstSync(page, userId);
  await page.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** An outbox entry creating one report, as src/data/sync/outbox.ts's enqueue writes it. */
function reportEntry(
  id: string,
  narative: string,
  retry: { attempts: number; nextAttemptAt: number } = { attempts: 0, nextAttemptAt: 0 },
) {
  return {
    userId,
    createdAt: new Date().toISOString(),
    label: 'Accident report',
    ops: [
      {
        action: 'create',
        collection: 'reports',
        id,
        body: {
          narative,
          type: 'accident',
          weather: 'clear',
          incident_time: new Date().toISOString().replace('T', ' '),
          community,
          created_by: userId,
        },
      },
    ],
    recordKeys: [`reports:${id}`],
    status: 'pending',
    ...retry,
  };
}

/** A page of the app's origin that runs none of the app (so no window sync engine), still controlled by the worker. */
async function bareOriginPage(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.url}/api/health`);
  await waitForWorkerControl(page);
  return page;
}

const database = () => `scms-${userId}`;

async function serverCopies(id: string, narative: string): Promise<number> {
  const byId = await server.admin
    .collection('reports')
    .getFullList({ filter: server.admin.filter('id = {:id}', { id }) });
  const byText = await server.admin
    .collection('reports')
    .getFullList({ filter: server.admin.filter('narative = {:narative}', { narative }) });
  return Math.max(byId.length, byText.length);
}

async function waitForServerCopy(id: string, narative: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await serverCopies(id, narative)) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`report ${id} did not reach the server within ${timeoutMs} ms; console:\n${consoleLines.join('\n')}`);
}

type ReplayAnswer = { type: string; outcome: string; delivered: number; parked: number; retry: boolean };

/** Posts {type:'REPLAY'} to the controlling worker and resolves to its answer. */
function askWorkerToReplay(page: Page, count = 1): Promise<ReplayAnswer[]> {
  return page.evaluate(
    (count) =>
      Promise.all(
        Array.from(
          { length: count },
          () =>
            new Promise<ReplayAnswer>((resolve) => {
              const channel = new MessageChannel();
              channel.port1.onmessage = (event) => resolve(event.data as ReplayAnswer);
              navigator.serviceWorker.controller!.postMessage({ type: 'REPLAY' }, [channel.port2]);
            }),
        ),
      ),
    count,
  );
}

test('Background Sync: a report queued offline is sent by the worker once the network returns, with no page open', async () => {
  const id = newId();
  const narative = `Gate arm broken at the north entrance (${id})`;
  const page = await context.newPage();
  await page.goto(`${server.url}/reports`);
  await page.getByRole('heading', { name: 'Reports' }).waitFor();
  await waitForWorkerControl(page);

  await context.setOffline(true);
  // As a tab leaves an entry it just failed to send offline: backing off for a few seconds.
  // The sync event fires as soon as the network is back, and must not give up on it.
  await idb(
    page,
    database(),
    'outbox',
    'add',
    reportEntry(id, narative, { attempts: 1, nextAttemptAt: Date.now() + 4_000 }),
  );
  // What the window's engine does after each write; the tag is the data layer's own constant.
  const tags = await page.evaluate(async (tag) => {
    const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
      sync: { register(tag: string): Promise<void>; getTags(): Promise<string[]> };
    };
    await registration.sync.register(tag);
    return registration.sync.getTags();
  }, SYNC_TAG);
  expect(tags).toContain(SYNC_TAG);
  await saveScreenshot(page, 'pwa-sync-offline-queued.png');

  // Offline, the browser keeps the sync for later: nothing reaches the server.
  await page.waitForTimeout(1_000);
  expect(await serverCopies(id, narative)).toBe(0);

  // Only the worker can send it now: no page of the app is left.
  await page.close();
  await context.setOffline(false);
  await waitForServerCopy(id, narative);

  expect(await serverCopies(id, narative)).toBe(1);
  // The worker's own report of the delivery (it logs after writing the mirror, so it may come a moment later).
  const workerLine = '[scms-sw] outbox replay (sync): done, 1 delivered, 0 parked';
  await expect
    .poll(() => consoleLines.includes(workerLine), { timeout: 5_000, message: consoleLines.join('\n') })
    .toBe(true);
  const check = await bareOriginPage();
  await expect(idb(check, database(), 'outbox', 'count')).resolves.toBe(0);
  // The worker also wrote the server's copy into the mirror, no longer pending.
  const mirrored = await idb<{ id: string; _pending?: number; narative: string } | undefined>(
    check,
    database(),
    'reports',
    'get',
    id,
  );
  expect(mirrored).toMatchObject({ id, narative });
  expect(mirrored?._pending).toBeUndefined();
  await check.close();
});

test('a REPLAY message: the worker sends the outbox and answers; two at once still send it once', async () => {
  const id = newId();
  const narative = `Streetlight out on Palm Way (${id})`;
  const page = await bareOriginPage();
  await expect(idb(page, database(), 'outbox', 'count')).resolves.toBe(0);
  await idb(page, database(), 'outbox', 'add', reportEntry(id, narative));

  const answers = await askWorkerToReplay(page, 2);
  expect(answers.map((answer) => answer.outcome)).toEqual(['done', 'done']);
  expect(answers.reduce((sum, answer) => sum + answer.delivered, 0)).toBe(1);
  expect(await serverCopies(id, narative)).toBe(1);
  await expect(idb(page, database(), 'outbox', 'count')).resolves.toBe(0);
  await page.close();
});

test('offline: the worker keeps the entry and asks to be retried; back online it sends it once', async () => {
  const id = newId();
  const narative = `Pool gate found unlatched (${id})`;
  const page = await bareOriginPage();
  await expect(idb(page, database(), 'outbox', 'count')).resolves.toBe(0);
  await idb(page, database(), 'outbox', 'add', reportEntry(id, narative));
  await context.setOffline(true);
  const [offline] = await askWorkerToReplay(page);
  // A rejected sync event: the browser fires it again later.
  expect(offline).toMatchObject({ outcome: 'offline', delivered: 0, retry: true });
  await expect(idb(page, database(), 'outbox', 'count')).resolves.toBe(1);

  await context.setOffline(false);
  // The failed attempt set a back-off of a second or two ('waiting'); then it goes.
  await expect
    .poll(async () => (await askWorkerToReplay(page))[0]?.outcome, { timeout: 10_000, interval: 500 })
    .toBe('done');
  expect(await serverCopies(id, narative)).toBe(1);
  await expect(idb(page, database(), 'outbox', 'count')).resolves.toBe(0);
  await page.close();
});

test('signed out: the worker keeps the entry, and the next sign-in sends it', async () => {
  const id = newId();
  const narative = `Resident reported a loose dog (${id})`;
  const app = await context.newPage();
  await app.goto(`${server.url}/homes`);
  await app.getByRole('button', { name: 'Log out' }).click();
  await app.getByRole('button', { name: 'Login' }).waitFor();
  // The session copy the worker reads is gone with the sign-out.
  await expect.poll(() => idb(app, 'scms-session', 'session', 'get', 'current'), { timeout: 5_000 }).toBeUndefined();
  await app.close();

  const page = await bareOriginPage();
  await idb(page, database(), 'outbox', 'add', reportEntry(id, narative));
  const [answer] = await askWorkerToReplay(page);
  // Resolved, not retried: the window sends it after the next sign-in.
  expect(answer).toMatchObject({ outcome: 'auth-required', delivered: 0, retry: false });
  await expect(idb(page, database(), 'outbox', 'count')).resolves.toBe(1);
  expect(await serverCopies(id, narative)).toBe(0);
  await page.close();

  const again = await context.newPage();
  await signIn(again, server.url, DEMO_DIRECTOR);
  await waitForServerCopy(id, narative);
  expect(await serverCopies(id, narative)).toBe(1);
  await expect.poll(() => idb(again, database(), 'outbox', 'count'), { timeout: 10_000 }).toBe(0);
  await again.close();
});
