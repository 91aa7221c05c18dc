/**
 * The changes route (pb_hooks/lib/changes.js) answers a catch-up pull with
 * exactly what the records API lists after each cursor, for each role and
 * community, value for value: a pull built this way can never bring a
 * record (or a field) the list rules would not show. Its answers share a
 * limit and say what is left; bad requests are refused and change nothing;
 * a rule the route does not implement closes it for that collection. The
 * device asks it once per pull, and reads through the records API where it
 * is closed or missing (src/data/sync/changes.ts, pull.ts).
 */
import '../support/browser-globals.ts';
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { PULLED_TOGETHER } from '../../src/data/sync/changes.ts';
import { pullAll } from '../../src/data/sync/pull.ts';
import { CHANGES_PER_ANSWER, type PullCursor } from '../../src/domain/changesRequest.ts';
import { CURSOR_FILTER } from '../../src/domain/pullFilter.ts';
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

beforeAll(async () => {
  demo = await startDemoServer();
  t = demo.server;
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

const session = (account: DemoAccount) => demo.session(account);
const FROM_THE_START: PullCursor = { updated: '', id: '' };

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Asks the route as `pb` with these query parameters (strings as they are, anything else as JSON); the raw status and JSON. */
async function ask(pb: PocketBase | null, params: Record<string, unknown>): Promise<Answer> {
  const query = new URLSearchParams(
    Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
  const response = await fetch(`${t.url}/api/scms/changes?${query.toString()}`, {
    headers: pb ? { Authorization: pb.authStore.token } : {},
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

type Part = { items: Record<string, unknown>[]; more: boolean } | { unavailable: true };

/** Every record after each cursor, answer after answer of at most `limit`, per collection in the order they came. */
async function allFromRoute(
  pb: PocketBase,
  cursors: Record<string, PullCursor>,
  limit?: number,
): Promise<{ records: Map<string, Record<string, unknown>[]>; answers: number }> {
  const records = new Map(Object.keys(cursors).map((name) => [name, [] as Record<string, unknown>[]]));
  let asking = { ...cursors };
  let answers = 0;
  while (Object.keys(asking).length > 0) {
    const { status, body } = await ask(pb, limit ? { cursors: asking, limit: String(limit) } : { cursors: asking });
    expect(status, JSON.stringify(body)).toBe(200);
    answers++;
    const changes = body.changes as Record<string, Part>;
    expect(Object.keys(changes).sort()).toEqual(Object.keys(asking).sort());
    const next: Record<string, PullCursor> = {};
    for (const [name, part] of Object.entries(changes)) {
      if ('unavailable' in part) throw new Error(`${name} unavailable`);
      if (limit) expect(part.items.length).toBeLessThanOrEqual(limit);
      records.get(name)!.push(...part.items);
      const tail = part.items[part.items.length - 1];
      if (part.more) next[name] = tail ? { updated: tail.updated as string, id: tail.id as string } : asking[name]!;
    }
    asking = next;
  }
  return { records, answers };
}

/** What the records API lists after a cursor, in the pull's order. */
function fromRecordsApi(pb: PocketBase, collection: string, cursor: PullCursor): Promise<RecordModel[]> {
  return pb.collection(collection).getFullList({
    filter: cursor.updated ? pb.filter(CURSOR_FILTER, { u: cursor.updated, id: cursor.id }) : '',
    sort: 'updated,id',
    requestKey: null,
  });
}

const everyCollection = (cursor: PullCursor) =>
  Object.fromEntries([...PULLED_TOGETHER].map((collection) => [collection, cursor]));

describe('the same records as the records API', () => {
  test.each([
    ['director', DEMO_DIRECTOR],
    ['manager', DEMO_MANAGER],
    ['regular officer', DEMO_REGULAR],
    ['director of the other community', DEMO_SECOND_DIRECTOR],
  ])(
    'as a %s: every collection from the start and from a cursor part way, value for value, and nothing of another community',
    async (_, account) => {
      const pb = session(account);
      const own = pb.authStore.record?.community as string;
      const { records } = await allFromRoute(pb, everyCollection(FROM_THE_START));
      const partWay: Record<string, PullCursor> = {};
      for (const collection of PULLED_TOGETHER) {
        const listed = await fromRecordsApi(pb, collection, FROM_THE_START);
        expect(records.get(collection), collection).toEqual(listed);
        for (const record of listed) {
          if ('community' in record) expect(record.community, collection).toBe(own);
        }
        const middle = listed[Math.floor(listed.length / 2)];
        partWay[collection] = middle ? { updated: middle.updated as string, id: middle.id } : FROM_THE_START;
      }
      const after = await allFromRoute(pb, partWay);
      for (const collection of PULLED_TOGETHER) {
        expect(after.records.get(collection), collection).toEqual(
          await fromRecordsApi(pb, collection, partWay[collection]!),
        );
      }
      // Staff records as the records API gives them: no password hash or token key.
      const users = records.get('users')!;
      expect(users.length).toBeGreaterThan(1);
      expect(users.some((user) => 'password' in user || 'tokenKey' in user)).toBe(false);
      if (own === DEMO_COMMUNITY_IDS.primary) {
        // The seed fills the collections that carry the pull's weight.
        for (const collection of ['houses', 'calls', 'reports', 'concerns', 'tour_walks']) {
          expect(records.get(collection)!.length, collection).toBeGreaterThan(0);
        }
      }
    },
  );

  test('answers share their limit in the served order; the collections past it say more; together every record once', async () => {
    const pb = session(DEMO_MANAGER);
    const whole = await allFromRoute(pb, everyCollection(FROM_THE_START));
    const total = [...whole.records.values()].reduce((sum, records) => sum + records.length, 0);
    expect(whole.answers).toBe(Math.ceil(total / CHANGES_PER_ANSWER) || 1);
    const limited = await allFromRoute(pb, everyCollection(FROM_THE_START), 7);
    expect(limited.answers).toBeGreaterThanOrEqual(Math.ceil(total / 7));
    expect(limited.records).toEqual(whole.records);
    // The first answer of 7: the first collections in the served order fill it, the rest wait.
    const { body } = await ask(pb, { cursors: everyCollection(FROM_THE_START), limit: '7' });
    const changes = body.changes as Record<string, { items: unknown[]; more: boolean }>;
    const sizes = Object.values(changes).map((part) => part.items.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(7);
    expect(Object.values(changes).filter((part) => part.items.length === 0 && part.more).length).toBeGreaterThan(0);
  });

  test("another community's cursor is only a position: the asker gets their own records after it", async () => {
    const other = session(DEMO_SECOND_DIRECTOR);
    const pb = session(DEMO_REGULAR);
    const [theirs] = await fromRecordsApi(other, 'houses', FROM_THE_START);
    const cursor = { updated: theirs!.updated as string, id: theirs!.id };
    const { records } = await allFromRoute(pb, { houses: cursor });
    expect(records.get('houses')).toEqual(await fromRecordsApi(pb, 'houses', cursor));
    expect(records.get('houses')!.every((house) => house.community === DEMO_COMMUNITY_IDS.primary)).toBe(true);
  });
});

describe('bad requests: a clear error, nothing served', () => {
  const cursors = { houses: FROM_THE_START };
  const NOT_CURSORS = 'cursors must be a JSON object: a collection name to its cursor.';
  test.each([
    { what: 'no cursors', params: {}, message: NOT_CURSORS },
    { what: 'malformed JSON', params: { cursors: '{"houses": {' }, message: NOT_CURSORS },
    { what: 'a list', params: { cursors: [cursors] }, message: NOT_CURSORS },
    { what: 'no collection', params: { cursors: {} }, message: 'cursors must name at least one collection.' },
    {
      what: 'expanded relations',
      params: { cursors, expand: 'community' },
      message: 'Unknown parameter "expand": the route takes cursors and limit.',
    },
    {
      what: 'residents (pulled through the records API)',
      params: { cursors: { residents: FROM_THE_START } },
      message: 'cursors names "residents", a collection this route does not serve.',
    },
    {
      what: "PocketBase's superusers",
      params: { cursors: { _superusers: FROM_THE_START } },
      message: 'cursors names "_superusers", a collection this route does not serve.',
    },
    {
      what: 'a long unknown name',
      params: { cursors: { ['x'.repeat(200)]: FROM_THE_START } },
      message: `cursors names "${'x'.repeat(40)}…", a collection this route does not serve.`,
    },
    ...[
      ['a date in another form', { updated: '2026-11-28T07:00:00Z', id: 'abc' }],
      ['SQL as the id', { updated: '2026-11-28 07:00:00.000Z', id: 'a" || 1=1' }],
      ['an id too long', { updated: '2026-11-28 07:00:00.000Z', id: 'a'.repeat(16) }],
      ['a date without an id', { updated: '2026-11-28 07:00:00.000Z', id: '' }],
      ['a number', { updated: 5, id: 'abc' }],
      ['a third field', { updated: '', id: '', community: DEMO_COMMUNITY_IDS.second }],
      ['not an object', 'from the start'],
    ].map(([what, cursor]) => ({
      what: `a cursor with ${what as string}`,
      params: { cursors: { houses: cursor } },
      message:
        'The cursor of houses must be {"updated", "id"}: a date in the server\'s form and a record id, or both empty.',
    })),
    ...['0', String(CHANGES_PER_ANSWER + 1), '1.5', '1e3', '-5', ''].map((limit) => ({
      what: `limit ${JSON.stringify(limit)}`,
      params: { cursors, limit },
      message: `limit must be a whole number from 1 to ${CHANGES_PER_ANSWER}.`,
    })),
    {
      what: 'cursors over 4,096 characters',
      params: { cursors: JSON.stringify({ houses: FROM_THE_START, padding: ' '.repeat(4100) }) },
      message: 'cursors must be at most 4096 characters.',
    },
  ])('$what: 400 "$message"', async ({ params, message }) => {
    const answer = await ask(session(DEMO_REGULAR), params);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: true, code: 400, message });
    expect(answer.body.changes).toBeUndefined();
  });

  test('signed out: 401', async () => {
    const signedOut = await ask(null, { cursors: { houses: FROM_THE_START } });
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.changes).toBeUndefined();
  });
});

/** A pull's requests as `pb` sends them: method and path with its query. */
function requestsOf(pb: PocketBase): Array<{ method: string; url: string }> {
  const sent: Array<{ method: string; url: string }> = [];
  pb.beforeSend = (url, options) => {
    sent.push({ method: options.method ?? 'GET', url: decodeURIComponent(url) });
    return { url, options };
  };
  return sent;
}

describe('the device', () => {
  test('a catch-up pull asks once for every collection pulled together, and apart only for residents and phones', async () => {
    const pb = await t.signIn(DEMO_REGULAR.email, DEMO_REGULAR.password);
    const db = new ScmsDatabase(`changes-${newId()}`);
    await pullAll({ pb, db });
    const [home] = await db.houses.orderBy('id').limit(1).toArray();
    const [report] = await db.reports.orderBy('id').limit(1).toArray();
    await t.admin.collection('houses').update(home!.id, { note: 'Gate code changed at night.' });
    await t.admin.collection('reports').update(report!.id, { narative: 'Corrected by the manager.' });
    const sent = requestsOf(pb);
    const counts = await pullAll({ pb, db });
    expect(counts.houses).toBeGreaterThanOrEqual(1);
    expect(counts.reports).toBeGreaterThanOrEqual(1);
    expect((await db.houses.get(home!.id))?.note).toBe('Gate code changed at night.');
    expect((await db.reports.get(report!.id))?.narative).toBe('Corrected by the manager.');
    expect(sent.filter((r) => r.url.includes('/api/scms/changes')).map((r) => r.method)).toEqual(['GET']);
    const apart = sent.filter((r) => !r.url.includes('/api/scms/changes')).map((r) => r.url.split('?')[0]);
    expect(apart.sort()).toEqual([
      expect.stringContaining('/api/collections/phones/records'),
      expect.stringContaining('/api/collections/residents/records'),
    ]);
    // Nothing new: the same one request, and no cursor written.
    const writes: string[] = [];
    db.syncState.hook('creating', (key) => void writes.push(String(key)));
    const again = await pullAll({ pb, db });
    expect(Object.values(again).every((n) => n === 0)).toBe(true);
    expect(writes.filter((key) => key.startsWith('cursor:'))).toEqual([]);
  });

  test('a server without the route (an older one, mid-upgrade): every collection through the records API', async () => {
    const pb = await t.signIn(DEMO_MANAGER.email, DEMO_MANAGER.password);
    const db = new ScmsDatabase(`changes-${newId()}`);
    await pullAll({ pb, db });
    const [concern] = await db.concerns.orderBy('id').limit(1).toArray();
    await t.admin.collection('concerns').update(concern!.id, { hint: 'Asked again by the board.' });
    const sent: string[] = [];
    // The older server's answer to the route: PocketBase's own 404 for a path it does not have.
    pb.beforeSend = (url, options) => {
      const path = url.replace('/api/scms/changes', '/api/scms/changes-of-a-later-version');
      sent.push(decodeURIComponent(path));
      return { url: path, options };
    };
    const counts = await pullAll({ pb, db });
    expect(counts.concerns).toBe(1);
    expect((await db.concerns.get(concern!.id))?.hint).toBe('Asked again by the board.');
    for (const collection of PULLED_TOGETHER) {
      expect(
        sent.some((url) => url.includes(`/api/collections/${collection}/records`)),
        collection,
      ).toBe(true);
    }
  });
});

describe('a list rule the route does not implement', () => {
  test('closes the route for that collection (unavailable); a pull then reads it through the records API, rule and all', async () => {
    const pb = await t.signIn(DEMO_DIRECTOR.email, DEMO_DIRECTOR.password);
    const db = new ScmsDatabase(`changes-${newId()}`);
    await pullAll({ pb, db });
    const rule = (await t.admin.collections.getOne('concerns')).listRule;
    const [kept, hidden] = await db.concerns.orderBy('id').limit(2).toArray();
    await t.admin.collections.update('concerns', { listRule: `${rule} && id != "${hidden!.id}"` });
    try {
      const { status, body } = await ask(pb, { cursors: { concerns: FROM_THE_START, houses: FROM_THE_START } });
      expect(status).toBe(200);
      const changes = body.changes as Record<string, Part>;
      expect(changes.concerns).toEqual({ unavailable: true });
      expect('items' in changes.houses! && changes.houses.items.length).toBeGreaterThan(0);
      await t.admin.collection('concerns').update(kept!.id, { hint: 'Seen through the rule.' });
      await t.admin.collection('concerns').update(hidden!.id, { hint: 'Not for staff.' });
      const sent = requestsOf(pb);
      await pullAll({ pb, db });
      expect((await db.concerns.get(kept!.id))?.hint).toBe('Seen through the rule.');
      expect((await db.concerns.get(hidden!.id))?.hint).not.toBe('Not for staff.');
      expect(sent.some((r) => r.url.includes('/api/scms/changes'))).toBe(true);
      expect(sent.some((r) => r.url.includes('/api/collections/concerns/records'))).toBe(true);
    } finally {
      await t.admin.collections.update('concerns', { listRule: rule });
    }
  });
});
