/**
 * Log out on a shared patrol phone (src/data/mirror/wipe.ts): the user's
 * mirror leaves the device (every table but the outbox, the in-memory search
 * index, the cached images); the outbox, the user's own unsent writes, stays
 * whole; another user's sign-in removes what a previous user left but their
 * outbox; and a replay never sends one user's entries with another user's
 * session. fake-indexeddb, a stand-in Cache Storage.
 */
import PocketBase from 'pocketbase';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { closeUserDatabase, ScmsDatabase, userDatabase, type OutboxEntry } from '../../src/data/mirror/db.ts';
import { enqueue } from '../../src/data/sync/outbox.ts';
import { replayOutbox } from '../../src/data/sync/replay.ts';
import { searchIndexOf } from '../../src/data/mirror/searchIndex.ts';
import { loadSession, saveSession } from '../../src/data/sync/session.ts';
import {
  clearMirror,
  deleteImageCaches,
  releaseUserDatabase,
  removeOtherUsersData,
  unsentCount,
  usersOnDevice,
} from '../../src/data/mirror/wipe.ts';
import { houseRecord, STAMP } from '../support/records.ts';

let run = 0;
/** A PocketBase-shaped user id (15 of [a-z0-9]), new for each test. */
const newUserId = (who: string) => `${who}${String(++run).padStart(15 - who.length, '0')}`;

const MIRROR_TABLES = [
  'communities',
  'users',
  'houses',
  'residents',
  'phones',
  'concerns',
  'reports',
  'calls',
  'home_changes',
  'syncState',
] as const;

/** A mirror with a row in every table (a home with its security code, a resident, a phone, a report, staff), and a lease and cursors. */
async function fillMirror(db: ScmsDatabase): Promise<void> {
  await db.communities.put({
    id: 'c1',
    created: STAMP,
    updated: STAMP,
    name: 'Palm Grove Estates',
    address: '1 Palm Way',
  } as never);
  await db.users.put({
    id: 'staff0000000001',
    created: STAMP,
    updated: STAMP,
    email: 'pat@example.com',
    first_name: 'Pat',
    last_name: 'Doe',
    type: 'regular',
    community: 'c1',
  } as never);
  await db.houses.put(houseRecord({ id: 'house0000000001', security_code: '4821#', member_number: 'PGE-1001' }));
  await db.residents.put({
    id: 'resid0000000001',
    created: STAMP,
    updated: STAMP,
    first_name: 'Ada',
    last_name: 'Ng',
    owner: true,
    house: 'house0000000001',
  } as never);
  await db.phones.put({
    id: 'phone0000000001',
    created: STAMP,
    updated: STAMP,
    phone_number: '+15615550100',
    primary: true,
    type: 'cell',
    house: 'house0000000001',
  } as never);
  await db.concerns.put({
    id: 'conce0000000001',
    created: STAMP,
    updated: STAMP,
    name: 'Garage open',
    hint: 'h',
    say: 's',
    community: 'c1',
  } as never);
  await db.reports.put({
    id: 'repor0000000001',
    created: STAMP,
    updated: STAMP,
    narative: 'Gate found open',
    type: 'accident',
    incident_time: STAMP,
    house: 'house0000000001',
  } as never);
  await db.calls.put({ id: 'calls0000000001', created: STAMP, updated: STAMP, house: 'house0000000001' } as never);
  // The home's history: its old security code is in it too.
  await db.home_changes.put({
    id: 'chang0000000001',
    created: STAMP,
    updated: STAMP,
    house: 'house0000000001',
    field: 'security_code',
    from_value: '1111#',
    to_value: '4821#',
  } as never);
  await db.syncState.bulkPut([
    { key: 'cursor:houses', value: { updated: STAMP, id: 'house0000000001' } },
    { key: 'lastSyncAt', value: Date.now() },
  ]);
}

/** Two writes of the user the server has not confirmed: a report waiting to be sent, and a refused home update. */
async function queueWrites(db: ScmsDatabase, userId: string): Promise<OutboxEntry[]> {
  await enqueue(db, {
    userId,
    label: 'Accident report',
    ops: [
      {
        action: 'create',
        collection: 'reports',
        id: 'newre0000000001',
        body: { narative: 'Written offline', type: 'accident', created_by: userId },
      },
    ],
  });
  const seq = await enqueue(db, {
    userId,
    label: 'Update home: 12 Palm Way',
    ops: [{ action: 'update', collection: 'houses', id: 'house0000000001', body: { note: 'Dog in yard' } }],
  });
  await db.outbox.update(seq, { status: 'failed', error: 'An error occurred' });
  return db.outbox.orderBy('seq').toArray();
}

async function counts(db: ScmsDatabase): Promise<Record<string, number>> {
  return Object.fromEntries(
    await Promise.all(MIRROR_TABLES.map(async (table) => [table, await db.table(table).count()] as const)),
  );
}

const EMPTY = Object.fromEntries(MIRROR_TABLES.map((table) => [table, 0]));

/** Cache Storage as the page sees it: named caches, listed and deleted. */
class FakeCacheStorage {
  readonly names = new Set<string>();
  keys = () => Promise.resolve([...this.names]);
  delete = (name: string) => Promise.resolve(this.names.delete(name));
}
let cacheStorage: FakeCacheStorage;
beforeEach(() => {
  cacheStorage = new FakeCacheStorage();
  (globalThis as { caches?: unknown }).caches = cacheStorage;
});
afterEach(() => {
  delete (globalThis as { caches?: unknown }).caches;
});

