import '../support/browser-globals.ts';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/db.ts';
import { pullAll } from '../../src/data/pull.ts';
import { replayOutbox } from '../../src/data/replay.ts';
import { queueHouseCheck, queueReport, queueSaveHome, type SignedInUser } from '../../src/data/writes.ts';
import { HOUSE_CHECK_ISSUES_NARRATIVE, HOUSE_CHECK_OK_NARRATIVE, isHouseCheckDue } from '../../src/domain/houseCheck.ts';
import { createCommunity, newId, startTestServer, type CommunityFixture, type TestServer } from '../support/pocketbase.ts';

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
afterAll(async () => { await t?.stop(); });

function freshDb(): ScmsDatabase {
  return new ScmsDatabase(`${user.id}-${newId()}`);
}

describe('house check', () => {
  test('shows at once, marks the home checked, and lands on the server as one report and one update', async () => {
    const now = new Date();
    const day = 86_400_000;
    const house = await t.admin.collection('houses').create({
      address: '4 Heron Ct', city: 'Jupiter', state: 'FL', zip: '33458', community: a.community.id,
      house_check: true, house_check_start_date: new Date(now.getTime() - day).toISOString(), house_check_end_date: new Date(now.getTime() + day).toISOString(),
    });
    const resident = await t.admin.collection('residents').create({ first_name: 'Ada', last_name: 'Ng', owner: true, house: house.id });
    await t.admin.collection('residents').create({ first_name: 'Bo', last_name: 'Ng', house: house.id });
    const db = freshDb();
    await pullAll({ pb: officer, db });
    expect(isHouseCheckDue((await db.houses.get(house.id))!, now)).toBe(true);

    const reportId = await queueHouseCheck(db, user, house as never, { everythingOk: true }, now);
    // Before any replay: the mirror shows the report and the due notice is gone.
    const local = await db.reports.get(reportId);
    expect(local).toMatchObject({ type: 'house_check', narative: HOUSE_CHECK_OK_NARRATIVE, resident: resident.id, house: house.id, _pending: 1 });
    expect(isHouseCheckDue((await db.houses.get(house.id))!, now)).toBe(false);

    const result = await replayOutbox({ pb: officer, db, owner: 'test' });
    expect(result).toMatchObject({ outcome: 'done', delivered: 1, parked: 0 });
    const onServer = await t.admin.collection('reports').getOne(reportId);
    expect(onServer).toMatchObject({ type: 'house_check', weather: 'clear', injury: false, ems_pbso: false, created_by: user.id, community: a.community.id, resident: resident.id });
    expect(new Date((await t.admin.collection('houses').getOne(house.id)).house_check_last_date as string).getTime()).toBe(Math.floor(now.getTime()));
    expect((await db.reports.get(reportId))?._pending).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
  });

  test('the remark replaces the default narrative; "no" without a remark says issues were found', async () => {
    const house = await t.admin.collection('houses').create({ address: '5 Heron Ct', city: 'Jupiter', state: 'FL', zip: '33458', community: a.community.id });
    const db = freshDb();
    await pullAll({ pb: officer, db });
    const withRemark = await queueHouseCheck(db, user, house as never, { everythingOk: false, remark: '  Side gate unlatched.  ' });
    const without = await queueHouseCheck(db, user, house as never, { everythingOk: false });
    await replayOutbox({ pb: officer, db, owner: 'test' });
    expect((await t.admin.collection('reports').getOne(withRemark)).narative).toBe('Side gate unlatched.');
    expect((await t.admin.collection('reports').getOne(without)).narative).toBe(HOUSE_CHECK_ISSUES_NARRATIVE);
  });
});

describe('homes', () => {
  test('adding a home with a resident and a phone, then updating them, edits the first ones', async () => {
    const db = freshDb();
    await pullAll({ pb: officer, db });
    const id = await queueSaveHome(db, user, {
      house: { address: '9 Osprey Ln', city: 'Jupiter', state: 'FL', zip: '33477', note: 'Dog' },
      resident: { first_name: 'Cy', last_name: 'Ray', owner: true },
      phone: { phone_number: '+15615550142', primary: true, type: 'cell' },
    });
    expect((await db.houses.get(id))?._pending).toBe(1);
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ delivered: 1 });
    const residents = await t.admin.collection('residents').getFullList({ filter: `house = "${id}"` });
    const phones = await t.admin.collection('phones').getFullList({ filter: `house = "${id}"` });
    expect(residents.map((r) => r.first_name)).toEqual(['Cy']);
    expect(phones.map((p) => p.phone_number)).toEqual(['+15615550142']);

    await queueSaveHome(db, user, {
      house: { note: 'Dog, friendly' },
      resident: { first_name: 'Cyrus', last_name: 'Ray', owner: true },
      phone: { phone_number: '+15615550143', primary: true, type: 'home' },
    }, id);
    await replayOutbox({ pb: officer, db, owner: 'test' });
    expect((await t.admin.collection('houses').getOne(id)).note).toBe('Dog, friendly');
    expect((await t.admin.collection('residents').getFullList({ filter: `house = "${id}"` })).map((r) => r.first_name)).toEqual(['Cyrus']);
    expect((await t.admin.collection('phones').getFullList({ filter: `house = "${id}"` })).map((p) => p.phone_number)).toEqual(['+15615550143']);
  });

  test('a resident without both names and a phone without a number are not written', async () => {
    const db = freshDb();
    const id = await queueSaveHome(db, user, {
      house: { address: '10 Osprey Ln', city: 'Jupiter', state: 'FL', zip: '33477' },
      resident: { first_name: 'Only', last_name: ' ', owner: false },
      phone: { phone_number: '  ', primary: false, type: 'cell' },
    });
    const [entry] = await db.outbox.toArray();
    expect(entry?.ops.map((op) => op.collection)).toEqual(['houses']);
    await replayOutbox({ pb: officer, db, owner: 'test' });
    expect(await t.admin.collection('residents').getFullList({ filter: `house = "${id}"` })).toHaveLength(0);
  });
});

describe('reports', () => {
  test('a report with a photo is uploaded with it', async () => {
    const db = freshDb();
    // A 1×1 PNG.
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
    const id = await queueReport(db, user, { type: 'vehicle_damage', weather: 'rainy', incidentTime: new Date(), narative: 'Mirror broken', photos: [new Blob([png], { type: 'image/png' })] });
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ delivered: 1 });
    const onServer = await t.admin.collection('reports').getOne(id);
    expect(onServer.photos).toHaveLength(1);
    expect((await db.reports.get(id))?.photos).toEqual(onServer.photos);
  });
});

describe('connectivity comes back', () => {
  test('an entry backing off from an offline attempt waits, unless the replay is for "online again"', async () => {
    const db = freshDb();
    const id = await queueReport(db, user, { type: 'loud_noise', weather: 'clear', incidentTime: new Date(), narative: 'Music at 2 am' });
    const [entry] = await db.outbox.toArray();
    await db.outbox.update(entry!.seq!, { nextAttemptAt: Date.now() + 60_000, attempts: 1 });
    expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ outcome: 'waiting', delivered: 0 });
    expect(await replayOutbox({ pb: officer, db, owner: 'test', retryNow: true })).toMatchObject({ outcome: 'done', delivered: 1 });
    expect((await t.admin.collection('reports').getOne(id)).narative).toBe('Music at 2 am');
  });
});
