/**
 * Many devices, one truth: two signed-in devices of one community (an
 * officer's phone that edits offline and a manager's that edits online),
 * each with its own mirror and outbox, writing through src/data/resources/reports.ts
 * as the home form does, against a real PocketBase. An update sends only
 * the changed fields with their base; the server merges field by field and
 * refuses an overtaken field with 409; replay sets the overtaken record
 * aside as a conflict entry and the person settles it.
 */
import '../support/browser-globals.ts';
import Dexie from 'dexie';
import PocketBase, { ClientResponseError } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveConflict, type RecordChoice } from '../../src/data/sync/conflicts.ts';
import { databaseName, DATABASE_VERSION, ScmsDatabase, type OutboxEntry } from '../../src/data/mirror/db.ts';
import { enqueue, outboxEntries } from '../../src/data/sync/outbox.ts';
import { pullAll } from '../../src/data/sync/pull.ts';
import { replayOutbox } from '../../src/data/sync/replay.ts';
import { queueDeleteHome, queueSaveHome, type HomeChanges } from '../../src/data/resources/homes.ts';
import { type SignedInUser } from '../../src/data/auth.ts';
import {
  createCommunity,
  newId,
  raiseSignInLimits,
  startTestServer,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';
import { VERSION_3_STORES } from '../support/published-schemas.ts';

let t: TestServer;
let a: CommunityFixture;
let b: CommunityFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createCommunity(t.admin, 'cf');
  b = await createCommunity(t.admin, 'cg');
  // Every device of these tests signs in: far more often than a person does.
  await raiseSignInLimits(t.admin);
});
afterAll(async () => {
  await t?.stop();
});

interface Device {
  pb: PocketBase;
  db: ScmsDatabase;
  user: SignedInUser;
  /** Brings the mirror up to date (a pull). */
  sync: () => Promise<void>;
  replay: () => ReturnType<typeof replayOutbox>;
  save: (houseId: string, form: HomeChanges) => Promise<string>;
}

async function device(email: string, id: string, f: CommunityFixture = a): Promise<Device> {
  const pb = await t.signIn(email);
  const db = new ScmsDatabase(`${id}-${newId()}`);
  const d: Device = {
    pb,
    db,
    user: { id, community: f.community.id },
    sync: async () => void (await pullAll({ pb, db })),
    replay: () => replayOutbox({ pb, db, owner: 'tab' }),
    save: (houseId, form) => queueSaveHome(db, d.user, form, houseId),
  };
  await d.sync();
  return d;
}

const officer = () => device(a.regular.email, a.regular.id);
const manager = () => device(a.manager.email, a.manager.id);

let serial = 0;
/** A home with one resident and one phone, on the server. */
async function seedHome(f: CommunityFixture = a) {
  const house = await t.admin.collection('houses').create({
    address: `${++serial} Conflict Way`,
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    note: 'Original note',
    security_code: '1111',
    community: f.community.id,
  });
  const resident = await t.admin
    .collection('residents')
    .create({ first_name: 'Yolanda', last_name: 'Vasquez', owner: true, house: house.id });
  const phone = await t.admin
    .collection('phones')
    .create({ phone_number: '+15615550142', type: 'cell', primary: true, house: house.id });
  return { house, resident, phone };
}

const server = (collection: string, id: string) => t.admin.collection(collection).getOne(id);
const conflictsOf = async (d: Device): Promise<OutboxEntry[]> =>
  (await outboxEntries(d.db)).filter((entry) => entry.status === 'conflict');

