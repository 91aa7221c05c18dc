/**
 * The Homes screen of a large community in Chromium against a
 * real PocketBase, at a phone and a desktop size: 2,000 homes with two
 * residents and two phones each (the first of the benchmark's community,
 * tests/bench/data.ts), seeded as superuser through the batch API. The
 * count is exact; the search finds the last home by its address; the DOM
 * holds a few screens of cards, not two thousand; scrolling to the end
 * shows the last home; Tab walks from card to card; the place is kept
 * across a visit to Reports; on a phone the first screen shows at least
 * three homes with their address and residents.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { sortHomes } from '../../src/domain/homeOrder.ts';
import { buildBenchData, type Row } from '../bench/data.ts';
import { createInBatches } from '../support/batches.ts';
import { matches, withPeople, type SearchedHome } from './homes-helpers.ts';
import {
  createCommunity,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';
import { distDir } from './pwa-helpers.ts';
import {
  expectNoSeriousA11yViolations,
  navigate,
  screenshot,
  signedInPage,
  SIZE_NAMES,
  type SizedPage,
} from './screens-helpers.ts';

// Enough that drawing every card would break the DOM budget many times over; how long the
// screens take at 5,000 and 20,000 homes is bench:screens' job (tests/bench/screens.ts), not a test's.
const HOMES = 2_000;
/** DOM elements on the Homes screen at any size. */
const DOM_BUDGET = 2_500;

let server: TestServer;
let browser: Browser;
let fixture: CommunityFixture;
let houses: Row[];
/** The same homes with their residents and phones, as the search sees them. */
let homes: SearchedHome[];

