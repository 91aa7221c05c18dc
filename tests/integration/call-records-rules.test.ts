/**
 * Who reads and writes the records of call jobs (migration
 * 1764700000_call_attempts.js), on a real PocketBase: call attempts are read
 * by the staff of their community only and written by the server only, like
 * calls; a community's call settings are read by its staff and written by its
 * directors, with a time zone the quiet-hours rule knows; a phone's
 * do-not-call flag is written like the rest of the phone; at most one job per
 * home is active.
 */
import { ClientResponseError, type RecordModel } from 'pocketbase';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCommunity, startTestServer, type CommunityFixture, type TestServer } from '../support/pocketbase.ts';

let t: TestServer;
let a: CommunityFixture;
let b: CommunityFixture;
let pb: Record<'anonymous' | 'regular A' | 'manager A' | 'director A' | 'director B', PocketBase>;
let houseA: string;
let phoneA: string;
let callA: string;
let attemptA: string;

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof ClientResponseError) return error.status;
    throw error;
  }
}

const settingsBody = (community: string, extra: Record<string, unknown> = {}) => ({
  community,
  retries: 2,
  retry_minutes: 5,
  text_fallback: false,
  quiet_start: '21:00',
  quiet_end: '08:00',
  time_zone: 'America/New_York',
  ...extra,
});

beforeAll(async () => {
  t = await startTestServer();
  a = await createCommunity(t.admin, 'attrulea');
  b = await createCommunity(t.admin, 'attruleb');
  const house = await t.admin
    .collection('houses')
    .create({ address: '1 Rule Way', city: 'Jupiter', state: 'FL', zip: '33458', community: a.community.id });
  houseA = house.id;
  phoneA = (
    await t.admin
      .collection('phones')
      .create({ phone_number: '+15615550111', primary: true, type: 'cell', house: houseA })
  ).id;
  const concern = await t.admin
    .collection('concerns')
    .create({ name: 'Door', hint: 'h', say: 'Your door is open.', added_by: a.director.id, community: a.community.id });
  callA = (
    await t.admin.collection('calls').create({
      house: houseA,
      community: a.community.id,
      concerns: [concern.id],
      to_number: '+15615550111',
      script: 'Hello.',
      status: 'completed',
      created_by: a.manager.id,
      progress: 'done',
      outcome: 'answered',
      acknowledged: true,
    })
  ).id;
  attemptA = (
    await t.admin.collection('call_attempts').create({
      call: callA,
      house: houseA,
      community: a.community.id,
      sequence: 1,
      phone: phoneA,
      to_number: '+15615550111',
      phone_type: 'cell',
      state: 'ended',
      provider_call_id: 'CA' + '1'.repeat(32),
      outcome: 'answered',
      acknowledged: true,
      duration: 12,
    })
  ).id;
  pb = {
    anonymous: t.client(),
    'regular A': await t.signIn(a.regular.email),
    'manager A': await t.signIn(a.manager.email),
    'director A': await t.signIn(a.director.email),
    'director B': await t.signIn(b.director.email),
  };
});

afterAll(async () => {
  await t?.stop();
});

describe('call_attempts', () => {
  test('listed and viewed by the staff of its community only', async () => {
    for (const actor of ['regular A', 'manager A', 'director A'] as const) {
      const list = await pb[actor].collection('call_attempts').getFullList();
      expect(
        list.map((r) => r.id),
        actor,
      ).toEqual([attemptA]);
      expect((await pb[actor].collection('call_attempts').getOne(attemptA)).outcome, actor).toBe('answered');
    }
    for (const actor of ['anonymous', 'director B'] as const) {
      expect(await pb[actor].collection('call_attempts').getFullList(), actor).toEqual([]);
      expect(await status(pb[actor].collection('call_attempts').getOne(attemptA)), actor).toBe(404);
    }
  });

  test('written by nobody but the server', async () => {
    const body = {
      call: callA,
      house: houseA,
      community: a.community.id,
      sequence: 2,
      to_number: '+15615550111',
      state: 'scheduled',
    };
    for (const actor of ['anonymous', 'regular A', 'manager A', 'director A', 'director B'] as const) {
      expect(await status(pb[actor].collection('call_attempts').create(body)), actor).toBe(403);
      expect(
        await status(pb[actor].collection('call_attempts').update(attemptA, { acknowledged: false })),
        actor,
      ).not.toBe(200);
      expect(await status(pb[actor].collection('call_attempts').delete(attemptA)), actor).not.toBe(200);
      expect(await status(pb[actor].collection('calls').update(callA, { acknowledged: false })), actor).not.toBe(200);
    }
    const kept = await t.admin.collection('call_attempts').getOne(attemptA);
    expect(kept.acknowledged).toBe(true);
    expect((await t.admin.collection('call_attempts').getFullList()).length).toBe(1);
    expect((await t.admin.collection('calls').getOne(callA)).acknowledged).toBe(true);
  });

  test('one attempt per number within a call (the idempotency key of a dial)', async () => {
    const again = {
      call: callA,
      house: houseA,
      community: a.community.id,
      sequence: 1,
      to_number: '+15615550111',
      state: 'scheduled',
    };
    expect(await status(t.admin.collection('call_attempts').create(again))).toBe(400);
  });
});

