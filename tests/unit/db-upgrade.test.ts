/**
 * An officer's phone updates the app while work waits in the outbox: the
 * new version opens the database a previous version created. The published
 * versions are written out in tests/support/published-schemas.ts (not
 * imported from the app), so a change to a published schema shows up as a
 * failure here.
 */
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeUserDatabase,
  databaseName,
  DATABASE_VERSION,
  userDatabase,
  type OutboxEntry,
} from '../../src/data/mirror/db.ts';
import { collectionsToLoad, historyRanges } from '../../src/data/sync/pull.ts';
import { outboxEntries } from '../../src/data/sync/outbox.ts';
import {
  VERSION_1_STORES,
  VERSION_2_STORES,
  VERSION_3_STORES,
  VERSION_4_STORES,
  VERSION_5_STORES,
  VERSION_6_STORES,
  VERSION_7_STORES,
} from '../support/published-schemas.ts';
import { homeSortKey } from '../../src/domain/homeSortKey.ts';

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

/**
 * Work queued by version 3: an edit of a home as that version sent it (the
 * whole record, no `_base`), a new resident, a delete, and a report the
 * server refused (parked, with its attempts).
 */
function version3Entries(): OutboxEntry[] {
  const entry = (label: string, ops: OutboxEntry['ops'], extra: Partial<OutboxEntry> = {}): OutboxEntry => ({
    userId: USER,
    createdAt: '2026-11-25T09:00:00.000Z',
    label,
    ops,
    recordKeys: ops.map((op) => `${op.collection}:${op.id}`),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    ...extra,
  });
  const house = {
    address: '1 Palm Way',
    apt: '',
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    note: 'Gate code 4411',
    member_number: '',
    security_code: '1234',
    house_check: false,
    house_check_start_date: '',
    house_check_end_date: '',
    house_check_note: '',
  };
  return [
    entry('Edit 1 Palm Way', [{ action: 'update', collection: 'houses', id: 'house0000000001', body: house }]),
    entry('Add resident', [
      {
        action: 'create',
        collection: 'residents',
        id: 'res000000000001',
        body: { id: 'res000000000001', first_name: 'Ann', last_name: 'Lee', owner: false, house: 'house0000000001' },
      },
    ]),
    entry('Remove phone', [{ action: 'delete', collection: 'phones', id: 'phone0000000001', body: {} }]),
    entry('Report 3', queuedReport(3).ops, {
      status: 'failed',
      attempts: 5,
      error: 'Failed to create record.',
      fieldErrors: { narative: 'Cannot be blank.' },
    }),
  ];
}

