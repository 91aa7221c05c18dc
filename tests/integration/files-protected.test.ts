/**
 * Protected files: house images and report photos are
 * served only with a file token of a user of the record's community. The
 * rules table for files: every file of community A (house image, report
 * photo), whole and as its declared thumbnail, asked for by each actor
 * (anonymous, regular, manager and director of A, director of B) with the
 * token that actor can get; plus the ways around a token (none at all, the
 * auth token in its place, a forged one, a token of A on a file of B), every
 * one refused. And the schema: every file field of every collection is
 * protected.
 */
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/pocketbase.ts';
import { ACTORS, buildWorld, type Actor, type World } from '../support/rules-table.ts';
import { pngSize, solidPng } from '../support/png.ts';

/** Bigger than every declared thumbnail, so a thumbnail is told from the whole file by its size. */
const HOUSE_IMAGE = solidPng(800, 600, [20, 120, 200]);
const REPORT_PHOTO = solidPng(1000, 750, [220, 90, 30]);
const OTHER_HOUSE_IMAGE = solidPng(640, 480, [10, 160, 60]);

const OWNERS: Actor[] = ['regular A', 'manager A', 'director A'];

let t: TestServer;
let w: World;
let houseA: RecordModel;
let reportA: RecordModel;
let houseB: RecordModel;
/** One file token per actor, fetched as the app does (POST /api/files/token); none for anonymous. */
const tokens = new Map<Actor, string | null>();

function withFile(field: string, bytes: Buffer, name: string): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  return form;
}

beforeAll(async () => {
  t = await startTestServer();
  w = await buildWorld(t);
  houseA = await t.admin.collection('houses').update(w.seed.houseA, withFile('image', HOUSE_IMAGE, 'front.png'));
  reportA = await t.admin.collection('reports').update(w.seed.reportA, withFile('photos', REPORT_PHOTO, 'gate.png'));
  houseB = await t.admin.collection('houses').update(w.seed.houseB, withFile('image', OTHER_HOUSE_IMAGE, 'other.png'));
  for (const actor of ACTORS) tokens.set(actor, actor === 'anonymous' ? null : await w.pb[actor].files.getToken());
});
afterAll(async () => {
  await t?.stop();
});

/** The file's URL as the app builds it: the thumb parameter when a thumbnail is wanted, the token when there is one. */
function fileUrl(record: RecordModel, name: string, options: { thumb?: string; token?: string | null } = {}): string {
  const params = new URLSearchParams();
  if (options.thumb) params.set('thumb', options.thumb);
  if (options.token) params.set('token', options.token);
  const query = params.size > 0 ? `?${params}` : '';
  return `${t.url}/api/files/${record.collectionName}/${record.id}/${encodeURIComponent(name)}${query}`;
}

async function download(url: string): Promise<{ status: number; bytes: Buffer; cacheControl: string | null }> {
  const response = await fetch(url);
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    cacheControl: response.headers.get('cache-control'),
  };
}

const FILES = [
  {
    what: 'house image',
    record: () => houseA,
    name: () => String(houseA.image),
    original: HOUSE_IMAGE,
    thumb: '400x300',
  },
  {
    what: 'report photo',
    record: () => reportA,
    name: () => String((reportA.photos as string[])[0]),
    original: REPORT_PHOTO,
    thumb: '400x300',
  },
] as const;

