/**
 * An officer's phone updates the app while work waits in the outbox: the
 * new version opens the database a previous version created. Versions 1 and
 * 2 are written out here as they were published (not imported), so a change
 * to a published schema shows up as a failure here.
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeUserDatabase,
  databaseName,
  DATABASE_VERSION,
  userDatabase,
  type OutboxEntry,
} from '../../src/data/db.ts';
import { collectionsToLoad } from '../../src/data/pull.ts';
import { outboxEntries } from '../../src/data/outbox.ts';

const VERSION_1_STORES = {
  communities: 'id',
  users: 'id, community',
  houses: 'id, address, community',
  residents: 'id, house',
  phones: 'id, house',
  concerns: 'id, community',
  reports: 'id, incident_time, created, house',
  calls: 'id, house, created',
  outbox: '++seq, status, *recordKeys',
  syncState: 'key',
};

/** Version 2 added these to version 1's (issue 14). */
const VERSION_2_STORES = {
  ...VERSION_1_STORES,
  call_attempts: 'id, house, call',
  call_settings: 'id, community',
};

const USER = 'upgradeuser0001';

function queuedReport(n: number): OutboxEntry {
  const id = `rep${String(n).padStart(12, '0')}`;
  return {
    userId: USER,
    createdAt: '2026-11-24T02:14:00.000Z',
    label: `Report ${n}`,
    ops: [{ action: 'create', collection: 'reports', id, body: { id, narative: `Narrative ${n}`, type: 'other' } }],
    recordKeys: [`reports:${id}`],
    status: n === 3 ? 'failed' : 'pending',
    attempts: n === 3 ? 4 : 0,
    nextAttemptAt: 0,
  };
}

/** The database as version 1 of the app left it: mirror rows, cursors and three queued entries. */
async function createVersion1Database(): Promise<void> {
  const v1 = new Dexie(databaseName(USER));
  v1.version(1).stores(VERSION_1_STORES);
  await v1.open();
  await v1.table('houses').put({ id: 'house0000000001', address: '1 Palm Way', community: 'c1' });
  await v1.table('calls').put({ id: 'call00000000001', house: 'house0000000001', created: '2026-11-20 10:00:00.000Z' });
  await v1.table('syncState').bulkPut([
    { key: 'cursor:houses', value: { updated: '2026-11-20 10:00:00.000Z', id: 'house0000000001' } },
    { key: 'cursor:calls', value: { updated: '2026-11-20 10:00:00.000Z', id: 'call00000000001' } },
  ]);
  for (const n of [1, 2, 3]) await v1.table('outbox').add(queuedReport(n));
  v1.close();
}

const call = (id: string, house: string, created: string, status = 'completed') => ({
  id,
  house,
  created,
  status,
  community: 'c1',
});

/** The database as version 2 left it: three calls of two homes, and queued work. */
async function createVersion2Database(): Promise<void> {
  const v2 = new Dexie(databaseName(USER));
  v2.version(2).stores(VERSION_2_STORES);
  await v2.open();
  await v2
    .table('calls')
    .bulkPut([
      call('call00000000001', 'house0000000001', '2026-11-20 10:00:00.000Z'),
      call('call00000000002', 'house0000000001', '2026-11-23 08:30:00.000Z', 'busy'),
      call('call00000000003', 'house0000000002', '2026-11-21 12:00:00.000Z'),
    ]);
  await v2.table('call_attempts').put({ id: 'att000000000001', call: 'call00000000002', house: 'house0000000001' });
  for (const n of [1, 2, 3]) await v2.table('outbox').add(queuedReport(n));
  v2.close();
}

afterEach(async () => {
  closeUserDatabase(USER);
  await Dexie.delete(databaseName(USER));
});

describe('opening a database the previous version created', () => {
  it('keeps every queued entry, in order, with its state', async () => {
    await createVersion1Database();
    const db = userDatabase(USER);
    await db.open();
    expect(db.verno).toBe(DATABASE_VERSION);
    expect(DATABASE_VERSION).toBeGreaterThan(1);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => e.label)).toEqual(['Report 1', 'Report 2', 'Report 3']);
    expect(entries.map((e) => e.status)).toEqual(['pending', 'pending', 'failed']);
    expect(entries[2]!.attempts).toBe(4);
    expect(entries[0]!.ops[0]!.body).toMatchObject({ narative: 'Narrative 1' });
    // The indexes of the outbox still answer (replay looks entries up by record).
    expect(await db.outbox.where('recordKeys').equals(entries[1]!.recordKeys[0]!).count()).toBe(1);
    expect((await outboxEntries(db)).map((e) => e.seq)).toEqual(entries.map((e) => e.seq));
  });

  it('keeps the mirror and its cursors, and loads the new collections with the next pull', async () => {
    await createVersion1Database();
    const db = userDatabase(USER);
    expect(await db.houses.get('house0000000001')).toMatchObject({ address: '1 Palm Way' });
    expect(await db.calls.where('house').equals('house0000000001').count()).toBe(1);
    const toLoad = await collectionsToLoad(db);
    expect(toLoad).toContain('call_attempts');
    expect(toLoad).toContain('call_settings');
    expect(toLoad).not.toContain('houses');
    expect(toLoad).not.toContain('calls');
  });

  it('has the new tables with their indexes', async () => {
    await createVersion1Database();
    const db = userDatabase(USER);
    await db.call_attempts.bulkPut([
      { id: 'att000000000001', call: 'call00000000001', house: 'house0000000001', sequence: 1 },
      { id: 'att000000000002', call: 'call00000000001', house: 'house0000000001', sequence: 2 },
    ] as never);
    await db.call_settings.put({ id: 'set000000000001', community: 'c1', retries: 2 } as never);
    expect(await db.call_attempts.where('house').equals('house0000000001').count()).toBe(2);
    expect(await db.call_attempts.where('call').equals('call00000000001').count()).toBe(2);
    expect((await db.call_settings.where('community').equals('c1').first())?.retries).toBe(2);
  });
});

describe('opening a database version 2 created (the newest call of each home, version 3)', () => {
  it('keeps the queued work and the calls, and fills the newest call of each home from them', async () => {
    await createVersion2Database();
    const db = userDatabase(USER);
    await db.open();
    expect(db.verno).toBe(DATABASE_VERSION);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => [e.label, e.status, e.attempts])).toEqual([
      ['Report 1', 'pending', 0],
      ['Report 2', 'pending', 0],
      ['Report 3', 'failed', 4],
    ]);
    expect(await db.calls.count()).toBe(3);
    expect(await db.call_attempts.where('call').equals('call00000000002').count()).toBe(1);
    const latest = await db.latest_calls.orderBy('id').toArray();
    expect(latest.map((row) => [row.id, row.call, row.status])).toEqual([
      ['house0000000001', 'call00000000002', 'busy'],
      ['house0000000002', 'call00000000003', 'completed'],
    ]);
  });

  it('from version 1 too: its one call is the newest of its home', async () => {
    await createVersion1Database();
    const db = userDatabase(USER);
    expect((await db.latest_calls.get('house0000000001'))?.call).toBe('call00000000001');
    expect(await db.outbox.count()).toBe(3);
  });
});
