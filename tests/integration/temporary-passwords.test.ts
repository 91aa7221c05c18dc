/**
 * Temporary passwords against a real PocketBase: until the user chooses
 * their own, the session opens nothing but the change (the app shows only
 * the change screen; this is the server's side, for any other client), and
 * the password stops working after SCMS_TEMPORARY_PASSWORD_HOURS. A
 * director's reset gives a fresh one.
 */
import '../support/browser-globals.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase, { ClientResponseError } from 'pocketbase';
import { ensurePocketBase } from '../../scripts/pocketbase/install.ts';
import { hooksDir, migrationsDir, startPocketBase } from '../../scripts/pocketbase/server.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parsePbDate, pbDate } from '../../src/domain/pbDate.ts';
import {
  PASSWORD_CHANGE_REQUIRED,
  TEMPORARY_PASSWORD_EXPIRED,
  TEMPORARY_PASSWORD_EXPIRED_CODE,
} from '../../src/domain/temporaryPassword.ts';
import {
  createCommunity,
  newId,
  raiseSignInLimits,
  startTestServer,
  SUPERUSER,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

let t: TestServer;
let a: CommunityFixture;
let b: CommunityFixture;

beforeAll(async () => {
  t = await startTestServer();
  await raiseSignInLimits(t.admin);
  a = await createCommunity(t.admin, 'tpa');
  b = await createCommunity(t.admin, 'tpb');
});
afterAll(async () => {
  await t?.stop();
});

const OWN_PASSWORD = 'chosen-by-me-77';
const HOUR_MS = 3600_000;

interface Refusal {
  status: number;
  message: string;
  data: Record<string, { code?: string; message?: string }>;
}

/** The refusal a call ends with; null when it succeeds. */
async function refusalOf(call: Promise<unknown>): Promise<Refusal | null> {
  try {
    await call;
    return null;
  } catch (error) {
    if (!(error instanceof ClientResponseError)) throw error;
    const body = error.response as { message?: string; data?: Refusal['data'] };
    return { status: error.status, message: String(body.message ?? ''), data: body.data ?? {} };
  }
}

/** A user a director creates in their community, as the Users screen does (the server picks the password). */
function createdByDirector(director: PocketBase, community: string, extra: Record<string, unknown> = {}) {
  return director.collection('users').create({
    email: `temp.${newId()}@scms.test`,
    first_name: 'Temp',
    last_name: 'Orary',
    type: 'regular',
    community,
    password: 'throwaway-1234',
    passwordConfirm: 'throwaway-1234',
    ...extra,
  });
}

/** A user the director of A creates: its temporary password, and a client signed in with it. */
async function newColleague(): Promise<{ id: string; email: string; temporary: string; pb: PocketBase }> {
  const created = await createdByDirector(await t.signIn(a.director.email), a.community.id);
  const email = String(created.email);
  const temporary = String(created.temporary_password);
  const pb = t.client();
  await pb.collection('users').authWithPassword(email, temporary);
  return { id: created.id, email, temporary, pb };
}

/** What the server stores for a user (as the superuser reads it). */
const stored = (id: string) => t.admin.collection('users').getOne(id);

/** Moves a user's expiry to `ms` from now, as the clock would. */
async function expiresIn(id: string, ms: number): Promise<void> {
  await t.admin.collection('users').update(id, { temporary_password_expires: pbDate(new Date(Date.now() + ms)) });
}

async function houseCount(community: string): Promise<number> {
  return (await t.admin.collection('houses').getList(1, 1, { filter: `community = "${community}"` })).totalItems;
}

describe('a session on a temporary password opens nothing but the change', () => {
  test('every read, write, batch, file token, call and subscription is refused with one message; nothing is stored', async () => {
    const user = await newColleague();
    const house = await t.admin.collection('houses').create({
      address: `${newId()} Gate St`,
      city: 'Jupiter',
      state: 'FL',
      zip: '33458',
      community: a.community.id,
    });
    const housesBefore = await houseCount(a.community.id);
    const newHouse = { address: '1 Temp Rd', city: 'Jupiter', state: 'FL', zip: '33458', community: a.community.id };
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['the homes', () => user.pb.collection('houses').getList(1, 50)],
      ['one home', () => user.pb.collection('houses').getOne(house.id)],
      ['the colleagues', () => user.pb.collection('users').getList(1, 50)],
      ['the director', () => user.pb.collection('users').getOne(a.director.id)],
      ['another community', () => user.pb.collection('communities').getOne(b.community.id)],
      ['a new home', () => user.pb.collection('houses').create(newHouse)],
      ['a report', () => user.pb.collection('reports').create({ type: 'other', community: a.community.id })],
      [
        'a batch',
        () => {
          const batch = user.pb.createBatch();
          batch.collection('houses').create(newHouse);
          return batch.send();
        },
      ],
      ['a file token', () => user.pb.files.getToken()],
      [
        'a call',
        () => user.pb.send('/api/scms/call-resident', { method: 'POST', body: { house: house.id, concerns: [] } }),
      ],
      [
        'a realtime subscription',
        () => user.pb.send('/api/realtime', { method: 'POST', body: { clientId: 'x', subscriptions: ['houses'] } }),
      ],
      ['AI assist', () => user.pb.send('/api/scms/ai-assist', { method: 'POST', body: { narative: 'text' } })],
    ];
    for (const [what, call] of attempts) {
      const refusal = await refusalOf(call());
      expect(refusal, what).toMatchObject({ status: 403, message: PASSWORD_CHANGE_REQUIRED });
    }
    expect(await houseCount(a.community.id)).toBe(housesBefore);

    // What the change screen needs still works: the session renews, the own record reads.
    expect(await refusalOf(user.pb.collection('users').authRefresh())).toBeNull();
    expect((await user.pb.collection('users').getOne(user.id)).must_change_password).toBe(true);
    // The app itself (its files) is served to anyone.
    const page = await fetch(`${t.url}/api/health`, { headers: { Authorization: user.pb.authStore.token } });
    expect(page.status).toBe(200);

    // Once the password is the user's own, everything the rules allow is open again.
    await user.pb
      .collection('users')
      .update(user.id, { oldPassword: user.temporary, password: OWN_PASSWORD, passwordConfirm: OWN_PASSWORD });
    const own = await t.signIn(user.email, OWN_PASSWORD);
    expect((await own.collection('houses').getList(1, 50)).totalItems).toBe(housesBefore);
    expect(await refusalOf(own.files.getToken())).toBeNull();
  });

  test('a sign-in of someone else on the same phone is not held up by the temporary session still stored there', async () => {
    const user = await newColleague();
    await expiresIn(user.id, -HOUR_MS);
    // The SDK sends the stored token with the next sign-in.
    await user.pb.collection('users').authWithPassword(a.manager.email, TEST_PASSWORD);
    expect(user.pb.authStore.record?.id).toBe(a.manager.id);
  });
});

