import '../support/browser-globals.ts';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { pullAll } from '../../src/data/sync/pull.ts';
import { replayOutbox } from '../../src/data/sync/replay.ts';
import { homeReportCount, queueDeleteHome, queueSaveHome } from '../../src/data/resources/homes.ts';
import { queueHouseCheck } from '../../src/data/resources/houseChecks.ts';
import { queueReport } from '../../src/data/resources/reports.ts';
import { type SignedInUser } from '../../src/data/auth.ts';
import {
  HOUSE_CHECK_ISSUES_NARRATIVE,
  HOUSE_CHECK_OK_NARRATIVE,
  isHouseCheckDue,
} from '../../src/domain/houseCheck.ts';
import {
  createCommunity,
  newId,
  startTestServer,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

let t: TestServer;
let a: CommunityFixture;
let officer: PocketBase;
let user: SignedInUser;

beforeAll(async () => {
  t = await startTestServer();
  a = await createCommunity(t.admin, 'w');
  officer = await t.signIn(a.regular.email);
  user = { id: a.regular.id, community: a.community.id };
});
afterAll(async () => {
  await t?.stop();
});

function freshDb(): ScmsDatabase {
  return new ScmsDatabase(`${user.id}-${newId()}`);
}

describe('house check', () => {
  test('shows at once, marks the home checked, and lands on the server as one report and one update', async () => {
    const now = new Date();
    const day = 86_400_000;
    const house = await t.admin.collection('houses').create({
      address: '4 Heron Ct',
      city: 'Jupiter',
      state: 'FL',
      zip: '33458',
      community: a.community.id,
      house_check: true,
      house_check_start_date: new Date(now.getTime() - day).toISOString(),
      house_check_end_date: new Date(now.getTime() + day).toISOString(),
    });
    const resident = await t.admin
      .collection('residents')
      .create({ first_name: 'Ada', last_name: 'Ng', owner: true, house: house.id });
    await t.admin.collection('residents').create({ first_name: 'Bo', last_name: 'Ng', house: house.id });
    const db = freshDb();
    await pullAll({ pb: officer, db });
    expect(isHouseCheckDue((await db.houses.get(house.id))!, now)).toBe(true);

    const reportId = await queueHouseCheck(db, user, house as never, { everythingOk: true }, now);
    // Before any replay: the mirror shows the report and the due notice is gone.
    const local = await db.reports.get(reportId);
    expect(local).toMatchObject({
      type: 'house_check',
      narative: HOUSE_CHECK_OK_NARRATIVE,
      resident: resident.id,
      house: house.id,
      _pending: 1,
    });
    expect(isHouseCheckDue((await db.houses.get(house.id))!, now)).toBe(false);

    const result = await replayOutbox({ pb: officer, db, owner: 'test' });
    expect(result).toMatchObject({ outcome: 'done', delivered: 1, parked: 0 });
    const onServer = await t.admin.collection('reports').getOne(reportId);
    expect(onServer).toMatchObject({
      type: 'house_check',
      weather: 'clear',
      injury: false,
      ems_pbso: false,
      created_by: user.id,
      community: a.community.id,
      resident: resident.id,
    });
    expect(
      new Date((await t.admin.collection('houses').getOne(house.id)).house_check_last_date as string).getTime(),
    ).toBe(Math.floor(now.getTime()));
    expect((await db.reports.get(reportId))?._pending).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
  });

  test('the remark replaces the default narrative; "no" without a remark says issues were found', async () => {
    const house = await t.admin
      .collection('houses')
      .create({ address: '5 Heron Ct', city: 'Jupiter', state: 'FL', zip: '33458', community: a.community.id });
    const db = freshDb();
    await pullAll({ pb: officer, db });
    const withRemark = await queueHouseCheck(db, user, house as never, {
      everythingOk: false,
      remark: '  Side gate unlatched.  ',
    });
    const without = await queueHouseCheck(db, user, house as never, { everythingOk: false });
    await replayOutbox({ pb: officer, db, owner: 'test' });
    expect((await t.admin.collection('reports').getOne(withRemark)).narative).toBe('Side gate unlatched.');
    expect((await t.admin.collection('reports').getOne(without)).narative).toBe(HOUSE_CHECK_ISSUES_NARRATIVE);
  });
});

describe('homes', () => {
  const onServer = async (collection: 'residents' | 'phones', houseId: string) =>
    (await t.admin.collection(collection).getFullList({ filter: `house = "${houseId}"`, sort: 'created' })).map((r) =>
      collection === 'residents'
        ? `${r.first_name} ${r.last_name}${r.owner ? ' (owner)' : ''}`
        : `${r.phone_number} ${r.type}${r.primary ? ' primary' : ''}`,
    );

  test('a home with several residents and phones: added, then one edited, one added, one removed — each save one entry, landing together', async () => {
    const db = freshDb();
    await pullAll({ pb: officer, db });
    const id = await queueSaveHome(db, user, {
      house: { address: '9 Osprey Ln', city: 'Jupiter', state: 'FL', zip: '33477', note: 'Dog' },
      residents: [
        { first_name: 'Cy', last_name: 'Ray', owner: true },
        { first_name: 'Di', last_name: 'Ray', owner: false },
      ],
      phones: [
        { phone_number: '+15615550142', primary: true, type: 'cell' },
        { phone_number: '+15615550143', primary: false, type: 'home' },
      ],
    });
    expect(await db.outbox.count()).toBe(1);
    expect((await db.houses.get(id))?._pending).toBe(1);
    expect(await db.residents.where('house').equals(id).count()).toBe(2);
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ delivered: 1, parked: 0 });
    expect(await onServer('residents', id)).toEqual(['Cy Ray (owner)', 'Di Ray']);
    expect(await onServer('phones', id)).toEqual(['+15615550142 cell primary', '+15615550143 home']);

    const [cy, di] = await db.residents.where('house').equals(id).sortBy('created');
    const [cell, home] = await db.phones.where('house').equals(id).sortBy('created');
    await queueSaveHome(
      db,
      user,
      {
        house: { note: 'Dog, friendly' },
        residents: [
          { id: cy!.id, first_name: 'Cyrus', last_name: 'Ray', owner: true },
          { first_name: 'Eve', last_name: 'Ray', owner: false },
        ],
        phones: [
          { id: cell!.id, phone_number: '+15615550142', primary: false, type: 'cell' },
          { phone_number: '+15615550144', primary: true, type: 'business' },
        ],
        removed: { residents: [di!.id], phones: [home!.id] },
      },
      id,
    );
    const [entry] = await db.outbox.toArray();
    expect(entry?.ops.map((op) => `${op.action} ${op.collection}`)).toEqual([
      'update houses',
      'update residents',
      'create residents',
      'update phones',
      'create phones',
      'delete residents',
      'delete phones',
    ]);
    // The mirror shows the removal at once.
    expect(await db.residents.get(di!.id)).toBeUndefined();
    expect(await db.phones.get(home!.id)).toBeUndefined();
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ delivered: 1, parked: 0 });
    expect((await t.admin.collection('houses').getOne(id)).note).toBe('Dog, friendly');
    expect(await onServer('residents', id)).toEqual(['Cyrus Ray (owner)', 'Eve Ray']);
    expect(await onServer('phones', id)).toEqual(['+15615550142 cell', '+15615550144 business primary']);
  });

  test('the save lands whole or not at all: a bad phone parks it, and nothing of it is on the server', async () => {
    const db = freshDb();
    const house = await t.admin
      .collection('houses')
      .create({ address: '11 Osprey Ln', city: 'Jupiter', state: 'FL', zip: '33477', community: a.community.id });
    const resident = await t.admin
      .collection('residents')
      .create({ first_name: 'Al', last_name: 'Ng', house: house.id });
    await pullAll({ pb: officer, db });
    await queueSaveHome(
      db,
      user,
      {
        house: { note: 'changed' },
        residents: [{ first_name: 'Bea', last_name: 'Ng', owner: false }],
        // Not E.164: the server refuses it.
        phones: [{ phone_number: '5615550100', primary: true, type: 'cell' }],
        removed: { residents: [resident.id] },
      },
      house.id,
    );
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ delivered: 0, parked: 1 });
    expect((await t.admin.collection('houses').getOne(house.id)).note).toBe('');
    expect(await onServer('residents', house.id)).toEqual(['Al Ng']);
    expect(await onServer('phones', house.id)).toEqual([]);
  });

  test('removing a resident or phone someone already deleted counts as done, and the rest of the save still lands', async () => {
    const db = freshDb();
    const house = await t.admin
      .collection('houses')
      .create({ address: '12 Osprey Ln', city: 'Jupiter', state: 'FL', zip: '33477', community: a.community.id });
    const resident = await t.admin
      .collection('residents')
      .create({ first_name: 'Al', last_name: 'Ng', house: house.id });
    const phone = await t.admin
      .collection('phones')
      .create({ phone_number: '+15615550150', primary: true, type: 'cell', house: house.id });
    await pullAll({ pb: officer, db });
    await queueSaveHome(
      db,
      user,
      {
        house: { note: 'sold' },
        residents: [{ first_name: 'Bo', last_name: 'Ek', owner: true }],
        removed: { residents: [resident.id], phones: [phone.id] },
      },
      house.id,
    );
    // A colleague removed the resident meanwhile.
    await t.admin.collection('residents').delete(resident.id);
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ delivered: 1, parked: 0 });
    expect((await t.admin.collection('houses').getOne(house.id)).note).toBe('sold');
    expect(await onServer('residents', house.id)).toEqual(['Bo Ek (owner)']);
    expect(await onServer('phones', house.id)).toEqual([]);
    expect(await db.outbox.count()).toBe(0);

    // A removal-only save whose every delete is gone is done too.
    await queueSaveHome(db, user, { house: {}, removed: { phones: [phone.id] } }, house.id);
    await t.admin.collection('houses').update(house.id, { note: 'x' });
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ delivered: 1, parked: 0 });
  });

  test('a resident without both names and a phone without a number are not written', async () => {
    const db = freshDb();
    const id = await queueSaveHome(db, user, {
      house: { address: '10 Osprey Ln', city: 'Jupiter', state: 'FL', zip: '33477' },
      residents: [{ first_name: 'Only', last_name: ' ', owner: false }],
      phones: [{ phone_number: '  ', primary: false, type: 'cell' }],
    });
    const [entry] = await db.outbox.toArray();
    expect(entry?.ops.map((op) => op.collection)).toEqual(['houses']);
    await replayOutbox({ pb: officer, db, owner: 'test' });
    expect(await t.admin.collection('residents').getFullList({ filter: `house = "${id}"` })).toHaveLength(0);
  });
});

