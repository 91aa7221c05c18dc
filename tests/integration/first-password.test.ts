/**
 * The first password of one's own against a real PocketBase: a user signed
 * in with a temporary password chooses their own without typing the
 * temporary one again (POST /api/scms/users/{id}/first-password; the
 * session proves it). Anyone else is refused with a clear answer and
 * nothing changes: a user with a password of their own, another user's id
 * (this community or another), a guest, an expired temporary password, a
 * session made before the flag was set, malformed or oversized bodies. The
 * temporary passwords the server hands out are easy to read out and type.
 */
import '../support/browser-globals.ts';
import PocketBase, { ClientResponseError } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pbDate } from '../../src/domain/pbDate.ts';
import {
  PASSWORD_CHANGE_REQUIRED,
  TEMPORARY_PASSWORD_ALPHABET,
  TEMPORARY_PASSWORD_EXPIRED,
} from '../../src/domain/temporaryPassword.ts';
import {
  createCommunity,
  newId,
  raiseSignInLimits,
  startTestServer,
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
  a = await createCommunity(t.admin, 'fpa');
  b = await createCommunity(t.admin, 'fpb');
});
afterAll(async () => {
  await t?.stop();
});

const OWN_PASSWORD = 'chosen-by-me-42';
const firstPasswordPath = (id: string) => `/api/scms/users/${encodeURIComponent(id)}/first-password`;

interface Answer {
  status: number;
  body: { message?: string; data?: Record<string, { code?: string; message?: string }> };
}

/** Sends a raw body to the first-password route of `id` with `token` (none: a guest). */
async function post(id: string, token: string, body: string, contentType = 'application/json'): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': contentType };
  if (token) headers.Authorization = token;
  const response = await fetch(`${t.url}${firstPasswordPath(id)}`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Answer['body']) };
}

const choose = (id: string, token: string, values: unknown) => post(id, token, JSON.stringify(values));
const own = { password: OWN_PASSWORD, passwordConfirm: OWN_PASSWORD };

/** A user the director of `community` creates (the server picks the password), signed in with it. */
async function newColleague(
  community: CommunityFixture = a,
): Promise<{ id: string; email: string; temporary: string; pb: PocketBase }> {
  const director = await t.signIn(community.director.email);
  const created = await director.collection('users').create({
    email: `first.${newId()}@scms.test`,
    first_name: 'First',
    last_name: 'Password',
    type: 'regular',
    community: community.community.id,
    password: 'throwaway-1234',
    passwordConfirm: 'throwaway-1234',
  });
  const email = String(created.email);
  const temporary = String(created.temporary_password);
  const pb = t.client();
  await pb.collection('users').authWithPassword(email, temporary);
  return { id: created.id, email, temporary, pb };
}

/** What the server stores for a user (as the superuser reads it). */
const stored = (id: string) => t.admin.collection('users').getOne(id);

async function signsIn(email: string, password: string): Promise<boolean> {
  try {
    await t.client().collection('users').authWithPassword(email, password);
    return true;
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 400) return false;
    throw error;
  }
}

/** Does this session's token still work (a renewal of it is accepted)? */
async function sessionWorks(pb: PocketBase): Promise<boolean> {
  const copy = t.client();
  copy.authStore.save(pb.authStore.token, pb.authStore.record);
  try {
    await copy.collection('users').authRefresh();
    return true;
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 401) return false;
    throw error;
  }
}

/** Runs `refused` (which must be refused with `status`) and checks that the user is exactly as before. */
async function expectNothingChanged(
  user: { id: string; email: string; password: string; pb: PocketBase },
  refused: () => Promise<Answer>,
  status: number,
): Promise<Answer> {
  const before = await stored(user.id);
  const answer = await refused();
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(String(answer.body.message ?? '')).not.toBe('');
  expect(await stored(user.id)).toEqual(before);
  expect(await signsIn(user.email, user.password)).toBe(true);
  expect(await sessionWorks(user.pb)).toBe(true);
  return answer;
}

