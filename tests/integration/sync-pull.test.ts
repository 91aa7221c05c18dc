import '../support/browser-globals.ts';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, onTestFinished, test, vi } from 'vitest';
import { MIRRORED_COLLECTIONS, type CollectionName } from '../../src/api/records.ts';
import { getSyncState, ScmsDatabase } from '../../src/data/mirror/db.ts';
import { CURSOR_FILTER } from '../../src/domain/pullFilter.ts';
import { overlayOf } from '../../src/data/mirror/loadPageStore.ts';
import { unpackLoadPages } from '../../src/data/mirror/unpack.ts';
import { ensureHistoryRange } from '../../src/data/sync/load.ts';
import { historyRanges, pbDate, pullAll, pullCollection, type LoadProgress } from '../../src/data/sync/pull.ts';
import {
  FIRST_LOAD_ROUND_DAYS,
  firstLoadRange,
  historyFilter,
  isHistory,
  TOUR_HISTORY,
} from '../../src/data/sync/ranges.ts';
import { reconcileCollection } from '../../src/data/sync/reconcile.ts';
import { subscribeRealtime } from '../../src/data/sync/realtime.ts';
import { createInBatches } from '../support/batches.ts';
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
let officer: PocketBase;

const house = (community: string, n: number) => ({
  id: newId(),
  address: `${n} Palm Way`,
  city: 'Jupiter',
  state: 'FL',
  zip: '33458',
  community,
});
const report = (f: CommunityFixture, when: Date, narative = 'Patrol note') => ({
  id: newId(),
  narative,
  type: 'loud_noise',
  weather: 'clear',
  incident_time: when.toISOString(),
  community: f.community.id,
  created_by: f.regular.id,
});

function freshDb(): ScmsDatabase {
  return new ScmsDatabase(`${a.regular.id}-${newId()}`);
}

