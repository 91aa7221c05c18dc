/**
 * Own passwords against a real PocketBase (docs/product.md#login, and the
 * refusals that must not tell what exists elsewhere): everyone changes their
 * own password and nothing else; the server's temporary passwords must be
 * changed (the flag); a director resets a colleague's password and the old
 * sessions end; the login page learns whether reset e-mails can be sent, and
 * with mail configured the e-mail arrives (a local SMTP sink) and works.
 */
import '../support/browser-globals.ts';
import PocketBase, { ClientResponseError } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createCommunity,
  newId,
  raiseSignInLimits,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';
import { decodedMail, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

let t: TestServer;
let a: CommunityFixture;
let b: CommunityFixture;
let refused = 0;

beforeAll(async () => {
  t = await startTestServer();
  await raiseSignInLimits(t.admin);
  a = await createCommunity(t.admin, 'pwa');
  b = await createCommunity(t.admin, 'pwb');
});
afterAll(async () => {
  await t?.stop();
});

/** The HTTP status a call ends with (200 when it succeeds). */
async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof ClientResponseError) return error.status;
    throw error;
  }
}

/** The refusal's body, for checks of what it says. */
async function refusalOf(call: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ClientResponseError)
      return { status: error.status, body: error.response as Record<string, unknown> };
    throw error;
  }
  throw new Error('The call was not refused');
}

/** Can this e-mail sign in with this password? */
async function signsIn(email: string, password: string): Promise<boolean> {
  return (await statusOf(t.client().collection('users').authWithPassword(email, password))) === 200;
}

/** Does the server still honour this client's token? PocketBase serves a void token as a guest, so only the refresh tells. */
async function tokenAlive(pb: PocketBase): Promise<boolean> {
  return (await statusOf(pb.collection('users').authRefresh())) === 200;
}

/** A fresh user of community A (superuser-made, with TEST_PASSWORD), so each test changes its own. */
async function freshUser(
  type: 'manager' | 'regular' = 'regular',
  community = a.community.id,
): Promise<{ id: string; email: string }> {
  const email = `u.${newId()}@scms.test`;
  const user = await t.admin.collection('users').create({
    email,
    emailVisibility: true,
    password: TEST_PASSWORD,
    passwordConfirm: TEST_PASSWORD,
    first_name: 'Fresh',
    last_name: 'User',
    type,
    community,
    verified: true,
  });
  return { id: user.id, email };
}

const NEW_PASSWORD = 'my-own-secret-42';