describe('different fields of one home merge', () => {
  test("the officer's offline note and the manager's security code and resident name all stay", async () => {
    const { house, resident } = await seedHome();
    const o = await officer();
    const m = await manager();
    // The officer edits offline: nothing is sent yet.
    await o.save(house.id, { house: { note: 'Dog in the yard' } });
    // Meanwhile the manager, online, changes other fields.
    await m.save(house.id, {
      house: { security_code: '2222' },
      residents: [{ id: resident.id, first_name: 'Yoli' }],
    });
    expect(await m.replay()).toMatchObject({ outcome: 'done', delivered: 1, parked: 0 });
    // The officer reconnects.
    expect(await o.replay()).toMatchObject({ outcome: 'done', delivered: 1, parked: 0 });
    expect(await server('houses', house.id)).toMatchObject({ note: 'Dog in the yard', security_code: '2222' });
    expect((await server('residents', resident.id)).first_name).toBe('Yoli');
    expect(await outboxEntries(o.db)).toEqual([]);
  });

  test('the update sends only the changed fields with their base', async () => {
    const { house } = await seedHome();
    const o = await officer();
    await o.save(house.id, { house: { note: 'Side gate', address: house.address as string, city: 'Jupiter' } });
    const [entry] = await outboxEntries(o.db);
    expect(entry!.ops).toEqual([
      {
        action: 'update',
        collection: 'houses',
        id: house.id,
        body: { note: 'Side gate' },
        base: { note: 'Original note' },
      },
    ]);
  });

  test('an unchanged form queues nothing', async () => {
    const { house, resident } = await seedHome();
    const o = await officer();
    await o.save(house.id, {
      house: { note: 'Original note' },
      residents: [{ id: resident.id, first_name: 'Yolanda' }],
    });
    expect(await outboxEntries(o.db)).toEqual([]);
  });
});

describe('the same field', () => {
  test('is a conflict: nothing overwritten, the entry set aside with both values and who changed it, the rest goes on', async () => {
    const { house } = await seedHome();
    const o = await officer();
    const m = await manager();
    await o.save(house.id, { house: { note: 'A-text' } });
    // A report queued after the edit must not wait behind the conflict.
    await enqueue(o.db, {
      userId: o.user.id,
      label: 'Report',
      ops: [
        {
          action: 'create',
          collection: 'reports',
          id: newId(),
          body: {
            narative: 'Gate found open',
            type: 'loud_noise',
            weather: 'clear',
            incident_time: new Date().toISOString().replace('T', ' '),
            community: a.community.id,
            created_by: a.regular.id,
          },
        },
      ],
    });
    await m.save(house.id, { house: { note: 'B-text' } });
    await m.replay();

    const result = await o.replay();
    expect(result).toMatchObject({ outcome: 'done', delivered: 1, parked: 1 });
    expect((await server('houses', house.id)).note).toBe('B-text');
    const [conflict, ...others] = await outboxEntries(o.db);
    expect(others).toEqual([]);
    expect(conflict).toMatchObject({ status: 'conflict', label: expect.stringContaining('Update home') });
    expect(conflict!.conflicts).toEqual([
      {
        label: house.address,
        kind: 'changed',
        collection: 'houses',
        id: house.id,
        action: 'update',
        fields: [expect.objectContaining({ field: 'note', base: 'Original note', mine: 'A-text', theirs: 'B-text' })],
      },
    ]);
    expect(conflict!.conflicts![0]!.fields[0]!.byName).toContain('Manager');
    expect(conflict!.conflicts![0]!.fields[0]!.byId).toBe(a.manager.id);
    expect(conflict!.conflicts![0]!.fields[0]!.at).not.toBe('');
    // The officer's screen shows the server's value until they decide.
    expect(await o.db.houses.get(house.id)).toMatchObject({ note: 'B-text' });
    expect((await o.db.houses.get(house.id))?._pending).toBeUndefined();
    // Nothing is sent again for a conflict entry.
    expect(await o.replay()).toMatchObject({ outcome: 'done', delivered: 0, parked: 0 });
  });

  test("'Keep mine' writes the person's value over the current one; the other value stays in the history", async () => {
    const { house } = await seedHome();
    const o = await officer();
    const m = await manager();
    await o.save(house.id, { house: { note: 'A-text' } });
    await m.save(house.id, { house: { note: 'B-text' } });
    await m.replay();
    await o.replay();
    const [conflict] = await conflictsOf(o);
    await resolveConflict(o.db, conflict!.seq!, [{ fields: { note: { keep: 'mine' } } }]);
    const [entry] = await outboxEntries(o.db);
    expect(entry).toMatchObject({ status: 'pending' });
    expect(entry!.ops[0]).toMatchObject({ body: { note: 'A-text' }, base: { note: 'B-text' } });
    expect(await o.db.houses.get(house.id)).toMatchObject({ note: 'A-text', _pending: 1 });
    expect(await o.replay()).toMatchObject({ outcome: 'done', delivered: 1 });
    expect((await server('houses', house.id)).note).toBe('A-text');
    const history = await t.admin.collection('home_changes').getFullList({
      filter: t.admin.filter('record_id = {:id} && field = "note"', { id: house.id }),
      sort: 'created',
    });
    expect(history.map((row) => [row.from_value, row.to_value])).toEqual([
      ['Original note', 'B-text'],
      ['B-text', 'A-text'],
    ]);
  });

  test("'Keep theirs' sends nothing; a merged text goes as the new value", async () => {
    const { house, resident } = await seedHome();
    const o = await officer();
    const m = await manager();
    await o.save(house.id, {
      house: { note: 'A-text', security_code: '3333' },
      residents: [{ id: resident.id, last_name: 'Vasquez-Ortiz' }],
    });
    await m.save(house.id, { house: { note: 'B-text', security_code: '4444' } });
    await m.replay();
    expect(await o.replay()).toMatchObject({ delivered: 1, parked: 0 });
    // The resident's change was not overtaken: it landed with the rest of the entry.
    expect((await server('residents', resident.id)).last_name).toBe('Vasquez-Ortiz');
    const [conflict] = await conflictsOf(o);
    expect(conflict!.conflicts![0]!.fields.map((f) => f.field).sort()).toEqual(['note', 'security_code']);
    const choice: RecordChoice = {
      fields: { note: { keep: 'merged', value: 'A-text and B-text' }, security_code: { keep: 'theirs' } },
    };
    await resolveConflict(o.db, conflict!.seq!, [choice]);
    await o.replay();
    expect(await server('houses', house.id)).toMatchObject({ note: 'A-text and B-text', security_code: '4444' });
    expect(await outboxEntries(o.db)).toEqual([]);
  });

  test('the same value written by both is no conflict', async () => {
    const { house } = await seedHome();
    const o = await officer();
    const m = await manager();
    await o.save(house.id, { house: { note: 'Same words' } });
    await m.save(house.id, { house: { note: 'Same words' } });
    await m.replay();
    expect(await o.replay()).toMatchObject({ outcome: 'done', delivered: 1, parked: 0 });
    expect(await outboxEntries(o.db)).toEqual([]);
  });
});