describe('a temporary password expires', () => {
  test('it works for 72 hours by default, from a new user and from a reset; a password of the own has no expiry', async () => {
    const before = Date.now();
    const user = await newColleague();
    const expires = parsePbDate(String((await stored(user.id)).temporary_password_expires))!.getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 72 * HOUR_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 72 * HOUR_MS + 1000);

    await user.pb
      .collection('users')
      .update(user.id, { oldPassword: user.temporary, password: OWN_PASSWORD, passwordConfirm: OWN_PASSWORD });
    expect(await stored(user.id)).toMatchObject({ must_change_password: false, temporary_password_expires: '' });

    const director = await t.signIn(a.director.email);
    const reset = await director.send<{ temporary_password: string; temporary_password_expires: string }>(
      `/api/scms/users/${user.id}/reset-password`,
      { method: 'POST' },
    );
    const afterReset = await stored(user.id);
    expect(afterReset.must_change_password).toBe(true);
    expect(reset.temporary_password_expires).toBe(afterReset.temporary_password_expires);
    expect(parsePbDate(reset.temporary_password_expires)!.getTime()).toBeGreaterThan(Date.now() + 71 * HOUR_MS);
  });

  test('past its time the sign-in says so (only to who knows the password), the live session ends, and a reset gives a working one', async () => {
    const user = await newColleague();
    await expiresIn(user.id, -1000);

    const expired = await refusalOf(t.client().collection('users').authWithPassword(user.email, user.temporary));
    expect(expired).toMatchObject({
      status: 400,
      data: { password: { code: TEMPORARY_PASSWORD_EXPIRED_CODE, message: TEMPORARY_PASSWORD_EXPIRED } },
    });
    // A wrong password gets PocketBase's usual answer: nothing is told about the account.
    const wrong = await refusalOf(t.client().collection('users').authWithPassword(user.email, 'not-the-password'));
    expect(wrong?.status).toBe(400);
    expect(JSON.stringify(wrong)).not.toContain(TEMPORARY_PASSWORD_EXPIRED_CODE);

    // The session signed in before the expiry can neither renew nor change the password now.
    expect(await refusalOf(user.pb.collection('users').authRefresh())).toMatchObject({
      status: 401,
      message: TEMPORARY_PASSWORD_EXPIRED,
    });
    const change = await refusalOf(
      user.pb
        .collection('users')
        .update(user.id, { oldPassword: user.temporary, password: OWN_PASSWORD, passwordConfirm: OWN_PASSWORD }),
    );
    expect(change?.status).toBe(401);
    expect((await stored(user.id)).must_change_password).toBe(true);

    const director = await t.signIn(a.director.email);
    const reset = await director.send<{ temporary_password: string }>(`/api/scms/users/${user.id}/reset-password`, {
      method: 'POST',
    });
    const again = await t.client().collection('users').authWithPassword(user.email, reset.temporary_password);
    expect(again.record.must_change_password).toBe(true);
  });

  test('nobody but the server sets the expiry: not the director, not the user in the own change', async () => {
    const user = await newColleague();
    const before = await stored(user.id);
    const later = pbDate(new Date(Date.now() + 1000 * HOUR_MS));
    const director = await t.signIn(a.director.email);
    const byDirector = await refusalOf(
      director.collection('users').update(user.id, { temporary_password_expires: later }),
    );
    expect(byDirector?.status).toBe(400);
    expect(byDirector?.data.temporary_password_expires?.message).toBe('This field is set by the server.');
    const byUser = await refusalOf(
      user.pb.collection('users').update(user.id, {
        oldPassword: user.temporary,
        password: OWN_PASSWORD,
        passwordConfirm: OWN_PASSWORD,
        temporary_password_expires: later,
      }),
    );
    expect(byUser?.status).toBe(400);
    // A new user sent with an expiry of their own gets the server's.
    const created = await createdByDirector(director, a.community.id, { temporary_password_expires: later });
    expect(parsePbDate(String(created.temporary_password_expires))!.getTime()).toBeLessThan(Date.now() + 73 * HOUR_MS);
    expect(await stored(user.id)).toEqual(before);
  });
});

