// @vitest-environment jsdom
/**
 * The Homes table at a desk: the columns' order (homeColumns.ts: empty
 * values last, equal values in address order, a search's results in the
 * whole list's order, sort keys made once per home) and the table itself
 * over a real (fake-indexeddb) mirror: its columns, aria-sort, a header
 * click, the search, the row's buttons; below `lg` the cards.
 */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, startOfDay } from 'date-fns';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { pb } from '../../src/api/client.ts';
import type { PhoneRecord, ResidentRecord } from '../../src/api/records.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import type { LatestCallRow } from '../../src/data/mirror/latestCalls.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import type { HouseWithPeople } from '../../src/data/resources/homes.ts';
import { HomesPage } from '../../src/features/homes/HomesPage.tsx';
import {
  ADDRESS_ORDER,
  nextSort,
  orderHomes,
  phoneWords,
  sortFound,
  type HomeSort,
} from '../../src/features/homes/homeColumns.ts';
import { ToastProvider } from '../../src/ui/toast.tsx';
import { houseRecord, STAMP } from '../support/records.ts';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

const resident = (house: string, first: string, last: string, n = 1): ResidentRecord => ({
  id: `r${n}-${house}`,
  created: STAMP,
  updated: STAMP,
  first_name: first,
  last_name: last,
  owner: n === 1,
  house,
});
const phone = (house: string, number: string): PhoneRecord => ({
  id: `p-${house}`,
  created: STAMP,
  updated: STAMP,
  phone_number: number,
  primary: true,
  type: 'cell',
  house,
});
const lastCall = (house: string, created: string): LatestCallRow => ({
  id: house,
  call: `call-${house}`,
  created,
  status: 'completed',
  progress: 'done',
  outcome: 'voicemail',
  acknowledged: false,
});

const today = startOfDay(new Date());
const due = {
  house_check: true,
  house_check_start_date: pbDate(addDays(today, -1)),
  house_check_end_date: pbDate(addDays(today, 2)),
};

/** Five homes in address order (as the search index keeps them). */
function fiveHomes(): HouseWithPeople[] {
  const home = (id: string, address: string, extra: Partial<HouseWithPeople> = {}): HouseWithPeople => ({
    house: houseRecord({ id, address }),
    residents: [],
    phones: [],
    ...extra,
  });
  return [
    home('a', '1 Anchor Ct', { residents: [resident('a', 'Zoe', 'Young')], phones: [phone('a', '+15615550300')] }),
    home('b', '2 Anchor Ct', { residents: [resident('b', 'ann', 'Lee')], latestCall: lastCall('b', STAMP) }),
    home('c', '3 Anchor Ct', {
      house: houseRecord({ id: 'c', address: '3 Anchor Ct', ...due }),
      phones: [phone('c', '+15615550100')],
      latestCall: lastCall('c', '2026-02-01 00:00:00.000Z'),
    }),
    home('d', '4 Anchor Ct', { residents: [resident('d', 'Ann', 'Lee')], phones: [phone('d', '+445550100')] }),
    home('e', '5 Anchor Ct', { residents: [resident('e', 'Bob', 'Cole')], phones: [phone('e', '+15615550200')] }),
  ];
}

const ids = (homes: readonly HouseWithPeople[]) => homes.map((h) => h.house.id).join('');

function ordered(all: HouseWithPeople[], sort: HomeSort, found: HouseWithPeople[] = all) {
  return ids(sortFound(found, all, sort, orderHomes(all, sort, new Date())));
}

