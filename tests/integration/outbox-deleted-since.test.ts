/**
 * Exactly once, when the record is deleted in between: a
 * create the server committed, whose answer the device lost, and that a
 * colleague deleted on the server before the device tried again, is never
 * created again by that retry. The server keeps a tombstone of every deleted
 * record (migration 1764300000_deleted_records.js, pb_hooks/deleted_records.pb.js)
 * and refuses its id; the outbox settles the entry as delivered and removes
 * the record from the mirror.
 *
 * Real PocketBase behind the flaky proxy, which drops the answer after the
 * server committed; the device writes through src/data/resources/reports.ts as the
 * screens do, and the mirror starts with the optimistic rows.
 */
import '../support/browser-globals.ts';
import PocketBase, { ClientResponseError } from 'pocketbase';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { CollectionName } from '../../src/api/records.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { applyServerRecords } from '../../src/data/mirror/mirror.ts';
import { outboxEntries } from '../../src/data/sync/outbox.ts';
import { BACKOFF_MAX_MS, replayOutbox, type ReplayResult } from '../../src/data/sync/replay.ts';
import { queueHouseCheck } from '../../src/data/resources/houseChecks.ts';
import { queueReport } from '../../src/data/resources/reports.ts';
import { queueSaveHome } from '../../src/data/resources/homes.ts';
import { type SignedInUser } from '../../src/data/auth.ts';
import { recordWrite, startFlakyProxy, type FlakyProxy, type SeenRequest } from '../support/flaky-proxy.ts';
import {
  createCommunity,
  newId,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

let t: TestServer;
let proxy: FlakyProxy;

beforeAll(async () => {
  t = await startTestServer();
  proxy = await startFlakyProxy(t.url);
});
afterAll(async () => {
  await proxy?.close();
  await t?.stop();
});
beforeEach(() => proxy.reset());

interface Device {
  f: CommunityFixture;
  user: SignedInUser;
  pb: PocketBase;
  db: ScmsDatabase;
  replay: () => Promise<ReplayResult>;
  /** Lets every back-off elapse. */
  later: () => void;
  /** The community's director, straight to the server (a colleague at a desk). */
  director: PocketBase;
}

async function device(slug: string): Promise<Device> {
  const f = await createCommunity(t.admin, `${slug}-${newId().slice(0, 5)}`);
  const pb = new PocketBase(proxy.url);
  pb.autoCancellation(false);
  await pb.collection('users').authWithPassword(f.regular.email, TEST_PASSWORD);
  const db = new ScmsDatabase(`${f.regular.id}-${newId()}`);
  const clock = { now: Date.now() };
  return {
    f,
    user: { id: f.regular.id, community: f.community.id },
    pb,
    db,
    replay: () => replayOutbox({ pb, db, owner: 'tab', now: () => clock.now }),
    later: () => void (clock.now += 2 * BACKOFF_MAX_MS),
    director: await t.signIn(f.director.email),
  };
}

let serial = 0;
const narrative = () => `Gate found open ${++serial} ${newId()}`;

/** A house on the server and in the mirror. */
async function seedHouse(d: Device): Promise<{ id: string; address: string }> {
  const house = await t.admin.collection('houses').create({
    address: `${++serial} Palm Way`,
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    community: d.f.community.id,
  });
  await applyServerRecords(d.db, 'houses', [house]);
  return { id: house.id, address: String(house.address) };
}

/** Drops the answer to the next write carrying `id`: the server commits, the device sees a network error. */
function loseAnswerTo(id: string): void {
  proxy.dropResponses((r: SeenRequest) => recordWrite(r) && r.body.includes(id), 1);
}

/** Writes carrying `id` that reached the server, with what it answered. */
function writesOf(id: string): Array<SeenRequest['outcome']> {
  return proxy.requests.filter((r) => recordWrite(r) && r.body.includes(id)).map((r) => r.outcome);
}

async function onServer(collection: CollectionName, id: string): Promise<number> {
  return (await t.admin.collection(collection).getList(1, 1, { filter: t.admin.filter('id = {:id}', { id }) }))
    .totalItems;
}

/** The end state: the outbox is empty and no mirror row is left pending. */
async function expectSettled(d: Device): Promise<void> {
  expect(await outboxEntries(d.db)).toEqual([]);
  for (const collection of ['reports', 'houses', 'residents', 'phones'] as const) {
    const pending = (await d.db.mirror(collection).toArray()).filter((row) => row._pending);
    expect(
      pending.map((row) => row.id),
      `${collection} pending`,
    ).toEqual([]);
  }
}

describe('a create whose answer was lost, deleted on the server before the retry', () => {
  test('a report: the retry is refused as deleted since; nothing is created again, the entry is settled, the row leaves the mirror', async () => {
    const d = await device('del-one');
    const id = await queueReport(d.db, d.user, {
      type: 'loud_noise',
      weather: 'clear',
      incidentTime: new Date(),
      narative: narrative(),
    });
    expect(await d.db.reports.get(id)).toMatchObject({ _pending: 1 });

    loseAnswerTo(id);
    expect(await d.replay()).toEqual({ outcome: 'offline', delivered: 0, parked: 0 });
    expect(await onServer('reports', id)).toBe(1); // committed; the device does not know
    await d.director.collection('reports').delete(id);

    d.later();
    expect(await d.replay()).toEqual({ outcome: 'done', delivered: 1, parked: 0 });
    expect(await onServer('reports', id)).toBe(0);
    // Sent twice: the first landed (its answer dropped), the second was refused.
    expect(writesOf(id)).toEqual(['dropped', 409]);
    expect(await d.db.reports.get(id)).toBeUndefined();
    await expectSettled(d);

    // And again later (another tab, the worker): nothing left to send, nothing comes back.
    d.later();
    expect(await d.replay()).toEqual({ outcome: 'done', delivered: 0, parked: 0 });
    expect(await onServer('reports', id)).toBe(0);
  });

  test('a house check (report and house update in one batch): the report stays deleted, the house row takes the server copy', async () => {
    const d = await device('del-check');
    const house = await seedHouse(d);
    const id = await queueHouseCheck(d.db, d.user, house, { everythingOk: true });

    loseAnswerTo(id);
    expect(await d.replay()).toEqual({ outcome: 'offline', delivered: 0, parked: 0 });
    const checked = await t.admin.collection('houses').getOne(house.id);
    expect(checked.house_check_last_date).not.toBe('');
    await t.admin.collection('reports').delete(id); // by a superuser (the admin UI): tombstoned too

    d.later();
    expect(await d.replay()).toEqual({ outcome: 'done', delivered: 1, parked: 0 });
    expect(await onServer('reports', id)).toBe(0);
    expect(writesOf(id)).toEqual(['dropped', 400]); // a batch answers 400 around its request's 409
    expect(await d.db.reports.get(id)).toBeUndefined();
    expect(await d.db.houses.get(house.id)).toMatchObject({
      house_check_last_date: checked.house_check_last_date,
      updated: checked.updated,
    });
    await expectSettled(d);
  });

  test('independent reports sent as one batch: the deleted one is not created again, the others are found delivered', async () => {
    const d = await device('del-group');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        await queueReport(d.db, d.user, {
          type: 'loud_noise',
          weather: 'clear',
          incidentTime: new Date(),
          narative: narrative(),
        }),
      );

    loseAnswerTo(ids[0]!); // one batch carries all three
    expect(await d.replay()).toEqual({ outcome: 'offline', delivered: 0, parked: 0 });
    for (const id of ids) expect(await onServer('reports', id)).toBe(1);
    await d.director.collection('reports').delete(ids[1]!);

    d.later();
    expect(await d.replay()).toEqual({ outcome: 'done', delivered: 3, parked: 0 });
    expect(await onServer('reports', ids[0]!)).toBe(1);
    expect(await onServer('reports', ids[1]!)).toBe(0);
    expect(await onServer('reports', ids[2]!)).toBe(1);
    expect((await d.db.reports.toArray()).map((r) => r.id).sort()).toEqual([ids[0]!, ids[2]!].sort());
    await expectSettled(d);
  });

  test('a new home with residents and a phone, one resident deleted since: the home was delivered (a batch is all or nothing), that resident stays deleted', async () => {
    const d = await device('del-part');
    const houseId = await queueSaveHome(d.db, d.user, {
      house: { address: `${++serial} Heron Court`, city: 'Jupiter', state: 'FL', zip: '33458' },
      residents: [
        { first_name: 'Ana', last_name: 'Cruz', owner: true },
        { first_name: 'Ben', last_name: 'Cruz', owner: false },
      ],
      phones: [{ phone_number: '+15615550123', primary: true, type: 'cell' }],
    });
    const [ana, ben] = (await d.db.residents.where('house').equals(houseId).toArray()).sort((a, b) =>
      a.first_name.localeCompare(b.first_name),
    );

    loseAnswerTo(houseId);
    expect(await d.replay()).toEqual({ outcome: 'offline', delivered: 0, parked: 0 });
    await d.director.collection('residents').delete(ben!.id);

    d.later();
    expect(await d.replay()).toEqual({ outcome: 'done', delivered: 1, parked: 0 });
    expect(await onServer('houses', houseId)).toBe(1);
    expect(await onServer('residents', ana!.id)).toBe(1);
    expect(await onServer('residents', ben!.id)).toBe(0);
    expect(writesOf(houseId)).toEqual(['dropped']); // found by the delivery check: not sent again
    expect((await d.db.residents.where('house').equals(houseId).toArray()).map((r) => r.id)).toEqual([ana!.id]);
    expect(await d.db.phones.where('house').equals(houseId).count()).toBe(1);
    await expectSettled(d);
  });

  test('a new home deleted whole (residents and phones by cascade): nothing of it comes back, it all leaves the mirror', async () => {
    const d = await device('del-home');
    const houseId = await queueSaveHome(d.db, d.user, {
      house: { address: `${++serial} Egret Lane`, city: 'Jupiter', state: 'FL', zip: '33458' },
      residents: [{ first_name: 'Cy', last_name: 'Dale', owner: true }],
      phones: [{ phone_number: '+15615550124', primary: true, type: 'home' }],
    });
    const residentId = (await d.db.residents.where('house').equals(houseId).first())!.id;
    const phoneId = (await d.db.phones.where('house').equals(houseId).first())!.id;

    loseAnswerTo(houseId);
    expect(await d.replay()).toEqual({ outcome: 'offline', delivered: 0, parked: 0 });
    await d.director.collection('houses').delete(houseId);
    expect(await onServer('residents', residentId)).toBe(0); // the cascade

    // Every record of the home has its tombstone, with the community (the resident's and phone's through the house).
    const tombstones = await t.admin.collection('deleted_records').getFullList({
      filter: t.admin.filter('record_id = {:a} || record_id = {:b} || record_id = {:c}', {
        a: houseId,
        b: residentId,
        c: phoneId,
      }),
    });
    expect(tombstones.map((r) => [r.collection_name, r.record_id, r.community]).sort()).toEqual(
      [
        ['houses', houseId, d.f.community.id],
        ['phones', phoneId, d.f.community.id],
        ['residents', residentId, d.f.community.id],
      ].sort(),
    );

    d.later();
    expect(await d.replay()).toEqual({ outcome: 'done', delivered: 1, parked: 0 });
    expect(await onServer('houses', houseId)).toBe(0);
    expect(await onServer('residents', residentId)).toBe(0);
    expect(await onServer('phones', phoneId)).toBe(0);
    expect(await d.db.houses.get(houseId)).toBeUndefined();
    expect(await d.db.residents.get(residentId)).toBeUndefined();
    expect(await d.db.phones.get(phoneId)).toBeUndefined();
    await expectSettled(d);
  });
});

