/**
 * The Homes screen (spec §2, §4) at phone and desktop size: the search
 * narrows the list to what the server holds for the query, and a home added
 * and then edited in the sheets shows at once and reaches the server with
 * its resident and phone (stored in E.164). axe checks the screen and both
 * sheets.
 */
import type { Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import {
  DEMO_COMMUNITY_IDS,
  dialog,
  expectNoSeriousA11yViolations,
  expectToast,
  screenshot,
  signedInPage,
  SIZE_NAMES,
  useScreensApp,
  waitUntil,
  type SizedPage,
} from './screens-helpers.ts';

const env = useScreensApp();

const COUNT = /^Showing (\d+) home\(s\)$/;

async function shownCount(page: Page): Promise<number> {
  const text = await page.getByText(COUNT).innerText();
  return Number(COUNT.exec(text)?.[1]);
}

/** The demo community's homes as the server has them. */
function serverHouses(): Promise<RecordModel[]> {
  return env.app.server.admin.collection('houses').getFullList({ filter: env.app.server.admin.filter('community = {:c}', { c: DEMO_COMMUNITY_IDS.primary }) });
}

/**
 * The search rule of DESIGN.md, written again here from the text rather
 * than imported from the app: case-insensitive, every word of the query in
 * one of the home's fields.
 */
function matches(house: RecordModel, query: string): boolean {
  const fields = ['address', 'apt', 'city', 'state', 'zip', 'security_code', 'member_number'].map((f) => String(house[f] ?? '').toLowerCase());
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => fields.some((field) => field.includes(word)));
}

/** A card's heading starts with the street line and the city. */
const headingStart = (house: RecordModel) => `${[house.address, house.apt].filter(Boolean).join(', ')}, ${house.city}, `;

/** Types the query and checks the count and the cards against the server's homes. */
async function expectSearch(page: Page, query: string): Promise<number> {
  const expected = (await serverHouses()).filter((house) => matches(house, query));
  await page.getByLabel('Search homes').fill(query);
  await expect.poll(() => shownCount(page), { timeout: 5_000 }).toBe(expected.length);
  const headings = await page.locator('article h2').allInnerTexts();
  const starts = expected.map(headingStart);
  expect(headings.map((heading) => starts.find((start) => heading.startsWith(start)) ?? `unexpected card: ${heading}`).sort()).toEqual([...starts].sort());
  return expected.length;
}

/** The house with this address on the server, with its residents and phones. */
async function serverHome(address: string) {
  const admin = env.app.server.admin;
  const houses = await admin.collection('houses').getFullList({ filter: admin.filter('address = {:address}', { address }) });
  const house = houses[0];
  if (!house) return { count: 0, house: null, residents: [] as RecordModel[], phones: [] as RecordModel[] };
  const byHouse = admin.filter('house = {:id}', { id: house.id });
  const [residents, phones] = await Promise.all([admin.collection('residents').getFullList({ filter: byHouse }), admin.collection('phones').getFullList({ filter: byHouse })]);
  return { count: houses.length, house, residents, phones };
}

const NEW_HOMES = {
  phone: { address: '901 Lagoon Test Way', national: '(561) 555-0142', e164: '+15615550142' },
  desktop: { address: '902 Lagoon Test Way', national: '(561) 555-0143', e164: '+15615550143' },
} as const;

