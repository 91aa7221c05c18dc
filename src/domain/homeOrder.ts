/**
 * The order of the Homes list (docs/product.md#homes): by street name, then house
 * number, then apt, in natural order ('2 Heron' before '10 Heron', 'Apt 2'
 * before 'Apt 10'); or house checks due first, each group in that address
 * order. Sorting the whole address as text would put '101 Osprey Ln'
 * between two homes of Banyan Cir and Heron Way.
 */
import { isHouseCheckDue, type HouseCheckFields } from './houseCheck.ts';

export const HOME_ORDERS = ['address', 'house-check-due'] as const;
export type HomeOrder = (typeof HOME_ORDERS)[number];

export const HOME_ORDER_LABELS: Record<HomeOrder, string> = {
  address: 'Address',
  'house-check-due': 'House check due first',
};

export interface OrderedHouseFields extends HouseCheckFields {
  address?: string;
  apt?: string;
}

// Case and accents do not matter; digit runs compare as numbers.
const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });

/**
 * '101 Banyan Cir' → number '101', street 'Banyan Cir'. The number is the
 * leading token when it starts with a digit ('12B', '1200-4'); an address
 * without one is all street.
 */
export function splitAddress(address: string): { street: string; number: string } {
  const match = /^\s*(\d[^\s,]*),?\s+(.+)$/.exec(address);
  return match ? { number: match[1]!, street: match[2]!.trim() } : { number: '', street: address.trim() };
}

export interface HomeKey {
  due: number;
  street: string;
  number: string;
  apt: string;
}

export function compareHomeKeys(x: HomeKey, y: HomeKey): number {
  return (
    x.due - y.due ||
    collator.compare(x.street, y.street) ||
    collator.compare(x.number, y.number) ||
    collator.compare(x.apt, y.apt)
  );
}

/** A home's key in address order (the search index keeps its homes sorted by it). */
export function homeAddressKey(house: OrderedHouseFields): HomeKey {
  const { street, number } = splitAddress(house.address ?? '');
  return { due: 1, street, number, apt: house.apt ?? '' };
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
    const { street, number } = splitAddress(house.address ?? '');
    return {
      item,
      key: {
        due: order === 'house-check-due' && isHouseCheckDue(house, now) ? 0 : 1,
        street,
        number,
        apt: house.apt ?? '',
      },
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
