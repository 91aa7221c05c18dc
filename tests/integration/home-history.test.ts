/**
 * The server-written history of the homes directory (migration
 * 1765100000_home_changes.js, pb_hooks/home_history.pb.js), on a real
 * PocketBase: direct and batched updates, creates and deletes of homes,
 * residents and phones write one row per change with the right author; a
 * batch that fails writes none; nobody writes history through the API, and
 * a community reads only its own; `latestChange` (for the check of stale
 * updates) names the latest change of a field.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase, { ClientResponseError, type RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensurePocketBase } from '../../scripts/pocketbase/install.ts';
import { hooksDir } from '../../scripts/pocketbase/server.ts';
import { solidPng } from '../support/png.ts';
import {
  createCommunity,
  newId,
  startTestServer,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

let t: TestServer;
let a: CommunityFixture;
let b: CommunityFixture;
let manager: PocketBase;
let officer: PocketBase;
let directorA: PocketBase;
let directorB: PocketBase;

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof ClientResponseError) return error.status;
    throw error;
  }
}

/** A home with one resident and one phone, made by the superuser (the seed's way: no history). */
async function seededHome(community: CommunityFixture, address: string) {
  const house = await t.admin.collection('houses').create({
    address,
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    note: 'A-text',
    security_code: '1234',
    community: community.community.id,
  });
  const resident = await t.admin
    .collection('residents')
    .create({ first_name: 'Yolanda', last_name: 'Vasquez', owner: true, house: house.id });
  const phone = await t.admin
    .collection('phones')
    .create({ phone_number: '+15615550142', type: 'home', primary: true, house: house.id });
  return { house, resident, phone };
}

function changesOf(house: string): Promise<RecordModel[]> {
  return t.admin
    .collection('home_changes')
    .getFullList({ filter: t.admin.filter('house = {:house}', { house }), sort: 'created,collection_name,field' });
}

const pick = (row: RecordModel) => ({
  collection_name: row.collection_name as string,
  record_id: row.record_id as string,
  action: row.action as string,
  field: row.field as string,
  from_value: row.from_value as unknown,
  to_value: row.to_value as unknown,
  record_label: row.record_label as string,
  changed_by: row.changed_by as string,
  changed_by_name: row.changed_by_name as string,
});

beforeAll(async () => {
  t = await startTestServer();
  a = await createCommunity(t.admin, 'hista');
  b = await createCommunity(t.admin, 'histb');
  [manager, officer, directorA, directorB] = await Promise.all([
    t.signIn(a.manager.email),
    t.signIn(a.regular.email),
    t.signIn(a.director.email),
    t.signIn(b.director.email),
  ]);
});
afterAll(async () => {
  await t?.stop();
});

