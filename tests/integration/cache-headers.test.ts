/**
 * API answers carry one user's data, so no HTTP cache may keep them
 * (`Cache-Control: no-store`, pb_hooks/security_headers.pb.js). Files too
 * (protected house images and report photos: only the service worker keeps
 * them, in the signed-in user's own cache that log out deletes); the health
 * check stays cacheable, and so do the app's own pages.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createCommunity,
  newId,
  startTestServer,
  TEST_PASSWORD,
  type CommunityFixture,
  type TestServer,
} from '../support/pocketbase.ts';

// The smallest valid PNG (1×1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestServer;
let publicDir = '';
let a: CommunityFixture;
let director: PocketBase;
let houseId = '';
let imageName = '';

beforeAll(async () => {
  publicDir = mkdtempSync(join(tmpdir(), 'scms-public-'));
  writeFileSync(join(publicDir, 'index.html'), '<!doctype html><title>SCMS</title>');
  t = await startTestServer({}, { publicDir });
  a = await createCommunity(t.admin, 'cache');
  director = await t.signIn(a.director.email);
  const form = new FormData();
  for (const [key, value] of Object.entries({
    address: '1 Cache Lane',
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    community: a.community.id,
  }))
    form.append(key, value);
  form.append('image', new Blob([PNG], { type: 'image/png' }), 'front.png');
  const house = await director.collection('houses').create(form);
  houseId = house.id;
  imageName = house.image as string;
});

afterAll(async () => {
  await t?.stop();
  if (publicDir) rmSync(publicDir, { recursive: true, force: true });
});

const auth = () => ({ Authorization: director.authStore.token });

async function cacheControl(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; cacheControl: string | null }> {
  const res = await fetch(`${t.url}${path}`, init);
  await res.arrayBuffer();
  return { status: res.status, cacheControl: res.headers.get('cache-control') };
}

describe('API answers with a user’s data are never stored by a cache', () => {
  test('record lists, single records and a 404', async () => {
    await expect(cacheControl('/api/collections/houses/records', { headers: auth() })).resolves.toEqual({
      status: 200,
      cacheControl: 'no-store',
    });
    await expect(cacheControl(`/api/collections/houses/records/${houseId}`, { headers: auth() })).resolves.toEqual({
      status: 200,
      cacheControl: 'no-store',
    });
    await expect(cacheControl(`/api/collections/houses/records/${newId()}`, { headers: auth() })).resolves.toEqual({
      status: 404,
      cacheControl: 'no-store',
    });
  });

  test('a sign-in (token and user) and a create', async () => {
    const signIn = await cacheControl('/api/collections/users/auth-with-password', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identity: a.manager.email, password: TEST_PASSWORD }),
    });
    expect(signIn).toEqual({ status: 200, cacheControl: 'no-store' });
    const create = await cacheControl('/api/collections/reports/records', {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({
        narative: 'Gate left open',
        type: 'accident',
        weather: 'clear',
        incident_time: '2026-01-10 10:00:00.000Z',
        community: a.community.id,
        created_by: a.director.id,
      }),
    });
    expect(create).toEqual({ status: 200, cacheControl: 'no-store' });
  });

  test('the file-token route, though it lives under /api/files/', async () => {
    await expect(cacheControl('/api/files/token', { method: 'POST', headers: auth() })).resolves.toEqual({
      status: 200,
      cacheControl: 'no-store',
    });
  });

  test('a house image, whole and as a thumbnail (a protected file: with a file token)', async () => {
    const token = await director.files.getToken();
    await expect(cacheControl(`/api/files/houses/${houseId}/${imageName}?token=${token}`)).resolves.toEqual({
      status: 200,
      cacheControl: 'no-store',
    });
    await expect(
      cacheControl(`/api/files/houses/${houseId}/${imageName}?thumb=400x300&token=${token}`),
    ).resolves.toEqual({ status: 200, cacheControl: 'no-store' });
  });
});

describe('what may be cached keeps its own headers', () => {
  test('the health check and the app page', async () => {
    for (const path of ['/api/health', '/']) {
      const res = await cacheControl(path);
      expect(res.status).toBe(200);
      expect(res.cacheControl ?? '').not.toContain('no-store');
    }
  });
});
