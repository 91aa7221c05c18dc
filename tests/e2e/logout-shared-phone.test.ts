/**
 * Patrol phones are shared between shifts: Log out leaves no
 * community data on the device, and what the user wrote but did not send is
 * never thrown away silently. Chromium, the built app, a real PocketBase
 * with the demo data (on a phone, and a desk's browser for the first):
 * - signed in with the mirror filled, Log out: every IndexedDB store of the
 *   origin is empty (no homes, residents, phones, reports, users, concerns,
 *   no saved session), no `scms-images-*` cache is left, local storage holds
 *   nothing of the community; the app shell's cache stays;
 * - a report written offline: Log out asks '1 change is not sent yet';
 *   'Send now' is disabled offline; online, a report the server refuses is
 *   named after 'Send now'; once the server accepts it 'Send now' sends it
 *   (exactly once) and logs out, leaving the device empty;
 * - a report written offline, 'Log out anyway': IndexedDB holds that outbox
 *   entry and nothing else; another user signing in on the device does not
 *   send it and does not see it; the same user's next sign-in sends it,
 *   exactly once;
 * - a session that expired, 'Log in' on its banner, and another user signs
 *   in instead of the same one: the first user's mirror and images go, their
 *   unsent report stays, unsent.
 */
import type { Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR, DEMO_MANAGER, DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import {
  idb,
  signedInUserId,
  signIn,
  waitForFirstSync,
  waitForPagesUnpacked,
  waitForWorkerControl,
} from './pwa-helpers.ts';
import { chooseHome, fillNarrative, openReports, reportsByNarrative, uniqueTag } from './reports-helpers.ts';
import {
  DEMO_COMMUNITY_IDS,
  expectNoSeriousA11yViolations,
  navArea,
  openedDialog,
  screenshot,
  signedInPage,
  SIZE_NAMES,
  useScreensApp,
  waitUntil,
} from './screens-helpers.ts';

const env = useScreensApp();

const LOGIN_HEADING = 'Log in to manage your community';
const ONE_UNSENT = '1 change is not sent yet';
/** Strings of the demo community that must not be left anywhere on the device. */
const COMMUNITY_MARKERS = ['Palm Grove', 'palmgrove', 'PGE-'];

/** What the origin keeps: the row count of every object store of every IndexedDB database, the Cache Storage names, local storage. */
interface DeviceData {
  databases: Record<string, Record<string, number>>;
  caches: string[];
  localStorage: Record<string, string>;
}

function deviceData(page: Page): Promise<DeviceData> {
  return page.evaluate(async () => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const databases: Record<string, Record<string, number>> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await request(indexedDB.open(name));
      const stores: Record<string, number> = {};
      for (const store of Array.from(db.objectStoreNames))
        stores[store] = await request(db.transaction(store).objectStore(store).count());
      db.close();
      databases[name] = stores;
    }
    const storage: Record<string, string> = {};
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i)!;
      storage[key] = localStorage.getItem(key) ?? '';
    }
    return { databases, caches: await caches.keys(), localStorage: storage };
  });
}

/** The stores that hold rows: `database/store` → count. */
function nonEmptyStores(data: DeviceData): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [database, stores] of Object.entries(data.databases)) {
    for (const [store, count] of Object.entries(stores)) if (count > 0) found[`${database}/${store}`] = count;
  }
  return found;
}

function imageCaches(data: DeviceData): string[] {
  // 'house-images': the one shared cache of earlier versions (the worker deletes it on activation).
  return data.caches.filter((name) => name.startsWith('scms-images-') || name === 'house-images');
}

/** An image the service worker would keep for the user (as sw.ts does: one cache per user). */
async function cacheAnImage(page: Page, userId: string): Promise<void> {
  await page.evaluate(async (name) => {
    const cache = await caches.open(name);
    await cache.put('/api/files/houses/abc/front.png', new Response(new Blob(['png'], { type: 'image/png' })));
  }, `scms-images-${userId}`);
}

async function clickLogOut(page: Page): Promise<void> {
  const area = await navArea(page);
  await area.getByRole('button', { name: 'Log out' }).click();
}

