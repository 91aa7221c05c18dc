/**
 * The Homes screen (docs/product.md#homes) at phone and desktop size: the search
 * narrows the list to what the server holds for the query, and a home added
 * and then edited in the sheets shows at once and reaches the server with
 * its residents and phones (stored in E.164; a second resident and phone
 * added, one removed); a home is deleted after a confirmation naming it (one
 * with reports cannot be); the sort choice. axe checks the screen, both
 * sheets and the confirmation.
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
import { waitForWorkerControl } from './pwa-helpers.ts';
import { everyHomeCard, matches, scrollToHomeCard, withPeople } from './homes-helpers.ts';

const env = useScreensApp();

const COUNT = /^Showing (\d+) home\(s\)$/;

async function shownCount(page: Page): Promise<number> {
  const text = await page.getByText(COUNT).innerText();
  return Number(COUNT.exec(text)?.[1]);
}

/** The demo community's homes as the server has them. */
function serverHouses(): Promise<RecordModel[]> {
  return env.app.server.admin
    .collection('houses')
    .getFullList({ filter: env.app.server.admin.filter('community = {:c}', { c: DEMO_COMMUNITY_IDS.primary }) });
}

/** The demo community's homes with their residents and phones, as the search sees them. */
async function serverHomes() {
  const admin = env.app.server.admin;
  const inCommunity = admin.filter('house.community = {:c}', { c: DEMO_COMMUNITY_IDS.primary });
  const [houses, residents, phones] = await Promise.all([
    serverHouses(),
    admin.collection('residents').getFullList({ filter: inCommunity }),
    admin.collection('phones').getFullList({ filter: inCommunity }),
  ]);
  return withPeople(houses, residents, phones);
}

/** A card's heading starts with the street line and the city. */
const headingStart = (house: RecordModel) =>
  `${[house.address, house.apt].filter(Boolean).join(', ')}, ${house.city}, `;

/** Types the query and checks the count and the cards against the server's homes. */
async function expectSearch(page: Page, query: string): Promise<number> {
  const expected = (await serverHomes()).filter((home) => matches(home, query)).map((home) => home.house);
  await page.getByLabel('Search homes').fill(query);
  await expect.poll(() => shownCount(page), { timeout: 5_000 }).toBe(expected.length);
  // Every card of the result, scrolled through: the list draws only those near the screen.
  const headings = await everyHomeCard(page);
  const starts = expected.map(headingStart);
  expect(
    headings
      .map((heading) => starts.find((start) => heading.startsWith(start)) ?? `unexpected card: ${heading}`)
      .sort(),
  ).toEqual([...starts].sort());
  return expected.length;
}

/** The house with this address on the server, with its residents and phones. */
async function serverHome(address: string) {
  const admin = env.app.server.admin;
  const houses = await admin
    .collection('houses')
    .getFullList({ filter: admin.filter('address = {:address}', { address }) });
  const house = houses[0];
  if (!house) return { count: 0, house: null, residents: [] as RecordModel[], phones: [] as RecordModel[] };
  const byHouse = admin.filter('house = {:id}', { id: house.id });
  const [residents, phones] = await Promise.all([
    admin.collection('residents').getFullList({ filter: byHouse }),
    admin.collection('phones').getFullList({ filter: byHouse }),
  ]);
  return { count: houses.length, house, residents, phones };
}

const NEW_HOMES = {
  phone: {
    address: '901 Lagoon Test Way',
    national: '(561) 555-0142',
    e164: '+15615550142',
    second: '(561) 555-0152',
    secondE164: '+15615550152',
  },
  desktop: {
    address: '902 Lagoon Test Way',
    national: '(561) 555-0143',
    e164: '+15615550143',
    second: '(561) 555-0153',
    secondE164: '+15615550153',
  },
} as const;

