/**
 * Shared steps of the screen journeys (tests/e2e/screens-*.test.ts): the
 * built app served by a real PocketBase with the demo data (and, for calls,
 * the telephony stand-in), the two screen sizes, navigation through the top
 * bar or the side drawer, screenshots and the axe-core check.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import type { DemoAccount } from '../../scripts/seed/demo-account.ts';
import { DEMO_COMMUNITY_IDS } from '../../scripts/seed/demo-data.ts';
import { startTelephonyStandin, type TelephonyStandin } from '../../scripts/standins/telephony.ts';
import { screenshotsOf, SIZES, type SizeName } from '../support/journey.ts';
import { startTestServer, startTestServerAt, type TestServer } from '../support/pocketbase.ts';
import { distDir, signedInUserId, signIn, waitForFirstSync } from './pwa-helpers.ts';

export { DEMO_COMMUNITY_IDS };

export { SIZES, SIZE_NAMES, type SizeName, expectNoSeriousA11yViolations, waitUntil } from '../support/journey.ts';

/** Tailwind's md breakpoint: below it the nav entries live in the drawer. */
const DRAWER_BELOW_PX = 1024;

export const TELEPHONY = {
  accountSid: 'AC' + 'e2e0screens0000'.padEnd(32, '0'),
  authToken: 'screens-e2e-auth-token',
  from: '+15615550100',
};

export interface ScreensServer {
  server: TestServer;
  /** Present when started with telephony. */
  standin: TelephonyStandin | null;
  stop: () => Promise<void>;
}

/**
 * PocketBase with the demo data, serving the built app. With `telephony`
 * the stand-in runs too: PocketBase's port is chosen first, because the
 * call route gives the provider its status-callback URL (SCMS_PUBLIC_URL)
 * and the stand-in's URL must be in PocketBase's environment at start.
 */
export async function startScreensServer(
  /** callMinuteSeconds: a settings minute in seconds (SCMS_CALL_MINUTE_SECONDS), so a retry comes within a journey. */
  options: { telephony?: { stepDelayMs: number; callMinuteSeconds?: number } } = {},
): Promise<ScreensServer> {
  let standin: TelephonyStandin | null = null;
  let server: TestServer;
  if (options.telephony) {
    const telephony = await startTelephonyStandin({
      port: 0,
      accountSid: TELEPHONY.accountSid,
      authToken: TELEPHONY.authToken,
      stepDelayMs: options.telephony.stepDelayMs,
    });
    standin = telephony;
    server = await startTestServerAt(
      (publicUrl) => ({
        TWILIO_ACCOUNT_SID: TELEPHONY.accountSid,
        TWILIO_AUTH_TOKEN: TELEPHONY.authToken,
        TWILIO_FROM_NUMBER: TELEPHONY.from,
        TWILIO_API_BASE: telephony.url,
        SCMS_PUBLIC_URL: publicUrl,
        ...(options.telephony?.callMinuteSeconds
          ? { SCMS_CALL_MINUTE_SECONDS: String(options.telephony.callMinuteSeconds) }
          : {}),
      }),
      { publicDir: distDir, from: inject('demoDataDir') },
    );
  } else {
    server = await startTestServer({}, { publicDir: distDir, from: inject('demoDataDir') });
  }
  return {
    server,
    standin,
    stop: async () => {
      await standin?.stop();
      await server.stop();
    },
  };
}

export interface SizedPage {
  size: SizeName;
  context: BrowserContext;
  page: Page;
}

/**
 * A fresh context at the given size; a step that does not happen within 10 s fails (not after Playwright's 30 s).
 * Homes shows its cards at a desk too (the journeys of the cards: the table's is tests/e2e/homes-desk.test.ts),
 * unless the page itself picks another view.
 */