beforeAll(async () => {
  t = await startTestServer();
  a = await createCommunity(t.admin, 'a');
  b = await createCommunity(t.admin, 'b');
  // More than two pages of 500, to exercise the keyset paging.
  await createInBatches(
    t.admin,
    'houses',
    Array.from({ length: 1203 }, (_, i) => house(a.community.id, i)),
  );
  await t.admin.collection('houses').create(house(b.community.id, 1));
  officer = await t.signIn(a.regular.email);
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('pull', () => {
  test('a first full load brings every record of the community and nothing of another', async () => {
    const db = freshDb();
    const counts = await pullAll({ pb: officer, db });
    expect(counts.houses).toBe(1203);
    expect(await db.houses.count()).toBe(1203);
    expect(await db.houses.where('community').equals(b.community.id).count()).toBe(0);
    expect(await db.users.count()).toBe(3);
    expect(await db.communities.count()).toBe(1);
  });

  test('an incremental pull brings only what changed since the last one', async () => {
    const db = freshDb();
    await pullAll({ pb: officer, db });
    // A query, not a cursor: the first load's pages may not be rows yet (pagedTable.ts).
    const [existing] = await db.houses.toArray();
    await t.admin.collection('houses').update(existing!.id, { note: 'gate code changed' });
    const added = await t.admin.collection('houses').create(house(a.community.id, 9999));
    const pulled = await pullCollection({ pb: officer, db }, 'houses');
    expect(pulled).toBe(2);
    expect((await db.houses.get(existing!.id))?.note).toBe('gate code changed');
    expect(await db.houses.get(added.id)).toBeDefined();
    expect(await pullCollection({ pb: officer, db }, 'houses')).toBe(0);
  });

  test('reports: the first load takes this month and last; older months on demand', async () => {
    const now = new Date();
    const thisMonth = report(a, new Date(now.getFullYear(), now.getMonth(), 1, 12));
    const lastMonth = report(a, new Date(now.getFullYear(), now.getMonth() - 1, 2, 12));
    const old = report(a, new Date(now.getFullYear(), now.getMonth() - 4, 3, 12));
    for (const r of [thisMonth, lastMonth, old]) await t.admin.collection('reports').create(r);
    const db = freshDb();
    await pullAll({ pb: officer, db });
    expect(await db.reports.get(thisMonth.id)).toBeDefined();
    expect(await db.reports.get(lastMonth.id)).toBeDefined();
    expect(await db.reports.get(old.id)).toBeUndefined();
    const pulled = await ensureHistoryRange({ pb: officer, db }, ['reports'], {
      from: new Date(now.getFullYear(), now.getMonth() - 4, 1).getTime(),
      to: new Date(now.getFullYear(), now.getMonth() - 4, 28).getTime(),
    });
    expect(pulled).toBe(1);
    expect(await db.reports.get(old.id)).toBeDefined();
    // Already covered: nothing is asked of the server again.
    expect(
      await ensureHistoryRange({ pb: officer, db }, ['reports'], {
        from: new Date(now.getFullYear(), now.getMonth() - 4, 5).getTime(),
        to: new Date(now.getFullYear(), now.getMonth() - 4, 6).getTime(),
      }),
    ).toBe(0);
    expect((await historyRanges(db, 'reports')).length).toBe(2);
  });

  test("rounds: the first load takes the last days' walks with their scans; an older day on demand", async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const tourWorld = async (f: CommunityFixture) => {
      const checkpoint = await t.admin.collection('checkpoints').create({
        name: 'Gate',
        position: { latitude: 26.93, longitude: -80.09, accuracy: 5 },
        radius: 30,
        community: f.community.id,
        created_by: f.director.id,
      });
      const tour = await t.admin.collection('tours').create({
        name: 'Night',
        checkpoints: [checkpoint.id],
        start: '20:00',
        end: '06:00',
        every_minutes: 120,
        round_minutes: 30,
        community: f.community.id,
        created_by: f.director.id,
      });
      // A walk of a round `daysAgo` back, its scan made `scanLater` days after the round started.
      return async (daysAgo: number, scanLater = 0) => {
        const roundStart = now - daysAgo * DAY;
        const walk = await t.admin.collection('tour_walks').create({
          tour: tour.id,
          officer: f.regular.id,
          round_start: pbDate(new Date(roundStart)),
          started_at: pbDate(new Date(roundStart)),
          community: f.community.id,
        });
        const scan = await t.admin.collection('checkpoint_scans').create({
          walk: walk.id,
          checkpoint: checkpoint.id,
          officer: f.regular.id,
          scanned_at: pbDate(new Date(roundStart + scanLater * DAY)),
          method: 'camera',
          community: f.community.id,
        });
        return { walk: walk.id, scan: scan.id, roundStart };
      };
    };
    const walkA = await tourWorld(a);
    const walkB = await tourWorld(b);
    const recent = await walkA(2);
    // Its scan was made (or sent) well after the first load's days began: it still belongs to its old walk.
    const old = await walkA(FIRST_LOAD_ROUND_DAYS + 12, FIRST_LOAD_ROUND_DAYS + 10);
    const foreign = await walkB(FIRST_LOAD_ROUND_DAYS + 12);

    const db = freshDb();
    await pullAll({ pb: officer, db });
    expect(await db.tour_walks.get(recent.walk)).toBeDefined();
    expect(await db.checkpoint_scans.get(recent.scan)).toBeDefined();
    expect(await db.tour_walks.get(old.walk)).toBeUndefined();
    expect(await db.checkpoint_scans.get(old.scan)).toBeUndefined();
    for (const collection of TOUR_HISTORY) expect(await historyRanges(db, collection)).toHaveLength(1);

    // The old round's day: its walk and the scan of it, nothing of the other community.
    const day = { from: old.roundStart - DAY / 2, to: old.roundStart + DAY / 2 };
    expect(await ensureHistoryRange({ pb: officer, db }, TOUR_HISTORY, day)).toBe(2);
    expect(await db.tour_walks.get(old.walk)).toBeDefined();
    expect(await db.checkpoint_scans.get(old.scan)).toBeDefined();
    expect(await db.tour_walks.get(foreign.walk)).toBeUndefined();
    expect(await db.checkpoint_scans.get(foreign.scan)).toBeUndefined();
    expect(await ensureHistoryRange({ pb: officer, db }, TOUR_HISTORY, day)).toBe(0);

    // Deleted on the server while the device was not listening: the reconciliation of the day's range removes it.
    await t.admin.collection('checkpoint_scans').delete(old.scan);
    expect(await reconcileCollection({ pb: officer, db }, 'checkpoint_scans')).toBe(1);
    expect(await db.checkpoint_scans.get(old.scan)).toBeUndefined();
    expect(await db.checkpoint_scans.get(recent.scan)).toBeDefined();

    // A device that loaded the rounds whole before they were a history (a cursor, no ranges) holds all of them.
    const earlier = freshDb();
    await earlier.syncState.put({ key: 'cursor:tour_walks', value: { updated: '', id: '' } });
    expect(await historyRanges(earlier, 'tour_walks')).toEqual([{ from: 0, to: Number.MAX_SAFE_INTEGER }]);
    expect(await historyRanges(earlier, 'checkpoint_scans')).toEqual([]);
  });
});

describe('a catch-up pull that finds nothing', () => {
  /** PocketBase's own words when it holds an empty filtered list back (apis/record_crud.go), logged at debug level. */
  const THROTTLED = 'Randomized throttle because of too many failed searches';
  const throttledSince = async (since: string) =>
    (
      await t.admin.logs.getList(1, 200, {
        filter: t.admin.filter('message = {:m} && created >= {:since}', { m: THROTTLED, since }),
      })
    ).items;

  test("is answered at once however often it comes; the same question asked in other words keeps PocketBase's random wait", async () => {
    // Debug entries kept, so that the wait PocketBase adds is seen in its log, not guessed from a clock.
    await t.admin.settings.update({ logs: { minLevel: -4 } });
    onTestFinished(async () => {
      await t.admin.settings.update({ logs: { minLevel: 0 } });
    });
    const db = freshDb();
    await pullAll({ pb: officer, db });
    // What the earlier tests changed a moment ago comes with a second pull, if at all.
    await pullAll({ pb: officer, db });
    const cursor = await getSyncState<{ updated: string; id: string }>(db, 'cursor:houses');
    expect(cursor?.updated).toBeTruthy();
    const pullsFrom = pbDate(new Date(Date.now() - 1000));
    // Five catch-up pulls of the homes in a row, one request each: PocketBase waits from the fourth
    // empty answer of a collection within 3 s.
    for (let i = 0; i < 5; i++) expect(await pullCollection({ pb: officer, db }, 'houses')).toBe(0);
    // The same question at the same pace with one more space, which the server does not take for a pull's:
    // its wait must show in the log, so the pace above was one that meets it.
    const othersFrom = pbDate(new Date());
    const sameInOtherWords = `${officer.filter(CURSOR_FILTER, { u: cursor!.updated, id: cursor!.id })} `;
    for (let i = 0; i < 5; i++) {
      const page = await officer
        .collection('houses')
        .getList(1, 500, { filter: sameInOtherWords, sort: 'updated,id', skipTotal: true, requestKey: null });
      expect(page.items).toEqual([]);
    }
    // The log is written in batches, in order: once the other words' entry is in, every pull's would be too.
    await vi.waitFor(async () => expect((await throttledSince(othersFrom)).length).toBeGreaterThan(0), {
      timeout: 30_000,
      interval: 250,
    });
    const throttled = await throttledSince(pullsFrom);
    // The pulls held back: none.
    expect(throttled.filter((entry) => entry.created < othersFrom).map((entry) => entry.data.collectionId)).toEqual([]);
  });
});

describe('first load', () => {
  test('without the first-load route: reads the records API by id ranges side by side, writes whole records without the SDK extras, and says how far it is', async () => {
    const db = freshDb();
    const seen: Array<{ collection: string; progress: LoadProgress | null }> = [];
    const urls: string[] = [];
    const pb = await t.signIn(a.regular.email);
    // A server without the first-load route (an older one): its real 404 sends the load to the records API's pages.
    pb.beforeSend = (url, options) => ({
      url: url.replace('/api/scms/first-load/', '/api/scms/no-such-route/'),
      options,
    });
    pb.afterSend = (response, data) => {
      urls.push(response.url);
      return data;
    };
    const counts = await pullAll({ pb, db, onProgress: (collection, progress) => seen.push({ collection, progress }) });
    const homes = await db.houses.count();
    expect(counts.houses).toBe(homes);
    expect(homes).toBeGreaterThanOrEqual(1203);
    // Progress of the homes: unknown total, then the total, growing counts, and the end (null).
    const houses = seen.filter((s) => s.collection === 'houses').map((s) => s.progress);
    expect(houses[0]).toEqual({ loaded: 0, total: null });
    expect(houses[1]).toEqual({ loaded: 0, total: homes });
    expect(houses.at(-2)).toEqual({ loaded: homes, total: homes });
    expect(houses.at(-1)).toBeNull();
    // More than one page, read by id range (several requests): every home once.
    const pages = urls.filter(
      (u) => u.includes('/api/collections/houses/records') && decodeURIComponent(u).includes('id <'),
    );
    expect(pages.length).toBeGreaterThan(2);
    // It asked the route once per collection it serves, and no more once told there is none.
    expect(urls.filter((u) => u.includes('/api/scms/no-such-route/houses'))).toHaveLength(1);
    const row = (await db.houses.limit(1).first()) as unknown as Record<string, unknown>;
    expect(row.collectionId).toBeUndefined();
    expect(row.expand).toBeUndefined();
    expect(Object.keys(row).sort()).toEqual([
      'address',
      'apt',
      'city',
      'collectionName',
      'community',
      'created',
      'house_check',
      'house_check_end_date',
      'house_check_last_date',
      'house_check_note',
      'house_check_start_date',
      'id',
      'image',
      'member_number',
      'note',
      'pending_call_concerns_ids',
      'security_code',
      'sort_key',
      'state',
      'updated',
      'zip',
    ]);
  });

  test('a change made on the server during the first load comes with the next pull', async () => {
    const db = freshDb();
    const pb = await t.signIn(a.regular.email);
    const target = await t.admin.collection('houses').create(house(a.community.id, 8000));
    let changed = false;
    // The change lands right after the homes' page was read (with the old note): the community's
    // homes fit one page of the route, whose text the device reads itself (firstLoadPages.ts).
    const homes = await t.admin.collection('houses').getList(1, 1, { filter: `community = "${a.community.id}"` });
    expect(homes.totalItems).toBeLessThan(2_000);
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!changed && url.pathname === '/api/scms/first-load/houses' && !url.searchParams.has('head')) {
        changed = true;
        await t.admin.collection('houses').update(target.id, { note: 'changed during the load' });
      }
      return response;
    };
    onTestFinished(() => {
      globalThis.fetch = realFetch;
    });
    await pullAll({ pb, db });
    expect(changed).toBe(true);
    expect((await db.houses.get(target.id))?.note).toBe('');
    globalThis.fetch = realFetch;
    expect(await pullCollection({ pb, db }, 'houses')).toBeGreaterThanOrEqual(1);
    expect((await db.houses.get(target.id))?.note).toBe('changed during the load');
  });
});