/** The database as version 3 left it: a home, its newest call, cursors, and queued work. */
async function createVersion3Database(): Promise<void> {
  const v3 = new Dexie(databaseName(USER));
  v3.version(3).stores(VERSION_3_STORES);
  await v3.open();
  await v3.table('houses').put({ id: 'house0000000001', address: '1 Palm Way', community: 'c1' });
  await v3.table('calls').put(call('call00000000001', 'house0000000001', '2026-11-20 10:00:00.000Z'));
  await v3.table('latest_calls').put({ id: 'house0000000001', call: 'call00000000001', status: 'completed' });
  await v3.table('syncState').bulkPut([
    { key: 'cursor:houses', value: { updated: '2026-11-20 10:00:00.000Z', id: 'house0000000001' } },
    { key: 'cursor:calls', value: { updated: '2026-11-20 10:00:00.000Z', id: 'call00000000001' } },
  ]);
  for (const entry of version3Entries()) await v3.table('outbox').add(entry);
  v3.close();
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

describe('opening a database version 3 created (the history of the homes, version 4)', () => {
  it('keeps the queued work in order, as it was queued, with its state and indexes', async () => {
    await createVersion3Database();
    const db = userDatabase(USER);
    await db.open();
    expect(db.verno).toBe(DATABASE_VERSION);
    expect(DATABASE_VERSION).toBeGreaterThanOrEqual(4);
    const entries = await db.outbox.orderBy('seq').toArray();
    const queued = version3Entries();
    expect(entries.map((e) => [e.label, e.status, e.attempts])).toEqual([
      ['Edit 1 Palm Way', 'pending', 0],
      ['Add resident', 'pending', 0],
      ['Remove phone', 'pending', 0],
      ['Report 3', 'failed', 5],
    ]);
    // Every entry exactly as queued: the home's whole record, no base added.
    expect(entries.map(({ seq: _seq, ...rest }) => rest)).toEqual(queued);
    expect(entries[0]!.ops[0]!.body).not.toHaveProperty('_base');
    expect(entries[3]).toMatchObject({
      error: 'Failed to create record.',
      fieldErrors: { narative: 'Cannot be blank.' },
    });
    // The outbox's indexes still answer: by record (mirror.ts, replay) and by status (the sync badge).
    expect(await db.outbox.where('recordKeys').equals('houses:house0000000001').count()).toBe(1);
    expect(await db.outbox.where('recordKeys').equals('phones:phone0000000001').count()).toBe(1);
    expect(await db.outbox.where('status').equals('pending').count()).toBe(3);
    expect(await db.outbox.where('status').equals('failed').count()).toBe(1);
    expect((await outboxEntries(db)).map((e) => e.seq)).toEqual(entries.map((e) => e.seq));
  });

  it('keeps the mirror, and has the history table, read by home, loaded with the next pull', async () => {
    await createVersion3Database();
    const db = userDatabase(USER);
    expect(await db.houses.get('house0000000001')).toMatchObject({ address: '1 Palm Way' });
    expect((await db.latest_calls.get('house0000000001'))?.call).toBe('call00000000001');
    expect(await db.home_changes.count()).toBe(0);
    const toLoad = await collectionsToLoad(db);
    expect(toLoad).toContain('home_changes');
    expect(toLoad).not.toContain('houses');
    await db.home_changes.bulkPut([
      { id: 'chg000000000001', house: 'house0000000001', field: 'note' },
      { id: 'chg000000000002', house: 'house0000000001', field: 'security_code' },
      { id: 'chg000000000003', house: 'house0000000002', field: 'note' },
    ] as never);
    expect(await db.home_changes.where('house').equals('house0000000001').count()).toBe(2);
  });
});

/** The database as version 4 left it: homes without a sort key (one edited offline), queued work. */
async function createVersion4Database(): Promise<void> {
  const v4 = new Dexie(databaseName(USER));
  v4.version(4).stores(VERSION_4_STORES);
  await v4.open();
  await v4.table('houses').bulkPut([
    { id: 'house0000000001', address: '10 Palm Way', apt: '', community: 'c1' },
    { id: 'house0000000002', address: '9 Palm Way', apt: 'Apt 2', community: 'c1', _pending: 1 },
    { id: 'house0000000003', address: '1 Banyan Cir', community: 'c1' },
  ]);
  await v4.table('home_changes').put({ id: 'chg000000000001', house: 'house0000000001', field: 'note' });
  await v4.table('syncState').put({
    key: 'cursor:houses',
    value: { updated: '2026-11-20 10:00:00.000Z', id: 'house0000000001' },
  });
  for (const entry of version3Entries()) await v4.table('outbox').add(entry);
  v4.close();
}

describe('opening a database version 4 created (homes by their place in the list, version 5)', () => {
  it('keeps the queued work exactly as queued, and the history', async () => {
    await createVersion4Database();
    const db = userDatabase(USER);
    await db.open();
    expect(db.verno).toBe(DATABASE_VERSION);
    expect(DATABASE_VERSION).toBeGreaterThanOrEqual(5);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map(({ seq: _seq, ...rest }) => rest)).toEqual(version3Entries());
    expect(await db.outbox.where('recordKeys').equals('houses:house0000000001').count()).toBe(1);
    expect(await db.home_changes.where('house').equals('house0000000001').count()).toBe(1);
    expect(await collectionsToLoad(db)).not.toContain('houses');
  });

  it('gives every home it holds its sort key, and reads them in the list order', async () => {
    await createVersion4Database();
    const db = userDatabase(USER);
    const homes = await db.houses.orderBy('sort_key').toArray();
    expect(homes.map((h) => h.address)).toEqual(['1 Banyan Cir', '9 Palm Way', '10 Palm Way']);
    for (const home of homes) expect(home.sort_key).toBe(homeSortKey(home));
    // The home edited offline keeps its mark.
    expect(homes[1]).toMatchObject({ _pending: 1, apt: 'Apt 2' });
  });

  it('every home written from then on carries its key, whoever writes it', async () => {
    await createVersion4Database();
    const db = userDatabase(USER);
    await db.houses.put({ id: 'house0000000004', address: '2 Banyan Cir', community: 'c1' } as never);
    await db.houses.update('house0000000001', { address: '3 Banyan Cir' });
    const homes = await db.houses.orderBy('sort_key').toArray();
    expect(homes.map((h) => h.address)).toEqual(['1 Banyan Cir', '2 Banyan Cir', '3 Banyan Cir', '9 Palm Way']);
    for (const home of homes) expect(home.sort_key).toBe(homeSortKey(home));
  });
});

