/**
 * The newest call of each home (src/data/mirror/latestCalls.ts) follows every way
 * calls reach or leave the mirror: a pull's pages in any order, realtime
 * updates of a running job, and removals.
 */
import Dexie from 'dexie';
import type { RecordModel } from 'pocketbase';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { applyServerRecords, removeServerRecords } from '../../src/data/mirror/mirror.ts';

let db: ScmsDatabase;
let serial = 0;
beforeEach(() => {
  db = new ScmsDatabase(`latestcalls${++serial}`);
});
afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

const call = (id: string, house: string, created: string, status = 'completed'): RecordModel =>
  ({ id, house, created, status, community: 'c1', collectionId: 'calls', collectionName: 'calls' }) as RecordModel;

/** house → [newest call id, its status] */
async function latest(): Promise<Record<string, [string, string]>> {
  const rows = await db.latest_calls.toArray();
  return Object.fromEntries(rows.map((row) => [row.id, [row.call, row.status]]));
}

test('the newest call of each home, whatever order the pages come in', async () => {
  await applyServerRecords(db, 'calls', [
    call('c2', 'h1', '2026-11-23 08:00:00.000Z'),
    call('c3', 'h2', '2026-11-22 08:00:00.000Z'),
  ]);
  // An older call of h1 arrives later (a reconnect's pull, a second page).
  await applyServerRecords(db, 'calls', [call('c1', 'h1', '2026-11-20 08:00:00.000Z')]);
  expect(await latest()).toEqual({ h1: ['c2', 'completed'], h2: ['c3', 'completed'] });
});

test("a row keeps what the card says, not the call's script (Call history reads that from the calls)", async () => {
  await applyServerRecords(db, 'calls', [
    { ...call('c1', 'h1', '2026-11-20 08:00:00.000Z'), script: 'Hello. '.repeat(300), outcome: 'voicemail' },
  ]);
  const [row] = await db.latest_calls.toArray();
  expect(row).toEqual({
    id: 'h1',
    call: 'c1',
    created: '2026-11-20 08:00:00.000Z',
    status: 'completed',
    progress: undefined,
    outcome: 'voicemail',
    acknowledged: undefined,
  });
  expect((await db.calls.get('c1'))?.script).toHaveLength(2100);
});

test('a running job: each update of the newest call shows; an update of an older one does not take its place', async () => {
  await applyServerRecords(db, 'calls', [call('c1', 'h1', '2026-11-20 08:00:00.000Z')]);
  await applyServerRecords(db, 'calls', [call('c2', 'h1', '2026-11-24 18:00:00.000Z', 'queued')]);
  expect(await latest()).toEqual({ h1: ['c2', 'queued'] });
  await applyServerRecords(db, 'calls', [call('c2', 'h1', '2026-11-24 18:00:00.000Z', 'ringing')]);
  expect(await latest()).toEqual({ h1: ['c2', 'ringing'] });
  await applyServerRecords(db, 'calls', [call('c1', 'h1', '2026-11-20 08:00:00.000Z', 'failed')]);
  expect(await latest()).toEqual({ h1: ['c2', 'ringing'] });
  // In one write: the older call first, then the newest.
  await applyServerRecords(db, 'calls', [
    call('c1', 'h1', '2026-11-20 08:00:00.000Z', 'completed'),
    call('c2', 'h1', '2026-11-24 18:00:00.000Z', 'completed'),
  ]);
  expect(await latest()).toEqual({ h1: ['c2', 'completed'] });
});

test('removing the newest call falls back to the one before; removing the last leaves no row; other removals change nothing', async () => {
  await applyServerRecords(db, 'calls', [
    call('c1', 'h1', '2026-11-20 08:00:00.000Z'),
    call('c2', 'h1', '2026-11-23 08:00:00.000Z', 'busy'),
    call('c3', 'h2', '2026-11-22 08:00:00.000Z'),
  ]);
  await removeServerRecords(db, 'calls', ['c3']);
  expect(await latest()).toEqual({ h1: ['c2', 'busy'] });
  await removeServerRecords(db, 'calls', ['c2']);
  expect(await latest()).toEqual({ h1: ['c1', 'completed'] });
  await removeServerRecords(db, 'calls', ['c1']);
  expect(await latest()).toEqual({});
});

test('writes of other collections leave the rows alone', async () => {
  await applyServerRecords(db, 'calls', [call('c1', 'h1', '2026-11-20 08:00:00.000Z')]);
  await applyServerRecords(db, 'houses', [
    { id: 'h1', address: '1 Palm Way', collectionId: 'houses', collectionName: 'houses' } as RecordModel,
  ]);
  await removeServerRecords(db, 'houses', ['h1']);
  expect(await latest()).toEqual({ h1: ['c1', 'completed'] });
});
