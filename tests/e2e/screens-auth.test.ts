/**
 * Signing in and out (docs/product.md#login) at phone and desktop size: a wrong password
 * shows 'Error authenticating', the right one opens Homes with its nav
 * entry marked as the current page, and Log out ends the session so a
 * protected route goes back to the login page. axe checks the login page
 * and the phone's side drawer.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import {
  expectNoSeriousA11yViolations,
  isPhone,
  navArea,
  navigate,
  screenshot,
  sizedContext,
  SIZE_NAMES,
  useScreensApp,
} from './screens-helpers.ts';

const env = useScreensApp();

const LOGIN_HEADING = 'Log in to manage your community';
const NAV_ENTRIES = ['Homes', 'Users', 'Concerns', 'Reports'] as const;

/** The aria-current of every nav entry, read where the entries are (the drawer is closed again after). */
async function currentEntries(page: Page): Promise<Record<string, string | null>> {
  const area = await navArea(page);
  const current: Record<string, string | null> = {};
  for (const entry of NAV_ENTRIES)
    current[entry] = await area.getByRole('link', { name: entry, exact: true }).getAttribute('aria-current');
  if (isPhone(page)) {
    await expectNoSeriousA11yViolations(page, 'the side drawer');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }
  return current;
}

describe.each(SIZE_NAMES)('at %s size', (size) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await sizedContext(env.browser, size);
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  test('a wrong password shows the banner; the right one opens Homes, highlighted in the nav', async () => {
    await page.goto(env.app.server.url);
    await page.getByRole('heading', { name: LOGIN_HEADING }).waitFor();
    await expectNoSeriousA11yViolations(page, 'the login page');
    await screenshot(page, 'login');

    await page.getByLabel('Email').fill(DEMO_DIRECTOR.email);
    await page.getByLabel('Password').fill('Not-The-Password-1');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe('Error authenticating');
    expect(new URL(page.url()).pathname).toBe('/');
    await expectNoSeriousA11yViolations(page, 'the login page with its error banner');

    await page.getByLabel('Password').fill(DEMO_DIRECTOR.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/homes');
    await expect(page.getByText('Error authenticating').count()).resolves.toBe(0);
    expect(await currentEntries(page)).toEqual({ Homes: 'page', Users: null, Concerns: null, Reports: null });

    // The highlight follows the screen.
    await navigate(page, 'Users');
    expect(await currentEntries(page)).toEqual({ Homes: null, Users: 'page', Concerns: null, Reports: null });
  });

  test('Log out returns to the login page, and /homes then goes back to /', async () => {
    const area = await navArea(page);
    await area.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: LOGIN_HEADING }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // The saved sign-in is gone, not just hidden.
    await expect(page.evaluate(() => localStorage.getItem('pocketbase_auth'))).resolves.toBeNull();

    await page.goto(`${env.app.server.url}/homes`);
    await page.getByRole('heading', { name: LOGIN_HEADING }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.getByRole('heading', { name: 'Homes' }).count()).resolves.toBe(0);
  });
});