describe('deleting a home', () => {
  let director: PocketBase;
  let directorUser: SignedInUser;
  beforeAll(async () => {
    director = await t.signIn(a.director.email);
    directorUser = { id: a.director.id, community: a.community.id };
  });

  async function homeWithPeople(address: string) {
    const house = await t.admin
      .collection('houses')
      .create({ address, city: 'Jupiter', state: 'FL', zip: '33477', community: a.community.id });
    const resident = await t.admin
      .collection('residents')
      .create({ first_name: 'Al', last_name: 'Ng', house: house.id });
    const phone = await t.admin
      .collection('phones')
      .create({ phone_number: '+15615550160', primary: true, type: 'cell', house: house.id });
    return { house, resident, phone };
  }

  test('hides the home at once; on the server its residents and phones go with it', async () => {
    const { house, resident, phone } = await homeWithPeople('20 Egret Pl');
    const db = freshDb();
    await pullAll({ pb: director, db });
    await queueDeleteHome(db, directorUser, { id: house.id, address: house.address as string });
    expect(await db.houses.get(house.id)).toBeUndefined();
    expect((await db.outbox.toArray())[0]?.label).toBe('Delete home: 20 Egret Pl');
    expect(await replayOutbox({ pb: director, db, owner: 'test' })).toMatchObject({ delivered: 1, parked: 0 });
    for (const [collection, id] of [
      ['houses', house.id],
      ['residents', resident.id],
      ['phones', phone.id],
    ] as const) {
      await expect(t.admin.collection(collection).getOne(id)).rejects.toMatchObject({ status: 404 });
    }
    // A later pull does not bring it back.
    await pullAll({ pb: director, db });
    expect(await db.houses.get(house.id)).toBeUndefined();
  });

  test('a home with reports is refused with the count, parked with that message, and kept whole', async () => {
    const { house, resident } = await homeWithPeople('21 Egret Pl');
    for (const narative of ['Gate open', 'Lights on']) {
      await t.admin.collection('reports').create({
        narative,
        type: 'loud_noise',
        weather: 'clear',
        incident_time: new Date().toISOString(),
        community: a.community.id,
        house: house.id,
        resident: resident.id,
        created_by: a.regular.id,
      });
    }
    const db = freshDb();
    await pullAll({ pb: director, db });
    expect(await homeReportCount(db, house.id)).toBe(2);
    await queueDeleteHome(db, directorUser, { id: house.id, address: house.address as string });
    expect(await replayOutbox({ pb: director, db, owner: 'test' })).toMatchObject({ delivered: 0, parked: 1 });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ status: 'failed', error: 'This home has 2 report(s) and cannot be deleted.' });
    expect((await t.admin.collection('houses').getOne(house.id)).address).toBe('21 Egret Pl');
    expect(await t.admin.collection('residents').getOne(resident.id)).toBeTruthy();
    const reports = await t.admin.collection('reports').getFullList({ filter: `house = "${house.id}"` });
    expect(reports).toHaveLength(2);

    // Straight to the API (and in a batch) the same 400 and message.
    await expect(director.collection('houses').delete(house.id)).rejects.toMatchObject({
      status: 400,
      response: { message: 'This home has 2 report(s) and cannot be deleted.' },
    });
    const batch = director.createBatch();
    batch.collection('houses').delete(house.id);
    await expect(batch.send()).rejects.toMatchObject({ status: 400 });
    expect((await t.admin.collection('houses').getOne(house.id)).id).toBe(house.id);
  });

  test('a home of another community cannot be deleted', async () => {
    const b = await createCommunity(t.admin, 'wb');
    const foreignDirector = await t.signIn(b.director.email);
    const { house, phone } = await homeWithPeople('22 Egret Pl');
    await expect(foreignDirector.collection('houses').delete(house.id)).rejects.toMatchObject({ status: 404 });
    await expect(foreignDirector.collection('phones').delete(phone.id)).rejects.toMatchObject({ status: 404 });
    expect((await t.admin.collection('houses').getOne(house.id)).id).toBe(house.id);
    expect((await t.admin.collection('phones').getOne(phone.id)).id).toBe(phone.id);
  });

  test('a home someone already deleted counts as done; an officer (not a director) is refused and parked', async () => {
    const { house } = await homeWithPeople('23 Egret Pl');
    const db = freshDb();
    await pullAll({ pb: director, db });
    await queueDeleteHome(db, directorUser, { id: house.id, address: house.address as string });
    await t.admin.collection('houses').delete(house.id);
    expect(await replayOutbox({ pb: director, db, owner: 'test' })).toMatchObject({ delivered: 1, parked: 0 });

    const { house: kept } = await homeWithPeople('24 Egret Pl');
    const officerDb = freshDb();
    await pullAll({ pb: officer, db: officerDb });
    await queueDeleteHome(officerDb, user, { id: kept.id, address: kept.address as string });
    expect(await replayOutbox({ pb: officer, db: officerDb, owner: 'test' })).toMatchObject({
      delivered: 0,
      parked: 1,
    });
    expect((await t.admin.collection('houses').getOne(kept.id)).id).toBe(kept.id);
  });
});