describe('calls', () => {
  test('at most one active job per home', async () => {
    const base = {
      house: houseA,
      community: a.community.id,
      to_number: '+15615550111',
      script: 'Hello.',
      status: 'queued',
      created_by: a.manager.id,
    };
    const first: RecordModel = await t.admin.collection('calls').create({ ...base, progress: 'calling' });
    expect(await status(t.admin.collection('calls').create({ ...base, progress: 'waiting' }))).toBe(400);
    expect(await status(t.admin.collection('calls').create({ ...base, progress: 'done' }))).toBe(200);
    await t.admin.collection('calls').update(first.id, { progress: 'done' });
    expect(await status(t.admin.collection('calls').create({ ...base, progress: 'calling' }))).toBe(200);
  });
});

describe('call_settings', () => {
  let settingsA = '';

  test("a director creates and edits their own community's; nobody else writes them", async () => {
    expect(await status(pb['manager A'].collection('call_settings').create(settingsBody(a.community.id)))).toBe(400);
    expect(await status(pb['regular A'].collection('call_settings').create(settingsBody(a.community.id)))).toBe(400);
    expect(await status(pb.anonymous.collection('call_settings').create(settingsBody(a.community.id)))).toBe(400);
    expect(await status(pb['director B'].collection('call_settings').create(settingsBody(a.community.id)))).toBe(400);
    expect((await t.admin.collection('call_settings').getFullList()).length).toBe(0);

    settingsA = (await pb['director A'].collection('call_settings').create(settingsBody(a.community.id))).id;
    // One per community.
    expect(await status(pb['director A'].collection('call_settings').create(settingsBody(a.community.id)))).toBe(400);

    expect(
      (await pb['director A'].collection('call_settings').update(settingsA, { retries: 3, text_fallback: true }))
        .retries,
    ).toBe(3);
    for (const actor of ['manager A', 'regular A', 'director B', 'anonymous'] as const) {
      expect(await status(pb[actor].collection('call_settings').update(settingsA, { retries: 0 })), actor).toBe(404);
    }
    // Not moved to another community, not deleted.
    expect(
      await status(pb['director A'].collection('call_settings').update(settingsA, { community: b.community.id })),
    ).toBe(404);
    expect(await status(pb['director A'].collection('call_settings').delete(settingsA))).toBe(403);
    const kept = await t.admin.collection('call_settings').getOne(settingsA);
    expect(kept).toMatchObject({ retries: 3, text_fallback: true, community: a.community.id });
  });

  test('read by the staff of its community only', async () => {
    for (const actor of ['regular A', 'manager A'] as const) {
      expect(
        (await pb[actor].collection('call_settings').getFullList()).map((r) => r.id),
        actor,
      ).toEqual([settingsA]);
    }
    expect(await pb['director B'].collection('call_settings').getFullList()).toEqual([]);
    expect(await status(pb['director B'].collection('call_settings').getOne(settingsA))).toBe(404);
  });

  test('bad values are refused', async () => {
    const bad: Array<[string, Record<string, unknown>]> = [
      ['unknown time zone', { time_zone: 'Mars/Olympus' }],
      ['empty time zone', { time_zone: '' }],
      ['quiet start not HH:MM', { quiet_start: '9pm' }],
      ['quiet end out of range', { quiet_end: '24:00' }],
      ['negative retries', { retries: -1 }],
      ['too many retries', { retries: 6 }],
      ['fractional retries', { retries: 1.5 }],
      ['zero minutes apart', { retry_minutes: 0 }],
      ['hours apart', { retry_minutes: 600 }],
      // Wrong types are refused, never converted (the record rules cover call settings too).
      ['retries as text', { retries: '2' }],
      ['retries as a list', { retries: [2] }],
      ['retries null', { retries: null }],
      ['minutes as true', { retry_minutes: true }],
      ['text fallback as text', { text_fallback: 'yes' }],
      ['quiet start as a number', { quiet_start: 900 }],
      ['time zone as a list', { time_zone: ['UTC'] }],
      ['community as a number', { community: 123 }],
      ['oversized time zone', { time_zone: 'x'.repeat(5000) }],
    ];
    for (const [label, values] of bad) {
      expect(await status(pb['director A'].collection('call_settings').update(settingsA, values)), label).toBe(400);
    }
    // The message says what is wrong, in the words of the directors' form.
    const refused = await pb['director A']
      .collection('call_settings')
      .update(settingsA, { retries: 9 })
      .catch((error: { response: { data: Record<string, { message: string }> } }) => error.response.data);
    expect(refused).toMatchObject({ retries: { message: 'Retries must be from 0 to 5.' } });
    expect(await t.admin.collection('call_settings').getOne(settingsA)).toMatchObject({
      retries: 3,
      retry_minutes: 5,
      time_zone: 'America/New_York',
      quiet_start: '21:00',
    });
    expect(
      (await pb['director A'].collection('call_settings').update(settingsA, { time_zone: 'America/Chicago' }))
        .time_zone,
    ).toBe('America/Chicago');
  });
});

describe('phones', () => {
  test('do-not-call is written like the rest of the phone, as a boolean', async () => {
    expect((await pb['manager A'].collection('phones').update(phoneA, { do_not_call: true })).do_not_call).toBe(true);
    expect(await status(pb['manager A'].collection('phones').update(phoneA, { do_not_call: 'yes' }))).toBe(400);
    expect(await status(pb['director B'].collection('phones').update(phoneA, { do_not_call: false }))).toBe(404);
    expect((await t.admin.collection('phones').getOne(phoneA)).do_not_call).toBe(true);
  });
});
