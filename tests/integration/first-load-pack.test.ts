/**
 * The first-load route (pb_hooks/lib/first_load_pack.js) lists exactly what
 * the records API lists, for each role and community, value for value: a
 * first load built this way can never hold a record (or a field) the list
 * rules would not show. Its pages follow the id keyset; bad requests are
 * refused and change nothing; a rule the route does not implement closes
 * it, and the device then reads through the records API (pull.ts).
 */
import '../support/browser-globals.ts';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { FIRST_LOAD_PAGED } from '../../src/data/sync/firstLoadPages.ts';
import { pullAll } from '../../src/data/sync/pull.ts';
import {
  DEMO_DIRECTOR,
  DEMO_MANAGER,
  DEMO_REGULAR,
  DEMO_SECOND_DIRECTOR,
  type DemoAccount,
} from '../../scripts/seed/demo-account.ts';
import { DEMO_COMMUNITY_IDS } from '../../scripts/seed/demo-data.ts';
import { startDemoServer, type DemoServer } from '../support/demo-server.ts';
import { newId, type TestServer } from '../support/pocketbase.ts';

let t: TestServer;
let demo: DemoServer;

interface Page {
  fields: string[];
  rows: unknown[][];
  last: string;
}

beforeAll(async () => {
  demo = await startDemoServer();
  t = demo.server;
  // A change by an officer: a row of home history (the seed writes as the server, which keeps none).
  const officer = demo.session(DEMO_REGULAR);
  const home = await officer.collection('houses').getFirstListItem('');
  await officer.collection('houses').update(home.id, { note: `${home.note as string} Gate code changed.` });
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

function signIn(account: DemoAccount): Promise<PocketBase> {
  return Promise.resolve(demo.session(account));
}

/** GET the route as `pb` (no SDK parsing: the raw answer's status and JSON). */
async function ask(pb: PocketBase | null, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${t.url}/api/scms/first-load/${path}`, {
    headers: pb ? { Authorization: pb.authStore.token } : {},
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Every record of the route's pages for a collection, as objects, in pages of `limit`. */
async function allFromRoute(
  pb: PocketBase,
  collection: string,
  limit = 2000,
  extra = '',
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  let after = '';
  for (;;) {
    const { status, body } = await ask(pb, `${collection}?limit=${limit}${after ? `&after=${after}` : ''}${extra}`);
    expect(status).toBe(200);
    const page = body as unknown as Page;
    for (const row of page.rows) records.push(Object.fromEntries(page.fields.map((field, i) => [field, row[i]])));
    if (page.rows.length < limit) return records;
    after = page.last;
  }
}

/** What the records API lists for a collection, without the SDK's extras. */
async function allFromRecordsApi(pb: PocketBase, collection: string, filter = ''): Promise<Record<string, unknown>[]> {
  const items = await pb.collection(collection).getFullList({ sort: 'id', batch: 1000, filter });
  return items.map(({ collectionId: _id, collectionName: _name, ...fields }) => fields);
}

describe('the same records as the records API', () => {
  test.each([
    ['director', DEMO_DIRECTOR],
    ['manager', DEMO_MANAGER],
    ['regular officer', DEMO_REGULAR],
    ['director of the other community', DEMO_SECOND_DIRECTOR],
  ])('as a %s: every served collection, value for value, and nothing of another community', async (_, account) => {
    const pb = await signIn(account);
    const own = pb.authStore.record?.community as string;
    for (const collection of FIRST_LOAD_PAGED) {
      const fromRoute = await allFromRoute(pb, collection);
      const fromApi = await allFromRecordsApi(pb, collection);
      expect(fromRoute, collection).toEqual(fromApi);
      // The head: the records API's count and its newest by (updated, id).
      const { body: head } = await ask(pb, `${collection}?head=1`);
      const newest = [...fromApi].sort((x, y) =>
        `${y.updated as string} ${y.id as string}`.localeCompare(`${x.updated as string} ${x.id as string}`),
      )[0];
      expect(head, collection).toEqual({
        total: fromApi.length,
        newest: newest ? { updated: newest.updated, id: newest.id } : null,
      });
      for (const record of fromRoute) {
        if ('community' in record) expect(record.community, collection).toBe(own);
      }
    }
    // The seed fills every served collection of the first community (home history comes from its hooks).
    if (own === DEMO_COMMUNITY_IDS.primary) {
      for (const collection of FIRST_LOAD_PAGED) {
        expect((await allFromRoute(pb, collection)).length, collection).toBeGreaterThan(0);
      }
    }
  });

  test('pages of any size follow the id keyset: together, every record once', async () => {
    const pb = await signIn(DEMO_REGULAR);
    const whole = await allFromRoute(pb, 'residents');
    const paged = await allFromRoute(pb, 'residents', 7);
    expect(whole.length).toBeGreaterThan(14);
    expect(paged).toEqual(whole);
  });

  test('an id range [from, to) and incident-time ranges give what the same filter gives through the records API', async () => {
    const pb = await signIn(DEMO_MANAGER);
    const { body } = await ask(pb, 'houses?from=5&to=k');
    const page = body as unknown as Page;
    const ids = page.rows.map((row) => row[page.fields.indexOf('id')]);
    const expected = await allFromRecordsApi(pb, 'houses', 'id >= "5" && id < "k"');
    expect(ids).toEqual(expected.map((record) => record.id));

    const reports = await allFromRecordsApi(pb, 'reports');
    const times = reports.map((r) => r.incident_time as string).sort();
    // Two ranges of the reports' times: the oldest third and the newest third.
    const first = [times[0]!, times[Math.floor(times.length / 3)]!];
    const last = [times[Math.floor((2 * times.length) / 3)]!, times[times.length - 1]!];
    const ranges = encodeURIComponent(`${first[0]}/${first[1]},${last[0]}/${last[1]}`);
    const fromRoute = await allFromRoute(pb, 'reports', 2000, `&time=${ranges}`);
    const filter = pb.filter(
      '(incident_time >= {:a} && incident_time <= {:b}) || (incident_time >= {:c} && incident_time <= {:d})',
      { a: first[0], b: first[1], c: last[0], d: last[1] },
    );
    expect(fromRoute).toEqual(await allFromRecordsApi(pb, 'reports', filter));
    expect(fromRoute.length).toBeLessThan(reports.length);
    const { body: head } = await ask(pb, `reports?head=1&time=${ranges}`);
    expect(head.total).toBe(fromRoute.length);
    // `incident`, the name an earlier app gives the reports' ranges, still reads the same.
    expect(await allFromRoute(pb, 'reports', 2000, `&incident=${ranges}`)).toEqual(fromRoute);
  });

  test("the rounds' ranges: walks by their round's start, scans by their walk's, as the records API filters them", async () => {
    const pb = await signIn(DEMO_MANAGER);
    const walks = await allFromRecordsApi(pb, 'tour_walks');
    const starts = walks.map((walk) => walk.round_start as string).sort();
    expect(starts.length).toBeGreaterThan(4);
    // The middle of the demo's nights of rounds.
    const range = [starts[Math.floor(starts.length / 3)]!, starts[Math.floor((2 * starts.length) / 3)]!];
    const time = encodeURIComponent(`${range[0]}/${range[1]}`);
    const bounds = { a: range[0], b: range[1] };
    const walksFromRoute = await allFromRoute(pb, 'tour_walks', 2000, `&time=${time}`);
    expect(walksFromRoute).toEqual(
      await allFromRecordsApi(pb, 'tour_walks', pb.filter('round_start >= {:a} && round_start <= {:b}', bounds)),
    );
    expect(walksFromRoute.length).toBeGreaterThan(0);
    expect(walksFromRoute.length).toBeLessThan(walks.length);
    const scansFromRoute = await allFromRoute(pb, 'checkpoint_scans', 2000, `&time=${time}`);
    expect(scansFromRoute).toEqual(
      await allFromRecordsApi(
        pb,
        'checkpoint_scans',
        pb.filter('walk.round_start >= {:a} && walk.round_start <= {:b}', bounds),
      ),
    );
    const inRange = new Set(walksFromRoute.map((walk) => walk.id));
    expect(scansFromRoute.length).toBeGreaterThan(0);
    expect(scansFromRoute.every((scan) => inRange.has(scan.walk as string))).toBe(true);
    const { body: head } = await ask(pb, `checkpoint_scans?head=1&time=${time}`);
    expect(head.total).toBe(scansFromRoute.length);
  });
});

describe('bad requests: a clear error, nothing served', () => {
  test('signed out: 401; a collection it does not serve: 404', async () => {
    expect((await ask(null, 'houses')).status).toBe(401);
    const pb = await signIn(DEMO_REGULAR);
    for (const collection of ['users', 'communities', '_superusers', 'nothing']) {
      const { status, body } = await ask(pb, collection);
      expect(status, collection).toBe(404);
      expect(body.rows).toBeUndefined();
    }
  });

  test.each([
    { what: 'from is not an id', path: 'houses?from=ABC', message: 'from must be a record id.' },
    { what: 'after is SQL', path: 'houses?after=a%22%20OR%201%3D1', message: 'after must be a record id.' },
    { what: 'to is quoted', path: 'houses?to=zz%27', message: 'to must be a record id or ~.' },
    { what: 'from is too long', path: `houses?from=${'a'.repeat(16)}`, message: 'from must be a record id.' },
    { what: 'limit 0', path: 'houses?limit=0', message: 'limit must be a whole number from 1 to 2000.' },
    { what: 'limit too large', path: 'houses?limit=2001', message: 'limit must be a whole number from 1 to 2000.' },
    { what: 'limit not whole', path: 'houses?limit=1e3', message: 'limit must be a whole number from 1 to 2000.' },
    { what: 'head not 1', path: 'houses?head=true', message: 'head must be 1 when given.' },
    {
      what: 'incident on homes',
      path: 'houses?incident=2026-01-01%2000:00:00.000Z/2026-02-01%2000:00:00.000Z',
      message: 'incident applies to reports only.',
    },
    {
      what: 'time on homes',
      path: 'houses?time=2026-01-01%2000:00:00.000Z/2026-02-01%2000:00:00.000Z',
      message: 'time applies to reports, tour_walks and checkpoint_scans only.',
    },
    {
      what: 'time not dates',
      path: 'tour_walks?time=yesterday/today',
      message: 'time must be ranges of dates: from/to, separated by commas.',
    },
    {
      what: 'time one end',
      path: 'checkpoint_scans?time=2026-01-01%2000:00:00.000Z',
      message: 'time must be ranges of dates: from/to, separated by commas.',
    },
    {
      what: 'incident not dates',
      path: 'reports?incident=yesterday/today',
      message: 'time must be ranges of dates: from/to, separated by commas.',
    },
    {
      what: '51 time ranges',
      path: `reports?time=${Array.from({ length: 51 }, () => '2026-01-01 00:00:00.000Z/2026-02-01 00:00:00.000Z').join(',')}`,
      message: 'At most 50 time ranges.',
    },
  ])('$what: 400 "$message"', async ({ path, message }) => {
    const pb = await signIn(DEMO_REGULAR);
    const { status, body } = await ask(pb, path);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: true, code: 400, message });
    expect(body.rows).toBeUndefined();
  });

  test("another community's ids as bounds give only the asker's own records", async () => {
    const other = await signIn(DEMO_SECOND_DIRECTOR);
    const pb = await signIn(DEMO_REGULAR);
    const theirs = (await allFromRecordsApi(other, 'houses')).map((record) => record.id as string);
    const { status, body } = await ask(pb, `houses?from=${theirs[0]}&limit=2000`);
    expect(status).toBe(200);
    const page = body as unknown as Page;
    const community = page.fields.indexOf('community');
    expect(page.rows.length).toBeGreaterThan(0);
    for (const row of page.rows) expect(row[community]).toBe(DEMO_COMMUNITY_IDS.primary);
    expect(page.rows.some((row) => theirs.includes(row[page.fields.indexOf('id')] as string))).toBe(false);
  });
});

describe('a list rule the route does not implement', () => {
  test('closes the route for that collection (503); a first load then reads it through the records API, rule and all', async () => {
    const rule = (await t.admin.collections.getOne('residents')).listRule;
    const narrower = `${rule} && owner = true`;
    await t.admin.collections.update('residents', { listRule: narrower });
    try {
      const pb = await signIn(DEMO_REGULAR);
      const { status, body } = await ask(pb, 'residents');
      expect(status).toBe(503);
      expect(body.message).toBe('First-load pages are not available for this collection.');
      const urls: string[] = [];
      pb.afterSend = (response, data) => {
        urls.push(response.url);
        return data;
      };
      const db = new ScmsDatabase(`first-load-${newId()}`);
      await pullAll({ pb, db });
      const owners = await allFromRecordsApi(pb, 'residents');
      expect(owners.every((r) => r.owner === true)).toBe(true);
      expect((await db.residents.toArray()).map((r) => r.id).sort()).toEqual(owners.map((r) => r.id));
      // The other collections still came through the route.
      expect(urls.some((u) => u.includes('/api/scms/first-load/houses'))).toBe(true);
      expect(urls.some((u) => u.includes('/api/collections/residents/records') && u.includes('id'))).toBe(true);
    } finally {
      await t.admin.collections.update('residents', { listRule: rule });
    }
  });
});