describe('changing your own password', () => {
  test.each(['regular', 'manager'] as const)(
    'a %s changes their own password with the right old one; old sessions end',
    async (type) => {
      const user = await freshUser(type);
      const pb = await t.signIn(user.email);
      const other = await t.signIn(user.email);
      const updated = await pb
        .collection('users')
        .update(user.id, { oldPassword: TEST_PASSWORD, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD });
      expect(updated.must_change_password).toBe(false);
      expect(await signsIn(user.email, NEW_PASSWORD)).toBe(true);
      expect(await signsIn(user.email, TEST_PASSWORD)).toBe(false);
      // Every token of the old password is void, this device's included: the app signs in again.
      expect(await tokenAlive(other)).toBe(false);
      expect(await tokenAlive(pb)).toBe(false);
    },
  );

  test('a director changes their own password the same way', async () => {
    const director = await t.admin.collection('users').create({
      email: `d.${newId()}@scms.test`,
      password: TEST_PASSWORD,
      passwordConfirm: TEST_PASSWORD,
      first_name: 'D',
      last_name: 'Two',
      type: 'director',
      community: a.community.id,
    });
    const pb = await t.signIn(director.email);
    await pb
      .collection('users')
      .update(director.id, { oldPassword: TEST_PASSWORD, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD });
    expect(await signsIn(director.email, NEW_PASSWORD)).toBe(true);
  });

  test('a wrong old password, a missing one or a mismatched confirmation is refused and nothing changes', async () => {
    const user = await freshUser();
    const pb = await t.signIn(user.email);
    const wrong = await refusalOf(
      pb
        .collection('users')
        .update(user.id, { oldPassword: 'not-the-password', password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD }),
    );
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body.data as object)).toContain('oldPassword');
    expect(
      await statusOf(pb.collection('users').update(user.id, { password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD })),
    ).toBe(404);
    expect(
      await statusOf(
        pb
          .collection('users')
          .update(user.id, { oldPassword: TEST_PASSWORD, password: NEW_PASSWORD, passwordConfirm: 'something-else-1' }),
      ),
    ).toBe(400);
    refused += 3;
    expect(await signsIn(user.email, TEST_PASSWORD)).toBe(true);
    expect(await tokenAlive(pb)).toBe(true);
  });

  // Each of these rides along with a correct own password change: the password is the only field it may touch.
  const SMUGGLED: Array<[string, (ids: { community: string; other: string }) => Record<string, unknown>]> = [
    ['type', () => ({ type: 'director' })],
    ['type (manager)', () => ({ type: 'manager' })],
    ['community', (ids) => ({ community: ids.other })],
    ['email', () => ({ email: `taken.${newId()}@scms.test` })],
    ['emailVisibility', () => ({ emailVisibility: false })],
    ['verified', () => ({ verified: false })],
    ['first_name', () => ({ first_name: 'Changed' })],
    ['last_name', () => ({ last_name: 'Changed' })],
    ['must_change_password', () => ({ must_change_password: true })],
    ['type+ modifier', () => ({ 'type+': 'director' })],
    ['first_name:autogenerate', () => ({ 'first_name:autogenerate': '' })],
  ];
  test.each(SMUGGLED)('an own password change that also sets %s is refused, nothing changes', async (_name, extra) => {
    const user = await freshUser();
    const before = await t.admin.collection('users').getOne(user.id);
    const pb = await t.signIn(user.email);
    const status = await statusOf(
      pb.collection('users').update(user.id, {
        oldPassword: TEST_PASSWORD,
        password: NEW_PASSWORD,
        passwordConfirm: NEW_PASSWORD,
        ...extra({ community: a.community.id, other: b.community.id }),
      }),
    );
    expect([400, 403, 404]).toContain(status);
    refused++;
    const after = await t.admin.collection('users').getOne(user.id);
    expect(after).toEqual(before);
    expect(await signsIn(user.email, TEST_PASSWORD)).toBe(true);
  });

  test("nobody but a superuser changes anyone else's password, even knowing the old one", async () => {
    const target = await freshUser('manager');
    const attempts: Array<[string, PocketBase]> = [
      ['regular A', await t.signIn(a.regular.email)],
      ['manager A', await t.signIn(a.manager.email)],
      ['director A', await t.signIn(a.director.email)],
      ['director B', await t.signIn(b.director.email)],
      ['anonymous', t.client()],
    ];
    for (const [actor, pb] of attempts) {
      for (const body of [
        { oldPassword: TEST_PASSWORD, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD },
        { password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD },
      ]) {
        const status = await statusOf(pb.collection('users').update(target.id, body));
        expect([400, 403, 404], `${actor} ${Object.keys(body).join(',')}`).toContain(status);
        refused++;
      }
    }
    expect(await signsIn(target.email, TEST_PASSWORD)).toBe(true);
  });

  test('a non-director still cannot edit their own record without a password change', async () => {
    const user = await freshUser();
    const pb = await t.signIn(user.email);
    for (const body of [{ first_name: 'Me' }, { type: 'director' }, { must_change_password: false }]) {
      expect(await statusOf(pb.collection('users').update(user.id, body))).toBe(404);
      refused++;
    }
  });
});