describe('deletions', () => {
  test('reconciliation removes what the server deleted, but not what the outbox still writes', async () => {
    const db = freshDb();
    const doomed = await t.admin.collection('houses').create(house(a.community.id, 5000));
    await pullAll({ pb: officer, db });
    expect(await db.houses.get(doomed.id)).toBeDefined();
    await t.admin.collection('houses').delete(doomed.id);
    const queued = house(a.community.id, 5001);
    await db.houses.put({ ...queued, _pending: 1 } as never);
    await db.outbox.add({
      userId: a.regular.id,
      createdAt: new Date().toISOString(),
      label: 'Add home',
      ops: [{ action: 'create', collection: 'houses', id: queued.id, body: queued }],
      recordKeys: [`houses:${queued.id}`],
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
    });
    expect(await reconcileCollection({ pb: officer, db }, 'houses')).toBe(1);
    expect(await db.houses.get(doomed.id)).toBeUndefined();
    expect(await db.houses.get(queued.id)).toBeDefined();
  });

  test("reconciliation of this month's reports: nothing deleted costs one request per range the mirror holds; a report deleted unseen leaves the mirror", async () => {
    const now = new Date();
    const kept = report(a, new Date(now.getFullYear(), now.getMonth(), 1, 9));
    const doomed = report(a, new Date(now.getFullYear(), now.getMonth(), 1, 10));
    for (const r of [kept, doomed]) await t.admin.collection('reports').create(r);
    const db = freshDb();
    const pb = await t.signIn(a.regular.email);
    // Right after a first load, its pages not yet rows: the reconciliation reads them as the mirror.
    await pullAll({ pb, db });
    expect(await db.reports.get(doomed.id)).toBeDefined();
    const urls: string[] = [];
    pb.afterSend = (response, data) => {
      urls.push(decodeURIComponent(response.url));
      return data;
    };
    // The first load's range (last month, open-ended): the mirror's count and the server's agree.
    expect(await reconcileCollection({ pb, db }, 'reports')).toBe(0);
    expect(urls).toHaveLength((await historyRanges(db, 'reports')).length);
    // Deleted while this device was not listening: no realtime event, only the reconciliation sees it.
    await t.admin.collection('reports').delete(doomed.id);
    expect(await reconcileCollection({ pb, db }, 'reports')).toBe(1);
    expect(await db.reports.get(doomed.id)).toBeUndefined();
    expect(await db.reports.get(kept.id)).toBeDefined();
  });

  test('reconciliation counts before it reads ids: nothing deleted costs one request; one deletion a few counts and one page of ids', async () => {
    const db = freshDb();
    const pb = await t.signIn(a.regular.email);
    await pullAll({ pb, db });
    const urls: string[] = [];
    pb.afterSend = (response, data) => {
      urls.push(decodeURIComponent(response.url));
      return data;
    };
    expect(await reconcileCollection({ pb, db }, 'houses')).toBe(0);
    expect(urls).toHaveLength(1);
    expect(urls[0]).toContain('perPage=1');

    const doomed = (await db.houses.toCollection().primaryKeys())[700] as string;
    await t.admin.collection('houses').delete(doomed);
    urls.length = 0;
    expect(await reconcileCollection({ pb, db }, 'houses')).toBe(1);
    expect(await db.houses.get(doomed)).toBeUndefined();
    // The whole collection, its 36 id ranges, then the ids of the one range that differs (not the 1,200 ids).
    expect(urls.filter((u) => u.includes('perPage=1&'))).toHaveLength(37);
    expect(urls.filter((u) => u.includes('perPage=500'))).toHaveLength(1);
  });
});

