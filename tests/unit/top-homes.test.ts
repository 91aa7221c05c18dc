/**
 * What the Homes screen shows while its search index loads: the top of the
 * list straight from the mirror, in the index's own order (by sort key),
 * each home with its residents and phones oldest first and its newest call,
 * exactly as the index would give them.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { searchIndexOf } from '../../src/data/mirror/searchIndex.ts';
import { topHomes } from '../../src/data/resources/homes.ts';

let db: ScmsDatabase;
beforeEach(async () => {
  db = new ScmsDatabase(`top-homes-${Date.now()}-${Math.random()}`);
  await db.open();
});
afterEach(() => db.close());

const id = (prefix: string, n: number) => `${prefix}${String(n).padStart(15 - prefix.length, '0')}`;

test('the first homes in address order with their people and newest call, as the search index lists them', async () => {
  const streets = ['Heron Way', 'banyan cir', 'Osprey Ln', 'Oak', 'Oak Hill'];
  const houses = Array.from({ length: 40 }, (_, n) => ({
    id: id('h', n),
    address: `${(n * 37) % 101} ${streets[n % streets.length]}`,
    apt: n % 4 === 0 ? `Apt ${n % 11}` : '',
    city: 'Jupiter',
    community: 'c1',
    created: '2026-11-01 10:00:00.000Z',
  }));
  await db.houses.bulkPut(houses as never);
  await db.residents.bulkPut(
    houses.flatMap((h, n) => [
      { id: id('r', 2 * n), house: h.id, first_name: 'B', last_name: 'Later', created: '2026-11-02 10:00:00.000Z' },
      { id: id('r', 2 * n + 1), house: h.id, first_name: 'A', last_name: 'First', created: '2026-11-01 10:00:00.000Z' },
    ]) as never,
  );
  await db.phones.bulkPut(
    houses.map((h, n) => ({ id: id('p', n), house: h.id, phone_number: `+1561555${1000 + n}`, created: '' })) as never,
  );
  await db.latest_calls.put({ id: houses[3]!.id, call: id('c', 1), status: 'completed' } as never);

  const top = await topHomes(db, 12);
  const index = searchIndexOf(db);
  await index.ready('homes');
  const listed = index.homes.search('').slice(0, 12);
  expect(top.map((h) => h.house.id)).toEqual(listed.map((h) => h.house.id));
  expect(top.map((h) => h.residents.map((r) => r.last_name))).toEqual(top.map(() => ['First', 'Later']));
  expect(top).toEqual(listed);
  expect(top.find((h) => h.house.id === houses[3]!.id)?.latestCall ?? null).toEqual(
    listed.find((h) => h.house.id === houses[3]!.id)?.latestCall ?? null,
  );
  index.dispose();
});
