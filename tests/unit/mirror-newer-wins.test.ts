/**
 * A server copy read before a newer one reached the mirror (a pull's page
 * that answers after a realtime event or a replay's answer) does not take
 * its place; a first load, whose overwrites the next incremental pull
 * repairs, writes without looking. A record this device deleted (and the
 * server confirmed) is not brought back by a copy read before that.
 */
import type { RecordModel } from 'pocketbase';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { applyServerRecords, rememberDeleted } from '../../src/data/mirror/mirror.ts';

let db: ScmsDatabase;
beforeEach(async () => {
  db = new ScmsDatabase(`newer-wins-${Date.now()}-${Math.random()}`);
  await db.open();
});
afterEach(() => db.close());

const house = (updated: string, image: string) =>
  ({
    id: 'h00000000000001',
    collectionId: 'houses',
    collectionName: 'houses',
    created: '2026-11-26 10:00:00.000Z',
    updated,
    address: '932 Photo Test Ln',
    image,
  }) as unknown as RecordModel;

const OLDER = '2026-11-26 10:00:01.000Z';
const NEWER = '2026-11-26 10:00:01.250Z';

test('an older copy arriving after a newer one leaves the newer one in the mirror', async () => {
  await applyServerRecords(db, 'houses', [house(NEWER, 'front_abc.png')]);
  await applyServerRecords(db, 'houses', [house(OLDER, '')]);
  expect(await db.houses.get('h00000000000001')).toMatchObject({ updated: NEWER, image: 'front_abc.png' });
});

test('a newer or equal copy replaces the row', async () => {
  await applyServerRecords(db, 'houses', [house(OLDER, '')]);
  await applyServerRecords(db, 'houses', [house(NEWER, 'front_abc.png')]);
  expect(await db.houses.get('h00000000000001')).toMatchObject({ updated: NEWER, image: 'front_abc.png' });
  await applyServerRecords(db, 'houses', [{ ...house(NEWER, 'front_abc.png'), address: '933 Photo Test Ln' }]);
  expect(await db.houses.get('h00000000000001')).toMatchObject({ address: '933 Photo Test Ln' });
});

test('in a page of several, only the older copies are passed over', async () => {
  const other = { ...house(OLDER, ''), id: 'h00000000000002' } as RecordModel;
  await applyServerRecords(db, 'houses', [house(NEWER, 'front_abc.png')]);
  await applyServerRecords(db, 'houses', [house(OLDER, ''), other]);
  expect(await db.houses.get('h00000000000001')).toMatchObject({ image: 'front_abc.png' });
  expect(await db.houses.get('h00000000000002')).toMatchObject({ updated: OLDER });
});

test("a row showing this device's own change is replaced by the server copy, whatever the device's clock said", async () => {
  await db.houses.put({ ...house('2026-11-26 10:05:00.000Z', 'pending-0'), _pending: 1 } as never);
  await applyServerRecords(db, 'houses', [house(OLDER, 'front_abc.png')]);
  expect(await db.houses.get('h00000000000001')).toMatchObject({ updated: OLDER, image: 'front_abc.png' });
});

test('a first load writes its pages without looking up the rows', async () => {
  await applyServerRecords(db, 'houses', [house(NEWER, 'front_abc.png')]);
  await applyServerRecords(db, 'houses', [house(OLDER, '')], { firstLoad: true });
  expect(await db.houses.get('h00000000000001')).toMatchObject({ updated: OLDER, image: '' });
});

test('a record this device deleted, once the server confirmed it, is not brought back by a copy read before', async () => {
  await applyServerRecords(db, 'houses', [house(OLDER, '')]);
  await db.houses.delete('h00000000000001');
  await db.transaction('rw', db.syncState, () =>
    rememberDeleted(db, [{ collection: 'houses', id: 'h00000000000001' }]),
  );
  // A pull's page read before the deletion reached the server, answered after.
  await applyServerRecords(db, 'houses', [house(OLDER, '')]);
  await applyServerRecords(db, 'houses', [house(NEWER, '')], { firstLoad: true });
  expect(await db.houses.get('h00000000000001')).toBeUndefined();
  // Another record of the page is written as usual.
  await applyServerRecords(db, 'houses', [{ ...house(OLDER, ''), id: 'h00000000000002' } as RecordModel]);
  expect(await db.houses.get('h00000000000002')).toBeDefined();
});

test('marks older than a day are let go when new ones are made', async () => {
  const day = 24 * 60 * 60 * 1000;
  await db.transaction('rw', db.syncState, () =>
    rememberDeleted(db, [{ collection: 'houses', id: 'h00000000000001' }], Date.now() - 2 * day),
  );
  await db.transaction('rw', db.syncState, () =>
    rememberDeleted(db, [{ collection: 'houses', id: 'h00000000000002' }]),
  );
  await applyServerRecords(db, 'houses', [house(OLDER, '')]);
  expect(await db.houses.get('h00000000000001')).toBeDefined();
  expect(await db.syncState.where('key').startsWith('gone:').count()).toBe(1);
});