describe('realtime', () => {
  test('an update on the server reaches the mirror within a second, and a delete removes it', async () => {
    const db = freshDb();
    await pullAll({ pb: officer, db });
    const target = await t.admin.collection('houses').create(house(a.community.id, 7000));
    let connected = 0;
    const live = await t.signIn(a.regular.email);
    const unsubscribe = await subscribeRealtime(live, db, () => connected++);
    try {
      expect(connected).toBeGreaterThan(0);
      const changedAt = Date.now();
      await t.admin.collection('houses').update(target.id, { note: 'dog in yard' });
      await expect
        .poll(async () => (await db.houses.get(target.id))?.note, { timeout: 1000, interval: 20 })
        .toBe('dog in yard');
      expect(Date.now() - changedAt).toBeLessThan(1000);
      await t.admin.collection('houses').delete(target.id);
      await expect.poll(async () => db.houses.get(target.id), { timeout: 1000, interval: 20 }).toBeUndefined();
      // Another community's changes never arrive.
      const foreign = await t.admin.collection('houses').create(house(b.community.id, 7001));
      await new Promise((r) => setTimeout(r, 200));
      expect(await db.houses.get(foreign.id)).toBeUndefined();
    } finally {
      await unsubscribe();
    }
  });
});

/**
 * A new phone's first load kept as pages (src/data/mirror/loadPages.ts):
 * what the device holds, read through the mirror while the records are still
 * in pages and again once they are rows, is exactly what the records API
 * lists for the same user, field for field: for a director, a manager and a
 * regular officer of one community, and for a director of another.
 */