describe('delete against edit', () => {
  test("a removed phone whose number the manager changed since: refused, kept with the manager's number; 'delete anyway' removes it", async () => {
    const { house, phone } = await seedHome();
    const o = await officer();
    const m = await manager();
    await o.save(house.id, { house: {}, removed: { phones: [phone.id] } });
    expect(await o.db.phones.get(phone.id)).toBeUndefined();
    await m.save(house.id, { house: {}, phones: [{ id: phone.id, phone_number: '+15615550199' }] });
    await m.replay();

    expect(await o.replay()).toMatchObject({ parked: 1 });
    expect((await server('phones', phone.id)).phone_number).toBe('+15615550199');
    const [conflict] = await conflictsOf(o);
    expect(conflict!.conflicts![0]).toMatchObject({
      kind: 'changed',
      action: 'delete',
      collection: 'phones',
      fields: [expect.objectContaining({ field: 'phone_number', mine: null, theirs: '+15615550199' })],
    });
    // Back on the officer's screen, with the manager's number.
    expect(await o.db.phones.get(phone.id)).toMatchObject({ phone_number: '+15615550199' });

    await resolveConflict(o.db, conflict!.seq!, [{ whole: 'mine' }]);
    expect(await o.replay()).toMatchObject({ delivered: 1 });
    await expect(server('phones', phone.id)).rejects.toMatchObject({ status: 404 });
  });

  test('a home the director deleted offline that the manager edited since is kept', async () => {
    const { house } = await seedHome();
    // Only directors delete homes.
    const o = await device(a.director.email, a.director.id);
    const m = await manager();
    await queueDeleteHome(o.db, o.user, { id: house.id, address: house.address as string });
    await m.save(house.id, { house: { note: 'New owners moving in' } });
    await m.replay();
    expect(await o.replay()).toMatchObject({ parked: 1 });
    expect((await server('houses', house.id)).note).toBe('New owners moving in');
    // 'Keep theirs': the home stays, and so does the director's mirror copy.
    const [conflict] = await conflictsOf(o);
    await resolveConflict(o.db, conflict!.seq!, [{ whole: 'theirs' }]);
    expect(await outboxEntries(o.db)).toEqual([]);
    expect(await o.db.houses.get(house.id)).toMatchObject({ note: 'New owners moving in' });
  });
});