describe('a user signed in with a temporary password', () => {
  test('chooses their own without the temporary one: the flag clears, the new password signs in, the old one and its sessions end', async () => {
    const user = await newColleague();
    expect((await stored(user.id)).must_change_password).toBe(true);

    const answer = await choose(user.id, user.pb.authStore.token, own);
    expect(answer.status, JSON.stringify(answer.body)).toBe(204);

    expect(await stored(user.id)).toMatchObject({ must_change_password: false, temporary_password_expires: '' });
    expect(await signsIn(user.email, OWN_PASSWORD)).toBe(true);
    expect(await signsIn(user.email, user.temporary)).toBe(false);
    expect(await sessionWorks(user.pb)).toBe(false);
    // The community opens to the new password's session.
    const after = await t.signIn(user.email, OWN_PASSWORD);
    expect(await after.collection('houses').getList(1, 1)).toBeTruthy();
    // Once the password is their own, the route is closed to them too.
    const again = await choose(user.id, after.authStore.token, {
      password: 'another-one-99',
      passwordConfirm: 'another-one-99',
    });
    expect(again.status).toBe(403);
    expect(await signsIn(user.email, OWN_PASSWORD)).toBe(true);
  });

  test("after a director's reset, the same", async () => {
    const user = t.client();
    await user.collection('users').authWithPassword(a.manager.email, TEST_PASSWORD);
    const director = await t.signIn(a.director.email);
    const reset = await director.send<{ temporary_password: string }>(
      `/api/scms/users/${a.manager.id}/reset-password`,
      {
        method: 'POST',
      },
    );
    // The session of the password before the reset cannot use it.
    const stale = await choose(a.manager.id, user.authStore.token, own);
    expect(stale.status).toBe(401);

    await user.collection('users').authWithPassword(a.manager.email, reset.temporary_password);
    expect((await choose(a.manager.id, user.authStore.token, own)).status).toBe(204);
    expect(await signsIn(a.manager.email, OWN_PASSWORD)).toBe(true);
    // Back to the fixture's password for the other tests (the user's own change, with the current one).
    const back = await t.signIn(a.manager.email, OWN_PASSWORD);
    await back
      .collection('users')
      .update(a.manager.id, { oldPassword: OWN_PASSWORD, password: TEST_PASSWORD, passwordConfirm: TEST_PASSWORD });
  });
});