/** The database as version 5 left it: a mirror, its cursors, queued work (one entry parked as failed). */
async function createVersion5Database(): Promise<void> {
  const v5 = new Dexie(databaseName(USER));
  v5.version(5).stores(VERSION_5_STORES);
  await v5.open();
  await v5.table('houses').put({ id: 'house0000000001', address: '10 Palm Way', community: 'c1', sort_key: 'x' });
  await v5.table('syncState').put({
    key: 'cursor:houses',
    value: { updated: '2026-11-20 10:00:00.000Z', id: 'house0000000001' },
  });
  for (const entry of version3Entries()) await v5.table('outbox').add(entry);
  v5.close();
}

describe('opening a database version 5 created (a first load kept as pages, version 6)', () => {
  it('keeps the queued work exactly as queued, the mirror and its cursors', async () => {
    await createVersion5Database();
    const db = userDatabase(USER);
    await db.open();
    expect(db.verno).toBe(DATABASE_VERSION);
    expect(DATABASE_VERSION).toBeGreaterThanOrEqual(6);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map(({ seq: _seq, ...rest }) => rest)).toEqual(version3Entries());
    expect(await db.outbox.where('recordKeys').equals('houses:house0000000001').count()).toBe(1);
    expect(await db.houses.get('house0000000001')).toMatchObject({ address: '10 Palm Way' });
    expect(await collectionsToLoad(db)).not.toContain('houses');
  });

  it('has an empty table of pages, and no pages in memory', async () => {
    await createVersion5Database();
    const db = userDatabase(USER);
    await db.open();
    expect(await db.load_pages.count()).toBe(0);
    expect(db.pages).toBeNull();
  });
});

/** The database as version 6 left it: a mirror, its cursors, queued work (one report parked as failed). */
async function createVersion6Database(): Promise<void> {
  const v6 = new Dexie(databaseName(USER));
  v6.version(6).stores(VERSION_6_STORES);
  await v6.open();
  await v6.table('houses').put({ id: 'house0000000001', address: '10 Palm Way', community: 'c1', sort_key: 'x' });
  await v6.table('reports').put({ id: 'rep000000000009', incident_time: '2026-11-20 10:00:00.000Z', house: '' });
  await v6.table('syncState').bulkPut([
    { key: 'cursor:houses', value: { updated: '2026-11-20 10:00:00.000Z', id: 'house0000000001' } },
    { key: 'cursor:reports', value: { updated: '2026-11-20 10:00:00.000Z', id: 'rep000000000009' } },
  ]);
  for (const entry of version3Entries()) await v6.table('outbox').add(entry);
  v6.close();
}

describe('opening a database version 6 created (checkpoint tours, version 7)', () => {
  it('keeps the queued work exactly as queued, the mirror and its cursors', async () => {
    await createVersion6Database();
    const db = userDatabase(USER);
    await db.open();
    expect(db.verno).toBe(DATABASE_VERSION);
    expect(DATABASE_VERSION).toBeGreaterThanOrEqual(7);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map(({ seq: _seq, ...rest }) => rest)).toEqual(version3Entries());
    expect(await db.outbox.where('status').equals('failed').count()).toBe(1);
    expect(await db.outbox.where('recordKeys').equals('houses:house0000000001').count()).toBe(1);
    expect(await db.houses.get('house0000000001')).toMatchObject({ address: '10 Palm Way' });
    expect(await db.reports.count()).toBe(1);
  });

  it('has the tour tables, empty and indexed, loaded with the next pull', async () => {
    await createVersion6Database();
    const db = userDatabase(USER);
    const toLoad = await collectionsToLoad(db);
    for (const table of ['checkpoints', 'tours', 'tour_walks', 'checkpoint_scans'] as const) {
      expect(await db.table(table).count(), table).toBe(0);
      expect(toLoad, table).toContain(table);
    }
    expect(toLoad).not.toContain('houses');
    expect(toLoad).not.toContain('reports');
    await db.tour_walks.bulkPut([
      { id: 'walk00000000001', tour: 'tour00000000001', round_start: '2026-11-26 01:00:00.000Z' },
      { id: 'walk00000000002', tour: 'tour00000000001', round_start: '2026-11-26 03:00:00.000Z' },
      { id: 'walk00000000003', tour: 'tour00000000002', round_start: '2026-11-26 01:00:00.000Z' },
    ] as never);
    await db.checkpoint_scans.bulkPut([
      { id: 'scan00000000001', walk: 'walk00000000001', checkpoint: 'cp0000000000001' },
      { id: 'scan00000000002', walk: 'walk00000000001', checkpoint: 'cp0000000000002' },
    ] as never);
    expect(
      await db.tour_walks.where('[tour+round_start]').equals(['tour00000000001', '2026-11-26 01:00:00.000Z']).count(),
    ).toBe(1);
    expect(await db.tour_walks.where('round_start').aboveOrEqual('2026-11-26 02:00:00.000Z').count()).toBe(1);
    expect(await db.checkpoint_scans.where('walk').equals('walk00000000001').count()).toBe(2);
  });
});