describe('the temporary password must be changed', () => {
  test('a user a director creates must change the password; their own change clears the flag', async () => {
    const director = await t.signIn(a.director.email);
    const email = `new.${newId()}@scms.test`;
    const created = await director.collection('users').create({
      email,
      emailVisibility: true,
      first_name: 'New',
      last_name: 'Hire',
      type: 'regular',
      community: a.community.id,
      password: 'placeholder-1',
      passwordConfirm: 'placeholder-1',
    });
    expect(created.must_change_password).toBe(true);
    const temporary = String(created.temporary_password);
    expect(temporary.length).toBeGreaterThanOrEqual(8);
    expect(temporary.length).toBeLessThanOrEqual(24);

    const pb = t.client();
    const auth = await pb.collection('users').authWithPassword(email, temporary);
    expect(auth.record.must_change_password).toBe(true);
    // The flag is the server's: neither the user nor the director clears it by hand.
    expect(
      await statusOf(
        pb.collection('users').update(created.id, {
          oldPassword: temporary,
          password: NEW_PASSWORD,
          passwordConfirm: NEW_PASSWORD,
          must_change_password: false,
        }),
      ),
    ).toBe(400);
    expect(await statusOf(director.collection('users').update(created.id, { must_change_password: false }))).toBe(400);
    refused += 2;
    expect((await t.admin.collection('users').getOne(created.id)).must_change_password).toBe(true);

    // Nor by a 'change' that keeps the temporary password, or sets none.
    const same = await refusalOf(
      pb
        .collection('users')
        .update(created.id, { oldPassword: temporary, password: temporary, passwordConfirm: temporary }),
    );
    expect(same.body.data).toEqual({
      password: { code: 'validation_same_password', message: 'Choose a password different from the current one.' },
    });
    expect(await statusOf(pb.collection('users').update(created.id, { oldPassword: temporary }))).toBe(400);
    expect(
      await statusOf(
        pb.collection('users').update(created.id, { oldPassword: temporary, password: '', passwordConfirm: '' }),
      ),
    ).toBe(400);
    refused += 3;
    expect((await t.admin.collection('users').getOne(created.id)).must_change_password).toBe(true);

    await pb
      .collection('users')
      .update(created.id, { oldPassword: temporary, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD });
    const again = await t.client().collection('users').authWithPassword(email, NEW_PASSWORD);
    expect(again.record.must_change_password).toBe(false);
    expect(await signsIn(email, temporary)).toBe(false);
  });

  test('users the superuser creates (the seed, the tests) keep the flag off', async () => {
    const user = await freshUser();
    expect((await t.admin.collection('users').getOne(user.id)).must_change_password).toBe(false);
  });
});

describe('a director resets a password', () => {
  const reset = (pb: PocketBase, id: string) =>
    pb.send<{ temporary_password: string }>(`/api/scms/users/${id}/reset-password`, { method: 'POST' });

  test.each(['regular', 'manager'] as const)(
    'a director of the same community resets a %s: a new temporary password, old sessions ended, the flag set',
    async (type) => {
      const user = await freshUser(type);
      const session = await t.signIn(user.email);
      expect(await tokenAlive(session)).toBe(true);
      const answer = await reset(await t.signIn(a.director.email), user.id);
      expect(answer.temporary_password).toMatch(/^\S{8,24}$/);
      expect(await tokenAlive(session)).toBe(false);
      // A void token is a guest's: the user's own record is no longer readable with it.
      expect(await statusOf(session.collection('users').getOne(user.id))).toBe(404);
      expect(await signsIn(user.email, TEST_PASSWORD)).toBe(false);
      const auth = await t.client().collection('users').authWithPassword(user.email, answer.temporary_password);
      expect(auth.record.must_change_password).toBe(true);
      // Each reset gives a different password.
      const second = await reset(await t.signIn(a.director.email), user.id);
      expect(second.temporary_password).not.toBe(answer.temporary_password);
    },
  );

  test("a live connection of the old session stops receiving the community's changes (reset and own change)", async () => {
    const house = () => ({
      address: `${newId()} Live St`,
      city: 'Jupiter',
      state: 'FL',
      zip: '33458',
      community: a.community.id,
    });
    for (const how of ['reset', 'own change'] as const) {
      const user = await freshUser();
      const live = await t.signIn(user.email);
      const seen: string[] = [];
      const unsubscribe = await live.collection('houses').subscribe('*', (event) => void seen.push(event.record.id));
      try {
        const before = await t.admin.collection('houses').create(house());
        await expect.poll(() => seen.includes(before.id), { timeout: 2000, interval: 20 }).toBe(true);
        if (how === 'reset') await reset(await t.signIn(a.director.email), user.id);
        else
          await (
            await t.signIn(user.email)
          )
            .collection('users')
            .update(user.id, { oldPassword: TEST_PASSWORD, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD });
        const after = await t.admin.collection('houses').create(house());
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(seen, how).not.toContain(after.id);
      } finally {
        await unsubscribe().catch(() => undefined);
        live.realtime.unsubscribe().catch(() => undefined);
      }
    }
  });

  test('everyone else is refused and nothing changes', async () => {
    const target = await freshUser();
    const session = await t.signIn(target.email);
    const cases: Array<[string, PocketBase, string, number]> = [
      ['anonymous', t.client(), target.id, 401],
      ['regular A', await t.signIn(a.regular.email), target.id, 403],
      ['manager A', await t.signIn(a.manager.email), target.id, 403],
      ['director B', await t.signIn(b.director.email), target.id, 404],
      ['director A, unknown id', await t.signIn(a.director.email), newId(), 404],
      ['director A, user of B', await t.signIn(a.director.email), b.regular.id, 404],
      ['director A, itself', await t.signIn(a.director.email), a.director.id, 400],
      ['regular A, itself', await t.signIn(target.email), target.id, 403],
    ];
    for (const [actor, pb, id, expected] of cases) {
      const refusal = await refusalOf(reset(pb, id));
      expect(refusal.status, actor).toBe(expected);
      expect(JSON.stringify(refusal.body), actor).not.toMatch(/temporary_password/);
      refused++;
    }
    // A user of another community and an unknown id get the same answer.
    const foreign = await refusalOf(reset(await t.signIn(a.director.email), b.regular.id));
    const unknown = await refusalOf(reset(await t.signIn(a.director.email), newId()));
    expect(foreign).toEqual(unknown);
    expect(await tokenAlive(session)).toBe(true);
    expect(await signsIn(target.email, TEST_PASSWORD)).toBe(true);
    expect(await signsIn(b.regular.email, TEST_PASSWORD)).toBe(true);
    expect((await t.admin.collection('users').getOne(target.id)).must_change_password).toBe(false);
  });
});