beforeAll(async () => {
  server = await startTestServer({}, { publicDir: distDir });
  browser = await launchChromium();
  fixture = await createCommunity(server.admin, 'large-homes');
  const data = buildBenchData(new Date());
  houses = data.houses.slice(0, HOMES).map((house) => ({ ...house, community: fixture.community.id }));
  const ids = new Set(houses.map((h) => h.id));
  homes = withPeople(
    houses,
    data.residents.filter((r) => ids.has(r.house as string)),
    data.phones.filter((p) => ids.has(p.house as string)),
  );
  await createInBatches(server.admin, 'houses', houses);
  await createInBatches(
    server.admin,
    'residents',
    data.residents.filter((r) => ids.has(r.house as string)),
  );
  await createInBatches(
    server.admin,
    'phones',
    data.phones.filter((p) => ids.has(p.house as string)),
  );
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const COUNT = /^Showing (\d+) home\(s\)$/;

async function shownCount(page: Page): Promise<number> {
  return Number(COUNT.exec(await page.getByText(COUNT).innerText())?.[1]);
}

/** Elements inside the list, and in the whole page. */
function domSize(page: Page): Promise<{ list: number; page: number }> {
  return page.evaluate(() => ({
    list: document.querySelectorAll('[role="list"][aria-label="Homes"] *').length,
    page: document.querySelectorAll('*').length,
  }));
}

/** Cards at least partly inside the window below the sticky bar, in list order, with what of them shows. */
function cardsOnScreen(page: Page) {
  return page.evaluate(() => {
    const barBottom = document.querySelector('nav')?.getBoundingClientRect().bottom ?? 0;
    const inView = (el: Element | null) => {
      if (!el) return false;
      const box = el.getBoundingClientRect();
      return box.bottom > barBottom && box.top < window.innerHeight && box.height > 0;
    };
    const whole = (el: Element | null) => {
      if (!el) return false;
      const box = el.getBoundingClientRect();
      return box.top >= barBottom && box.bottom <= window.innerHeight;
    };
    return [...document.querySelectorAll('article')]
      .filter((card) => inView(card))
      .map((card) => ({
        name: card.getAttribute('aria-label') ?? '',
        position: Number(card.closest('[role="listitem"]')?.getAttribute('aria-posinset')),
        addressShown: whole(card.querySelector('h2')),
        residentsShown: whole(card.querySelector('ul[aria-label="Residents"]')),
      }));
  });
}

describe.each(SIZE_NAMES)('at %s size', (size) => {
  let sized: SizedPage;
  let page: Page;
  /** The homes in the app's order (street, number, apt). */
  let ordered: Row[];

  beforeAll(async () => {
    sized = await signedInPage(browser, server.url, size, { email: fixture.director.email, password: TEST_PASSWORD });
    page = sized.page;
    ordered = sortHomes(houses, 'address', (h) => ({
      address: h.address as string,
      apt: h.apt as string,
      house_check: false,
    }));
  }, 120_000);
  afterAll(() => sized?.context.close());

  test('the count is exact, the DOM holds a few screens of cards, and on a phone three homes show on the first screen', async () => {
    await expect.poll(() => shownCount(page), { timeout: 30_000 }).toBe(HOMES);
    await page.getByRole('article').first().waitFor();
    const dom = await domSize(page);
    console.log(`Homes with ${HOMES} homes at ${size} size: ${dom.list} elements in the list, ${dom.page} in the page`);
    expect(dom.list).toBeLessThanOrEqual(DOM_BUDGET);
    expect(dom.page).toBeLessThanOrEqual(DOM_BUDGET);
    // The list tells assistive tech how long it is, though most cards are not drawn.
    const first = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('article') })
      .first();
    await expect(first.getAttribute('aria-setsize')).resolves.toBe(String(HOMES));
    await expect(first.getAttribute('aria-posinset')).resolves.toBe('1');
    expect(await page.getByRole('article').first().getAttribute('aria-label')).toMatch(
      new RegExp(`^${ordered[0]!.address}`),
    );

    const onScreen = await cardsOnScreen(page);
    expect(onScreen.length, JSON.stringify(onScreen)).toBeGreaterThanOrEqual(3);
    if (size === 'phone') {
      // Address and residents of three homes, without scrolling.
      expect(
        onScreen.slice(0, 3).every((card) => card.addressShown && card.residentsShown),
        JSON.stringify(onScreen),
      ).toBe(true);
    }
    await screenshot(page, 'homes-large');
    await expectNoSeriousA11yViolations(page, 'Homes with 2,000 homes');
  });

  test('the search finds the last home by its address, and the count follows', async () => {
    const last = ordered.at(-1)!;
    const query = last.address as string;
    const expected = homes.filter((home) => matches(home, query));
    await page.getByLabel('Search homes').fill(query);
    await expect.poll(() => shownCount(page), { timeout: 5_000 }).toBe(expected.length);
    await page
      .getByRole('article', { name: new RegExp(`^${query}`) })
      .first()
      .waitFor();
    // A word of an address alone matches many homes: the count is still exact.
    const street = (last.address as string).split(' ').at(-2)!;
    await page.getByLabel('Search homes').fill(street.toUpperCase());
    await expect
      .poll(() => shownCount(page), { timeout: 5_000 })
      .toBe(homes.filter((home) => matches(home, street)).length);
    await page.getByLabel('Search homes').fill('');
    await expect.poll(() => shownCount(page), { timeout: 5_000 }).toBe(HOMES);
  });

  test('scrolling to the end shows the last home; Tab walks from card to card; the place survives a visit to Reports', async () => {
    const last = ordered.at(-1)!;
    const lastCard = page.getByRole('article', { name: new RegExp(`^${last.address as string}`) });
    // Rows are measured as they come into view, so the page grows as it scrolls: scroll until the end stays the end.
    for (let i = 0; i < 40 && !(await lastCard.isVisible()); i++) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForTimeout(100);
    }
    await lastCard.waitFor();
    const item = page.getByRole('listitem').filter({ has: lastCard });
    await expect(item.getAttribute('aria-posinset')).resolves.toBe(String(HOMES));
    expect((await domSize(page)).list).toBeLessThanOrEqual(DOM_BUDGET);
    await screenshot(page, 'homes-large-end');

    // Somewhere in the middle: Tab from a card's last button reaches the next card's first, which scrolls into view.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    await page.waitForTimeout(200);
    const before = await cardsOnScreen(page);
    const start = before[0]!;
    const startCard = page.getByRole('article', { name: start.name, exact: true });
    await startCard.getByRole('button', { name: /^Call resident/ }).focus();
    // Each Tab stays in order and in view (the next cards are drawn before they are needed), up to the Call button three cards further on.
    let focused = { label: '', position: start.position, visible: true };
    const arrived = () => focused.position === start.position + 3 && focused.label.startsWith('Call resident of ');
    for (let i = 0; i < 40 && !arrived() && focused.position <= start.position + 3; i++) {
      await page.keyboard.press('Tab');
      const next = await page.evaluate(() => {
        const active = document.activeElement;
        const box = active?.getBoundingClientRect();
        return {
          label: active?.getAttribute('aria-label') ?? active?.textContent ?? '',
          position: Number(active?.closest('[role="listitem"]')?.getAttribute('aria-posinset')),
          visible: box ? box.top >= 0 && box.bottom <= window.innerHeight : false,
        };
      });
      expect(next.position - focused.position, JSON.stringify({ focused, next })).toBeGreaterThanOrEqual(0);
      expect(next.visible, JSON.stringify(next)).toBe(true);
      focused = next;
    }
    expect(arrived(), JSON.stringify(focused)).toBe(true);

    // To Reports and back: the same homes on screen.
    const placed = await cardsOnScreen(page);
    const scrollY = await page.evaluate(() => window.scrollY);
    await navigate(page, 'Reports');
    await navigate(page, 'Homes');
    await page.getByRole('article').first().waitFor();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrollY);
    const back = await cardsOnScreen(page);
    expect(back.map((card) => card.position)).toEqual(placed.map((card) => card.position));
    await screenshot(page, 'homes-large-back');
  });
});