describe('the order of the columns', () => {
  test('a header click sorts ascending; the same again turns it around', () => {
    expect(nextSort(ADDRESS_ORDER, 'residents')).toEqual({ column: 'residents', direction: 'ascending' });
    expect(nextSort({ column: 'residents', direction: 'ascending' }, 'residents')).toEqual({
      column: 'residents',
      direction: 'descending',
    });
    expect(nextSort({ column: 'residents', direction: 'descending' }, 'residents').direction).toBe('ascending');
    expect(nextSort({ column: 'residents', direction: 'descending' }, 'phones').direction).toBe('ascending');
  });

  test('each column: empty values last either way, equal values (case aside) in address order', () => {
    const all = fiveHomes();
    expect(ordered(all, ADDRESS_ORDER)).toBe('abcde');
    expect(ordered(all, { column: 'address', direction: 'descending' })).toBe('edcba');
    // 'ann Lee' and 'Ann Lee' are equal: b before d, as their addresses.
    expect(ordered(all, { column: 'residents', direction: 'ascending' })).toBe('bdeac');
    expect(ordered(all, { column: 'residents', direction: 'descending' })).toBe('aebdc');
    expect(ordered(all, { column: 'phones', direction: 'ascending' })).toBe('ceadb');
    expect(ordered(all, { column: 'phones', direction: 'descending' })).toBe('daecb');
    expect(ordered(all, { column: 'last-call', direction: 'ascending' })).toBe('bcade');
    expect(ordered(all, { column: 'last-call', direction: 'descending' })).toBe('cbade');
    // Notices by their words: 'house check' (c), 'primary phone number missing' (b); none last.
    expect(ordered(all, { column: 'notices', direction: 'ascending' })).toBe('cbade');
    expect(ordered(all, { column: 'notices', direction: 'descending' })).toBe('bcade');
  });

  test("a search's results take the whole list's order", () => {
    const all = fiveHomes();
    const found = [all[0]!, all[2]!, all[4]!];
    expect(ordered(all, { column: 'residents', direction: 'ascending' }, found)).toBe('eac');
    expect(ordered(all, { column: 'residents', direction: 'descending' }, found)).toBe('aec');
    expect(ordered(all, { column: 'address', direction: 'descending' }, found)).toBe('eca');
    // Unsorted, the search result is shown as it is: no copy.
    expect(sortFound(found, all, ADDRESS_ORDER, null)).toBe(found);
  });

  test("a home's sort keys are made once, not per sort or per comparison", () => {
    let reads = 0;
    const all = Array.from({ length: 2_000 }, (_, i) => {
      const residents = [resident(`h${i}`, `First${(i * 7919) % 2_000}`, 'Last')];
      const home = {
        house: houseRecord({ id: `h${i}` }),
        phones: [],
        latestCall: undefined,
      } as unknown as HouseWithPeople;
      Object.defineProperty(home, 'residents', {
        get: () => {
          reads++;
          return residents;
        },
      });
      return home;
    });
    const ascending = orderHomes(all, { column: 'residents', direction: 'ascending' }, new Date());
    expect(reads).toBe(all.length);
    const descending = orderHomes(all, { column: 'residents', direction: 'descending' }, new Date());
    sortFound(all.slice(0, 500), all, { column: 'residents', direction: 'descending' }, descending);
    expect(reads).toBe(all.length);
    expect(ascending!.items[0]!.house.id).toBe(descending!.items.at(-1)!.house.id);
  });

  test('US numbers read in their national form; others as stored', () => {
    expect(phoneWords('+15615550100')).toBe('(561) 555-0100');
    expect(phoneWords('+445550100')).toBe('+445550100');
  });
});

/** jsdom has no layout: a window as wide as a desk's (or a phone's) for the media queries. */
function windowWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    return {
      matches: min ? width >= Number(min[1]) : false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
  });
}

let db: ScmsDatabase;
let dbCount = 0;

beforeEach(async () => {
  // The view choice is in local storage, beside the sign-in.
  localStorage.clear();
  // A director: the rows offer Delete too.
  pb.authStore.save('token', {
    id: 'u1',
    community: 'c1',
    type: 'director',
    collectionId: 'users',
    collectionName: 'users',
  });
  db = new ScmsDatabase(`homes-table-test-${++dbCount}`);
  const status = { online: true, syncing: false, authRequired: false, lastError: null };
  engine.current = { db, subscribe: () => () => undefined, getStatus: () => status };
  const homes = fiveHomes();
  await db.houses.bulkPut(homes.map((h) => h.house));
  await db.residents.bulkPut(homes.flatMap((h) => h.residents));
  await db.phones.bulkPut(homes.flatMap((h) => h.phones));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  db.close();
});

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/homes']}>
      <ToastProvider>
        <HomesPage />
      </ToastProvider>
    </MemoryRouter>,
  );
}

const streets = () =>
  screen
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent)
    .join(' | ');