describe('forgot password', () => {
  test('without mail the login page is told to send people to their director; the reset request says nothing about who exists', async () => {
    const options = await t.client().send('/api/scms/auth-options', {});
    expect(options).toEqual({ password_reset_email: false });
    expect(await statusOf(t.client().collection('users').requestPasswordReset(a.regular.email))).toBe(200);
    expect(await statusOf(t.client().collection('users').requestPasswordReset(`nobody.${newId()}@scms.test`))).toBe(
      200,
    );
  });

  describe('with mail configured', () => {
    let mailServer: TestServer;
    let sink: SmtpSink;
    let c: CommunityFixture;
    beforeAll(async () => {
      sink = await startSmtpSink();
      mailServer = await startTestServer({
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(sink.port),
        SMTP_SENDER: 'patrol@scms.test',
      });
      c = await createCommunity(mailServer.admin, 'pwmail');
    });
    afterAll(async () => {
      await mailServer?.stop();
      await sink?.stop();
    });

    test("the login page offers the e-mail; the link in it sets a password of the user's own, which clears the flag", async () => {
      expect(await mailServer.client().send('/api/scms/auth-options', {})).toEqual({ password_reset_email: true });
      // The director reset the password first: the flag is on.
      const director = await mailServer.signIn(c.director.email);
      await director.send(`/api/scms/users/${c.regular.id}/reset-password`, { method: 'POST' });

      const before = sink.messages.length;
      await mailServer.client().collection('users').requestPasswordReset(c.regular.email);
      const mail = await sink.next(before);
      expect(mail.to).toEqual([c.regular.email]);
      expect(mail.from).toBe('patrol@scms.test');
      const token = /confirm-password-reset\/([\w.-]+)/.exec(decodedMail(mail.raw))?.[1];
      expect(token).toBeTruthy();

      await mailServer.client().collection('users').confirmPasswordReset(token!, NEW_PASSWORD, NEW_PASSWORD);
      const auth = await mailServer.client().collection('users').authWithPassword(c.regular.email, NEW_PASSWORD);
      expect(auth.record.must_change_password).toBe(false);
    });

    test('an unknown address gets the same answer and no e-mail', async () => {
      const before = sink.messages.length;
      expect(
        await statusOf(mailServer.client().collection('users').requestPasswordReset(`nobody.${newId()}@scms.test`)),
      ).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(sink.messages.length).toBe(before);
    });
  });
});