/** A walk queued on a phone of version 7: started, one scan, not yet sent. */
function queuedWalk(): OutboxEntry {
  const walk = { id: 'walk00000000009', tour: 'tour00000000001', round_start: '2026-11-26 01:00:00.000Z' };
  const scan = { id: 'scan00000000009', walk: walk.id, checkpoint: 'cp0000000000001', method: 'code', code: 'ABC234' };
  return {
    userId: USER,
    createdAt: '2026-11-26T01:03:00.000Z',
    label: 'Round of Night patrol',
    ops: [
      { action: 'create', collection: 'tour_walks', id: walk.id, body: walk },
      { action: 'create', collection: 'checkpoint_scans', id: scan.id, body: scan },
    ],
    recordKeys: [`tour_walks:${walk.id}`, `checkpoint_scans:${scan.id}`],
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
  };
}

/** The database as version 7 left it: the mirror with a walk, the tours loaded whole, queued work with a walk. */
async function createVersion7Database(): Promise<void> {
  const v7 = new Dexie(databaseName(USER));
  v7.version(7).stores(VERSION_7_STORES);
  await v7.open();
  await v7.table('houses').put({ id: 'house0000000001', address: '10 Palm Way', community: 'c1', sort_key: 'x' });
  await v7.table('tour_walks').put({
    id: 'walk00000000001',
    tour: 'tour00000000001',
    round_start: '2026-10-01 01:00:00.000Z',
  });
  await v7.table('syncState').bulkPut([
    { key: 'cursor:houses', value: { updated: '2026-11-20 10:00:00.000Z', id: 'house0000000001' } },
    { key: 'cursor:tour_walks', value: { updated: '2026-11-20 10:00:00.000Z', id: 'walk00000000001' } },
    { key: 'cursor:checkpoint_scans', value: { updated: '', id: '' } },
  ]);
  for (const entry of [...version3Entries(), queuedWalk()]) await v7.table('outbox').add(entry);
  v7.close();
}

describe('opening a database version 7 created (officer safety, version 8)', () => {
  it('keeps the queued work exactly as queued (a walk among it), the mirror and its cursors', async () => {
    await createVersion7Database();
    const db = userDatabase(USER);
    await db.open();
    expect(db.verno).toBe(DATABASE_VERSION);
    expect(DATABASE_VERSION).toBeGreaterThanOrEqual(8);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map(({ seq: _seq, ...rest }) => rest)).toEqual([...version3Entries(), queuedWalk()]);
    expect(await db.outbox.where('recordKeys').equals('tour_walks:walk00000000009').count()).toBe(1);
    expect(await db.tour_walks.get('walk00000000001')).toMatchObject({ round_start: '2026-10-01 01:00:00.000Z' });
  });

  it("counts the rounds it loaded whole as held in full, so an old day's rounds are not fetched again", async () => {
    await createVersion7Database();
    const db = userDatabase(USER);
    await db.open();
    expect(await historyRanges(db, 'tour_walks')).toEqual([{ from: 0, to: Number.MAX_SAFE_INTEGER }]);
    expect(await historyRanges(db, 'checkpoint_scans')).toEqual([{ from: 0, to: Number.MAX_SAFE_INTEGER }]);
  });

  it('has the safety tables, empty and indexed, loaded with the next pull', async () => {
    await createVersion7Database();
    const db = userDatabase(USER);
    const toLoad = await collectionsToLoad(db);
    for (const table of ['safety_settings', 'duty_shifts', 'alerts', 'alert_events'] as const) {
      expect(await db.table(table).count(), table).toBe(0);
      expect(toLoad, table).toContain(table);
    }
    expect(toLoad).not.toContain('houses');
    expect(toLoad).not.toContain('tour_walks');
    await db.duty_shifts.bulkPut([
      { id: 'shift0000000001', officer: 'user00000000001', ended_at: '' },
      { id: 'shift0000000002', officer: 'user00000000001', ended_at: '2026-11-26 09:00:00.000Z' },
    ] as never);
    await db.alerts.put({ id: 'alert0000000001', ended_at: '' } as never);
    await db.alert_events.put({ id: 'event0000000001', alert: 'alert0000000001' } as never);
    expect(await db.duty_shifts.where('ended_at').equals('').count()).toBe(1);
    expect(await db.duty_shifts.where('officer').equals('user00000000001').count()).toBe(2);
    expect(await db.alerts.where('ended_at').equals('').count()).toBe(1);
    expect(await db.alert_events.where('alert').equals('alert0000000001').count()).toBe(1);
  });
});