describe('the table at a desk', () => {
  test('columns, aria-sort, a header click, the search and the row buttons', async () => {
    windowWidth(1280);
    const user = userEvent.setup();
    renderPage();
    const table = await screen.findByRole('table', { name: 'Homes' });
    await screen.findByText('Showing 5 home(s)');
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    // The table's headers sort; the select is for the cards.
    expect(screen.queryByLabelText('Sort by')).toBeNull();
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent?.replace(/[▲▼↕]/g, ''))).toEqual([
      'Address',
      'Residents',
      'Phones',
      'Notices',
      'Last call',
      'Actions',
    ]);
    expect(headers.map((h) => h.getAttribute('aria-sort'))).toEqual(['ascending', null, null, null, null, null]);
    expect(table.getAttribute('aria-rowcount')).toBe('6');
    expect(streets()).toBe('1 Anchor Ct | 2 Anchor Ct | 3 Anchor Ct | 4 Anchor Ct | 5 Anchor Ct');

    // A row: the card's words and buttons, named for its home.
    const row = screen.getByRole('row', { name: /^3 Anchor Ct/ });
    expect(within(row).getByText('(561) 555-0100')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'House check' })).toBeTruthy();
    for (const name of [
      'History of 3 Anchor Ct',
      'Call resident of 3 Anchor Ct',
      'Edit 3 Anchor Ct',
      'Delete 3 Anchor Ct',
    ])
      expect(within(row).getByRole('button', { name: new RegExp(`^${name}, `) }).tagName).toBe('BUTTON');
    expect(
      within(screen.getByRole('row', { name: /^2 Anchor Ct/ })).getByText('Primary phone number missing'),
    ).toBeTruthy();
    // Without a phone, Call is off with the card's reason.
    const noPhone = within(screen.getByRole('row', { name: /^2 Anchor Ct/ })).getByRole('button', {
      name: /^Call resident/,
    }) as HTMLButtonElement;
    expect(noPhone.disabled).toBe(true);
    expect(noPhone.getAttribute('aria-description')).toBe('No phone number to call: add one with Edit.');

    await user.click(within(headers[1]!).getByRole('button', { name: /Residents/ }));
    expect(headers[1]!.getAttribute('aria-sort')).toBe('ascending');
    expect(headers[0]!.getAttribute('aria-sort')).toBeNull();
    expect(streets()).toBe('2 Anchor Ct | 4 Anchor Ct | 5 Anchor Ct | 1 Anchor Ct | 3 Anchor Ct');
    await user.click(within(headers[1]!).getByRole('button', { name: /Residents/ }));
    expect(headers[1]!.getAttribute('aria-sort')).toBe('descending');
    expect(streets()).toBe('1 Anchor Ct | 5 Anchor Ct | 2 Anchor Ct | 4 Anchor Ct | 3 Anchor Ct');

    // The same search as the cards; the order stays.
    await user.type(screen.getByPlaceholderText('Search homes...'), 'lee');
    await screen.findByText('Showing 2 home(s)');
    expect(streets()).toBe('2 Anchor Ct | 4 Anchor Ct');
    await user.clear(screen.getByPlaceholderText('Search homes...'));
    await user.type(screen.getByPlaceholderText('Search homes...'), 'nowhere');
    expect(await screen.findByText('No homes found')).toBeTruthy();
  }, 20_000);

  test('a row buttons open what the card opens: Edit opens Update Home with that home', async () => {
    windowWidth(1280);
    const user = userEvent.setup();
    renderPage();
    const row = await screen.findByRole('row', { name: /^4 Anchor Ct/ });
    await user.click(within(row).getByRole('button', { name: /^Edit 4 Anchor Ct/ }));
    // The sheet's part loads when first opened.
    const sheet = await screen.findByRole('dialog', { name: 'Update Home' }, { timeout: 10_000 });
    expect((within(sheet).getByLabelText('Address') as HTMLInputElement).value).toBe('4 Anchor Ct');
  }, 20_000);

  test("'Cards' at a desk shows the cards and is kept; below lg there is no table and no choice", async () => {
    windowWidth(1280);
    const user = userEvent.setup();
    const first = renderPage();
    await screen.findByRole('table', { name: 'Homes' });
    await user.click(within(screen.getByRole('group', { name: 'View' })).getByRole('button', { name: 'Cards' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(5));
    expect(screen.queryByRole('table')).toBeNull();
    first.unmount();
    renderPage();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(5));
    cleanup();

    windowWidth(390);
    localStorage.removeItem('scms.homes-view');
    renderPage();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(5));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('group', { name: 'View' })).toBeNull();
    expect(screen.getByLabelText('Sort by')).toBeTruthy();
    await act(async () => undefined);
  }, 20_000);
});