describe('writes', () => {
  test("a superuser's creates (the seed) write no history; their updates do, by no user", async () => {
    const { house } = await seededHome(a, '1 Seed Way');
    expect(await changesOf(house.id)).toEqual([]);
    await t.admin.collection('houses').update(house.id, { zip: '33477' });
    expect((await changesOf(house.id)).map(pick)).toEqual([
      {
        collection_name: 'houses',
        record_id: house.id,
        action: 'update',
        field: 'zip',
        from_value: '33458',
        to_value: '33477',
        record_label: '1 Seed Way',
        changed_by: '',
        changed_by_name: 'Administrator',
      },
    ]);
  });

  test('a direct update writes one row per changed tracked field, by the manager, as stored', async () => {
    const { house } = await seededHome(a, '2 Direct Way');
    await manager.collection('houses').update(house.id, {
      note: 'B-text',
      security_code: '0567',
      house_check: true,
      house_check_start_date: '2026-01-01 00:00:00.000Z',
      house_check_end_date: '2026-01-31 00:00:00.000Z',
      city: 'Jupiter', // unchanged: no row
      house_check_last_date: '2026-01-02 03:04:05.000Z', // activity, not the directory: no row
    });
    const rows = (await changesOf(house.id)).map(pick).sort((x, y) => x.field.localeCompare(y.field));
    const by = { changed_by: a.manager.id, changed_by_name: 'Manager HISTA' };
    const common = { collection_name: 'houses', record_id: house.id, action: 'update', record_label: '2 Direct Way' };
    expect(rows).toEqual([
      { ...common, ...by, field: 'house_check', from_value: false, to_value: true },
      { ...common, ...by, field: 'house_check_end_date', from_value: '', to_value: '2026-01-31 00:00:00.000Z' },
      { ...common, ...by, field: 'house_check_start_date', from_value: '', to_value: '2026-01-01 00:00:00.000Z' },
      { ...common, ...by, field: 'note', from_value: 'A-text', to_value: 'B-text' },
      // A numeric text stays text, its leading zero too.
      { ...common, ...by, field: 'security_code', from_value: '1234', to_value: '0567' },
    ]);
    const [row] = await changesOf(house.id);
    expect(row!.community).toBe(a.community.id);
    expect(row!.house).toBe(house.id);
    expect(Date.parse(String(row!.created).replace(' ', 'T'))).toBeGreaterThan(0);
  });

  test('an update of untracked fields only writes nothing', async () => {
    const { house } = await seededHome(a, '3 Quiet Way');
    await officer.collection('houses').update(house.id, { house_check_last_date: '2026-01-02 03:04:05.000Z' });
    await officer.collection('houses').update(house.id, { note: 'A-text' });
    expect(await changesOf(house.id)).toEqual([]);
  });

  test('a photo upload writes the stored file name', async () => {
    const { house } = await seededHome(a, '4 Photo Way');
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(solidPng(8, 8, [200, 10, 10]))], { type: 'image/png' }), 'front.png');
    const saved = await manager.collection('houses').update(house.id, form);
    const rows = (await changesOf(house.id)).map(pick);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ field: 'image', from_value: '', to_value: saved.image as string });
    expect(saved.image).toMatch(/^front_\w+\.png$/);
  });

  test('a batch update by the officer writes rows for the home, the resident and the phone', async () => {
    const { house, resident, phone } = await seededHome(a, '5 Batch Way');
    const batch = officer.createBatch();
    batch.collection('houses').update(house.id, { note: 'Gate code changed' });
    batch.collection('residents').update(resident.id, { first_name: 'Yoli', owner: false });
    batch.collection('phones').update(phone.id, { type: 'cell', do_not_call: true });
    await batch.send();
    const rows = (await changesOf(house.id)).map(pick);
    const by = { changed_by: a.regular.id, changed_by_name: 'Regular HISTA' };
    expect(rows).toEqual(
      expect.arrayContaining([
        {
          ...by,
          collection_name: 'houses',
          record_id: house.id,
          action: 'update',
          field: 'note',
          from_value: 'A-text',
          to_value: 'Gate code changed',
          record_label: '5 Batch Way',
        },
        {
          ...by,
          collection_name: 'residents',
          record_id: resident.id,
          action: 'update',
          field: 'first_name',
          from_value: 'Yolanda',
          to_value: 'Yoli',
          record_label: 'Yoli Vasquez',
        },
        {
          ...by,
          collection_name: 'residents',
          record_id: resident.id,
          action: 'update',
          field: 'owner',
          from_value: true,
          to_value: false,
          record_label: 'Yoli Vasquez',
        },
        {
          ...by,
          collection_name: 'phones',
          record_id: phone.id,
          action: 'update',
          field: 'type',
          from_value: 'home',
          to_value: 'cell',
          record_label: '+15615550142',
        },
        {
          ...by,
          collection_name: 'phones',
          record_id: phone.id,
          action: 'update',
          field: 'do_not_call',
          from_value: false,
          to_value: true,
          record_label: '+15615550142',
        },
      ]),
    );
    expect(rows).toHaveLength(5);
  });

  test('a create in a batch (the app adds a home with its people) writes a create row per record', async () => {
    const houseId = newId();
    const residentId = newId();
    const phoneId = newId();
    const batch = officer.createBatch();
    batch.collection('houses').create({
      id: houseId,
      address: '6 New Way',
      apt: 'B',
      city: 'Tequesta',
      zip: '33469',
      community: a.community.id,
    });
    batch.collection('residents').create({ id: residentId, first_name: 'Ann', last_name: 'Lee', house: houseId });
    batch.collection('phones').create({ id: phoneId, phone_number: '+15615550199', house: houseId });
    await batch.send();
    const rows = (await changesOf(houseId)).map(pick);
    const by = { changed_by: a.regular.id, changed_by_name: 'Regular HISTA', action: 'create', field: '' };
    expect(rows).toEqual(
      expect.arrayContaining([
        {
          ...by,
          collection_name: 'houses',
          record_id: houseId,
          from_value: null,
          // The state the server filled in (houses.pb.js): the stored record, not the body.
          to_value: { address: '6 New Way', apt: 'B', city: 'Tequesta', state: 'FL', zip: '33469' },
          record_label: '6 New Way, B',
        },
        {
          ...by,
          collection_name: 'residents',
          record_id: residentId,
          from_value: null,
          to_value: { first_name: 'Ann', last_name: 'Lee', owner: false },
          record_label: 'Ann Lee',
        },
        {
          ...by,
          collection_name: 'phones',
          record_id: phoneId,
          from_value: null,
          to_value: { phone_number: '+15615550199', type: '', primary: false },
          record_label: '+15615550199',
        },
      ]),
    );
    expect(rows).toHaveLength(3);
  });

  test('deletes: a phone by the officer, a home by the director (its resident and phone with it)', async () => {
    const { house, resident, phone } = await seededHome(a, '7 Gone Way');
    await officer.collection('phones').delete(phone.id);
    expect((await changesOf(house.id)).map(pick)).toEqual([
      {
        collection_name: 'phones',
        record_id: phone.id,
        action: 'delete',
        field: '',
        from_value: { phone_number: '+15615550142', type: 'home', primary: true },
        to_value: null,
        record_label: '+15615550142',
        changed_by: a.regular.id,
        changed_by_name: 'Regular HISTA',
      },
    ]);

    await directorA.collection('houses').delete(house.id);
    const rows = (await changesOf(house.id)).map(pick).slice(1);
    const by = {
      changed_by: a.director.id,
      changed_by_name: 'Director HISTA',
      action: 'delete',
      field: '',
      to_value: null,
    };
    expect(rows).toEqual(
      expect.arrayContaining([
        {
          ...by,
          collection_name: 'houses',
          record_id: house.id,
          from_value: { address: '7 Gone Way', apt: '', city: 'Jupiter', state: 'FL', zip: '33458' },
          record_label: '7 Gone Way',
        },
        {
          ...by,
          collection_name: 'residents',
          record_id: resident.id,
          from_value: { first_name: 'Yolanda', last_name: 'Vasquez', owner: true },
          record_label: 'Yolanda Vasquez',
        },
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  test('a refused delete (a home with reports) writes nothing', async () => {
    const { house } = await seededHome(a, '8 Kept Way');
    await t.admin.collection('reports').create({
      narative: 'Checked.',
      type: 'house_check',
      weather: 'clear',
      incident_time: '2026-01-02 03:04:05.000Z',
      community: a.community.id,
      house: house.id,
      created_by: a.regular.id,
    });
    expect(await status(directorA.collection('houses').delete(house.id))).toBe(400);
    expect(await changesOf(house.id)).toEqual([]);
  });

  test('a batch that fails writes no history, of its good requests either', async () => {
    const { house, resident, phone } = await seededHome(a, '9 Failed Way');
    const batch = manager.createBatch();
    batch.collection('houses').update(house.id, { note: 'Should vanish' });
    batch.collection('residents').update(resident.id, { last_name: 'Gone' });
    batch.collection('phones').update(phone.id, { phone_number: 'not a number' });
    expect(await status(batch.send())).toBe(400);
    expect(await changesOf(house.id)).toEqual([]);
    expect((await t.admin.collection('houses').getOne(house.id)).note).toBe('A-text');
  });
});

describe('rules', () => {
  let houseA: string;
  let rowA: RecordModel;

  beforeAll(async () => {
    const { house } = await seededHome(a, '10 Rule Way');
    houseA = house.id;
    await manager.collection('houses').update(houseA, { note: 'Ruled' });
    rowA = (await changesOf(houseA))[0]!;
  });

  test('the staff of the community read its history', async () => {
    for (const pb of [officer, manager, directorA]) {
      const list = await pb.collection('home_changes').getFullList({ filter: `house = "${houseA}"` });
      expect(list.map((r) => r.id)).toEqual([rowA.id]);
      expect((await pb.collection('home_changes').getOne(rowA.id)).to_value).toBe('Ruled');
    }
  });

  test('another community and anonymous read none of it', async () => {
    expect(await directorB.collection('home_changes').getFullList()).toEqual([]);
    expect(await status(directorB.collection('home_changes').getOne(rowA.id))).toBe(404);
    expect(await t.client().collection('home_changes').getFullList()).toEqual([]);
  });

  test('nobody but the server writes history through the API', async () => {
    const body = {
      community: a.community.id,
      house: houseA,
      collection_name: 'houses',
      record_id: houseA,
      action: 'update',
      field: 'note',
      from_value: 'x',
      to_value: 'y',
      changed_by: a.manager.id,
      changed_by_name: 'Manager HISTA',
    };
    for (const pb of [officer, manager, directorA, directorB]) {
      expect(await status(pb.collection('home_changes').create(body))).toBe(403);
      expect(await status(pb.collection('home_changes').update(rowA.id, { to_value: 'forged' }))).not.toBe(200);
      expect(await status(pb.collection('home_changes').delete(rowA.id))).not.toBe(200);
      // Nor inside a batch.
      const batch = pb.createBatch();
      batch.collection('home_changes').create(body);
      expect(await status(batch.send())).not.toBe(200);
    }
    const rows = await changesOf(houseA);
    expect(rows.map((r) => [r.id, r.to_value])).toEqual([[rowA.id, 'Ruled']]);
  });
});

/**
 * Runs `latestChange` inside PocketBase's own JS runtime, on the test
 * server's data: a throwaway migration (run by `pocketbase migrate up` on a
 * folder of its own) calls it and throws the answer back, so the migration
 * is rolled back and never recorded.
 */
async function latestChange(collectionName: string, recordId: string, field: string): Promise<unknown> {
  const folder = mkdtempSync(join(tmpdir(), 'scms-history-migration-'));
  try {
    const lib = JSON.stringify(join(hooksDir, 'lib', 'home_history.js'));
    const args = JSON.stringify([collectionName, recordId, field]);
    writeFileSync(
      join(folder, '1999999999_latest_change.js'),
      `migrate((app) => {
  const args = ${args};
  const answer = require(${lib}).latestChange(app, args[0], args[1], args[2]);
  throw new Error('ANSWER' + JSON.stringify(answer) + 'END');
});
`,
    );
    const run = spawnSync(
      await ensurePocketBase(),
      ['migrate', 'up', `--dir=${t.dataDir}`, `--migrationsDir=${folder}`, `--hooksDir=${hooksDir}`],
      { encoding: 'utf8' },
    );
    const found = /ANSWER(.*?)END/.exec(`${run.stdout}${run.stderr}`);
    if (!found) throw new Error(`no answer from the migration: ${run.stdout}${run.stderr}`);
    return JSON.parse(found[1]!);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('latestChange', () => {
  test('names the latest change of a field, and null for a field never changed', async () => {
    const { house, phone } = await seededHome(a, '11 Latest Way');
    await manager.collection('houses').update(house.id, { note: 'first' });
    await officer.collection('houses').update(house.id, { note: 'second', zip: '33477' });
    const rows = await changesOf(house.id);
    const second = rows.find((r) => r.field === 'note' && r.to_value === 'second')!;

    expect(await latestChange('houses', house.id, 'note')).toEqual({
      by_id: a.regular.id,
      by_name: 'Regular HISTA',
      at: second.created,
    });
    expect(await latestChange('houses', house.id, 'city')).toBeNull();
    expect(await latestChange('phones', phone.id, 'type')).toBeNull();

    await manager.collection('houses').update(house.id, { note: 'third' });
    expect(await latestChange('houses', house.id, 'note')).toMatchObject({
      by_id: a.manager.id,
      by_name: 'Manager HISTA',
    });
  });
});
