/**
 * The order of the Homes list (docs/product.md#homes): by street name, then house
 * number, then apt, in natural order ('2 Heron' before '10 Heron', 'Apt 2'
 * before 'Apt 10'); or house checks due first, each group in that address
 * order. Sorting the whole address as text would put '101 Osprey Ln'
 * between two homes of Banyan Cir and Heron Way. The comparison itself is
 * homeSortKey's, which the server shares.
 */
import { isHouseCheckDue, type HouseCheckFields } from './houseCheck.ts';
import { homeSortKey } from './homeSortKey.ts';

export const HOME_ORDERS = ['address', 'house-check-due'] as const;
export type HomeOrder = (typeof HOME_ORDERS)[number];

export const HOME_ORDER_LABELS: Record<HomeOrder, string> = {
  address: 'Address',
  'house-check-due': 'House check due first',
};

export interface OrderedHouseFields extends HouseCheckFields {
  address?: string;
  apt?: string;
  /** homeSortKey's key as the mirror stores it with every home (src/data/mirror/db.ts). */
  sort_key?: string;
}

/** The home's key: the one stored with it, or made now (a home not from the mirror). */
const keyOf = (house: OrderedHouseFields): string => house.sort_key || homeSortKey(house);

export interface HomeKey {
  /** 0 for a home moved up (a house check due), 1 for the others. */
  due: number;
  /** homeSortKey: street, number and apt, comparable as text. */
  key: string;
}

export function compareHomeKeys(x: HomeKey, y: HomeKey): number {
  return x.due - y.due || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);
}

/** A home's key in address order (the search index keeps its homes sorted by it). */
export function homeAddressKey(house: OrderedHouseFields): HomeKey {
  return { due: 1, key: keyOf(house) };
}

/** A sorted copy; `houseOf` picks the house out of a list item. */
export function sortHomes<T>(
  items: readonly T[],
  order: HomeOrder,
  houseOf: (item: T) => OrderedHouseFields,
  now: Date = new Date(),
): T[] {
  // The keys once per item, not once per comparison: lists reach 20,000 homes.
  const keyed = items.map((item) => {
    const house = houseOf(item);
    return {
      item,
      key: { due: order === 'house-check-due' && isHouseCheckDue(house, now) ? 0 : 1, key: keyOf(house) },
    };
  });
  keyed.sort((x, y) => compareHomeKeys(x.key, y.key));
  return keyed.map((k) => k.item);
}

/**
 * A list already in address order, with the house checks due moved to the
 * top (each group keeps its order): what sortHomes(…, 'house-check-due')
 * gives, in one pass instead of a sort of 20,000 homes on every keystroke.
 */
export function dueFirst<T>(items: readonly T[], houseOf: (item: T) => HouseCheckFields, now: Date = new Date()): T[] {
  const due: T[] = [];
  const rest: T[] = [];
  for (const item of items) (isHouseCheckDue(houseOf(item), now) ? due : rest).push(item);
  return due.length === 0 ? [...items] : due.concat(rest);
}
