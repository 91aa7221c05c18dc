/**
 * Shared steps of the PWA browser tests (tests/e2e/pwa-*.test.ts): the built
 * app served by a real PocketBase with the demo data, and what a user does
 * in it.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import type { DemoAccount } from '../../scripts/seed/demo-account.ts';
import { saveScreenshot } from '../support/journey.ts';
import { startTestServer, type TestServer } from '../support/pocketbase.ts';

/** The built app the journeys serve: dist/, or SCMS_E2E_DIST_DIR (several builds side by side while developing). */
export const distDir = process.env.SCMS_E2E_DIST_DIR ?? join(projectRoot, 'dist');
export { saveScreenshot };

/** A PocketBase with the demo data (a copy of the run's seeded folder: tests/e2e/global-setup.ts), serving `publicDir` (the built app unless told). */
export async function startDemoServer(publicDir = distDir): Promise<TestServer> {
  return startTestServer({}, { publicDir, from: inject('demoDataDir') });
}

/** Resolves once a service worker controls the page (sw.ts claims pages on its first install). */
export async function waitForWorkerControl(page: Page): Promise<string> {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    }
    return navigator.serviceWorker.controller!.scriptURL;
  });
}

/**
 * Signs in through the login form; resolves on the Homes screen. A failure
 * says where the page was: its address, what it showed, and whether a
 * service worker controlled it, so a stuck page can be told from a slow one.
 */
export async function signIn(page: Page, baseUrl: string, account: DemoAccount): Promise<void> {
  try {
    await page.goto(baseUrl);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: 'Homes' }).waitFor();
  } catch (error) {
    const shown = await page
      .evaluate(() => ({
        body: document.body?.innerText.slice(0, 300) ?? '(no body)',
        readyState: document.readyState,
        worker: navigator.serviceWorker?.controller?.state ?? 'none',
      }))
      .catch((reason: unknown) => `(the page did not answer: ${String(reason)})`);
    throw new Error(`sign-in as ${account.email} did not reach Homes: at ${page.url()}, ${JSON.stringify(shown)}`, {
      cause: error,
    });
  }
}

/** The signed-in user's id, as the app keeps it (the SDK's local storage entry). */
export async function signedInUserId(page: Page): Promise<string> {
  const id = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('pocketbase_auth') ?? '{}') as { record?: { id?: string } }).record?.id,
  );
  if (!id) throw new Error('no signed-in user in local storage');
  return id;
}

/** Runs one request on an object store of an IndexedDB database of the page's origin (no Dexie: the bundle's modules are not reachable from a test). */
export async function idb<T>(
  page: Page,
  database: string,
  store: string,
  op: 'get' | 'add' | 'put' | 'count' | 'getAll',
  arg?: unknown,
): Promise<T> {
  return page.evaluate(
    ({ database, store, op, arg }) =>
      new Promise<T>((resolve, reject) => {
        const open = indexedDB.open(database);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(store, op === 'add' || op === 'put' ? 'readwrite' : 'readonly');
          const objects = tx.objectStore(store);
          const request =
            op === 'get'
              ? objects.get(arg as IDBValidKey)
              : op === 'add'
                ? objects.add(arg)
                : op === 'put'
                  ? objects.put(arg)
                  : op === 'count'
                    ? objects.count()
                    : objects.getAll();
          request.onsuccess = () => {
            db.close();
            resolve(request.result as T);
          };
          request.onerror = () => {
            db.close();
            reject(request.error);
          };
        };
      }),
    { database, store, op, arg },
  );
}

/**
 * Waits until a first load's pages are written as rows (src/data/mirror/unpack.ts):
 * what reads IndexedDB past the app's code sees every record only then.
 */
export async function waitForPagesUnpacked(page: Page, userId: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await idb<number>(page, `scms-${userId}`, 'load_pages', 'count')) === 0) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`the first load's pages were not written as rows within ${timeoutMs / 1000} s`);
}

/** Waits until the window's sync engine finished its first pull into the user's mirror (a large community's takes longer than 30 s). */
export async function waitForFirstSync(page: Page, userId: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const names = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
    if (names.includes(`scms-${userId}`)) {
      const row = await idb<{ value?: number } | undefined>(page, `scms-${userId}`, 'syncState', 'get', 'lastSyncAt');
      if (row?.value) return;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`the first pull did not finish within ${timeoutMs / 1000} s`);
}
