/**
 * The Homes table at a desk, in Chromium against a real PocketBase: at
 * 1280x800 the homes are a dense table showing fifteen homes and more on
 * the first screen, with the card's actions as real buttons in each row;
 * a click on a column's header sorts by it (aria-sort says how), the
 * search narrows the table and keeps its order; offline it still lists
 * the homes from the mirror; 'Cards' brings the cards back. At 390x844 the
 * phone still shows its cards. axe checks the table.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addDays, format } from 'date-fns';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { sortHomes } from '../../src/domain/homeOrder.ts';
import { buildBenchData, type Row } from '../bench/data.ts';
import { createInBatches } from '../support/batches.ts';
import { expectNoSeriousA11yViolations, screenshotsOf, SIZES } from '../support/journey.ts';
import { openedDialog } from './screens-helpers.ts';
import {
  createCommunity,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';
import { matches, withPeople, type SearchedHome } from './homes-helpers.ts';
import { distDir, signedInUserId, signIn, waitForFirstSync } from './pwa-helpers.ts';

const HOMES = 300;
const screenshot = screenshotsOf('homes-desk');

let server: TestServer;
let browser: Browser;
let fixture: CommunityFixture;
/** Every home with its residents and phones, in the app's address order. */
let ordered: SearchedHome[];

/** PocketBase's date text of a day from today. */
const day = (offset: number) => `${format(addDays(new Date(), offset), 'yyyy-MM-dd')} 12:00:00.000Z`;

beforeAll(async () => {
  server = await startTestServer({}, { publicDir: distDir });
  browser = await launchChromium();
  fixture = await createCommunity(server.admin, 'desk-homes');
  const data = buildBenchData(new Date());
  // Some homes with a house check due (a notice and its button), some without residents or phones (empty cells).
  const houses: Row[] = data.houses.slice(0, HOMES).map((house, i) => ({
    ...house,
    community: fixture.community.id,
    ...(i % 5 === 0 ? { house_check: true, house_check_start_date: day(-1), house_check_end_date: day(3) } : {}),
  }));
  const ids = new Set(houses.map((h) => h.id));
  const bare = new Set(houses.filter((_, i) => i % 9 === 4).map((h) => h.id));
  // One resident a home: the order of two created in the same batch is not the test's to know.
  const seen = new Set<unknown>();
  const residents = data.residents.filter((r) => {
    const keep = ids.has(r.house as string) && !bare.has(r.house as string) && !seen.has(r.house);
    seen.add(r.house);
    return keep;
  });
  const phones = data.phones.filter((p) => ids.has(p.house as string) && !bare.has(p.house as string));
  await createInBatches(server.admin, 'houses', houses);
  await createInBatches(server.admin, 'residents', residents);
  await createInBatches(server.admin, 'phones', phones);
  const people = new Map(withPeople(houses, residents, phones).map((home) => [home.house.id, home]));
  ordered = sortHomes(houses, 'address', (h) => ({
    address: h.address as string,
    apt: h.apt as string,
    house_check: false,
  })).map((house) => people.get(house.id)!);
  // Calls to the 2nd, 3rd and 4th homes, one after another (the server sets `created`): the newest is the 4th's.
  for (const [i, outcome] of [
    [1, 'voicemail'],
    [2, 'busy'],
    [3, 'no_answer'],
  ] as const) {
    await server.admin.collection('calls').create({
      house: ordered[i]!.house.id,
      community: fixture.community.id,
      concerns: [],
      to_number: '+15615550102',
      script: 'Hello.',
      status: 'completed',
      progress: 'done',
      outcome,
      acknowledged: false,
      created_by: fixture.director.id,
    });
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The street line a row shows: address and apt. */
const street = ({ house }: SearchedHome) => [house.address, house.apt].filter(Boolean).join(', ');

/**
 * The residents column's order, written again from the rule rather than
 * taken from the app: names as shown, case aside; homes without residents
 * last either way; equal names keep the address order.
 */
function byResidents(homes: SearchedHome[], direction: 'ascending' | 'descending'): SearchedHome[] {
  const key = (home: SearchedHome) =>
    home.residents
      .map((r) => `${String(r.first_name)} ${String(r.last_name)}`.trim())
      .join(', ')
      .toLowerCase();
  const sign = direction === 'ascending' ? 1 : -1;
  return homes
    .map((home, i) => ({ home, i, key: key(home) }))
    .sort((a, b) => {
      if (a.key === b.key) return a.i - b.i;
      if (a.key === '') return 1;
      if (b.key === '') return -1;
      return (a.key < b.key ? -sign : sign) || a.i - b.i;
    })
    .map(({ home }) => home);
}

const COUNT = /^Showing (\d+) home\(s\)$/;

async function shownCount(page: Page): Promise<number> {
  return Number(COUNT.exec(await page.getByText(COUNT).innerText())?.[1]);
}

/**
 * The table's body rows wholly on screen (below the top bar and the
 * table's sticky header, above the window's bottom), in order: their
 * street line and how their buttons lie.
 */
function rowsOnScreen(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector('[role="table"][aria-label="Homes"]');
    const header = table?.querySelector('[role="row"][aria-rowindex="1"]')?.getBoundingClientRect();
    const top = Math.max(header?.bottom ?? 0, document.querySelector('nav')?.getBoundingClientRect().bottom ?? 0);
    return [...(table?.querySelectorAll('[role="rowgroup"] [role="row"]:not([aria-rowindex="1"])') ?? [])]
      .filter((row) => {
        const box = row.getBoundingClientRect();
        return box.height > 0 && box.top >= top - 1 && box.bottom <= window.innerHeight;
      })
      .map((row) => {
        const box = row.getBoundingClientRect();
        const buttons = [...row.querySelectorAll('button')].map((button) => {
          const b = button.getBoundingClientRect();
          return {
            name: button.getAttribute('aria-label') ?? button.textContent ?? '',
            inside: b.left >= box.left && b.right <= box.right && b.right <= window.innerWidth && b.width > 0,
          };
        });
        return {
          street: row.querySelector('[role="rowheader"] span')?.textContent ?? '',
          index: Number(row.getAttribute('aria-rowindex')),
          height: box.height,
          buttons,
        };
      });
  });
}

const sortOf = (page: Page, name: string) =>
  page.getByRole('columnheader', { name: new RegExp(`^${name}`) }).getAttribute('aria-sort');

async function signedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, server.url, { email: fixture.director.email, password: TEST_PASSWORD });
  await waitForFirstSync(page, await signedInUserId(page));
  return page;
}