describe('an edit of a record deleted since', () => {
  test("is set aside with the person's values; 'Add it again' creates it anew", async () => {
    const { house, resident } = await seedHome();
    const o = await officer();
    const m = await manager();
    await o.save(house.id, { house: { note: 'Resident away' }, residents: [{ id: resident.id, first_name: 'Yoly' }] });
    await m.save(house.id, { house: {}, removed: { residents: [resident.id] } });
    await m.replay();

    expect(await o.replay()).toMatchObject({ delivered: 1, parked: 0 });
    // The house's note was not overtaken: it landed.
    expect((await server('houses', house.id)).note).toBe('Resident away');
    const [conflict] = await conflictsOf(o);
    expect(conflict!.conflicts![0]).toMatchObject({
      kind: 'deleted',
      collection: 'residents',
      id: resident.id,
      fields: [expect.objectContaining({ field: 'first_name', mine: 'Yoly' })],
      record: expect.objectContaining({ first_name: 'Yoly', last_name: 'Vasquez', house: house.id }),
    });
    expect(await o.db.residents.get(resident.id)).toBeUndefined();

    await resolveConflict(o.db, conflict!.seq!, [{ whole: 'mine' }]);
    await o.replay();
    const residents = await t.admin.collection('residents').getFullList({ filter: `house = "${house.id}"` });
    expect(residents.map((r) => `${r.first_name} ${r.last_name}`)).toEqual(['Yoly Vasquez']);
    expect(residents[0]!.id).not.toBe(resident.id);
  });
});

describe('a home created offline and edited before it was sent', () => {
  test('both land, no conflict', async () => {
    const o = await officer();
    const id = await queueSaveHome(o.db, o.user, {
      house: { address: '77 Offline Rd', city: 'Jupiter', state: 'FL', zip: '33458', note: 'First' },
      residents: [{ first_name: 'Ann', last_name: 'Lee', owner: true }],
    });
    await o.save(id, { house: { note: 'Second' } });
    expect(await o.replay()).toMatchObject({ outcome: 'done', delivered: 2, parked: 0 });
    expect((await server('houses', id)).note).toBe('Second');
  });
});

describe('entries queued before writes carried a base', () => {
  test('a whole-record update without a base is applied as it was sent', async () => {
    const { house } = await seedHome();
    const o = await officer();
    const m = await manager();
    await enqueue(o.db, {
      userId: o.user.id,
      label: `Update home: ${String(house.address)}`,
      ops: [
        {
          action: 'update',
          collection: 'houses',
          id: house.id,
          body: {
            address: house.address,
            city: 'Jupiter',
            state: 'FL',
            zip: '33458',
            note: 'Old app',
            security_code: '1111',
          },
        },
      ],
    });
    await m.save(house.id, { house: { note: 'Manager' } });
    await m.replay();
    expect(await o.replay()).toMatchObject({ delivered: 1, parked: 0 });
    expect((await server('houses', house.id)).note).toBe('Old app');
  });
});

describe('a phone that updated the app while work was queued', () => {
  test('a whole-record update queued by the previous version (database version 3) replays after the upgrade, as sent', async () => {
    const { house } = await seedHome();
    const owner = `${a.regular.id}-${newId()}`;
    const previous = new Dexie(databaseName(owner));
    previous.version(3).stores(VERSION_3_STORES);
    await previous.open();
    await previous.table('houses').put({ ...house, note: 'Queued before the update' });
    await previous.table('outbox').add({
      userId: a.regular.id,
      createdAt: new Date().toISOString(),
      label: `Update home: ${String(house.address)}`,
      ops: [
        {
          action: 'update',
          collection: 'houses',
          id: house.id,
          body: {
            address: house.address,
            city: 'Jupiter',
            state: 'FL',
            zip: '33458',
            note: 'Queued before the update',
          },
        },
      ],
      recordKeys: [`houses:${house.id}`],
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
    });
    previous.close();

    const db = new ScmsDatabase(owner);
    const pb = await t.signIn(a.regular.email);
    expect(await replayOutbox({ pb, db, owner: 'tab' })).toMatchObject({ outcome: 'done', delivered: 1, parked: 0 });
    expect((await server('houses', house.id)).note).toBe('Queued before the update');
    expect(await outboxEntries(db)).toEqual([]);
    expect(db.verno).toBe(DATABASE_VERSION);
  });
});

