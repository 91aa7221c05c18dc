/**
 * The smaller server behaviours, against a real PocketBase: the demo hint
 * route, passwords of users a director creates, the houses' default state,
 * and the security headers on the app's pages.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCommunity, startTestServer, type CommunityFixture, type TestServer } from '../support/pocketbase.ts';
import { markDemoSeeded } from '../../scripts/seed/seed.ts';
import { TEMPORARY_PASSWORD_SHAPE } from '../../src/domain/temporaryPassword.ts';

const DEMO = { email: 'director@demo.scms.test', password: 'demo-director-pass' };
const CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

let t: TestServer;
let publicDir = '';
let a: CommunityFixture;
let director: PocketBase;
let manager: PocketBase;

beforeAll(async () => {
  publicDir = mkdtempSync(join(tmpdir(), 'scms-public-'));
  writeFileSync(join(publicDir, 'index.html'), '<!doctype html><title>SCMS</title>');
  t = await startTestServer(
    { SCMS_DEMO: '1', SCMS_DEMO_EMAIL: DEMO.email, SCMS_DEMO_PASSWORD: DEMO.password },
    { publicDir },
  );
  a = await createCommunity(t.admin, 'misc');
  // What the demo seed's last step records; the demo route waits for it.
  await markDemoSeeded(t.admin, 0);
  director = await t.signIn(a.director.email);
  manager = await t.signIn(a.manager.email);
});

afterAll(async () => {
  await t?.stop();
  if (publicDir) rmSync(publicDir, { recursive: true, force: true });
});

describe('GET /api/scms/demo', () => {
  test('gives the demo account while demo mode is on, without signing in', async () => {
    const res = await fetch(`${t.url}/api/scms/demo`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(DEMO);
  });

  test('is a 404 when demo mode is off or has no account', async () => {
    for (const env of [
      { SCMS_DEMO: '0', SCMS_DEMO_EMAIL: DEMO.email, SCMS_DEMO_PASSWORD: DEMO.password },
      { SCMS_DEMO: '1', SCMS_DEMO_EMAIL: DEMO.email, SCMS_DEMO_PASSWORD: '' },
    ]) {
      const off = await startTestServer(env);
      try {
        const res = await fetch(`${off.url}/api/scms/demo`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: true, code: 404, message: 'Demo mode is off' });
      } finally {
        await off.stop();
      }
    }
  });
});

describe('creating a user', () => {
  const newUser = (email: string, extra: Record<string, unknown> = {}) => ({
    email,
    first_name: 'Nora',
    last_name: 'Reyes',
    type: 'regular',
    community: a.community.id,
    ...extra,
  });
  const canSignIn = async (email: string, password: string) => {
    try {
      await t.client().collection('users').authWithPassword(email, password);
      return true;
    } catch (error) {
      expect(error).toMatchObject({ status: 400 });
      return false;
    }
  };

  test('the password the client sent is replaced by a one-time temporary password', async () => {
    const placeholder = 'placeholder-password-1';
    const email = 'nora.reyes@scms.test';
    const created = await director
      .collection('users')
      .create(newUser(email, { password: placeholder, passwordConfirm: placeholder, emailVisibility: false }));
    expect(created.temporary_password).toMatch(TEMPORARY_PASSWORD_SHAPE);
    expect(created.emailVisibility).toBe(true);
    expect(created.email).toBe(email);

    expect(await canSignIn(email, placeholder)).toBe(false);
    expect(await canSignIn(email, created.temporary_password as string)).toBe(true);

    // Shown once: it is not stored, so no later read returns it.
    const stored = await t.admin.collection('users').getOne(created.id);
    expect(stored).not.toHaveProperty('temporary_password');
    const seenByDirector = await director.collection('users').getOne(created.id);
    expect(seenByDirector).not.toHaveProperty('temporary_password');
    expect(seenByDirector.email).toBe(email);
  });

  test('a director may leave the password out', async () => {
    const created = await director
      .collection('users')
      .create(newUser('omar.diaz@scms.test', { first_name: 'Omar', type: 'manager' }));
    expect(created.temporary_password).toMatch(TEMPORARY_PASSWORD_SHAPE);
    expect(await canSignIn('omar.diaz@scms.test', created.temporary_password as string)).toBe(true);
  });

  test('only directors create users, and never directors', async () => {
    const before = (await t.admin.collection('users').getList(1, 1)).totalItems;
    const regular = await t.signIn(a.regular.email);
    const attempts = [
      () =>
        manager
          .collection('users')
          .create(newUser('by.manager@scms.test', { password: 'x-password-1', passwordConfirm: 'x-password-1' })),
      () =>
        regular
          .collection('users')
          .create(newUser('by.regular@scms.test', { password: 'x-password-1', passwordConfirm: 'x-password-1' })),
      () => director.collection('users').create(newUser('new.director@scms.test', { type: 'director' })),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ status: 400 });
    expect((await t.admin.collection('users').getList(1, 1)).totalItems).toBe(before);
  });

  test('a superuser keeps the password it chose', async () => {
    const password = 'chosen-by-superuser-1';
    const created = await t.admin
      .collection('users')
      .create(newUser('seeded@scms.test', { password, passwordConfirm: password }));
    expect(created).not.toHaveProperty('temporary_password');
    expect(await canSignIn('seeded@scms.test', password)).toBe(true);
  });
});

describe('houses', () => {
  const house = (extra: Record<string, unknown>) =>
    manager
      .collection('houses')
      .create({ address: '5 Coral Way', city: 'Jupiter', zip: '33458', community: a.community.id, ...extra });

  test('a house created without a state is in Florida', async () => {
    expect((await house({})).state).toBe('FL');
    expect((await house({ state: '' })).state).toBe('FL');
  });

  test('a chosen state is kept, and an unknown one is still refused', async () => {
    expect((await house({ state: 'Ak' })).state).toBe('Ak');
    await expect(house({ state: 'XX' })).rejects.toMatchObject({ status: 400 });
  });
});

describe('security headers', () => {
  test("the app's pages get the Content-Security-Policy and friends", async () => {
    for (const path of ['/', '/index.html']) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('<title>SCMS</title>');
      expect(res.headers.get('content-security-policy')).toBe(CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
    }
  });

  test('the API and the admin UI keep their own headers', async () => {
    const api = await fetch(`${t.url}/api/health`);
    expect(api.status).toBe(200);
    expect(api.headers.get('content-security-policy')).toBeNull();
    // PocketBase's admin UI sets its own, looser policy (it needs it).
    const admin = await fetch(`${t.url}/_/`);
    expect(admin.status).toBe(200);
    expect(admin.headers.get('content-security-policy')).not.toBe(CSP);
  });
});