/** The natural address order (docs/product.md#homes), written again here: street name, then number. */
const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });
function addressKey(heading: string): [string, string] {
  const street = heading.split(', ')[0] ?? '';
  const match = /^(\d\S*)\s+(.*)$/.exec(street);
  return match ? [match[2]!, match[1]!] : [street, ''];
}

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
    // At a desk the first field takes the keys at once; on a phone none does, so no keyboard covers the sheet.
    const addressFocused = () => add.getByLabel('Address').evaluate((input) => input === document.activeElement);
    if (size === 'desktop') await expect.poll(addressFocused).toBe(true);
    else {
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await page.evaluate(() => document.activeElement?.tagName)).not.toMatch(/^(INPUT|SELECT|TEXTAREA)$/);
    }
    await expectNoSeriousA11yViolations(page, 'the Add Home sheet');
    // Empty required fields are refused with the form's messages.
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
    const card = await scrollToHomeCard(page, new RegExp(`^${home.address}, Jupiter`));
    await card.waitFor({ timeout: 2_000 });
    await expect(card.getByRole('list', { name: 'Residents' }).innerText()).resolves.toBe('Avery Testwood');
    expect(await shownCount(page)).toBe(before + 1);

    // Then on the server: the house, its resident, its phone in E.164.
    const saved = await waitUntil(
      'the new home on the server',
      () => serverHome(home.address),
      (h) => h.residents.length > 0 && h.phones.length > 0,
    );
    expect(saved.count).toBe(1);
    expect(saved.house).toMatchObject({
      city: 'Jupiter',
      state: 'FL',
      zip: '33458',
      note: 'Side gate sticks; lift it to latch.',
      community: DEMO_COMMUNITY_IDS.primary,
    });
    expect(saved.residents.map((r) => ({ first_name: r.first_name, last_name: r.last_name }))).toEqual([
      { first_name: 'Avery', last_name: 'Testwood' },
    ]);
    expect(saved.phones.map((p) => ({ phone_number: p.phone_number, type: p.type, primary: p.primary }))).toEqual([
      { phone_number: home.e164, type: 'home', primary: true },
    ]);
    // The card drops its "not sent" mark once the server confirmed it.
    await card.getByText('Not yet sent').waitFor({ state: 'detached', timeout: 10_000 });

    await card.getByRole('button', { name: /^Edit / }).click();
    const update = dialog(page, 'Update Home');
    await update.getByLabel('Address').waitFor();
    // The stored E.164 number reads in the national format.
    await expect(update.getByLabel('Phone number', { exact: true }).inputValue()).resolves.toBe(home.national);
    await expect(update.getByRole('group', { name: 'Resident 1' }).getByLabel('First name').inputValue()).resolves.toBe(
      'Avery',
    );
    await screenshot(page, 'update-home-sheet');
    await expectNoSeriousA11yViolations(page, 'the Update Home sheet');
    await update.getByLabel('Note', { exact: true }).fill('Gate fixed; dog in back yard.');
    await update.getByRole('group', { name: 'Resident 1' }).getByLabel('First name').fill('Morgan');
    // A second resident and a second phone; the second phone becomes the primary and the first is removed.
    await update.getByRole('button', { name: 'Add resident' }).click();
    const second = update.getByRole('group', { name: 'Resident 2' });
    await second.getByLabel('First name').fill('Riley');
    await second.getByLabel('Last name').fill('Testwood');
    await second.getByLabel('Owner').check();
    await update.getByRole('button', { name: 'Add phone' }).click();
    const phone2 = update.getByRole('group', { name: 'Phone 2' });
    await phone2.getByLabel('Phone number', { exact: true }).pressSequentially(home.second.replace(/\D/g, ''));
    await phone2.getByLabel('Type').selectOption('business');
    await phone2.getByLabel('Primary').check();
    await expect(update.getByRole('group', { name: 'Phone 1' }).getByLabel('Primary').isChecked()).resolves.toBe(false);
    await screenshot(page, 'update-home-sheet-rows');
    await update.getByRole('button', { name: 'Remove phone 1' }).click();
    await expect(
      update.getByRole('group', { name: 'Phone 1' }).getByLabel('Phone number', { exact: true }).inputValue(),
    ).resolves.toBe(home.second);
    await expect(update.getByRole('group', { name: 'Phone 2' }).count()).resolves.toBe(0);
    await expectNoSeriousA11yViolations(page, 'the Update Home sheet with two residents');
    await update.getByRole('button', { name: 'Update Home' }).click();
    await expectToast(page, 'Success', 'Home updated');
    await update.waitFor({ state: 'detached' });
    // The live list repaints a moment after the device's copy changed.
    await expect
      .poll(() => card.getByRole('list', { name: 'Residents' }).innerText(), { timeout: 2_000 })
      .toMatch(/^Morgan Testwood\s*Riley Testwood$/);
    await card.getByText('Gate fixed; dog in back yard.').waitFor();

    const edited = await waitUntil(
      'the edit on the server',
      () => serverHome(home.address),
      (h) => h.house?.note === 'Gate fixed; dog in back yard.' && h.residents.length === 2,
    );
    // The first resident updated in place, the second added, the first phone removed, the new one primary: all in one save.
    expect(edited.residents.map((r) => `${r.first_name} ${r.last_name}${r.owner ? ' (owner)' : ''}`).sort()).toEqual([
      'Morgan Testwood',
      'Riley Testwood (owner)',
    ]);
    expect(edited.phones.map((p) => ({ phone_number: p.phone_number, type: p.type, primary: p.primary }))).toEqual([
      { phone_number: home.secondE164, type: 'business', primary: true },
    ]);

    // Opened again, the sheet has both residents and the one phone.
    await card.getByRole('button', { name: /^Edit / }).click();
    const reopened = dialog(page, 'Update Home');
    await reopened.getByRole('group', { name: 'Resident 2' }).waitFor();
    await expect(
      reopened.getByRole('group', { name: 'Resident 2' }).getByLabel('First name').inputValue(),
    ).resolves.toBe('Riley');
    await expect(reopened.getByRole('group', { name: 'Phone 2' }).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await reopened.waitFor({ state: 'detached' });
  });

  test('deleting a home asks first, naming the address, and works offline; a home with reports cannot be deleted', async () => {
    const home = NEW_HOMES[size];
    const saved = await serverHome(home.address);
    expect(saved.house).not.toBeNull();
    const card = await scrollToHomeCard(page, new RegExp(`^${home.address}, Jupiter`));
    const address = (await card.locator('h2').innerText()).trim();

    await card.getByRole('button', { name: `Delete ${address}` }).click();
    const confirm = dialog(page, 'Delete home?');
    await confirm.getByText(address, { exact: true }).waitFor();
    await screenshot(page, 'delete-home');
    await expectNoSeriousA11yViolations(page, 'the Delete home confirmation');
    // Offline, like every home write: the card goes at once, the server hears of it once back online.
    // Lazy screens and dialogs offline come from the worker's precache: wait until it controls the page.
    await waitForWorkerControl(sized.page);
    await sized.context.setOffline(true);
    await page.getByText('You are offline — calls need a connection.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    // Offline, the words say where the deletion is: on this device until the connection is back.
    await expectToast(
      page,
      'Success',
      'Deletion of the home saved on this device; it will be sent when you are back online.',
    );
    await card.waitFor({ state: 'detached', timeout: 2_000 });
    expect((await serverHome(home.address)).count).toBe(1);
    await sized.context.setOffline(false);
    // On the server the home is gone, its residents and phones with it.
    await waitUntil(
      'the home gone from the server',
      () => serverHome(home.address),
      (h) => h.count === 0,
      45_000,
    );
    const admin = env.app.server.admin;
    const leftovers = await admin
      .collection('residents')
      .getFullList({ filter: admin.filter('house = {:id}', { id: saved.house!.id }) });
    expect(leftovers).toHaveLength(0);

    // A demo home with a report of the last days (the mirror holds this month's): the dialog says so and Delete stays off.
    const [recent] = await admin
      .collection('reports')
      .getList(1, 1, {
        filter: admin.filter('community = {:c} && house != ""', { c: DEMO_COMMUNITY_IDS.primary }),
        sort: '-incident_time',
      })
      .then((r) => r.items);
    const withReports = await admin.collection('houses').getOne(recent!.house as string);
    await page.getByLabel('Search homes').fill(withReports.member_number as string);
    const reportedCard = page.getByRole('article').filter({
      has: page.getByRole('heading', {
        name: new RegExp(`^${headingStart(withReports).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      }),
    });
    await reportedCard.getByRole('button', { name: /^Delete / }).click();
    const refused = dialog(page, 'Delete home?');
    await refused.getByText(/^This home has \d+ report\(s\) and cannot be deleted\.$/).waitFor();
    await expect(refused.getByRole('button', { name: 'Delete' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'delete-home-with-reports');
    await refused.getByRole('button', { name: 'Cancel' }).click();
    await refused.waitFor({ state: 'detached' });
    expect((await admin.collection('houses').getOne(withReports.id)).id).toBe(withReports.id);
    await page.getByLabel('Search homes').fill('');
  });

  test('homes sort by street, then number; "House check due first" puts the due ones on top', async () => {
    const total = (await serverHouses()).length;
    await expect.poll(() => shownCount(page)).toBe(total);
    const sort = page.getByLabel('Sort by');
    await expect(sort.inputValue()).resolves.toBe('address');
    const headings = await everyHomeCard(page);
    expect(headings).toHaveLength(total);
    const keys = headings.map(addressKey);
    for (let i = 1; i < keys.length; i++) {
      const [a, b] = [keys[i - 1]!, keys[i]!];
      expect(
        collator.compare(a[0], b[0]) || collator.compare(a[1], b[1]),
        `${headings[i - 1]} before ${headings[i]}`,
      ).toBeLessThanOrEqual(0);
    }

    await sort.selectOption({ label: 'House check due first' });
    // The due homes (their card offers the House check) come first, then the others.
    const dueFlags = () =>
      page
        .locator('article')
        .evaluateAll((cards) =>
          cards.map((card) => [...card.querySelectorAll('button')].some((b) => b.textContent === 'House check')),
        );
    await expect
      .poll(async () => {
        const due = await dueFlags();
        return due.includes(true) && due.lastIndexOf(true) < due.indexOf(false);
      })
      .toBe(true);
    await screenshot(page, 'homes-due-first');
    await sort.selectOption('address');
  });
});
