/**
 * The columns of the Homes table at a desk and their order. Pure, so the
 * rules are tested without a screen.
 *
 * Cost at 20,000 homes: the search index keeps its homes in address
 * order, so the Address column costs nothing to sort (ascending is the
 * search result, descending its reverse). Another column sorts the whole
 * list once per list version (and, for Notices, per minute of the clock),
 * from keys computed once per home object (the index makes a new object
 * when a home changes); a search then puts only its results in that order
 * by rank, a numeric sort of what it found, never a re-sort of every home.
 */
import type { HouseWithPeople } from '../../data/resources/homes.ts';
import { cardCallState, homeNotices, NOTICE_WORDS } from './homeNotices.ts';

export const HOME_COLUMNS = ['address', 'residents', 'phones', 'notices', 'last-call'] as const;
export type HomeColumn = (typeof HOME_COLUMNS)[number];

export const HOME_COLUMN_LABELS: Record<HomeColumn, string> = {
  address: 'Address',
  residents: 'Residents',
  phones: 'Phones',
  notices: 'Notices',
  'last-call': 'Last call',
};

export type SortDirection = 'ascending' | 'descending';

export interface HomeSort {
  column: HomeColumn;
  direction: SortDirection;
}

/** The list's own order: what the cards show. */
export const ADDRESS_ORDER: HomeSort = { column: 'address', direction: 'ascending' };

/** A click on a column's header: the sorted column turns around; another starts ascending. */
export function nextSort(current: HomeSort, column: HomeColumn): HomeSort {
  if (current.column !== column) return { column, direction: 'ascending' };
  return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** The residents' names as the card lists them. */
export function residentNames(residents: HouseWithPeople['residents']): string[] {
  return residents.map((r) => `${r.first_name} ${r.last_name}`.trim()).filter(Boolean);
}

/**
 * A phone number as people read it: US numbers in their national form
 * ('(561) 555-0100'), others as stored (E.164, already international).
 * Written here rather than with libphonenumber (src/ui/format.ts), whose
 * metadata stays out of the Homes screen's first load.
 */
export function phoneWords(value: string): string {
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(value);
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : value;
}

interface SortKeys {
  residents: string;
  phones: string;
  'last-call': string;
}

// Per home object: a changed home is a new object, so its keys are made again; an unchanged one never.
const keysOfHome = new WeakMap<HouseWithPeople, SortKeys>();

function keysOf(home: HouseWithPeople): SortKeys {
  let keys = keysOfHome.get(home);
  if (!keys) {
    keys = {
      residents: residentNames(home.residents).join(', ').toLocaleLowerCase(),
      phones: home.phones.map((p) => p.phone_number).join(' '),
      // PocketBase dates sort as text.
      'last-call': home.latestCall?.created ?? '',
    };
    keysOfHome.set(home, keys);
  }
  return keys;
}

/** The notices as the Notice area words them: homes with the same notices sort together. */
function noticesKey(home: HouseWithPeople, now: Date): string {
  return homeNotices({
    house: home.house,
    phoneCount: home.phones.length,
    call: cardCallState(home.latestCall, undefined),
    now,
  })
    .map((notice) => NOTICE_WORDS[notice])
    .join(', ')
    .toLocaleLowerCase();
}

/** Every home in one column's order, with each home's place in it. */
export interface ColumnOrder {
  sort: HomeSort;
  items: readonly HouseWithPeople[];
  rank: ReadonlyMap<HouseWithPeople, number>;
}

/**
 * Every home of the list (in address order, as the index keeps it) in a
 * column's order. Empty values go last either way; equal values keep the
 * address order. Null for the Address column, which needs no sort.
 */
export function orderHomes(all: readonly HouseWithPeople[], sort: HomeSort, now: Date): ColumnOrder | null {
  if (sort.column === 'address') return null;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const column = sort.column;
  const keys =
    column === 'notices' ? all.map((home) => noticesKey(home, now)) : all.map((home) => keysOf(home)[column]);
  const positions = all.map((_, i) => i);
  positions.sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    if (x === y) return a - b;
    if (x === '') return 1;
    if (y === '') return -1;
    return (x < y ? -1 : 1) * sign || a - b;
  });
  const items = positions.map((i) => all[i]!);
  const rank = new Map<HouseWithPeople, number>();
  items.forEach((home, i) => rank.set(home, i));
  return { sort, items, rank };
}

/**
 * The homes a search found (in address order) in the table's order.
 * `order` is orderHomes() of the whole list for the same sort.
 */
export function sortFound(
  found: readonly HouseWithPeople[],
  all: readonly HouseWithPeople[],
  sort: HomeSort,
  order: ColumnOrder | null,
): readonly HouseWithPeople[] {
  if (sort.column === 'address' || !order) return sort.direction === 'ascending' ? found : [...found].reverse();
  if (found === all) return order.items;
  // A home the whole list does not hold yet (a moment between two versions) goes last.
  const rankOf = (home: HouseWithPeople) => order.rank.get(home) ?? Number.MAX_SAFE_INTEGER;
  return [...found].sort((a, b) => rankOf(a) - rankOf(b));
}
