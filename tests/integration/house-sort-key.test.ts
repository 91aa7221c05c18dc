/**
 * The server keeps every home's place in the Homes list (`sort_key`, from
 * the app's own rule, src/domain/homeSortKey.ts) on every save, whoever
 * saves and whatever a request sends; homes saved before the field existed
 * get it at start without a new `updated`. A new phone's first request,
 * the top of the list with its residents and phones (topOfHomes.ts), holds
 * exactly what the record API lets each user list, in the order the app
 * shows.
 */
import '../support/browser-globals.ts';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensurePocketBase } from '../../scripts/pocketbase/install.ts';
import { hooksDir, migrationsDir } from '../../scripts/pocketbase/server.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { pullAll, RequestSlots } from '../../src/data/sync/pull.ts';
import { hasTopOfHomes, loadTopOfHomes, TOP_OF_HOMES } from '../../src/data/sync/topOfHomes.ts';
import { sortHomes } from '../../src/domain/homeOrder.ts';
import { homeSortKey } from '../../src/domain/homeSortKey.ts';
import { createInBatches } from '../support/batches.ts';
import {
  createCommunity,
  newId,
  startTestServer,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

const MIGRATION = '1765400000_house_sort_key.js';

let t: TestServer;
let a: CommunityFixture;
let b: CommunityFixture;

const STREETS = ['Heron Way', 'banyan cir', 'Cañón Ct', 'Osprey Ln', 'Oak', 'Oak Hill'];
/** Homes in a shuffled order of creation, with numbers and apts that sort differently as text. */
function homes(community: string, count: number, tag: string) {
  return Array.from({ length: count }, (_, i) => {
    const n = (i * 7919) % count;
    return {
      id: newId(),
      address: `${(n % 23) * 7 + 1} ${STREETS[n % STREETS.length]} ${tag}`,
      apt: n % 5 === 0 ? `Apt ${n % 12}` : '',
      city: 'Jupiter',
      state: 'FL',
      zip: '33458',
      community,
    };
  });
}

beforeAll(async () => {
  t = await startTestServer();
  a = await createCommunity(t.admin, 'a');
  b = await createCommunity(t.admin, 'b');
  await createInBatches(t.admin, 'houses', homes(a.community.id, 130, ''));
  // Another community's homes sort before all of community a's.
  await createInBatches(
    t.admin,
    'houses',
    homes(b.community.id, 40, '').map((h) => ({ ...h, address: `1 Aaa ${h.address}` })),
  );
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

const sortedLikeTheApp = (houses: RecordModel[]) => sortHomes(houses, 'address', (h) => h as never).map((h) => h.id);

describe('the server keeps the key', () => {
  test('on a create, an update and a batch, whatever the request sent', async () => {
    const manager = await t.signIn(a.manager.email);
    const created = await manager
      .collection('houses')
      .create({ ...homes(a.community.id, 1, 'Forged')[0], sort_key: '!!! first' });
    expect(created.sort_key).toBe(homeSortKey(created as never));
    const moved = await manager
      .collection('houses')
      .update(created.id, { address: '12 Zebra Rd', apt: 'Apt 9', sort_key: '' });
    expect(moved.sort_key).toBe(homeSortKey({ address: '12 Zebra Rd', apt: 'Apt 9' }));
    const batch = manager.createBatch();
    const [one] = homes(a.community.id, 1, 'Batch');
    batch.collection('houses').create({ ...one, sort_key: 'x' });
    await batch.send();
    const stored = await t.admin.collection('houses').getOne(one!.id);
    expect(stored.sort_key).toBe(homeSortKey(stored as never));
    for (const id of [created.id, one!.id]) await t.admin.collection('houses').delete(id);
  });

  test('homes saved before the field existed get it at start; their updated stays', async () => {
    const list = () =>
      t.admin.collection('houses').getFullList({ filter: `community = "${a.community.id}"`, sort: 'id' });
    const before = await list();
    await t.server.stop();
    // Back to the version before the field: down every migration from this one on (a later one may exist).
    const count = readdirSync(migrationsDir).filter((file) => file.endsWith('.js') && file >= MIGRATION).length;
    const folders = [`--dir=${t.dataDir}`, `--migrationsDir=${migrationsDir}`, `--hooksDir=${hooksDir}`];
    execFileSync(await ensurePocketBase(), ['migrate', 'down', String(count), ...folders], {
      input: 'y\n',
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    await t.restart();
    const after = await list();
    expect(after.map((h) => [h.id, h.updated, h.sort_key])).toEqual(
      before.map((h) => [h.id, h.updated, homeSortKey(h as never)]),
    );
  }, 120_000);
});

describe('the top of the Homes list', () => {
  let everyHomeOfA: RecordModel[];
  beforeAll(async () => {
    everyHomeOfA = await t.admin.collection('houses').getFullList({ filter: `community = "${a.community.id}"` });
    // Residents and phones for some homes of both communities.
    const people = (houses: RecordModel[]) =>
      houses.flatMap((h, i) =>
        i % 2 === 0 ? [{ id: newId(), first_name: 'Ana', last_name: `R${i}`, owner: true, house: h.id }] : [],
      );
    const phones = (houses: RecordModel[]) =>
      houses.map((h, i) => ({
        id: newId(),
        phone_number: `+1561555${String(1000 + i)}`,
        primary: true,
        type: 'cell',
        house: h.id,
      }));
    const everyHomeOfB = await t.admin.collection('houses').getFullList({ filter: `community = "${b.community.id}"` });
    await createInBatches(t.admin, 'residents', people([...everyHomeOfA, ...everyHomeOfB]));
    await createInBatches(t.admin, 'phones', phones([...everyHomeOfA, ...everyHomeOfB]));
  }, 60_000);

  for (const type of ['director', 'manager', 'regular'] as const) {
    test(`a ${type}: the first ${TOP_OF_HOMES} homes of their own community in the app's order, with exactly their people`, async () => {
      const user = await t.signIn(a[type].email);
      const db = new ScmsDatabase(`${a[type].id}-${newId()}`);
      const tops: boolean[] = [];
      const count = await loadTopOfHomes({ pb: user, db, onTopOfHomes: () => tops.push(true) }, new RequestSlots(6));
      expect(count).toBe(TOP_OF_HOMES);
      expect(tops).toEqual([true]);
      expect(await hasTopOfHomes(db)).toBe(true);
      const expected = sortedLikeTheApp(everyHomeOfA).slice(0, TOP_OF_HOMES);
      expect(sortedLikeTheApp((await db.houses.toArray()) as never)).toEqual(expected);
      const residentsOf = await t.admin
        .collection('residents')
        .getFullList({ filter: expected.map((id) => `house = "${id}"`).join(' || ') });
      const phonesOf = await t.admin
        .collection('phones')
        .getFullList({ filter: expected.map((id) => `house = "${id}"`).join(' || ') });
      expect((await db.residents.toArray()).map((r) => r.id).sort()).toEqual(residentsOf.map((r) => r.id).sort());
      expect((await db.phones.toArray()).map((p) => p.id).sort()).toEqual(phonesOf.map((p) => p.id).sort());
      expect(phonesOf.length).toBe(TOP_OF_HOMES);
      db.close();
    });
  }

  test('a user of another community gets their own homes only', async () => {
    const user = await t.signIn(b.regular.email);
    const db = new ScmsDatabase(`${b.regular.id}-${newId()}`);
    expect(await loadTopOfHomes({ pb: user, db }, new RequestSlots(6))).toBe(40);
    expect(await db.houses.where('community').notEqual(b.community.id).count()).toBe(0);
    expect(await db.houses.count()).toBe(40);
    db.close();
  });

  test('a first sync loads the top first, then every home; the next sync does not ask for it again', async () => {
    const officer: PocketBase = await t.signIn(a.regular.email);
    const db = new ScmsDatabase(`${a.regular.id}-${newId()}`);
    const seen: number[] = [];
    const counts = await pullAll({ pb: officer, db, onTopOfHomes: async () => seen.push(await db.houses.count()) });
    expect(seen).toHaveLength(1);
    expect(counts.houses).toBe(everyHomeOfA.length);
    expect(await db.houses.count()).toBe(everyHomeOfA.length);
    await pullAll({ pb: officer, db, onTopOfHomes: () => seen.push(-1) });
    expect(seen).toHaveLength(1);
    db.close();
  });
});