describe.each(SIZE_NAMES)('at %s size', (size) => {
  let sized: SizedPage;
  let page: Page;
  beforeAll(async () => {
    sized = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR);
    page = sized.page;
  });
  afterAll(() => sized?.context.close());

  test('the search narrows "Showing {count} home(s)" to the matching cards', async () => {
    // The whole community once the first pull is in, and nothing of the other community.
    const total = (await serverHouses()).length;
    await expect.poll(() => shownCount(page), { timeout: 15_000 }).toBe(total);
    await expectNoSeriousA11yViolations(page, 'Homes');
    await screenshot(page, 'homes');

    expect(await expectSearch(page, 'egret')).toBeGreaterThan(1);
    // Case does not matter; each word may match a different field (street, zip).
    const both = await expectSearch(page, 'EGRET 33458');
    expect(both).toBeGreaterThan(0);
    expect(both).toBeLessThanOrEqual(5);
    expect(await expectSearch(page, 'pge-1002')).toBe(1);
    // 'Marlin Way' is a street of the other community: only this one's 'Way's show.
    expect(await expectSearch(page, 'way')).toBeGreaterThan(0);
    expect(await expectSearch(page, 'no such street')).toBe(0);
    await expect(page.getByText('No homes found').isVisible()).resolves.toBe(true);

    await page.getByLabel('Search homes').fill('');
    await expect.poll(() => shownCount(page)).toBe(total);
  });

  test('a home added with a resident and a phone shows at once, reaches the server, and an edit follows it', async () => {
    const home = NEW_HOMES[size];
    const before = await shownCount(page);

    await page.getByRole('button', { name: 'Add Home' }).click();
    const add = dialog(page, 'Add Home');
    await add.getByLabel('Address').waitFor();
    await expectNoSeriousA11yViolations(page, 'the Add Home sheet');
    // Empty required fields are refused with the spec's messages.
    await add.getByRole('button', { name: 'Add Home' }).click();
    await add.getByText('Address must be longer than a character').waitFor();
    await expect(add.getByText('City must be at least 1 character long').isVisible()).resolves.toBe(true);
    await expectNoSeriousA11yViolations(page, 'the Add Home sheet with errors');

    await add.getByLabel('Address').fill(home.address);
    await add.getByLabel('City').fill('Jupiter');
    await add.getByLabel('Zip').fill('33458');
    await add.getByLabel('Note', { exact: true }).fill('Side gate sticks; lift it to latch.');
    await add.getByLabel('First name').fill('Avery');
    await add.getByLabel('Last name').fill('Testwood');
    // Typed as a US number without a country code: the default country is US.
    await add.getByLabel('Phone number', { exact: true }).pressSequentially(home.national.replace(/\D/g, ''));
    await expect(add.getByLabel('Phone number', { exact: true }).inputValue()).resolves.toBe(home.national);
    await add.getByLabel('Type').selectOption('home');
    await screenshot(page, 'add-home-sheet');
    await expectNoSeriousA11yViolations(page, 'the filled Add Home sheet');
    await add.getByRole('button', { name: 'Add Home' }).click();

    // At once, from the device's own copy.
    await expectToast(page, 'Success', 'New home added');
    await add.waitFor({ state: 'detached' });
    const card = page.getByRole('article', { name: new RegExp(`^${home.address}, Jupiter`) });
    await card.waitFor({ timeout: 2_000 });
    await expect(card.getByRole('list', { name: 'Residents' }).innerText()).resolves.toBe('Avery Testwood');
    expect(await shownCount(page)).toBe(before + 1);

    // Then on the server: the house, its resident, its phone in E.164.
    const saved = await waitUntil('the new home on the server', () => serverHome(home.address), (h) => h.residents.length > 0 && h.phones.length > 0);
    expect(saved.count).toBe(1);
    expect(saved.house).toMatchObject({ city: 'Jupiter', state: 'FL', zip: '33458', note: 'Side gate sticks; lift it to latch.', community: DEMO_COMMUNITY_IDS.primary });
    expect(saved.residents.map((r) => ({ first_name: r.first_name, last_name: r.last_name }))).toEqual([{ first_name: 'Avery', last_name: 'Testwood' }]);
    expect(saved.phones.map((p) => ({ phone_number: p.phone_number, type: p.type, primary: p.primary }))).toEqual([{ phone_number: home.e164, type: 'home', primary: true }]);
    // The card drops its "not sent" mark once the server confirmed it.
    await card.getByText('Not yet sent').waitFor({ state: 'detached', timeout: 10_000 });

    await card.getByRole('button', { name: /^Edit / }).click();
    const update = dialog(page, 'Update Home');
    await update.getByLabel('Address').waitFor();
    // The stored E.164 number reads in the national format.
    await expect(update.getByLabel('Phone number', { exact: true }).inputValue()).resolves.toBe(home.national);
    await expect(update.getByLabel('First name').inputValue()).resolves.toBe('Avery');
    await screenshot(page, 'update-home-sheet');
    await expectNoSeriousA11yViolations(page, 'the Update Home sheet');
    await update.getByLabel('Note', { exact: true }).fill('Gate fixed; dog in back yard.');
    await update.getByLabel('First name').fill('Morgan');
    await update.getByRole('button', { name: 'Update Home' }).click();
    await expectToast(page, 'Success', 'Home updated');
    await update.waitFor({ state: 'detached' });
    // The live list repaints a moment after the device's copy changed.
    await expect.poll(() => card.getByRole('list', { name: 'Residents' }).innerText(), { timeout: 2_000 }).toBe('Morgan Testwood');
    await card.getByText('Gate fixed; dog in back yard.').waitFor();

    const edited = await waitUntil(
      'the edit on the server',
      () => serverHome(home.address),
      (h) => h.house?.note === 'Gate fixed; dog in back yard.' && h.residents[0]?.first_name === 'Morgan',
    );
    // Updated in place: still one resident and one phone.
    expect(edited.residents.map((r) => `${r.first_name} ${r.last_name}`)).toEqual(['Morgan Testwood']);
    expect(edited.phones.map((p) => p.phone_number)).toEqual([home.e164]);
  });
});