describe('the tombstones themselves', () => {
  async function refusal(promise: Promise<unknown>): Promise<{ status: number; response: Record<string, unknown> }> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClientResponseError);
    return { status: (error as ClientResponseError).status, response: (error as ClientResponseError).response };
  }

  test("another community's officer creating with a deleted record's id: refused with the words of any unusable id, nothing about a deletion", async () => {
    const d = await device('tomb-own');
    const other = await device('tomb-other');
    const id = await queueReport(d.db, d.user, {
      type: 'loud_noise',
      weather: 'clear',
      incidentTime: new Date(),
      narative: narrative(),
    });
    expect(await d.replay()).toMatchObject({ delivered: 1 });
    await d.director.collection('reports').delete(id);

    const body = {
      id,
      narative: 'x',
      type: 'loud_noise',
      weather: 'clear',
      incident_time: '2026-11-01 10:00:00.000Z',
      community: other.f.community.id,
      created_by: other.f.regular.id,
    };
    const foreign = await refusal(other.pb.collection('reports').create(body));
    expect(foreign).toEqual({
      status: 400,
      response: {
        status: 400,
        message: 'Failed to save the record.',
        data: { id: { code: 'validation_invalid_id', message: 'This id cannot be used.' } },
      },
    });
    // The same words as for an id a live record of another community holds.
    const live = await t.admin
      .collection('reports')
      .create({ ...body, id: newId(), community: d.f.community.id, created_by: d.f.regular.id });
    expect(await refusal(other.pb.collection('reports').create({ ...body, id: live.id }))).toEqual(foreign);

    // Its own community hears that it was deleted.
    const own = await refusal(
      d.pb.collection('reports').create({ ...body, community: d.f.community.id, created_by: d.f.regular.id }),
    );
    expect(own.status).toBe(409);
    expect(own.response).toMatchObject({ data: { id: { code: 'validation_record_deleted' } } });
    expect(await onServer('reports', id)).toBe(0);
  });

  test('no user can read or write tombstones; a superuser may still restore a record by its id', async () => {
    const d = await device('tomb-rules');
    const id = await queueReport(d.db, d.user, {
      type: 'loud_noise',
      weather: 'clear',
      incidentTime: new Date(),
      narative: narrative(),
    });
    expect(await d.replay()).toMatchObject({ delivered: 1 });
    const record = await t.admin.collection('reports').getOne(id);
    await d.director.collection('reports').delete(id);

    for (const pb of [d.director, d.pb]) {
      expect((await refusal(pb.collection('deleted_records').getList(1, 10))).status).toBe(403);
      expect(
        (
          await refusal(
            pb
              .collection('deleted_records')
              .create({ collection_name: 'reports', record_id: newId(), community: d.f.community.id }),
          )
        ).status,
      ).toBe(403);
    }
    const tombstone = await t.admin
      .collection('deleted_records')
      .getFirstListItem(t.admin.filter('record_id = {:id}', { id }));
    for (const pb of [d.director, d.pb]) {
      expect((await refusal(pb.collection('deleted_records').delete(tombstone.id))).status).toBeGreaterThanOrEqual(403);
    }

    const { collectionId: _c, collectionName: _n, created: _cr, updated: _u, ...fields } = record;
    expect((await t.admin.collection('reports').create(fields)).id).toBe(id);
    // Deleted again: one tombstone per record, the delete is not refused.
    await t.admin.collection('reports').delete(id);
    expect(
      await t.admin.collection('deleted_records').getFullList({ filter: t.admin.filter('record_id = {:id}', { id }) }),
    ).toHaveLength(1);
  });

  test('a delete the server refuses leaves no tombstone (a home with reports)', async () => {
    const d = await device('tomb-refused');
    const house = await seedHouse(d);
    const reportId = await queueReport(d.db, d.user, {
      type: 'loud_noise',
      weather: 'clear',
      incidentTime: new Date(),
      narative: narrative(),
      houseId: house.id,
    });
    expect(await d.replay()).toMatchObject({ delivered: 1 });
    expect((await refusal(d.director.collection('houses').delete(house.id))).status).toBe(400);
    expect(await onServer('houses', house.id)).toBe(1);
    expect(
      await t.admin
        .collection('deleted_records')
        .getFullList({ filter: t.admin.filter('record_id = {:id}', { id: house.id }) }),
    ).toEqual([]);
    expect(reportId).toBeTruthy();
  });
});