describe('SCMS_TEMPORARY_PASSWORD_HOURS', () => {
  test('sets how long a temporary password works', async () => {
    const short = await startTestServer({ SCMS_TEMPORARY_PASSWORD_HOURS: '2' });
    try {
      const f = await createCommunity(short.admin, 'tph');
      const director = await short.signIn(f.director.email);
      const created = await createdByDirector(director, f.community.id, { type: 'manager' });
      const expires = parsePbDate(String(created.temporary_password_expires))!.getTime();
      expect(Math.abs(expires - (Date.now() + 2 * HOUR_MS))).toBeLessThan(60_000);
    } finally {
      await short.stop();
    }
  });
});

describe('the migration that brings expiry', () => {
  /** The migration that gave temporary passwords their expiry. */
  const EXPIRY_MIGRATION = '1764900000_temporary_password_expiry.js';

  test('gives users already waiting with a temporary password 72 hours from the upgrade, and nobody else an expiry', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scms-pb-expiry-'));
    let server = await startPocketBase({ dataDir, superuser: SUPERUSER });
    try {
      const admin = new PocketBase(server.url);
      await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
      const f = await createCommunity(admin, 'tpm');
      await admin.collection('users').update(f.regular.id, { must_change_password: true });
      await server.stop();

      // Back to the version before it: the flag without an expiry, as a server of that version has it
      // (the migrations that came after it go down first, and all come up again at the next start).
      const bin = await ensurePocketBase();
      const folders = [`--dir=${dataDir}`, `--migrationsDir=${migrationsDir}`, `--hooksDir=${hooksDir}`];
      const since = readdirSync(migrationsDir).filter((name) => /^\d+_.*\.js$/.test(name) && name >= EXPIRY_MIGRATION);
      execFileSync(bin, ['migrate', 'down', String(since.length), ...folders], {
        input: 'y\n',
        stdio: ['pipe', 'ignore', 'ignore'],
      });

      const upgraded = Date.now();
      server = await startPocketBase({ dataDir });
      const after = new PocketBase(server.url);
      await after.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
      const waiting = await after.collection('users').getOne(f.regular.id);
      const expires = parsePbDate(String(waiting.temporary_password_expires))!.getTime();
      expect(expires).toBeGreaterThanOrEqual(upgraded + 72 * HOUR_MS - 5_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 72 * HOUR_MS);
      expect(await after.collection('users').getOne(f.manager.id)).toMatchObject({
        must_change_password: false,
        temporary_password_expires: '',
      });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