describe('reports', () => {
  test('a report with a photo is uploaded with it', async () => {
    const db = freshDb();
    // A 1×1 PNG.
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
      (c) => c.charCodeAt(0),
    );
    const id = await queueReport(db, user, {
      type: 'vehicle_damage',
      weather: 'rainy',
      incidentTime: new Date(),
      narative: 'Mirror broken',
      photos: [new Blob([png], { type: 'image/png' })],
    });
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ delivered: 1 });
    const onServer = await t.admin.collection('reports').getOne(id);
    expect(onServer.photos).toHaveLength(1);
    expect((await db.reports.get(id))?.photos).toEqual(onServer.photos);
  });
});

describe('connectivity comes back', () => {
  test('an entry backing off from an offline attempt waits, unless the replay is for "online again"', async () => {
    const db = freshDb();
    const id = await queueReport(db, user, {
      type: 'loud_noise',
      weather: 'clear',
      incidentTime: new Date(),
      narative: 'Music at 2 am',
    });
    const [entry] = await db.outbox.toArray();
    await db.outbox.update(entry!.seq!, { nextAttemptAt: Date.now() + 60_000, attempts: 1 });
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ outcome: 'waiting', delivered: 0 });
    expect(await replayOutbox({ pb: officer, db, owner: 'test', retryNow: true })).toMatchObject({
      outcome: 'done',
      delivered: 1,
    });
    expect((await t.admin.collection('reports').getOne(id)).narative).toBe('Music at 2 am');
  });
});
