/**
 * Update Home's Replace image and Remove image, through the outbox's one
 * replay to a real PocketBase: a new photo replaces the stored file, Remove
 * empties the field, and both keep other people's changes to the home.
 */
import '../support/browser-globals.ts';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { pullAll } from '../../src/data/sync/pull.ts';
import { replayOutbox } from '../../src/data/sync/replay.ts';
import { queueSaveHome } from '../../src/data/resources/homes.ts';
import { type SignedInUser } from '../../src/data/auth.ts';
import { solidPng } from '../support/png.ts';
import {
  createCommunity,
  newId,
  startTestServer,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

let t: TestServer;
let a: CommunityFixture;
let manager: PocketBase;
let user: SignedInUser;

beforeAll(async () => {
  t = await startTestServer();
  a = await createCommunity(t.admin, 'p');
  manager = await t.signIn(a.manager.email);
  user = { id: a.manager.id, community: a.community.id };
});
afterAll(async () => {
  await t?.stop();
});

/** Replays the outbox; fails with the server's words when an entry is parked. */
async function send(db: ScmsDatabase): Promise<void> {
  const result = await replayOutbox({ pb: manager, db, owner: 'test' });
  const parked = (await db.outbox.toArray()).map((entry) => entry.error);
  expect({ result, parked }).toMatchObject({ result: { delivered: 1, parked: 0 }, parked: [] });
}

const png = (rgb: [number, number, number]) => new Blob([new Uint8Array(solidPng(40, 30, rgb))], { type: 'image/png' });

test('a photo replaced, then removed: the server holds the new file, then none; the mirror follows', async () => {
  const db = new ScmsDatabase(`${user.id}-${newId()}`);
  await pullAll({ pb: manager, db });
  const id = await queueSaveHome(db, user, {
    house: { address: '5 Photo Way', city: 'Jupiter', state: 'FL', zip: '33458' },
    image: png([200, 30, 30]),
  });
  await send(db);
  const first = String((await t.admin.collection('houses').getOne(id)).image);
  expect(first).toMatch(/\.png$/);

  await pullAll({ pb: manager, db });
  await queueSaveHome(db, user, { house: {}, image: png([30, 200, 30]) }, id);
  await send(db);
  const second = String((await t.admin.collection('houses').getOne(id)).image);
  expect(second).toMatch(/\.png$/);
  expect(second).not.toBe(first);

  // Someone else changes the note meanwhile: removing the photo keeps it.
  await pullAll({ pb: manager, db });
  await t.admin.collection('houses').update(id, { note: 'Gate code changed' });
  await queueSaveHome(db, user, { house: {}, image: null }, id);
  expect((await db.houses.get(id))?.image).toBe('');
  await send(db);
  const saved = await t.admin.collection('houses').getOne(id);
  expect(saved.image).toBe('');
  expect(saved.note).toBe('Gate code changed');
  await pullAll({ pb: manager, db });
  expect((await db.houses.get(id))?.image).toBe('');
});
