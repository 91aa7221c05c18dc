/**
 * The first sync of a large community shows its progress: an officer
 * signing in on a new device sees the top of the Homes list first (the
 * first homes in the list's own order, which stay where they are), with
 * 'Loading homes… 500 of 2,000' (the total with its thousands separator)
 * above it while the rest arrives; never 'Showing 0 home(s)' or 'No homes
 * found' for a mirror that is still filling; then the whole list. Real
 * PocketBase, the built app, both sizes; the homes' pages are held back
 * until the partly loaded list has been looked at.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { sortHomes } from '../../src/domain/homeOrder.ts';
import { buildBenchData, type Row } from '../bench/data.ts';
import { createInBatches } from '../support/batches.ts';
import {
  createCommunity,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';
import { distDir, signIn } from './pwa-helpers.ts';
import { expectNoSeriousA11yViolations, screenshot, SIZE_NAMES, sizedContext } from './screens-helpers.ts';

const HOMES = 2_000;
/** How long the top of the list and the total are held on their way (the progress shows a few seconds). */
const HOLD_MS = 2_500;

let server: TestServer;
let browser: Browser;
let fixture: CommunityFixture;
/** The address of the first home of the list, in the app's order. */
let firstAddress: string;

beforeAll(async () => {
  server = await startTestServer({}, { publicDir: distDir });
  browser = await launchChromium();
  fixture = await createCommunity(server.admin, 'sync-progress');
  const houses: Row[] = buildBenchData(new Date())
    .houses.slice(0, HOMES)
    .map((house) => ({ ...house, community: fixture.community.id }));
  await createInBatches(server.admin, 'houses', houses, 1);
  firstAddress = String(sortHomes(houses, 'address', (house) => house as never)[0]!.address);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Records, from the first paint on, whether the page ever said there were no homes, and every progress text it showed. */
function watchHomesText(): void {
  const seen = { empty: false, progress: [] as string[] };
  (window as unknown as { homesText: typeof seen }).homesText = seen;
  const check = () => {
    const text = document.body?.innerText ?? '';
    if (/Showing 0 home\(s\)|No homes found/.test(text)) seen.empty = true;
    for (const match of text.match(/Loading homes…[^\n]*/g) ?? [])
      if (!seen.progress.includes(match)) seen.progress.push(match);
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
}

describe.each(SIZE_NAMES)('at %s size', (size) => {
  test('the first sync says how many homes have arrived, then shows them all; never an empty list on the way', async () => {
    const context = await sizedContext(browser, size);
    // The pages of the homes' first load wait until the checks of the partly loaded list
    // are done, however slow the machine; the other reads of homes (the top of the list,
    // the total) are only held a moment.
    let releasePages = () => {};
    const pagesReleased = new Promise<void>((resolve) => (releasePages = resolve));
    try {
      await context.addInitScript(watchHomesText);
      const hold = async (route: Route, idRange: boolean) => {
        await (idRange ? pagesReleased : new Promise((resolve) => setTimeout(resolve, HOLD_MS)));
        await route.continue().catch(() => undefined);
      };
      // The first load's pages come from the route made for loads (its head says the total)...
      await context.route('**/api/scms/first-load/houses**', (route) =>
        hold(route, !new URL(route.request().url()).searchParams.has('head')),
      );
      // ...or, from a server without it, the records API by id range.
      await context.route('**/api/collections/houses/records**', (route) =>
        hold(route, decodeURIComponent(route.request().url()).includes('id <')),
      );
      const page: Page = await context.newPage();
      await signIn(page, server.url, { email: fixture.regular.email, password: TEST_PASSWORD });

      await page.getByText(/^Loading homes… [\d,]+ of 2,000$/).waitFor({ timeout: 20_000 });
      // The badge does not claim 'Synced' while the mirror is still filling.
      await page.getByRole('button', { name: 'Sync status: Loading…' }).waitFor();
      await expectNoSeriousA11yViolations(page, `the first sync's progress (${size})`);

      // The top of the list shows while the rest arrives, the count saying it is not all.
      const first = page.getByRole('article').first();
      await first.waitFor({ timeout: 20_000 });
      expect(await first.getAttribute('aria-label')).toMatch(new RegExp(`^${firstAddress}`));
      const progress = page.getByText(/^Loading homes… [\d,]+ of 2,000$/);
      expect(await progress.count(), 'the list showed before the homes had all arrived').toBe(1);
      await screenshot(page, 'sync-progress');
      releasePages();

      await page.getByText(`Showing ${HOMES} home(s)`).waitFor({ timeout: 30_000 });
      // The first home is still the first: nothing that came later went above it.
      expect(await first.getAttribute('aria-label')).toMatch(new RegExp(`^${firstAddress}`));
      const seen = await page.evaluate(
        () => (window as unknown as { homesText: { empty: boolean; progress: string[] } }).homesText,
      );
      expect(seen.empty, 'an empty list or a count of 0 was shown during the first sync').toBe(false);
      expect(
        seen.progress.some((text) => /^Loading homes… [\d,]+ of 2,000$/.test(text)),
        seen.progress.join(' | '),
      ).toBe(true);
      expect(await page.getByText(/Loading homes…/).count()).toBe(0);
      await page.getByRole('button', { name: 'Sync status: Synced' }).waitFor();
    } finally {
      releasePages();
      await context.close();
    }
  });
});