describe('refusals that do not tell what exists elsewhere', () => {
  const newUser = (email: string) => ({
    email,
    emailVisibility: true,
    first_name: 'Taken',
    last_name: 'Mail',
    type: 'regular',
    community: a.community.id,
    password: 'placeholder-1',
    passwordConfirm: 'placeholder-1',
  });

  test('a new user with the e-mail of a user of another community: a message that does not say so, the same as for one of this community', async () => {
    const director = await t.signIn(a.director.email);
    const elsewhere = await refusalOf(director.collection('users').create(newUser(b.manager.email)));
    const elsewhereUpper = await refusalOf(director.collection('users').create(newUser(b.manager.email.toUpperCase())));
    const here = await refusalOf(director.collection('users').create(newUser(a.manager.email)));
    refused += 3;
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.data).toEqual({
      email: { code: 'validation_invalid_email', message: 'This e-mail cannot be used.' },
    });
    expect(elsewhereUpper).toEqual(elsewhere);
    expect(here).toEqual(elsewhere);
    expect(JSON.stringify(elsewhere.body)).not.toMatch(/unique|exist|taken|community/i);
    expect(
      await t.admin
        .collection('users')
        .getList(1, 1, { filter: `email = "${b.manager.email}" && community = "${a.community.id}"` }),
    ).toMatchObject({ totalItems: 0 });
  });

  test("changing a user's e-mail to one used elsewhere gets the same answer", async () => {
    const user = await freshUser();
    const director = await t.signIn(a.director.email);
    const refusal = await refusalOf(director.collection('users').update(user.id, { email: b.regular.email }));
    refused++;
    // Either PocketBase keeps e-mail changes to superusers (a plain refusal) or ours answers: never 'not unique'.
    expect(JSON.stringify(refusal.body)).not.toMatch(/unique|exist|taken/i);
    expect((await t.admin.collection('users').getOne(user.id)).email).toBe(user.email);
  });

  test('a record with an id that exists elsewhere is refused without saying it exists, alone or in a batch', async () => {
    const houseB = await t.admin
      .collection('houses')
      .create({ address: '9 Foreign Rd', city: 'Jupiter', state: 'FL', zip: '33458', community: b.community.id });
    const houseA = await t.admin
      .collection('houses')
      .create({ address: '1 Own Rd', city: 'Jupiter', state: 'FL', zip: '33458', community: a.community.id });
    const regular = await t.signIn(a.regular.email);
    const body = (id: string) => ({
      id,
      address: '5 New St',
      city: 'Jupiter',
      state: 'FL',
      zip: '33458',
      community: a.community.id,
    });
    const foreign = await refusalOf(regular.collection('houses').create(body(houseB.id)));
    const own = await refusalOf(regular.collection('houses').create(body(houseA.id)));
    refused += 2;
    expect(foreign.status).toBe(400);
    expect(foreign.body.data).toEqual({ id: { code: 'validation_invalid_id', message: 'This id cannot be used.' } });
    expect(own).toEqual(foreign);
    expect(JSON.stringify(foreign.body)).not.toMatch(/unique|exist|taken/i);

    const batch = regular.createBatch();
    batch.collection('houses').create(body(houseB.id));
    const inBatch = await refusalOf(batch.send());
    refused++;
    expect(inBatch.status).toBe(400);
    expect(JSON.stringify(inBatch.body)).toContain('This id cannot be used.');
    expect(JSON.stringify(inBatch.body)).not.toMatch(/unique|exist|taken/i);

    const userId = await refusalOf(
      (await t.signIn(a.director.email))
        .collection('users')
        .create({ ...newUser(`x.${newId()}@scms.test`), id: b.regular.id }),
    );
    refused++;
    expect(userId.body.data).toEqual(foreign.body.data);
    expect((await t.admin.collection('houses').getOne(houseB.id)).address).toBe('9 Foreign Rd');
  });
});

afterAll(() => {
  // The count of the bad inputs tried and refused.
  console.info(`passwords.test.ts: ${refused} bad requests tried, every one refused`);
});