export async function sizedContext(browser: Browser, size: SizeName): Promise<BrowserContext> {
  // The process's time zone, said outright: a month's list and the tests' expectations must agree on where it starts.
  const context = await browser.newContext({
    viewport: SIZES[size],
    timezoneId: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  context.setDefaultTimeout(10_000);
  await context.addInitScript(() => {
    if (localStorage.getItem('scms.homes-view') === null) localStorage.setItem('scms.homes-view', 'cards');
  });
  return context;
}

/**
 * A fresh context at the given size, signed in through the login form, its mirror filled: every
 * journey's way in (one sign-in per context: the server allows 20 a minute). `beforeSignIn`
 * gets the page before its first request, for a journey that listens to all of them.
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  size: SizeName,
  account: DemoAccount,
  options: { beforeSignIn?: (page: Page) => void } = {},
): Promise<SizedPage> {
  const context = await sizedContext(browser, size);
  const page = await context.newPage();
  options.beforeSignIn?.(page);
  // A failed sign-in says where the page was stuck (signIn).
  await signIn(page, baseUrl, account);
  // Until the first pull is in, a home may show without its phones (and so a 'Primary phone number missing' notice).
  await waitForFirstSync(page, await signedInUserId(page));
  return { size, context, page };
}

export function isPhone(page: Page): boolean {
  return (page.viewportSize()?.width ?? SIZES.desktop.width) < DRAWER_BELOW_PX;
}

/** Opens the side drawer on a phone; the top bar already shows the entries on a desktop. Returns where the entries are. */
export async function navArea(page: Page): Promise<Locator> {
  if (!isPhone(page)) return page.locator('nav');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog');
  // The dialog's own element has no box; its entries show once it is open.
  await drawer.getByRole('link', { name: 'Homes', exact: true }).waitFor();
  return drawer;
}

/** Goes to a screen through the navigation, as a user does, and waits for its heading. */
export async function navigate(
  page: Page,
  entry: 'Homes' | 'Users' | 'Concerns' | 'Reports' | 'Tours' | 'Safety',
): Promise<void> {
  const area = await navArea(page);
  await area.getByRole('link', { name: entry, exact: true }).click();
  await page.getByRole('heading', { name: entry, level: 1 }).waitFor();
  // The drawer closes on navigation.
  if (isPhone(page)) await page.getByRole('dialog').waitFor({ state: 'detached' });
}

/** Saves test-results/screenshots/screens-{name}-{size}.png. */
export const screenshot = screenshotsOf('screens');

/** A dialog or sheet by its title. */
export function dialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title });
}

/** Waits for the dialog with this title to be open and returns it (its own element has no box: its title shows it is open). */
export async function openedDialog(page: Page, title: string): Promise<Locator> {
  const found = dialog(page, title);
  await found.getByRole('heading', { name: title }).waitFor();
  return found;
}

/**
 * How long a toast may take to appear: an online action's toast comes once
 * the server answered, and on a loaded two-core machine (CI's, with the
 * browser tests side by side) a call placed through the telephony stand-in
 * once took longer than 10 s to be answered.
 */
const TOAST_WAIT_MS = 30_000;

/** Waits for the toast with this title and description (in the sheet it was raised in, or on the page: src/ui/toast.tsx). */
export async function expectToast(page: Page, title: string, description: string): Promise<void> {
  const toast = page
    .getByRole(title === 'Success' ? 'status' : 'alert')
    .filter({ hasText: title })
    .filter({ hasText: description });
  await toast.first().waitFor({ timeout: TOAST_WAIT_MS });
}

/**
 * One demo server and one Chromium for a test file: registers the file's
 * beforeAll/afterAll and returns their handles (set once beforeAll ran).
 */
export function useScreensApp(options: Parameters<typeof startScreensServer>[0] = {}): {
  app: ScreensServer;
  browser: Browser;
} {
  const env = {} as { app: ScreensServer; browser: Browser };
  beforeAll(async () => {
    env.app = await startScreensServer(options);
    env.browser = await launchChromium();
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.app?.stop();
  });
  return env;
}

/** Where the desk and the officer stand in the tours' and safety's journeys (around a Jupiter, Florida gatehouse). */
export const HERE = { latitude: 26.9342, longitude: -80.0942, accuracy: 8 };

/** The page's context may locate, and stands at HERE. */
export async function located(sized: SizedPage, url: string): Promise<SizedPage> {
  await sized.context.grantPermissions(['geolocation'], { origin: url });
  await sized.context.setGeolocation(HERE);
  return sized;
}