describe.each(FILES)('$what of community A', (file) => {
  test.each(ACTORS.map((actor) => [actor, OWNERS.includes(actor)] as const))(
    '%s: whole file and thumbnail → allowed: %s',
    async (actor, allowed) => {
      const token = tokens.get(actor) ?? null;
      const whole = await download(fileUrl(file.record(), file.name(), { token }));
      const thumb = await download(fileUrl(file.record(), file.name(), { token, thumb: file.thumb }));
      if (!allowed) {
        // PocketBase answers a file it will not serve as one that does not exist (no hint that it does).
        expect(whole.status).toBe(404);
        expect(thumb.status).toBe(404);
        expect(whole.bytes.includes(file.original)).toBe(false);
        return;
      }
      expect(whole.status).toBe(200);
      expect(whole.bytes).toEqual(file.original);
      expect(thumb.status).toBe(200);
      // The declared thumbnail, made by the server: the small size, not the whole file.
      expect(pngSize(thumb.bytes)).toEqual({ width: 400, height: 300 });
      // Only the worker's per-user cache (emptied on log out) may keep them; the browser's HTTP cache may not.
      expect(whole.cacheControl).toBe('no-store');
      expect(thumb.cacheControl).toBe('no-store');
    },
  );

  test('a URL without a token is refused, even to a user of the community', async () => {
    expect((await download(fileUrl(file.record(), file.name()))).status).toBe(404);
    expect((await download(fileUrl(file.record(), file.name(), { thumb: file.thumb }))).status).toBe(404);
  });

  test('the auth token in place of a file token is refused', async () => {
    expect(
      (await download(fileUrl(file.record(), file.name(), { token: w.pb['director A'].authStore.token }))).status,
    ).toBe(404);
  });

  test("a forged token (payload of director A, signature of director B's token) is refused", async () => {
    const [, payloadA] = tokens.get('director A')!.split('.');
    const [headerB, , signatureB] = tokens.get('director B')!.split('.');
    expect(
      (await download(fileUrl(file.record(), file.name(), { token: `${headerB}.${payloadA}.${signatureB}` }))).status,
    ).toBe(404);
  });
});

test('a file of community B is refused to every user of A and served to B', async () => {
  for (const actor of OWNERS) {
    expect((await download(fileUrl(houseB, String(houseB.image), { token: tokens.get(actor) }))).status, actor).toBe(
      404,
    );
  }
  const own = await download(fileUrl(houseB, String(houseB.image), { token: tokens.get('director B') }));
  expect(own.status).toBe(200);
  expect(own.bytes).toEqual(OTHER_HOUSE_IMAGE);
});

test("PocketBase's users.avatar: served to the user's community only", async () => {
  const user = await t.admin
    .collection('users')
    .update(w.a.regular.id, withFile('avatar', OTHER_HOUSE_IMAGE, 'me.png'));
  const url = (token?: string | null) => fileUrl(user, String(user.avatar), { token });
  expect((await download(url())).status).toBe(404);
  expect((await download(url(tokens.get('director B')))).status).toBe(404);
  const own = await download(url(tokens.get('manager A')));
  expect(own.status).toBe(200);
  expect(own.bytes).toEqual(OTHER_HOUSE_IMAGE);
});

test('a file token is given only to a signed-in user', async () => {
  const anonymous = await fetch(`${t.url}/api/files/token`, { method: 'POST' });
  expect(anonymous.status).toBe(401);
  // The app's token is short-lived: it expires within minutes (PocketBase's default is 3).
  const token = await w.pb['regular A'].files.getToken();
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
  expect(exp * 1000 - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  expect(exp * 1000 - Date.now()).toBeGreaterThan(60_000);
});

test('every file field of every collection is protected, with the thumbnails the app asks for declared', async () => {
  const collections = await t.admin.collections.getFullList();
  const fileFields = collections.flatMap((c) =>
    c.fields
      .filter((f) => f.type === 'file')
      .map((f) => ({ at: `${c.name}.${f.name}`, protected: f.protected as boolean, thumbs: f.thumbs as string[] })),
  );
  // PocketBase's own users.avatar (the app shows no avatars) is a file field too.
  expect(fileFields.map((f) => f.at).sort()).toEqual(['houses.image', 'reports.photos', 'users.avatar']);
  for (const field of fileFields) expect(field.protected, field.at).toBe(true);
  // The thumbnails the app asks for (a size no field declares is answered with the whole file).
  for (const at of ['houses.image', 'reports.photos'])
    expect(fileFields.find((f) => f.at === at)?.thumbs, at).toContain('400x300');
});
