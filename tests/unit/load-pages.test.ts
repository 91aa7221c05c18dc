/**
 * A first load kept as pages (src/data/mirror/loadPages.ts): until the pages
 * are unpacked into rows, every read of the mirror sees their records as if
 * they were rows, merged with the table's in index order, the table's copy
 * first; writes and deletions take records out of them; a reload brings
 * them back; the unpacker writes them as a pull would.
 */
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { closeUserDatabase, databaseName, userDatabase, type ScmsDatabase } from '../../src/data/mirror/db.ts';
import { pageBody, pageRecords, type LoadPageRow } from '../../src/data/mirror/loadPages.ts';
import { storeLoadPage } from '../../src/data/mirror/loadPageStore.ts';
import { unpackLoadPages } from '../../src/data/mirror/unpack.ts';
import { holdUnpacking } from '../../src/data/sync/load.ts';
import { clearMirror } from '../../src/data/mirror/wipe.ts';
import { enqueue } from '../../src/data/sync/outbox.ts';
import { applyServerRecords, removeServerRecords } from '../../src/data/mirror/mirror.ts';
import type { RecordModel } from 'pocketbase';

const USER = 'pagesuser000001';
const STAMP = '2026-11-20 10:00:00.000Z';

afterEach(async () => {
  closeUserDatabase(USER);
  await Dexie.delete(databaseName(USER));
});

type Fields = Record<string, unknown>;

/** A page as the route sends it: the field names once, a row of values per record. */
function page(collection: LoadPageRow['collection'], key: string, records: Fields[]): LoadPageRow {
  const fields = [...new Set(records.flatMap((record) => Object.keys(record)))];
  const rows = records.map((record) => fields.map((field) => record[field] ?? ''));
  return { key, collection, text: JSON.stringify({ fields, rows, last: records.at(-1)?.id ?? '' }) };
}

async function store(db: ScmsDatabase, row: LoadPageRow): Promise<void> {
  const { fields, rows } = pageBody(row);
  await storeLoadPage(db, row, pageRecords(row.collection, fields, rows));
}

const house = (id: string, address: string, extra: Fields = {}) => ({
  id,
  address,
  apt: '',
  community: 'c1',
  updated: STAMP,
  ...extra,
});
const resident = (id: string, home: string, first: string) => ({
  id,
  house: home,
  first_name: first,
  created: STAMP,
  updated: STAMP,
});

/** Three homes in pages, one in the table; residents in pages and the table. */
async function mixedMirror(): Promise<ScmsDatabase> {
  const db = userDatabase(USER);
  await db.houses.put(house('h00000000000002', '20 Palm Way') as never);
  await store(
    db,
    page('houses', 'houses::', [
      house('h00000000000001', '10 Palm Way'),
      house('h00000000000003', '5 Banyan Cir'),
      house('h00000000000004', '30 Palm Way'),
    ]),
  );
  await db.residents.put(resident('r00000000000002', 'h00000000000001', 'Table') as never);
  await store(
    db,
    page('residents', 'residents::', [
      resident('r00000000000001', 'h00000000000001', 'Paged'),
      resident('r00000000000003', 'h00000000000003', 'Other'),
    ]),
  );
  return db;
}

