/**
 * Notifications in Chromium, the built app against a real PocketBase with
 * the demo data, on a phone (390×844), as the demo officer:
 *
 * - the Safety screen's Notifications section: off at first, what the
 *   officer may be sent (panic and missed check-ins recommended), controls
 *   a thumb can hit, nothing wider than the phone;
 * - 'Turn on notifications' with the permission granted: the app fetches
 *   the server's key (GET /api/scms/push/key) and asks the browser to
 *   subscribe. Headless Chromium cannot: a Playwright context is an
 *   incognito profile, where Chromium refuses push at once ("Registration
 *   failed - permission denied"); a persistent profile asks Google's push
 *   service (FCM), which this closed network never answers, so the
 *   subscription is never made there either. What a subscription does on
 *   the server (the record, the sender, the stand-in push service that
 *   decrypts) is tests/integration/push.test.ts; the app's side of a
 *   subscription that succeeds, tests/unit/notification-settings.test.tsx.
 *   Here: the key is fetched, the screen says the browser's notification
 *   service did not answer, and the server holds no subscription;
 * - a choice of what the officer is sent, saved on the server and read
 *   back after a reload; offline, the section says what needs a connection;
 * - the service worker's push handler, in Chromium itself: DevTools'
 *   ServiceWorker.deliverPushMessage dispatches a push event with the
 *   sender's JSON, and the notification shown is read back from the
 *   registration (tag = id, a repeat replaces it, the urgent kinds stay
 *   and sound again, the app's icon, the url to open); text that is no
 *   JSON shows the generic notification;
 * - Log out asks the worker to drop this browser's subscription (its log
 *   line: with none to drop here).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import { loadOrCreateVapidKeys, type VapidKeys } from '../../server/push/vapid.ts';
import { KIND_CHOICES, NOTIFICATION_WORDS, PUSH_PROBLEM_WORDS } from '../../src/features/safety/notificationWords.ts';
import { THUMB_PX } from '../support/journey.ts';
import { signedInUserId } from './pwa-helpers.ts';
import {
  expectNoSeriousA11yViolations,
  navArea,
  navigate,
  screenshot,
  signedInPage,
  SIZES,
  useScreensApp,
  waitUntil,
} from './screens-helpers.ts';

const env = useScreensApp();
let keys: VapidKeys;

beforeAll(() => {
  // What the push sender makes at its first start (server/push/cli.ts); the key route reads it.
  keys = loadOrCreateVapidKeys(env.app.server.dataDir);
});

const section = (page: Page) => page.getByRole('region', { name: NOTIFICATION_WORDS.title, exact: true });
const pushState = (page: Page) => section(page).locator('[data-push-state]');

/** Every control of the section at least a thumb high and wide (a checkbox with its label), and nothing past the phone's width. */
async function expectFitsThePhone(page: Page): Promise<void> {
  const found = await section(page).evaluate((root, min) => {
    const small: string[] = [];
    for (const control of root.querySelectorAll<HTMLElement>('button, input')) {
      const target = control.closest('label') ?? control;
      const box = target.getBoundingClientRect();
      if (box.height < min || box.width < min)
        small.push(`${target.textContent?.trim() || control.outerHTML}: ${box.width}×${box.height}`);
    }
    return { small, right: root.getBoundingClientRect().right, scroll: document.documentElement.scrollWidth };
  }, THUMB_PX);
  expect(found.small, 'controls smaller than a thumb').toEqual([]);
  expect(found.right).toBeLessThanOrEqual(SIZES.phone.width);
  expect(found.scroll).toBeLessThanOrEqual(SIZES.phone.width);
}

/** Dispatches a push event to the app's service worker through DevTools, as the push service would. */
async function deliverPush(context: BrowserContext, page: Page, origin: string, data: string): Promise<void> {
  const cdp = await context.newCDPSession(page);
  try {
    const registration = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registration, data });
  } finally {
    await cdp.detach();
  }
}

interface Shown {
  title: string;
  body: string;
  tag: string;
  icon: string;
  data: unknown;
  requireInteraction: boolean;
  renotify: boolean;
}

/** The notifications the app's registration shows now. */
function shownNotifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      icon: n.icon,
      data: n.data as unknown,
      requireInteraction: n.requireInteraction,
      renotify: (n as Notification & { renotify: boolean }).renotify,
    }));
  });
}