/** Local storage holds no sign-in and nothing of the community. */
function expectNoCommunityInLocalStorage(data: DeviceData): void {
  expect(data.localStorage.pocketbase_auth).toBeUndefined();
  for (const value of Object.values(data.localStorage))
    for (const marker of COMMUNITY_MARKERS) expect(value).not.toContain(marker);
}

/** A report written with the network off, from the Reports screen; resolves once it is queued. */
async function writeReportOffline(
  page: Page,
  setOffline: (offline: boolean) => Promise<void>,
  address: string,
  narrative: string,
): Promise<void> {
  await openReports(page);
  await page.getByRole('link', { name: 'Create Report' }).click();
  await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
  await setOffline(true);
  await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();
  await page.getByLabel('Type').selectOption('vehicle_tailgaite');
  await page.getByRole('button', { name: 'Now', exact: true }).click();
  await fillNarrative(page, narrative);
  await chooseHome(page, address);
  await page.getByRole('button', { name: 'Create report', exact: true }).click();
  const created = page
    .getByRole('status')
    .filter({ hasText: 'Success' })
    .filter({ hasText: 'Report saved on this device; it will be sent when you are back online.' });
  await created.waitFor();
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  // Read: an open dialog would host it above its own text for the rest of its 5 s.
  await created.getByRole('button', { name: 'Close' }).click();
  await created.waitFor({ state: 'detached' });
}

interface OutboxRow {
  userId: string;
  status: string;
  ops: Array<{ action: string; collection: string; id: string; body: { narative?: string } }>;
}

async function newHouse(address: string): Promise<RecordModel> {
  return env.app.server.admin
    .collection('houses')
    .create({ address, city: 'Jupiter', state: 'FL', zip: '33458', community: DEMO_COMMUNITY_IDS.primary });
}

async function firstDemoHome(): Promise<string> {
  const house = await env.app.server.admin
    .collection('houses')
    .getFirstListItem(env.app.server.admin.filter('community = {:c}', { c: DEMO_COMMUNITY_IDS.primary }), {
      sort: 'address',
    });
  return house.address as string;
}

