/**
 * Field-level API rules: moving records between communities or houses,
 * user types, report authorship and links, the server-owned pending call
 * ids, and client-chosen record ids. Each "allowed" cell beside a denied one
 * shows that the refusal comes from the field, not from the actor.
 */
import { afterAll, beforeAll, test } from 'vitest';
import { newId, startTestServer, type TestServer } from '../support/pocketbase.ts';
import {
  buildWorld,
  fresh,
  named,
  runCell,
  valid,
  type Actor,
  type Cell,
  type CollectionName,
  type World,
} from '../support/rules-table.ts';

/** Valid data for a new record of A created by `actor`, with some fields replaced. */
const validWith =
  (collection: CollectionName, actor: Actor, change: (w: World) => Record<string, unknown>) => (w: World) => ({
    ...valid(w, collection, actor),
    ...change(w),
  });

const moveCommunity: Cell[] = [
  {
    collection: 'houses',
    op: 'update',
    what: 'community → B',
    actor: 'regular A',
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'houses',
    op: 'update',
    what: 'community → B',
    actor: 'director A',
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'houses',
    op: 'update',
    what: 'community resent unchanged',
    actor: 'regular A',
    body: (w) => ({ community: w.a.community.id, note: 'same community' }),
    expect: 'allowed',
  },
  {
    collection: 'houses',
    op: 'create',
    what: 'in community B',
    actor: 'regular A',
    body: validWith('houses', 'regular A', (w) => ({ community: w.b.community.id })),
    expect: 400,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'community of a regular → B',
    actor: 'director A',
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'community of a regular → B',
    actor: 'director B',
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own community → B',
    actor: 'regular A',
    target: (w) => w.a.regular.id,
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own community → B',
    actor: 'manager A',
    target: (w) => w.a.manager.id,
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own community → B',
    actor: 'director A',
    target: (w) => w.a.director.id,
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'create',
    what: 'in community B',
    actor: 'director A',
    body: validWith('users', 'director A', (w) => ({ community: w.b.community.id })),
    expect: 400,
  },
  {
    collection: 'concerns',
    op: 'update',
    what: 'community → B',
    actor: 'director A',
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'concerns',
    op: 'create',
    what: 'in community B',
    actor: 'director A',
    body: validWith('concerns', 'director A', (w) => ({ community: w.b.community.id })),
    expect: 400,
  },
  {
    collection: 'reports',
    op: 'update',
    what: 'community → B',
    actor: 'director A',
    body: (w) => ({ community: w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'concerns',
    op: 'create',
    what: 'added_by = regular A',
    actor: 'director A',
    body: validWith('concerns', 'director A', (w) => ({ added_by: w.a.regular.id })),
    expect: 400,
  },
  {
    collection: 'concerns',
    op: 'update',
    what: 'added_by → regular A',
    actor: 'director A',
    body: (w) => ({ added_by: w.a.regular.id }),
    expect: 404,
  },
  {
    collection: 'reports',
    op: 'create',
    what: 'in community B',
    actor: 'regular A',
    body: validWith('reports', 'regular A', (w) => ({ community: w.b.community.id, house: '' })),
    expect: 400,
  },
];

// PocketBase applies field modifiers (`field+`, `field-`, `field:autogenerate`) to
// @request.body before the rules run; these cells keep it that way.
const modifiers: Cell[] = [
  {
    collection: 'houses',
    op: 'update',
    what: 'community+ B',
    actor: 'regular A',
    body: (w) => ({ 'community+': w.b.community.id }),
    expect: 404,
  },
  {
    collection: 'residents',
    op: 'update',
    what: 'house+ house of B',
    actor: 'regular A',
    body: (w) => ({ 'house+': w.seed.houseB }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'type+ director',
    actor: 'director A',
    body: () => ({ 'type+': 'director' }),
    expect: 404,
  },
  {
    collection: 'reports',
    op: 'update',
    what: 'created_by+ manager A',
    actor: 'director A',
    body: (w) => ({ 'created_by+': w.a.manager.id }),
    expect: 404,
  },
  {
    collection: 'reports',
    op: 'update',
    what: 'house+ house of B',
    actor: 'director A',
    body: (w) => ({ 'house+': w.seed.houseB }),
    expect: 404,
  },
  {
    collection: 'houses',
    op: 'update',
    what: 'pending_call_concerns_ids:autogenerate',
    actor: 'regular A',
    target: (w) => pendingHouse(w),
    body: () => ({ 'pending_call_concerns_ids:autogenerate': '' }),
    expect: 404,
  },
];

/** A new manager of A (fresh() makes regulars). */
const freshManager = async (w: World) => {
  const id = await fresh(w, 'users');
  await w.t.admin.collection('users').update(id, { type: 'manager' });
  return id;
};

const userTypes: Cell[] = [
  {
    collection: 'users',
    op: 'update',
    what: 'type regular → manager',
    actor: 'director A',
    body: () => ({ type: 'manager' }),
    expect: 'allowed',
  },
  {
    collection: 'users',
    op: 'update',
    what: 'type manager → regular',
    actor: 'director A',
    target: freshManager,
    body: () => ({ type: 'regular' }),
    expect: 'allowed',
  },
  {
    collection: 'users',
    op: 'update',
    what: 'type regular → director (promotion)',
    actor: 'director A',
    body: () => ({ type: 'director' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'type regular → manager',
    actor: 'manager A',
    body: () => ({ type: 'manager' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'type of A regular → manager',
    actor: 'director B',
    body: () => ({ type: 'manager' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own type resent unchanged',
    actor: 'director A',
    target: (w) => w.a.director.id,
    body: () => ({ type: 'director', first_name: 'Director' }),
    expect: 'allowed',
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own first_name',
    actor: 'regular A',
    target: (w) => w.a.regular.id,
    body: () => ({ first_name: 'Renamed' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own first_name',
    actor: 'manager A',
    target: (w) => w.a.manager.id,
    body: () => ({ first_name: 'Renamed' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'create',
    what: 'type manager',
    actor: 'director A',
    body: validWith('users', 'director A', () => ({ type: 'manager' })),
    expect: 'allowed',
  },
  {
    collection: 'users',
    op: 'create',
    what: 'type director',
    actor: 'director A',
    body: validWith('users', 'director A', () => ({ type: 'director' })),
    expect: 400,
  },
  { collection: 'users', op: 'delete', what: 'self', actor: 'director A', target: (w) => w.a.director.id, expect: 404 },
  {
    collection: 'users',
    op: 'delete',
    what: 'director of B',
    actor: 'director A',
    target: (w) => w.b.director.id,
    expect: 404,
  },
  // Own type changes come last: were one wrongly allowed, it would not change the actor for the cells above.
  {
    collection: 'users',
    op: 'update',
    what: 'own type → director',
    actor: 'regular A',
    target: (w) => w.a.regular.id,
    body: () => ({ type: 'director' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own type → manager',
    actor: 'regular A',
    target: (w) => w.a.regular.id,
    body: () => ({ type: 'manager' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own type → director',
    actor: 'manager A',
    target: (w) => w.a.manager.id,
    body: () => ({ type: 'director' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own type → regular',
    actor: 'manager A',
    target: (w) => w.a.manager.id,
    body: () => ({ type: 'regular' }),
    expect: 404,
  },
  {
    collection: 'users',
    op: 'update',
    what: 'own type → manager',
    actor: 'director A',
    target: (w) => w.a.director.id,
    body: () => ({ type: 'manager' }),
    expect: 404,
  },
];

const reports: Cell[] = [
  {
    collection: 'reports',
    op: 'create',
    what: 'created_by = manager A',
    actor: 'regular A',
    body: validWith('reports', 'regular A', (w) => ({ created_by: w.a.manager.id })),
    expect: 400,
  },
  {
    collection: 'reports',
    op: 'create',
    what: 'created_by = regular A',
    actor: 'director A',
    body: validWith('reports', 'director A', (w) => ({ created_by: w.a.regular.id })),
    expect: 400,
  },
  {
    collection: 'reports',
    op: 'create',
    what: 'linking house and resident of A',
    actor: 'regular A',
    body: validWith('reports', 'regular A', (w) => ({ house: w.seed.houseA, resident: w.seed.residentA })),
    expect: 'allowed',
  },
  {
    collection: 'reports',
    op: 'create',
    what: 'linking house of B',
    actor: 'regular A',
    body: validWith('reports', 'regular A', (w) => ({ house: w.seed.houseB })),
    expect: 400,
  },
  {
    collection: 'reports',
    op: 'create',
    what: 'linking resident of B',
    actor: 'regular A',
    body: validWith('reports', 'regular A', (w) => ({ resident: w.seed.residentB })),
    expect: 400,
  },
  {
    collection: 'reports',
    op: 'create',
    what: 'linking house of B',
    actor: 'director A',
    body: validWith('reports', 'director A', (w) => ({ house: w.seed.houseB })),
    expect: 400,
  },
  {
    collection: 'reports',
    op: 'update',
    what: 'created_by → manager A',
    actor: 'director A',
    body: (w) => ({ created_by: w.a.manager.id }),
    expect: 404,
  },
  {
    collection: 'reports',
    op: 'update',
    what: 'linking house of A',
    actor: 'director A',
    body: (w) => ({ house: w.seed.houseA2 }),
    expect: 'allowed',
  },
  {
    collection: 'reports',
    op: 'update',
    what: 'linking house of B',
    actor: 'director A',
    body: (w) => ({ house: w.seed.houseB }),
    expect: 404,
  },
  {
    collection: 'reports',
    op: 'update',
    what: 'linking resident of B',
    actor: 'director A',
    body: (w) => ({ resident: w.seed.residentB }),
    expect: 404,
  },
];

const moveHouse: Cell[] = [
  {
    collection: 'residents',
    op: 'update',
    what: 'house → house of B',
    actor: 'regular A',
    body: (w) => ({ house: w.seed.houseB }),
    expect: 404,
  },
  {
    collection: 'residents',
    op: 'update',
    what: 'house → house of B',
    actor: 'director A',
    body: (w) => ({ house: w.seed.houseB }),
    expect: 404,
  },
  {
    collection: 'residents',
    op: 'update',
    what: 'house → another house of A',
    actor: 'manager A',
    body: (w) => ({ house: w.seed.houseA2 }),
    expect: 404,
  },
  {
    collection: 'residents',
    op: 'update',
    what: 'house resent unchanged',
    actor: 'regular A',
    body: (w) => ({ house: w.seed.houseA, first_name: 'Same' }),
    expect: 'allowed',
  },
  {
    collection: 'residents',
    op: 'update',
    what: 'B resident → house of A',
    actor: 'director B',
    target: (w) => w.seed.residentB,
    body: (w) => ({ house: w.seed.houseA }),
    expect: 404,
  },
  {
    collection: 'residents',
    op: 'create',
    what: 'in house of B',
    actor: 'regular A',
    body: validWith('residents', 'regular A', (w) => ({ house: w.seed.houseB })),
    expect: 400,
  },
  {
    collection: 'phones',
    op: 'update',
    what: 'house → house of B',
    actor: 'regular A',
    body: (w) => ({ house: w.seed.houseB }),
    expect: 404,
  },
  {
    collection: 'phones',
    op: 'update',
    what: 'house → house of B',
    actor: 'director A',
    body: (w) => ({ house: w.seed.houseB }),
    expect: 404,
  },
  {
    collection: 'phones',
    op: 'update',
    what: 'house → another house of A',
    actor: 'manager A',
    body: (w) => ({ house: w.seed.houseA2 }),
    expect: 404,
  },
  {
    collection: 'phones',
    op: 'update',
    what: 'house resent unchanged',
    actor: 'regular A',
    body: (w) => ({ house: w.seed.houseA, primary: false }),
    expect: 'allowed',
  },
  {
    collection: 'phones',
    op: 'update',
    what: 'B phone → house of A',
    actor: 'director B',
    target: (w) => w.seed.phoneB,
    body: (w) => ({ house: w.seed.houseA }),
    expect: 404,
  },
  {
    collection: 'phones',
    op: 'create',
    what: 'in house of B',
    actor: 'regular A',
    body: validWith('phones', 'regular A', (w) => ({ house: w.seed.houseB })),
    expect: 400,
  },
];

/** A house of A whose call is pending, as the call routes leave it. */
const pendingHouse = async (w: World) => {
  const id = await fresh(w, 'houses');
  await w.t.admin.collection('houses').update(id, { pending_call_concerns_ids: w.seed.concernA });
  return id;
};

const pendingIds: Cell[] = [
  {
    collection: 'houses',
    op: 'create',
    what: 'with pending_call_concerns_ids',
    actor: 'regular A',
    body: validWith('houses', 'regular A', (w) => ({ pending_call_concerns_ids: w.seed.concernA })),
    expect: 400,
  },
  {
    collection: 'houses',
    op: 'create',
    what: 'with pending_call_concerns_ids',
    actor: 'director A',
    body: validWith('houses', 'director A', (w) => ({ pending_call_concerns_ids: w.seed.concernA })),
    expect: 400,
  },
  {
    collection: 'houses',
    op: 'create',
    what: 'with empty pending_call_concerns_ids',
    actor: 'manager A',
    body: validWith('houses', 'manager A', () => ({ pending_call_concerns_ids: '' })),
    expect: 'allowed',
  },
  {
    collection: 'houses',
    op: 'update',
    what: 'setting pending_call_concerns_ids',
    actor: 'regular A',
    body: (w) => ({ pending_call_concerns_ids: w.seed.concernA }),
    expect: 404,
  },
  {
    collection: 'houses',
    op: 'update',
    what: 'setting pending_call_concerns_ids',
    actor: 'director A',
    body: (w) => ({ pending_call_concerns_ids: w.seed.concernA }),
    expect: 404,
  },
  {
    collection: 'houses',
    op: 'update',
    what: 'clearing pending_call_concerns_ids',
    actor: 'manager A',
    target: pendingHouse,
    body: () => ({ pending_call_concerns_ids: '' }),
    expect: 404,
  },
  {
    collection: 'houses',
    op: 'update',
    what: 'pending_call_concerns_ids resent unchanged',
    actor: 'regular A',
    target: pendingHouse,
    body: (w) => ({ pending_call_concerns_ids: w.seed.concernA, note: 'same pending ids' }),
    expect: 'allowed',
  },
];

/** A second create with an existing id: the record of A that the cell must leave untouched. */
const existingOf: Partial<Record<CollectionName, (w: World) => string>> = {
  users: (w) => w.a.regular.id,
  houses: (w) => w.seed.houseA,
  residents: (w) => w.seed.residentA,
  phones: (w) => w.seed.phoneA,
  concerns: (w) => w.seed.concernA,
  reports: (w) => w.seed.reportA,
};

const MALFORMED_IDS: [string, () => string][] = [
  ['14 characters', () => newId().slice(0, 14)],
  ['16 characters', () => `${newId()}x`],
  ['upper case', () => `${newId().slice(0, 14)}Q`],
  ['an underscore', () => `${newId().slice(0, 14)}_`],
  ['a dash', () => `${newId().slice(0, 14)}-`],
];

const ids: Cell[] = (Object.keys(existingOf) as CollectionName[]).flatMap((collection): Cell[] => {
  // The director may create in every one of these collections, so the id alone decides.
  const withId = (id: (w: World) => string) => validWith(collection, 'director A', (w) => ({ id: id(w) }));
  const existing = existingOf[collection]!;
  return [
    {
      collection,
      op: 'create',
      what: 'with a client-chosen id',
      actor: 'director A',
      body: withId(() => newId()),
      expect: 'allowed',
    },
    {
      collection,
      op: 'create',
      what: 'with an id already used',
      actor: 'director A',
      body: withId(existing),
      expect: 400,
    },
    ...MALFORMED_IDS.map(([what, id]): Cell => ({
      collection,
      op: 'create',
      what: `with an id of ${what}`,
      actor: 'director A',
      body: withId(id),
      expect: 400,
    })),
  ];
});
ids.push({
  collection: 'houses',
  op: 'create',
  what: 'in community B with the id of a house of A',
  actor: 'director B',
  body: (w) => ({ ...valid(w, 'houses', 'director B'), community: w.b.community.id, id: w.seed.houseA }),
  expect: 400,
});

let t: TestServer;
let w: World;
beforeAll(async () => {
  t = await startTestServer();
  w = await buildWorld(t);
});
afterAll(async () => {
  await t?.stop();
});

test.each(named([...moveCommunity, ...reports, ...moveHouse, ...pendingIds, ...modifiers, ...ids, ...userTypes]))(
  '%s',
  async (_name, cell) => {
    await runCell(w, cell);
  },
);