describe('notifications on a phone', () => {
  test('the section, Turn on as far as headless Chromium goes, the choices, the worker’s notifications, Log out', async () => {
    const url = env.app.server.url;
    const { context, page } = await signedInPage(env.browser, url, 'phone', DEMO_REGULAR);
    const workerLines: string[] = [];
    context.on('console', (message) => {
      if (message.text().startsWith('[scms-sw]')) workerLines.push(message.text());
    });
    try {
      const me = await signedInUserId(page);
      await context.grantPermissions(['notifications'], { origin: url });
      await navigate(page, 'Safety');
      await expect.poll(() => pushState(page).textContent(), { timeout: 10_000 }).toBe(NOTIFICATION_WORDS.off);
      await section(page).getByText(NOTIFICATION_WORDS.inApp).waitFor();

      // What an officer may be sent (not the managers' reports with an injury), all on at first.
      const boxes = section(page).getByRole('checkbox');
      await boxes.first().waitFor();
      const offered = KIND_CHOICES.filter((choice) => !choice.managersOnly);
      expect(await boxes.count()).toBe(offered.length);
      for (const choice of offered) {
        const box = section(page).getByRole('checkbox', { name: choice.label, exact: !choice.recommended });
        expect(await box.isChecked()).toBe(true);
      }
      for (const label of ['Panic alerts', 'Missed check-ins'])
        await section(page).locator('label', { hasText: label }).getByText(NOTIFICATION_WORDS.recommended).waitFor();
      await expectFitsThePhone(page);
      await section(page).scrollIntoViewIfNeeded();
      await screenshot(page, 'safety-notifications');

      // Turn on: the server's key, then the browser's refusal (an incognito profile has no push).
      const keyAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/scms/push/key');
      await section(page).getByRole('button', { name: NOTIFICATION_WORDS.turnOn }).click();
      const answer = await keyAnswer;
      expect(answer.status()).toBe(200);
      expect(await answer.json()).toEqual({ publicKey: keys.publicKey });
      await section(page).getByRole('alert').getByText(PUSH_PROBLEM_WORDS['push-service']).waitFor();
      await screenshot(page, 'safety-notifications-refused');
      await expectNoSeriousA11yViolations(page, 'Safety, notifications refused');
      expect(await pushState(page).textContent()).toBe(NOTIFICATION_WORDS.off);
      const admin = env.app.server.admin;
      expect(
        await admin.collection('push_subscriptions').getFullList({ filter: admin.filter('user = {:u}', { u: me }) }),
      ).toEqual([]);

      // A choice: saved on the server at once, read back after a reload.
      await section(page).getByRole('checkbox', { name: 'A resident acknowledged my call' }).uncheck();
      await section(page).getByText(NOTIFICATION_WORDS.saved).waitFor();
      const prefs = await waitUntil(
        'the choice on the server',
        () => admin.collection('notification_prefs').getFullList({ filter: admin.filter('user = {:u}', { u: me }) }),
        (list) => list.length === 1,
      );
      expect(prefs[0]!.muted).toEqual(['call_acknowledged']);
      await page.reload();
      await section(page).getByRole('checkbox', { name: 'Panic alerts' }).waitFor();
      expect(await section(page).getByRole('checkbox', { name: 'A resident acknowledged my call' }).isChecked()).toBe(
        false,
      );

      // Offline: what needs a connection says so.
      await context.setOffline(true);
      await section(page).getByText(NOTIFICATION_WORDS.offlineTurningOn).waitFor();
      await section(page).getByText(NOTIFICATION_WORDS.offlineChoices).waitFor();
      expect(await section(page).getByRole('button', { name: NOTIFICATION_WORDS.turnOn }).isDisabled()).toBe(true);
      await context.setOffline(false);

      // The worker shows what the sender pushes: tag = id, so a repeat replaces it.
      const panic = {
        id: 'notif0000000001',
        kind: 'panic',
        title: 'Panic: Pat Officer',
        body: 'Pressed Panic at 2026-12-14 21:04 (America/New_York). No position.',
        url: '/alerts/alert0000000001',
      };
      await deliverPush(context, page, url, JSON.stringify(panic));
      await deliverPush(context, page, url, JSON.stringify(panic));
      await deliverPush(
        context,
        page,
        url,
        JSON.stringify({ ...panic, id: 'notif0000000002', kind: 'injury_report', title: 'Injury', url: '/reports' }),
      );
      const shown = await waitUntil(
        'the notifications shown',
        () => shownNotifications(page),
        (list) => list.length === 2,
      );
      const byTag = Object.fromEntries(shown.map((n) => [n.tag, n]));
      expect(byTag[panic.id]).toEqual({
        title: panic.title,
        body: panic.body,
        tag: panic.id,
        icon: `${url}/icons/icon-192.png`,
        data: { url: panic.url },
        requireInteraction: true,
        renotify: true,
      });
      expect(byTag.notif0000000002).toMatchObject({
        requireInteraction: false,
        renotify: false,
        data: { url: '/reports' },
      });
      // The app's icon is served (and precached).
      expect((await page.request.get(`${url}/icons/icon-192.png`)).status()).toBe(200);

      // A push that is not the sender's JSON still shows something.
      await deliverPush(context, page, url, 'not json');
      const generic = await waitUntil(
        'the generic notification',
        async () => (await shownNotifications(page)).find((n) => n.tag === 'scms-generic'),
        (found) => found !== undefined,
      );
      expect(generic).toMatchObject({ title: 'SCMS: open the app', data: { url: '/' } });

      // Log out: the worker is asked to drop this browser's subscription (there is none in this profile).
      const area = await navArea(page);
      await area.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('button', { name: 'Login' }).waitFor();
      await waitUntil(
        "the worker's log-out line",
        async () => workerLines,
        (lines) => lines.includes('[scms-sw] log out: push no subscription'),
      );
    } finally {
      await context.close();
    }
  });
});