describe('at a desk (1280x800)', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: SIZES.desktop });
    context.setDefaultTimeout(10_000);
    page = await signedIn(context);
  }, 120_000);
  afterAll(() => context?.close());

  test('a table of fifteen homes and more, in address order, each row with its actions as buttons', async () => {
    await expect.poll(() => shownCount(page), { timeout: 30_000 }).toBe(HOMES);
    await page.getByRole('table', { name: 'Homes' }).waitFor();
    expect(await page.getByRole('article').count()).toBe(0);
    for (const column of ['Address', 'Residents', 'Phones', 'Notices', 'Last call', 'Actions'])
      await page.getByRole('columnheader', { name: new RegExp(`^${column}`) }).waitFor();
    expect(await sortOf(page, 'Address')).toBe('ascending');

    const rows = await rowsOnScreen(page);
    console.log(`Homes table at 1280x800: ${rows.length} whole rows on the first screen, ${rows[0]?.height} px each`);
    expect(rows.length, JSON.stringify(rows.map((r) => r.street))).toBeGreaterThanOrEqual(15);
    expect(rows.map((r) => r.street)).toEqual(ordered.slice(0, rows.length).map(street));
    // The header row is 1; the body counts on from 2.
    expect(rows[0]!.index).toBe(2);
    expect(await page.getByRole('table', { name: 'Homes' }).getAttribute('aria-rowcount')).toBe(String(HOMES + 1));
    // Every row: History, Call, Edit and (a director) Delete, named for its home, whole inside the row and the window.
    for (const row of rows) {
      const names = row.buttons.map((b) => b.name);
      for (const action of ['History of ', 'Call resident of ', 'Edit ', 'Delete '])
        expect(
          names.some((name) => name.startsWith(`${action}${row.street}`)),
          JSON.stringify(row),
        ).toBe(true);
      expect(
        row.buttons.every((b) => b.inside),
        JSON.stringify(row),
      ).toBe(true);
    }
    // The notices of a home with a house check due: its button opens the House Check dialog, as on the card.
    const due = ordered.findIndex((home) => home.house.house_check === true);
    expect(due).toBeGreaterThanOrEqual(0);
    const dueRow = page.getByRole('row', { name: new RegExp(`^${street(ordered[due]!)}`) });
    await dueRow.scrollIntoViewIfNeeded();
    await dueRow.getByRole('button', { name: 'House check' }).click();
    const check = await openedDialog(page, 'House Check');
    await page.keyboard.press('Escape');
    await check.waitFor({ state: 'detached' });
    // Edit opens Update Home with the row's home.
    const first = page.getByRole('row', { name: new RegExp(`^${street(ordered[0]!)}`) });
    await first.getByRole('button', { name: /^Edit / }).click();
    const sheet = await openedDialog(page, 'Update Home');
    expect(await sheet.getByLabel('Address').inputValue()).toBe(ordered[0]!.house.address);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    // Scrolled: the headers stay, right under the top bar.
    await page.evaluate(() => window.scrollTo(0, 2_000));
    await expect
      .poll(() =>
        page.evaluate(() =>
          Math.round(
            (document.querySelector('[role="row"][aria-rowindex="1"]')?.getBoundingClientRect().top ?? 0) -
              (document.querySelector('nav')?.getBoundingClientRect().bottom ?? 0),
          ),
        ),
      )
      .toBe(0);
    await screenshot(page, 'scrolled');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'first-screen');
    await expectNoSeriousA11yViolations(page, 'Homes table');
  });

  test('a click on a header sorts by its column, again turns it around; the search keeps the order', async () => {
    await page
      .getByRole('columnheader', { name: /^Residents/ })
      .getByRole('button')
      .click();
    await expect.poll(() => sortOf(page, 'Residents')).toBe('ascending');
    expect(await sortOf(page, 'Address')).toBeNull();
    let rows = await rowsOnScreen(page);
    expect(rows.map((r) => r.street)).toEqual(byResidents(ordered, 'ascending').slice(0, rows.length).map(street));

    await page
      .getByRole('columnheader', { name: /^Residents/ })
      .getByRole('button')
      .click();
    await expect.poll(() => sortOf(page, 'Residents')).toBe('descending');
    rows = await rowsOnScreen(page);
    expect(rows.map((r) => r.street)).toEqual(byResidents(ordered, 'descending').slice(0, rows.length).map(street));
    await screenshot(page, 'residents-descending');

    // A street's name: the count is exact and the rows are the homes found, still by residents, descending.
    const query = String(ordered[0]!.house.address).split(' ')[1]!;
    const found = ordered.filter((home) => matches(home, query));
    await page.getByLabel('Search homes').fill(query);
    await expect.poll(() => shownCount(page), { timeout: 5_000 }).toBe(found.length);
    rows = await rowsOnScreen(page);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.street)).toEqual(byResidents(found, 'descending').slice(0, rows.length).map(street));
    expect(await sortOf(page, 'Residents')).toBe('descending');
    await page.getByLabel('Search homes').fill('');
    await expect.poll(() => shownCount(page), { timeout: 5_000 }).toBe(HOMES);

    // Last call, newest first: the 4th home's, then the 3rd's, then the 2nd's; the homes never called after them.
    await page
      .getByRole('columnheader', { name: /^Last call/ })
      .getByRole('button')
      .click();
    await page
      .getByRole('columnheader', { name: /^Last call/ })
      .getByRole('button')
      .click();
    await expect.poll(() => sortOf(page, 'Last call')).toBe('descending');
    rows = await rowsOnScreen(page);
    const called = [3, 2, 1].map((i) => ordered[i]!);
    const never = ordered.filter((home) => !called.includes(home));
    expect(rows.map((r) => r.street)).toEqual([...called, ...never].slice(0, rows.length).map(street));
    // The state as the card words it, with the way to the home's calls.
    const lastCall = page.getByRole('row', { name: new RegExp(`^${street(ordered[3]!)}`) });
    await lastCall.getByText('No answer', { exact: true }).waitFor();
    await lastCall.getByRole('button', { name: `Call history of ${street(ordered[3]!)}`, exact: false }).waitFor();
    await screenshot(page, 'last-call-descending');

    // Back to the address order.
    await page
      .getByRole('columnheader', { name: /^Address/ })
      .getByRole('button')
      .click();
    await expect.poll(() => sortOf(page, 'Address')).toBe('ascending');
    rows = await rowsOnScreen(page);
    expect(rows.map((r) => r.street)).toEqual(ordered.slice(0, rows.length).map(street));
  });

  test('offline the table still lists the homes from the mirror, with Call off and the reason', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await context.setOffline(true);
    try {
      await page.getByText('You are offline — calls need a connection.').first().waitFor();
      expect(await shownCount(page)).toBe(HOMES);
      const call = page.getByRole('row', { name: new RegExp(`^${street(ordered[0]!)}`) }).getByRole('button', {
        name: /^Call resident of /,
      });
      expect(await call.isDisabled()).toBe(true);
      expect(await call.getAttribute('aria-description')).toBe('You are offline — calls need a connection.');
    } finally {
      await context.setOffline(false);
    }
  });

  test("'Cards' shows the cards at a desk too, kept across a reload; 'Table' goes back", async () => {
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Cards' }).click();
    await page.getByRole('article').first().waitFor();
    expect(await page.getByRole('table', { name: 'Homes' }).count()).toBe(0);
    await page.reload();
    await page.getByRole('article').first().waitFor();
    const table = page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Table' });
    expect(await table.getAttribute('aria-pressed')).toBe('false');
    await table.click();
    await page.getByRole('table', { name: 'Homes' }).waitFor();
    expect(await page.getByRole('article').count()).toBe(0);
  });
});

describe('on a phone (390x844)', () => {
  test('the homes are cards, as before: no table and no view choice', async () => {
    const context = await browser.newContext({ viewport: SIZES.phone });
    context.setDefaultTimeout(10_000);
    try {
      const page = await signedIn(context);
      await expect.poll(() => shownCount(page), { timeout: 30_000 }).toBe(HOMES);
      await page.getByRole('article').first().waitFor();
      expect(await page.getByRole('article').first().getAttribute('aria-label')).toMatch(
        new RegExp(`^${street(ordered[0]!)}, `),
      );
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await page.getByRole('group', { name: 'View' }).count()).toBe(0);
      expect(await page.getByLabel('Sort by').count()).toBe(1);
      await screenshot(page, 'cards');
    } finally {
      await context.close();
    }
  });
});