describe('everyone else is refused with a clear answer and nothing changes', () => {
  test('a user with a password of their own: the current one is needed (the usual change)', async () => {
    const regular = await t.signIn(a.regular.email);
    const user = { id: a.regular.id, email: a.regular.email, password: TEST_PASSWORD, pb: regular };
    const answer = await expectNothingChanged(user, () => choose(user.id, regular.authStore.token, own), 403);
    expect(answer.body.message).toBe('Your password is your own: enter the current one to change it.');
    // A director too, for their own record.
    const director = await t.signIn(a.director.email);
    const asDirector = { id: a.director.id, email: a.director.email, password: TEST_PASSWORD, pb: director };
    await expectNothingChanged(asDirector, () => choose(a.director.id, director.authStore.token, own), 403);
  });

  test("another user's id: a colleague on a temporary password, a director, another community, one that does not exist", async () => {
    const target = await newColleague();
    const targetUser = { ...target, password: target.temporary };
    // A director of the same community cannot choose it for them (a reset is the way).
    const director = await t.signIn(a.director.email);
    const byDirector = await expectNothingChanged(
      targetUser,
      () => choose(target.id, director.authStore.token, own),
      403,
    );
    expect(byDirector.body.message).toBe('You can only choose your own password.');
    // Nor another colleague on a temporary password (the gate refuses first), nor another community's director.
    const colleague = await newColleague();
    await expectNothingChanged(targetUser, () => choose(target.id, colleague.pb.authStore.token, own), 403);
    const foreign = await t.signIn(b.director.email);
    const byForeign = await expectNothingChanged(
      targetUser,
      () => choose(target.id, foreign.authStore.token, own),
      403,
    );
    // The same answer as for a colleague: nothing told about who exists elsewhere.
    expect(byForeign.body.message).toBe(byDirector.body.message);
    // A temporary-password user of another community naming this one's users.
    const foreignNew = await newColleague(b);
    await expectNothingChanged(targetUser, () => choose(target.id, foreignNew.pb.authStore.token, own), 403);
    const regular = await t.signIn(a.regular.email);
    const regularUser = { id: a.regular.id, email: a.regular.email, password: TEST_PASSWORD, pb: regular };
    await expectNothingChanged(regularUser, () => choose(a.regular.id, foreignNew.pb.authStore.token, own), 403);
    // An id nobody has.
    expect((await choose('nobodyhasthisid', director.authStore.token, own)).status).toBe(403);
    // A guest.
    await expectNothingChanged(targetUser, () => choose(target.id, '', own), 401);
  });

  test('malformed and oversized bodies', async () => {
    const user = await newColleague();
    const me = { ...user, password: user.temporary };
    const token = user.pb.authStore.token;
    const fieldError = async (values: unknown, field: string, message: string) => {
      const answer = await expectNothingChanged(me, () => choose(user.id, token, values), 400);
      expect(answer.body.data?.[field]?.message, JSON.stringify(values)).toBe(message);
    };
    await fieldError({ password: OWN_PASSWORD }, 'passwordConfirm', 'Passwords do not match.');
    await fieldError(
      { password: OWN_PASSWORD, passwordConfirm: 'something-else' },
      'passwordConfirm',
      'Passwords do not match.',
    );
    await fieldError({ passwordConfirm: OWN_PASSWORD }, 'password', 'Cannot be blank.');
    await fieldError({ password: '', passwordConfirm: '' }, 'password', 'Cannot be blank.');
    await fieldError({ password: 12345678, passwordConfirm: 12345678 }, 'password', 'Cannot be blank.');
    await fieldError({ password: ['a'], passwordConfirm: ['a'] }, 'password', 'Cannot be blank.');
    const length = 'Password must be between 8 and 24 characters.';
    await fieldError({ password: 'short-7', passwordConfirm: 'short-7' }, 'password', length);
    await fieldError({ password: 'x'.repeat(25), passwordConfirm: 'x'.repeat(25) }, 'password', length);
    // The temporary password kept: still one a director has seen.
    await fieldError(
      { password: user.temporary, passwordConfirm: user.temporary },
      'password',
      'Choose a password different from the current one.',
    );
    // Nothing but the new password: no other field rides along.
    for (const extra of [{ type: 'director' }, { must_change_password: false }, { oldPassword: user.temporary }]) {
      const key = Object.keys(extra)[0]!;
      await fieldError({ ...own, ...extra }, key, 'Only the new password can be sent here.');
    }
    // Not JSON, not an object, too large.
    for (const raw of ['{"password": ', '[]', 'null', '"text"', '']) {
      const answer = await expectNothingChanged(me, () => post(user.id, token, raw), 400);
      expect(answer.body.message).toMatch(/^The request body must be (valid JSON|a JSON object)\.$/);
    }
    const huge = JSON.stringify({ password: 'p'.repeat(100_000), passwordConfirm: 'p'.repeat(100_000) });
    const tooLarge = await expectNothingChanged(me, () => post(user.id, token, huge), 413);
    expect(tooLarge.body.message).toBe('The request body is too large.');
    // And after all that, the right body still works.
    expect((await choose(user.id, token, own)).status).toBe(204);
  });

  test('an expired temporary password: the session has ended', async () => {
    const user = await newColleague();
    await t.admin
      .collection('users')
      .update(user.id, { temporary_password_expires: pbDate(new Date(Date.now() - 1000)) });
    const before = await stored(user.id);
    const answer = await choose(user.id, user.pb.authStore.token, own);
    expect(answer).toMatchObject({ status: 401, body: { message: TEMPORARY_PASSWORD_EXPIRED } });
    expect(await stored(user.id)).toEqual(before);
  });

  test('a session made before the flag was set by hand cannot use it; a sign-in after can', async () => {
    const session = await t.signIn(b.regular.email);
    await t.admin.collection('users').update(b.regular.id, { must_change_password: true });
    const before = await stored(b.regular.id);
    expect((await choose(b.regular.id, session.authStore.token, own)).status).toBe(401);
    expect(await stored(b.regular.id)).toEqual(before);
    expect(await signsIn(b.regular.email, TEST_PASSWORD)).toBe(true);

    const fresh = await t.signIn(b.regular.email);
    // Meanwhile the session opens nothing else.
    expect((await choose(b.manager.id, fresh.authStore.token, own)).body.message).toBe(PASSWORD_CHANGE_REQUIRED);
    expect((await choose(b.regular.id, fresh.authStore.token, own)).status).toBe(204);
    expect(await signsIn(b.regular.email, OWN_PASSWORD)).toBe(true);
  });
});

test('temporary passwords are four groups of four, without characters read or typed for one another', async () => {
  const director = await t.signIn(a.director.email);
  const target = await newColleague();
  const alphabet = `[${TEMPORARY_PASSWORD_ALPHABET}]{4}`;
  const shape = new RegExp(`^${alphabet}-${alphabet}-${alphabet}-${alphabet}$`);
  expect(target.temporary).toMatch(shape);
  const seen = new Set<string>([target.temporary]);
  for (let i = 0; i < 20; i++) {
    const reset = await director.send<{ temporary_password: string }>(`/api/scms/users/${target.id}/reset-password`, {
      method: 'POST',
    });
    expect(reset.temporary_password).toMatch(shape);
    expect(reset.temporary_password).not.toMatch(/[0O1lIio]/);
    seen.add(reset.temporary_password);
  }
  expect(seen.size).toBe(21);
  // The last one signs in as it was shown.
  expect(await signsIn(target.email, [...seen].at(-1)!)).toBe(true);
});
