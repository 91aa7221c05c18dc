/**
 * The outbox's promise as a property: whatever an officer does and whatever
 * the network and the server do meanwhile — offline spells, lost answers,
 * server restarts, replays at any moment — once the device is back online
 * and replays until done, the server holds exactly the writes that were
 * made: every created record once, with its content; every field with the
 * last value written; nothing lost, the outbox empty, no row still pending.
 */
import '../support/browser-globals.ts';
import fc from 'fast-check';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CollectionName } from '../../src/api/records.ts';
import { ScmsDatabase, type OutboxOperation } from '../../src/data/mirror/db.ts';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import { enqueue, outboxEntries } from '../../src/data/sync/outbox.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import { BACKOFF_MAX_MS, replayOutbox } from '../../src/data/sync/replay.ts';
import { startFlakyProxy, type FlakyProxy } from '../support/flaky-proxy.ts';
import {
  createCommunity,
  newId,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

let t: TestServer;
let proxy: FlakyProxy;
let f: CommunityFixture;
let pb: PocketBase;

beforeAll(async () => {
  t = await startTestServer();
  proxy = await startFlakyProxy(t.url);
  // One community and one sign-in for every run (sign-ins are rate limited);
  // each run has its own device database and checks only its own records.
  f = await createCommunity(t.admin, 'property');
  pb = new PocketBase(proxy.url);
  pb.autoCancellation(false);
  await pb.collection('users').authWithPassword(f.regular.email, TEST_PASSWORD);
});
afterAll(async () => {
  await proxy?.close();
  await t?.stop();
});

type Step =
  | { kind: 'report' }
  | { kind: 'house' }
  | { kind: 'house-check'; pick: number }
  | { kind: 'house-update'; pick: number; note: string }
  | { kind: 'offline' }
  | { kind: 'online' }
  | { kind: 'drop-next-answer' }
  | { kind: 'replay' }
  | { kind: 'restart-server' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'report' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'house' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('house-check' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('house-update' as const),
      pick: fc.nat(),
      note: fc.string({ maxLength: 40 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'offline' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'online' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'drop-next-answer' as const }) },
  { weight: 5, arbitrary: fc.constant({ kind: 'replay' as const }) },
  // Rare: a restart costs about half a second.
  { weight: 1, arbitrary: fc.constant({ kind: 'restart-server' as const }) },
);

let serial = 0;

function reportOp(fields: Record<string, unknown> = {}): OutboxOperation {
  return {
    action: 'create',
    collection: 'reports',
    id: newRecordId(),
    body: {
      narative: `Patrol note ${++serial} ${newId()}`,
      type: 'loud_noise',
      weather: 'clear',
      incident_time: pbDate(new Date()),
      community: f.community.id,
      created_by: f.regular.id,
      ...fields,
    },
  };
}

function houseOp(): OutboxOperation {
  return {
    action: 'create',
    collection: 'houses',
    id: newRecordId(),
    body: {
      address: `${++serial} Palm Way ${newId()}`,
      city: 'Jupiter',
      state: 'FL',
      zip: '33458',
      community: f.community.id,
    },
  };
}

async function run(steps: Step[]): Promise<void> {
  proxy.reset();
  const db = new ScmsDatabase(`${f.regular.id}-${newId()}`);
  let clock = Date.now();
  const replay = async () => {
    clock += 2 * BACKOFF_MAX_MS; // every back-off has elapsed
    const result = await replayOutbox({ pb, db, owner: 'tab', now: () => clock });
    // Nothing in these runs deserves parking, and no one else holds the lease.
    expect(result.parked).toBe(0);
    expect(['done', 'offline', 'waiting']).toContain(result.outcome);
    return result;
  };
  const written: OutboxOperation[] = [];
  const houses: string[] = [];
  const add = async (label: string, ...ops: OutboxOperation[]) => {
    await enqueue(db, { userId: f.regular.id, label, ops });
    written.push(...ops);
  };

  try {
    for (const s of steps) {
      switch (s.kind) {
        case 'report':
          await add('Report', reportOp());
          break;
        case 'house': {
          const op = houseOp();
          houses.push(op.id);
          await add('Add home', op);
          break;
        }
        case 'house-check': {
          const house = houses[s.pick % Math.max(1, houses.length)];
          if (!house) break;
          await add('House check', reportOp({ type: 'house_check', house }), {
            action: 'update',
            collection: 'houses',
            id: house,
            body: { house_check_last_date: pbDate(new Date()), house_check_note: `Checked ${++serial}` },
          });
          break;
        }
        case 'house-update': {
          const house = houses[s.pick % Math.max(1, houses.length)];
          if (house)
            await add('Update home', { action: 'update', collection: 'houses', id: house, body: { note: s.note } });
          break;
        }
        case 'offline':
          proxy.setOffline(true);
          break;
        case 'online':
          proxy.setOffline(false);
          break;
        case 'drop-next-answer':
          proxy.dropResponses(() => true, 1);
          break;
        case 'replay':
          await replay();
          break;
        case 'restart-server':
          await t.restart();
          break;
      }
    }

    proxy.setOffline(false);
    let result = await replay();
    for (let round = 0; round < 20 && result.outcome !== 'done'; round++) {
      // 'waiting' follows a 429 (the batch limit counts real seconds) or a 5xx.
      if (result.outcome === 'waiting') await new Promise((r) => setTimeout(r, 1_100));
      result = await replay();
    }
    expect(result.outcome).toBe('done');
    await expectServerHolds(db, written);
  } finally {
    db.close();
  }
}

const CONTENT_FIELD: Partial<Record<CollectionName, string>> = { reports: 'narative', houses: 'address' };

/** Exactly the writes made: each record once (by id and by content), the last value of every field; the device settled. */
async function expectServerHolds(db: ScmsDatabase, written: OutboxOperation[]): Promise<void> {
  const expected = new Map<string, { collection: CollectionName; fields: Record<string, unknown> }>();
  for (const op of written)
    expected.set(op.id, { collection: op.collection, fields: { ...expected.get(op.id)?.fields, ...op.body } });
  for (const [id, { collection, fields }] of expected) {
    const byId = await t.admin.collection(collection).getFullList({ filter: t.admin.filter('id = {:id}', { id }) });
    expect(byId, `${collection} ${id}`).toHaveLength(1);
    expect(byId[0]).toMatchObject(fields);
    const key = CONTENT_FIELD[collection]!;
    const twins = await t.admin
      .collection(collection)
      .getFullList({ filter: t.admin.filter(`${key} = {:value}`, { value: fields[key] }) });
    expect(twins.map((r) => r.id)).toEqual([id]);
  }
  expect(await outboxEntries(db)).toEqual([]);
  for (const collection of ['reports', 'houses'] as const) {
    expect((await db.mirror(collection).toArray()).filter((row) => row._pending).map((row) => row.id)).toEqual([]);
  }
  // Reports reached the server in the order they were written.
  const reports = written.filter((op) => op.collection === 'reports').map((op) => op.id);
  const created = await Promise.all(
    reports.map(async (id) => String((await t.admin.collection('reports').getOne(id)).created)),
  );
  expect(created).toEqual([...created].sort());
}

test('random offline spells, lost answers and restarts: the server ends with exactly the writes made', async () => {
  await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 25 }), run), { numRuns: 25 });
}, 120_000);