describe('log out', () => {
  test('every table of the mirror is emptied; the outbox stays, entry for entry', async () => {
    const userId = newUserId('a');
    const db = userDatabase(userId);
    await fillMirror(db);
    const queued = await queueWrites(db, userId);
    expect(await unsentCount(db)).toBe(2);
    expect(Object.values(await counts(db)).every((n) => n > 0)).toBe(true);

    await clearMirror(db);
    expect(await counts(db)).toEqual(EMPTY);
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(queued);
    closeUserDatabase(userId);
  });

  test("releasing the database drops the search index, closes the page's connection and takes what a late write put back", async () => {
    const userId = newUserId('b');
    const db = userDatabase(userId);
    await fillMirror(db);
    const queued = await queueWrites(db, userId);
    const index = searchIndexOf(db);
    await index.ready('homes');
    await index.ready('reports');
    expect(index.homes.search('4821#')).toHaveLength(1);
    expect(index.reports.size).toBeGreaterThan(0);

    await clearMirror(db);
    // A page of a pull that was under way when the engine stopped lands after the clearing.
    await db.houses.put(houseRecord({ id: 'house0000000002', security_code: '9999#' }));
    await releaseUserDatabase(userId);

    // Nothing of the community stays in memory, and the next sign-in gets a new index of a new connection.
    expect(index.homes.size).toBe(0);
    expect(index.homes.search('')).toEqual([]);
    expect(index.reports.size).toBe(0);
    expect(db.isOpen()).toBe(false);
    await expect(db.houses.put(houseRecord({ id: 'house0000000003' }))).rejects.toMatchObject({
      name: 'DatabaseClosedError',
    });
    const again = userDatabase(userId);
    expect(again).not.toBe(db);
    expect(searchIndexOf(again)).not.toBe(index);

    expect(await counts(again)).toEqual(EMPTY);
    expect(await again.outbox.orderBy('seq').toArray()).toEqual(queued);
    closeUserDatabase(userId);
  });

  test('with nothing unsent the database is left empty', async () => {
    const userId = newUserId('c');
    const db = userDatabase(userId);
    await fillMirror(db);
    expect(await unsentCount(db)).toBe(0);
    await clearMirror(db);
    await releaseUserDatabase(userId);
    const again = userDatabase(userId);
    expect(await counts(again)).toEqual(EMPTY);
    expect(await again.outbox.count()).toBe(0);
    closeUserDatabase(userId);
  });

  test('cached images of every user go (scms-images-*); the app shell stays', async () => {
    for (const name of [
      'scms-images-a00000000000001',
      'scms-images-b00000000000002',
      'workbox-precache-v2-http://127.0.0.1/',
    ])
      cacheStorage.names.add(name);
    expect((await deleteImageCaches()).sort()).toEqual(['scms-images-a00000000000001', 'scms-images-b00000000000002']);
    expect([...cacheStorage.names]).toEqual(['workbox-precache-v2-http://127.0.0.1/']);
  });

  test('without Cache Storage there is nothing to delete', async () => {
    delete (globalThis as { caches?: unknown }).caches;
    await expect(deleteImageCaches()).resolves.toEqual([]);
  });
});

describe('another user signs in on the device', () => {
  test("what the previous user left goes but their outbox; the new user's own mirror and the saved session stay", async () => {
    const previous = newUserId('d');
    const next = newUserId('e');
    const left = userDatabase(previous);
    await fillMirror(left);
    const queued = await queueWrites(left, previous);
    const mine = userDatabase(next);
    await fillMirror(mine);
    await saveSession('token-of-next', { id: next } as never);
    // A database of another kind whose name starts alike is not a user's.
    const other = new ScmsDatabase('settings');
    await other.syncState.put({ key: 'x', value: 1 });
    other.close();
    for (const name of [`scms-images-${previous}`, `scms-images-${next}`]) cacheStorage.names.add(name);

    expect(await usersOnDevice()).toEqual(expect.arrayContaining([previous, next]));
    expect(await usersOnDevice()).not.toContain('settings');
    expect(await removeOtherUsersData(next)).toContain(previous);

    const reopened = userDatabase(previous);
    expect(reopened).not.toBe(left);
    expect(await counts(reopened)).toEqual(EMPTY);
    expect(await reopened.outbox.orderBy('seq').toArray()).toEqual(queued);
    expect(Object.values(await counts(mine)).every((n) => n > 0)).toBe(true);
    expect(await loadSession()).toMatchObject({ token: 'token-of-next' });
    const settings = new ScmsDatabase('settings');
    expect(await settings.syncState.count()).toBe(1);
    settings.close();
    expect([...cacheStorage.names]).toEqual([`scms-images-${next}`]);
    closeUserDatabase(previous);
    closeUserDatabase(next);
  });
});

describe("replay keeps each user's entries to their own session", () => {
  /** A client of a server that cannot be reached: any request it sends fails as offline. */
  function clientOf(userId: string): PocketBase {
    const pb = new PocketBase('http://127.0.0.1:9');
    pb.authStore.save('token', { id: userId, collectionId: '_pb_users_auth_', collectionName: 'users' } as never);
    return pb;
  }

  test('signed in as another user, nothing is sent and the entries stay as they were', async () => {
    const owner = newUserId('f');
    const db = userDatabase(owner);
    const queued = await queueWrites(db, owner);
    await db.outbox.update(queued[1]!.seq!, { status: 'pending', error: undefined });
    const before = await db.outbox.orderBy('seq').toArray();

    const result = await replayOutbox({ pb: clientOf(newUserId('g')), db, owner: 'tab' });
    expect(result).toEqual({ outcome: 'auth-required', delivered: 0, parked: 0 });
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(before);

    // The owner's session does try to send them (and finds the server unreachable).
    const own = await replayOutbox({ pb: clientOf(owner), db, owner: 'tab' });
    expect(own.outcome).toBe('offline');
    expect((await db.outbox.get(before[0]!.seq!))?.attempts).toBe(1);
    closeUserDatabase(owner);
  });
});