describe('the server enforces it', () => {
  const stale = () => ({ note: 'Late', _base: { note: 'Not what it was' } });

  test('a direct update on a stale base: 409 naming the field, its value now, who and when; nothing written', async () => {
    const { house } = await seedHome();
    const pb = await t.signIn(a.regular.email);
    const error = (await pb
      .collection('houses')
      .update(house.id, stale())
      .catch((e: unknown) => e)) as ClientResponseError;
    expect(error.status).toBe(409);
    expect(error.response.data.note).toMatchObject({
      code: 'validation_conflict',
      params: { base: 'Not what it was', mine: 'Late', theirs: 'Original note' },
    });
    expect((await server('houses', house.id)).note).toBe('Original note');
  });

  test('inside a batch: the whole batch is refused, nothing of it written, the index and the 409 named', async () => {
    const { house, resident } = await seedHome();
    const pb = await t.signIn(a.regular.email);
    const batch = pb.createBatch();
    batch.collection('residents').update(resident.id, { first_name: 'Changed', _base: { first_name: 'Yolanda' } });
    batch.collection('houses').update(house.id, stale());
    const error = (await batch.send().catch((e: unknown) => e)) as ClientResponseError;
    expect(error.status).toBe(400);
    expect(error.response.data.requests['1'].response).toMatchObject({
      status: 409,
      data: { note: { code: 'validation_conflict' } },
    });
    expect((await server('residents', resident.id)).first_name).toBe('Yolanda');
  });

  test('a delete on a stale base: 409, the record stays', async () => {
    const { phone } = await seedHome();
    const pb = await t.signIn(a.regular.email);
    const error = (await pb
      .collection('phones')
      .delete(phone.id, { query: { _base: JSON.stringify({ phone_number: '+15615550000' }) } })
      .catch((e: unknown) => e)) as ClientResponseError;
    expect(error.status).toBe(409);
    expect((await server('phones', phone.id)).phone_number).toBe('+15615550142');
  });

  test.each([
    ['not an object', 'plain text'],
    ['a list', ['note']],
    ['an unknown field', { not_a_field: 'x' }],
    ['a hidden or system field', { updated: '2020-01-01' }],
  ])('a malformed base (%s): 400, nothing written', async (_what, base) => {
    const { house } = await seedHome();
    const pb = await t.signIn(a.regular.email);
    const error = (await pb
      .collection('houses')
      .update(house.id, { note: 'Changed', _base: base })
      .catch((e: unknown) => e)) as ClientResponseError;
    expect(error.status).toBe(400);
    expect((await server('houses', house.id)).note).toBe('Original note');
  });

  test('a malformed delete base: 400, the record stays', async () => {
    const { phone } = await seedHome();
    const pb = await t.signIn(a.regular.email);
    const error = (await pb
      .collection('phones')
      .delete(phone.id, { query: { _base: '{not json' } })
      .catch((e: unknown) => e)) as ClientResponseError;
    expect(error.status).toBe(400);
    expect((await server('phones', phone.id)).id).toBe(phone.id);
  });

  test("another community's home: 404 whatever the base, never a 409 that would tell its values", async () => {
    const { house } = await seedHome(b);
    const pb = await t.signIn(a.regular.email);
    const error = (await pb
      .collection('houses')
      .update(house.id, stale())
      .catch((e: unknown) => e)) as ClientResponseError;
    expect(error.status).toBe(404);
    expect(JSON.stringify(error.response)).not.toContain('Original note');
    expect((await server('houses', house.id)).note).toBe('Original note');
  });

  test('an oversized base is refused and changes nothing', async () => {
    const { house } = await seedHome();
    const pb = await t.signIn(a.regular.email);
    const error = (await pb
      .collection('houses')
      .update(house.id, { note: 'Changed', _base: { note: 'x'.repeat(200_000) } })
      .catch((e: unknown) => e)) as ClientResponseError;
    expect(error.status).toBe(400);
    expect((await server('houses', house.id)).note).toBe('Original note');
  });
});