describe.each(SIZE_NAMES)('at %s size', (size) => {
  test('Log out with the mirror filled leaves no community data on the device', async () => {
    const { context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    try {
      const userId = await signedInUserId(page);
      await waitForWorkerControl(page);
      await cacheAnImage(page, userId);

      // The community is on the device, as rows (a first load's pages become rows in the background):
      // the test would see it if it stayed.
      await waitForPagesUnpacked(page, userId);
      const before = await deviceData(page);
      const mirror = before.databases[`scms-${userId}`]!;
      for (const table of ['communities', 'houses', 'residents', 'phones', 'reports', 'users', 'concerns', 'syncState'])
        expect(mirror[table], table).toBeGreaterThan(0);
      expect(before.databases['scms-session']?.session).toBe(1);
      expect(imageCaches(before)).toContain(`scms-images-${userId}`);

      await clickLogOut(page);
      // Nothing unsent: no question.
      await page.getByRole('heading', { name: LOGIN_HEADING }).waitFor();
      await expect(page.getByRole('dialog').count()).resolves.toBe(0);

      const after = await deviceData(page);
      expect(nonEmptyStores(after)).toEqual({});
      expect(after.databases[`scms-${userId}`]).toBeDefined();
      expect(imageCaches(after)).toEqual([]);
      // The app shell stays: the next officer can still open the app offline.
      expect(after.caches.some((name) => name.startsWith('workbox-precache'))).toBe(true);
      expectNoCommunityInLocalStorage(after);
    } finally {
      await context.close();
    }
  }, 90_000);
});

// The rest at phone size only: the outbox and the sign-in below the screen are the same at a desk; the
// dialogs' layout at both sizes is checked above and by the screens-* journeys.
describe.each(['phone'] as const)('at %s size', (size) => {
  test('a report written offline: the question, Send now disabled offline, a refusal named, then sent once and logged out', async () => {
    const address = `${700 + SIZE_NAMES.indexOf(size)} Send Now Way ${uniqueTag()}`;
    const house = await newHouse(address);
    const { context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    try {
      const userId = await signedInUserId(page);
      const narrative = `Gate arm stuck open, sent before log out ${uniqueTag()}`;
      await writeReportOffline(page, (offline) => context.setOffline(offline), address, narrative);
      // Meanwhile the home moves to another community on the server: a report on it is refused (the create rule).
      await env.app.server.admin.collection('houses').update(house.id, { community: DEMO_COMMUNITY_IDS.second });

      await clickLogOut(page);
      let question = await openedDialog(page, ONE_UNSENT);
      const sendNow = question.getByRole('button', { name: 'Send now' });
      await expect(sendNow.isDisabled()).resolves.toBe(true);
      await expect(
        question
          .getByText('You are offline. If you log out, they stay on this device and are sent after you log in again.', {
            exact: false,
          })
          .count(),
      ).resolves.toBe(1);
      await expect(question.getByRole('button', { name: 'Log out anyway' }).isEnabled()).resolves.toBe(true);
      await screenshot(page, 'logout-unsent-offline');
      await expectNoSeriousA11yViolations(page, 'the unsent-changes question, offline');
      await question.getByRole('button', { name: 'Cancel' }).click();
      await question.waitFor({ state: 'detached' });

      // Back online the replay runs: the server refuses the report (its home is not of this community), and it is parked.
      await context.setOffline(false);
      await page.getByRole('button', { name: 'Sync status: 1 failed' }).waitFor({ timeout: 15_000 });
      await clickLogOut(page);
      question = await openedDialog(page, ONE_UNSENT);
      await expect(question.getByRole('button', { name: 'Send now' }).isEnabled()).resolves.toBe(true);
      await screenshot(page, 'logout-unsent-online');
      await question.getByRole('button', { name: 'Send now' }).click();
      const refusal = question.getByRole('alert').filter({ hasText: 'Refused by the server:' });
      await refusal.waitFor();
      await expect(refusal.textContent()).resolves.toContain('Report');
      await screenshot(page, 'logout-send-refused');
      await expect(question.getByRole('heading', { name: ONE_UNSENT }).count()).resolves.toBe(1);
      expect(await reportsByNarrative(env.app.server, narrative)).toHaveLength(0);

      // The home is back in the community: Send now delivers the report and the log out goes on, even
      // when another replayer (the service worker, woken by the retry; another tab) holds the outbox
      // for a moment.
      await env.app.server.admin.collection('houses').update(house.id, { community: DEMO_COMMUNITY_IDS.primary });
      await idb(page, `scms-${userId}`, 'syncState', 'put', {
        key: 'lease:replay',
        value: { owner: 'another tab', expiresAt: Date.now() + 3_000 },
      });
      await question.getByRole('button', { name: 'Send now' }).click();
      await page.getByRole('heading', { name: LOGIN_HEADING }).waitFor({ timeout: 20_000 });
      await page.waitForTimeout(1_500);
      const sent = await reportsByNarrative(env.app.server, narrative);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ created_by: userId, house: house.id });
      const after = await deviceData(page);
      expect(nonEmptyStores(after)).toEqual({});
      expectNoCommunityInLocalStorage(after);
    } finally {
      await context.close();
    }
  }, 120_000);

  test('Log out anyway keeps only the unsent report; another user does not send it, its writer does, once', async () => {
    const address = await firstDemoHome();
    const { context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    try {
      const writer = await signedInUserId(page);
      await waitForWorkerControl(page);
      await cacheAnImage(page, writer);
      const narrative = `Vehicle followed resident through gate, kept for next shift ${uniqueTag()}`;
      await writeReportOffline(page, (offline) => context.setOffline(offline), address, narrative);

      await clickLogOut(page);
      const question = await openedDialog(page, ONE_UNSENT);
      await question.getByRole('button', { name: 'Log out anyway' }).click();
      await page.getByRole('heading', { name: LOGIN_HEADING }).waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: 'Logged out' })
        .filter({ hasText: '1 change will be sent after you log in again.' })
        .waitFor();
      await screenshot(page, 'logout-kept-login');

      // The device holds that one outbox entry, the writer's, and nothing else.
      const kept = await deviceData(page);
      expect(nonEmptyStores(kept)).toEqual({ [`scms-${writer}/outbox`]: 1 });
      expect(imageCaches(kept)).toEqual([]);
      expectNoCommunityInLocalStorage(kept);
      const [entry] = await idb<OutboxRow[]>(page, `scms-${writer}`, 'outbox', 'getAll');
      expect(entry).toMatchObject({
        userId: writer,
        status: 'pending',
        ops: [{ action: 'create', collection: 'reports', body: { narative: narrative } }],
      });
      const reportId = entry!.ops[0]!.id;

      // Another officer signs in on the device, online: the report is not sent with their session, nor shown in their mirror.
      await context.setOffline(false);
      await signIn(page, env.app.server.url, DEMO_MANAGER);
      const other = await signedInUserId(page);
      expect(other).not.toBe(writer);
      await waitForFirstSync(page, other);
      await page.waitForTimeout(2_000);
      expect(await reportsByNarrative(env.app.server, narrative)).toHaveLength(0);
      await expect(idb(page, `scms-${other}`, 'reports', 'get', reportId)).resolves.toBeUndefined();
      await expect(idb(page, `scms-${other}`, 'outbox', 'count')).resolves.toBe(0);
      const parked = nonEmptyStores(await deviceData(page));
      expect(parked[`scms-${writer}/outbox`]).toBe(1);
      expect(Object.keys(parked).filter((store) => store.startsWith(`scms-${writer}/`))).toEqual([
        `scms-${writer}/outbox`,
      ]);

      // They log out (nothing of theirs unsent: no question); the writer's entry is still parked.
      await clickLogOut(page);
      await page.getByRole('heading', { name: LOGIN_HEADING }).waitFor();
      expect(nonEmptyStores(await deviceData(page))).toEqual({ [`scms-${writer}/outbox`]: 1 });
      expect(await reportsByNarrative(env.app.server, narrative)).toHaveLength(0);

      // The writer signs in again: the report reaches the server, exactly once.
      await signIn(page, env.app.server.url, DEMO_REGULAR);
      const [saved] = await waitUntil(
        'the kept report on the server',
        () => reportsByNarrative(env.app.server, narrative),
        (found) => found.length > 0,
      );
      expect(saved).toMatchObject({ id: reportId, created_by: writer });
      // The window and the service worker may both replay: still one a moment later.
      await page.waitForTimeout(1_500);
      expect(await reportsByNarrative(env.app.server, narrative)).toHaveLength(1);
      await expect.poll(() => idb(page, `scms-${writer}`, 'outbox', 'count'), { timeout: 10_000 }).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("an expired session not renewed by its user: the next user's sign-in removes the mirror and images left behind, the outbox stays", async () => {
    const address = await firstDemoHome();
    const { context, page } = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR);
    try {
      const first = await signedInUserId(page);
      await waitForWorkerControl(page);
      await cacheAnImage(page, first);
      const narrative = `Loose dog near pool, written before the session expired ${uniqueTag()}`;
      await writeReportOffline(page, (offline) => context.setOffline(offline), address, narrative);

      // The session is revoked (as an administrator does: a new tokenKey voids every token issued before).
      await env.app.server.admin
        .collection('users')
        .update(first, { tokenKey: `revoked-${Date.now()}-${uniqueTag()}`.padEnd(50, '0') });
      await context.setOffline(false);
      const banner = page.getByRole('alert').filter({ hasText: 'Your session expired.' });
      await banner.waitFor({ timeout: 15_000 });
      await banner.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: LOGIN_HEADING }).waitFor();
      // Kept for now: the same officer signing in again finds the mirror as it was.
      expect((await deviceData(page)).databases[`scms-${first}`]?.houses).toBeGreaterThan(0);

      // Someone else signs in on the device.
      await signIn(page, env.app.server.url, DEMO_MANAGER);
      const next = await signedInUserId(page);
      await waitForFirstSync(page, next);
      await expect
        .poll(
          async () =>
            Object.keys(nonEmptyStores(await deviceData(page))).filter((store) => store.startsWith(`scms-${first}/`)),
          { timeout: 10_000 },
        )
        .toEqual([`scms-${first}/outbox`]);
      const data = await deviceData(page);
      expect(data.databases[`scms-${first}`]?.outbox).toBe(1);
      expect(imageCaches(data).filter((name) => name !== `scms-images-${next}`)).toEqual([]);
      expect(data.databases[`scms-${next}`]?.houses).toBeGreaterThan(0);
      await page.waitForTimeout(1_500);
      expect(await reportsByNarrative(env.app.server, narrative)).toHaveLength(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});