describe('reads see the pages and the tables as one mirror', () => {
  it('get, bulkGet, count and the whole table', async () => {
    const db = await mixedMirror();
    expect(await db.houses.get('h00000000000001')).toMatchObject({ address: '10 Palm Way', collectionName: 'houses' });
    expect(await db.houses.get('h00000000000002')).toMatchObject({ address: '20 Palm Way' });
    expect(await db.houses.get('h00000000000009')).toBeUndefined();
    const many = await db.houses.bulkGet(['h00000000000004', 'h00000000000002', 'h00000000000009']);
    expect(many.map((h) => h?.address)).toEqual(['30 Palm Way', '20 Palm Way', undefined]);
    expect(await db.houses.count()).toBe(4);
    expect((await db.houses.toArray()).map((h) => h.id)).toEqual([
      'h00000000000001',
      'h00000000000002',
      'h00000000000003',
      'h00000000000004',
    ]);
    expect(await db.houses.toCollection().primaryKeys()).toHaveLength(4);
  });

  it('an index in its order, with a limit, both directions, and keys only', async () => {
    const db = await mixedMirror();
    const top = await db.houses.orderBy('sort_key').limit(3).toArray();
    expect(top.map((h) => h.address)).toEqual(['5 Banyan Cir', '10 Palm Way', '20 Palm Way']);
    const last = await db.houses.orderBy('sort_key').reverse().limit(2).toArray();
    expect(last.map((h) => h.address)).toEqual(['30 Palm Way', '20 Palm Way']);
    const keys = await db.houses.where('address').between('1', '4').primaryKeys();
    expect(keys).toEqual(['h00000000000001', 'h00000000000002', 'h00000000000004']);
    expect(await db.houses.where('address').startsWith('5 ').count()).toBe(1);
  });

  it("a home's residents, from the pages and the table", async () => {
    const db = await mixedMirror();
    const people = await db.residents.where('house').equals('h00000000000001').sortBy('first_name');
    expect(people.map((p) => p.first_name)).toEqual(['Paged', 'Table']);
  });

  it('what a reader changes in a record it read is its own copy', async () => {
    const db = await mixedMirror();
    const read = (await db.houses.get('h00000000000001'))!;
    read.address = 'changed';
    expect(await db.houses.get('h00000000000001')).toMatchObject({ address: '10 Palm Way' });
  });

  it('a cursor over a table with records in pages says so instead of reading half of it', async () => {
    const db = await mixedMirror();
    await expect(db.houses.filter((h) => h.address.length > 0).toArray()).rejects.toThrow(/first load's pages/);
  });
});

describe('a record is in the pages or in its table, never both', () => {
  it('a page leaves out what the table already holds', async () => {
    const db = userDatabase(USER);
    await db.houses.put(house('h00000000000001', 'newer address', { updated: '2026-11-21 10:00:00.000Z' }) as never);
    await store(db, page('houses', 'houses::', [house('h00000000000001', 'older address')]));
    expect(await db.houses.count()).toBe(1);
    expect(await db.houses.get('h00000000000001')).toMatchObject({ address: 'newer address' });
  });

  it('a page newer than the row the table holds replaces it (the home changed after the top of the list was read)', async () => {
    const db = userDatabase(USER);
    // The top of the Homes list, read before the change; the change; then the home's page.
    await db.houses.put(house('h00000000000001', 'older address') as never);
    await store(
      db,
      page('houses', 'houses::', [
        house('h00000000000001', 'newer address', { updated: '2026-11-21 10:00:00.000Z' }),
        house('h00000000000002', '20 Palm Way'),
      ]),
    );
    expect(await db.houses.count()).toBe(2);
    expect(await db.houses.get('h00000000000001')).toMatchObject({ address: 'newer address' });
    // And once the pages are unpacked (the page's copy of it left out, never written back over it).
    await unpackLoadPages(db);
    expect(await db.load_pages.count()).toBe(0);
    expect(await db.houses.get('h00000000000001')).toMatchObject({
      address: 'newer address',
      updated: '2026-11-21 10:00:00.000Z',
    });
    expect(await db.houses.get('h00000000000002')).toMatchObject({ address: '20 Palm Way' });
  });

  it('the version the table holds already (the top of the Homes list) is not written again', async () => {
    const db = userDatabase(USER);
    await db.houses.put(house('h00000000000001', 'as the top of the list read it') as never);
    let writes = 0;
    db.houses.hook('updating', () => void writes++);
    // The same version (the same `updated`): written again, the row would take the page's text.
    await store(
      db,
      page('houses', 'houses::', [
        house('h00000000000001', 'the same version'),
        house('h00000000000002', '20 Palm Way'),
      ]),
    );
    expect(writes).toBe(0);
    expect(await db.houses.get('h00000000000001')).toMatchObject({ address: 'as the top of the list read it' });
    expect(await db.houses.count()).toBe(2);
  });

  it('a write of a paged record takes it out: an index no longer finds the old copy', async () => {
    const db = await mixedMirror();
    await applyServerRecords(db, 'houses', [
      house('h00000000000003', '99 Palm Way', { updated: '2026-11-21 10:00:00.000Z' }) as unknown as RecordModel,
    ]);
    expect((await db.houses.where('address').startsWith('5 ').toArray()).length).toBe(0);
    expect(await db.houses.get('h00000000000003')).toMatchObject({ address: '99 Palm Way' });
    expect(await db.houses.count()).toBe(4);
  });

  it('an older copy from a pull does not replace the paged one (newer wins, as with rows)', async () => {
    const db = await mixedMirror();
    await applyServerRecords(db, 'houses', [
      house('h00000000000003', 'older', { updated: '2026-11-01 10:00:00.000Z' }) as unknown as RecordModel,
    ]);
    expect(await db.houses.get('h00000000000003')).toMatchObject({ address: '5 Banyan Cir' });
  });

  it('an edit queued offline shows at once over the paged copy', async () => {
    const db = await mixedMirror();
    await enqueue(db, {
      userId: USER,
      label: 'Edit home',
      ops: [{ action: 'update', collection: 'houses', id: 'h00000000000004', body: { note: 'gate code 12' } }],
    });
    expect(await db.houses.get('h00000000000004')).toMatchObject({
      address: '30 Palm Way',
      note: 'gate code 12',
      _pending: 1,
    });
  });
});

describe('deleting a record that is only in the pages', () => {
  it('is gone at once, and stays gone after a reload', async () => {
    const db = await mixedMirror();
    await enqueue(db, {
      userId: USER,
      label: 'Delete home',
      ops: [{ action: 'delete', collection: 'houses', id: 'h00000000000004', body: {} }],
    });
    expect(await db.houses.get('h00000000000004')).toBeUndefined();
    expect(await db.houses.count()).toBe(3);
    // The stored page loses it right after the deleting write.
    await expect
      .poll(async () => {
        const stored = await db.load_pages.get('houses::');
        return stored && pageBody(stored).rows.length;
      })
      .toBe(2);
    closeUserDatabase(USER);
    const again = userDatabase(USER);
    expect(await again.houses.get('h00000000000004')).toBeUndefined();
    expect(await again.houses.count()).toBe(3);
  });

  it('a reload before the stored page lost it still leaves out what the outbox deletes', async () => {
    const db = await mixedMirror();
    closeUserDatabase(USER);
    // As a crash between the deletion and the page's edit leaves it: the entry queued, the page whole.
    const raw = new Dexie(databaseName(USER));
    await raw.open();
    await raw.table('outbox').add({
      userId: USER,
      createdAt: '2026-11-24T02:14:00.000Z',
      label: 'Delete home',
      ops: [{ action: 'delete', collection: 'houses', id: 'h00000000000003', body: {} }],
      recordKeys: ['houses:h00000000000003'],
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
    });
    raw.close();
    void db;
    const again = userDatabase(USER);
    expect(await again.houses.get('h00000000000003')).toBeUndefined();
    expect(await again.houses.get('h00000000000001')).toMatchObject({ address: '10 Palm Way' });
  });
});

describe('Log out before the pages were unpacked', () => {
  it('leaves no record in the tables, the pages or memory, and nothing to unpack', async () => {
    const db = await mixedMirror();
    await clearMirror(db);
    expect(await db.houses.count()).toBe(0);
    expect(await db.residents.where('house').equals('h00000000000001').count()).toBe(0);
    expect(await db.load_pages.count()).toBe(0);
    await unpackLoadPages(db);
    expect(await db.houses.count()).toBe(0);
    closeUserDatabase(USER);
    expect(await userDatabase(USER).houses.count()).toBe(0);
  });
});

describe('a reload before the pages were unpacked', () => {
  it('reads the same mirror', async () => {
    const db = await mixedMirror();
    const before = await db.houses.orderBy('sort_key').toArray();
    closeUserDatabase(USER);
    const again = userDatabase(USER);
    expect(await again.houses.orderBy('sort_key').toArray()).toEqual(before);
    expect(await again.residents.where('house').equals('h00000000000001').count()).toBe(2);
  });
});

describe('unpacking', () => {
  it('waits while a first pull holds it, and starts once the pull lets go', async () => {
    const db = await mixedMirror();
    const release = holdUnpacking(db);
    let done = false;
    const unpacking = unpackLoadPages(db).then(() => (done = true));
    // Longer than the unpacker's wait between two looks (250 ms): it looked and kept waiting.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(done).toBe(false);
    expect(await db.load_pages.count()).toBe(2);
    release();
    await unpacking;
    expect(await db.load_pages.count()).toBe(0);
  });

  it('writes every page as rows, as a pull would, and empties the pages', async () => {
    const db = await mixedMirror();
    // A newer copy arrived meanwhile, and an edit waits in the outbox.
    await applyServerRecords(db, 'houses', [
      house('h00000000000001', 'renamed', { updated: '2026-11-21 10:00:00.000Z' }) as unknown as RecordModel,
    ]);
    await enqueue(db, {
      userId: USER,
      label: 'Edit home',
      ops: [{ action: 'update', collection: 'houses', id: 'h00000000000004', body: { note: 'queued' } }],
    });
    const before = await db.houses.orderBy('sort_key').toArray();
    await unpackLoadPages(db);
    expect(await db.load_pages.count()).toBe(0);
    expect(db.pages?.collectionsLeft([])).toEqual([]);
    expect(await db.houses.orderBy('sort_key').toArray()).toEqual(before);
    // The rows themselves, read past the mirror's reads.
    closeUserDatabase(USER);
    const raw = new Dexie(databaseName(USER));
    await raw.open();
    const rows = await raw.table('houses').orderBy('id').toArray();
    raw.close();
    expect(rows.map((r: { address: string }) => r.address)).toEqual([
      'renamed',
      '20 Palm Way',
      '5 Banyan Cir',
      '30 Palm Way',
    ]);
    expect(rows[3]).toMatchObject({ note: 'queued', _pending: 1 });
    expect(rows[2]).toMatchObject({ collectionName: 'houses', sort_key: expect.any(String) });
  });

  it('a deletion committed while the unpacking waited for the table is not written back', async () => {
    const db = await mixedMirror();
    // A reconciliation's deletion of a record only in the pages, its transaction first in line...
    const deleting = removeServerRecords(db, 'houses', ['h00000000000003']);
    // ...and the unpacking asking for the same table meanwhile.
    const unpacking = unpackLoadPages(db);
    await Promise.all([deleting, unpacking]);
    expect(await db.houses.get('h00000000000003')).toBeUndefined();
    expect((await db.houses.toArray()).map((h) => h.id)).toEqual([
      'h00000000000001',
      'h00000000000002',
      'h00000000000004',
    ]);
  });

  it("a newer row written past this tab's pages (another tab's write) is kept", async () => {
    const db = await mixedMirror();
    await db.transaction('rw', db.houses, async (tx) => {
      db.pages!.markRaw(tx.idbtrans);
      await db.houses.put(
        house('h00000000000003', 'from another tab', { updated: '2026-11-22 10:00:00.000Z' }) as never,
      );
    });
    await unpackLoadPages(db);
    expect(await db.houses.get('h00000000000003')).toMatchObject({ address: 'from another tab' });
    expect(await db.houses.get('h00000000000004')).toMatchObject({ address: '30 Palm Way' });
  });

  it('announces nothing: the mirror its readers see did not change', async () => {
    const db = await mixedMirror();
    const parts: string[] = [];
    const listener = (changed: Record<string, unknown>) => parts.push(...Object.keys(changed));
    Dexie.on.storagemutated.subscribe(listener);
    try {
      await unpackLoadPages(db);
    } finally {
      Dexie.on.storagemutated.unsubscribe(listener);
    }
    expect(await db.load_pages.count()).toBe(0);
    expect(parts.filter((part) => /\/(houses|residents)\//.test(part))).toEqual([]);
  });

  it("the newest call of each home comes from the calls' pages, and is the same once they are rows", async () => {
    const db = userDatabase(USER);
    const call = (id: string, home: string, created: string, status: string) => ({
      id,
      house: home,
      created,
      updated: created,
      status,
      progress: 'done',
      outcome: 'answered',
      acknowledged: false,
    });
    await store(db, page('calls', 'calls::', [call('c00000000000001', 'h1', '2026-11-01 10:00:00.000Z', 'completed')]));
    await store(
      db,
      page('calls', 'calls:c1:', [
        call('c00000000000002', 'h1', '2026-11-02 10:00:00.000Z', 'failed'),
        call('c00000000000003', 'h2', '2026-11-01 10:00:00.000Z', 'completed'),
      ]),
    );
    const latest = async () => (await db.latest_calls.bulkGet(['h1', 'h2'])).map((row) => row?.call);
    expect(await latest()).toEqual(['c00000000000002', 'c00000000000003']);
    await unpackLoadPages(db);
    expect(await db.calls.count()).toBe(3);
    expect(await latest()).toEqual(['c00000000000002', 'c00000000000003']);
    expect(await db.latest_calls.count()).toBe(2);
  });
});