describe('a first load kept as pages', () => {
  beforeAll(async () => {
    const homes = await t.admin
      .collection('houses')
      .getList(1, 100, { filter: t.admin.filter('community = {:c}', { c: a.community.id }) });
    await createInBatches(
      t.admin,
      'residents',
      homes.items.map((home, i) => ({ id: newId(), house: home.id, first_name: `R${i}`, last_name: 'Lee' })),
    );
    await createInBatches(
      t.admin,
      'phones',
      homes.items.map((home, i) => ({
        id: newId(),
        house: home.id,
        phone_number: `+1561555${String(1000 + i).padStart(4, '0')}`,
        type: 'cell',
      })),
    );
    await t.admin.collection('reports').create({ ...report(a, new Date(), 'Gate open'), house: homes.items[0]!.id });
  });

  /** What the mirror holds of a collection, by id (the collection's name is the device's own). */
  async function mirrored(db: ScmsDatabase, collection: CollectionName): Promise<Map<string, Record<string, unknown>>> {
    const rows = (await db.mirror(collection).toArray()) as unknown as Array<Record<string, unknown>>;
    return new Map(rows.map(({ collectionName: _name, ...row }) => [row.id as string, row] as const));
  }

  /** What the records API lists for the user, as the mirror keeps it (a history: what a first load brings of it). */
  async function listed(pb: PocketBase, collection: CollectionName): Promise<Map<string, Record<string, unknown>>> {
    const records = await pb.collection(collection).getFullList({
      batch: 1_000,
      requestKey: null,
      filter: isHistory(collection) ? historyFilter(pb, collection, firstLoadRange(collection, new Date())) : '',
    });
    return new Map(
      records.map(
        ({ collectionId: _id, collectionName: _name, expand: _expand, ...record }) => [record.id, record] as const,
      ),
    );
  }

  describe.each([
    ['a director', () => a.director.email],
    ['a manager', () => a.manager.email],
    ['a regular officer', () => a.regular.email],
    ['a director of another community', () => b.director.email],
  ])('%s', (_who, email) => {
    test('holds exactly what the records API lists, in pages and then as rows', async () => {
      const pb = await t.signIn(email());
      const db = freshDb();
      try {
        // The unpacking waits while a load stores pages: held here as one would, to read the pages first.
        const overlay = overlayOf(db);
        overlay.activeLoads++;
        await pullAll({ pb, db });
        // Stored as pages: the large collections came as a few rows of load_pages.
        expect(await db.load_pages.count()).toBeGreaterThan(0);
        expect(overlay.collectionsLeft([])).toContain('houses');
        for (const collection of MIRRORED_COLLECTIONS)
          expect(await mirrored(db, collection), collection).toEqual(await listed(pb, collection));

        overlay.activeLoads--;
        await unpackLoadPages(db);
        expect(await db.load_pages.count()).toBe(0);
        for (const collection of MIRRORED_COLLECTIONS)
          expect(await mirrored(db, collection), `${collection} as rows`).toEqual(await listed(pb, collection));
      } finally {
        db.close();
      }
    });
  });
});
