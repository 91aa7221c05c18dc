/**
 * Where and when against a real PocketBase, in the manner of
 * bad-input.test.ts: a report's `position` ({latitude, longitude, accuracy}
 * or null) and `logged_at` (the device's time) refused when malformed,
 * oversized, of the wrong type, made up in the future, changed after the
 * report was made, or aimed at another community; sent directly, in a
 * batch behind a valid report (all or nothing) and as form-data (an upload
 * with a photo). Every one is refused and nothing is stored. What the app
 * sends (a position, none, a device time) is accepted and reads back as
 * sent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOGGED_AT_SKEW_MS, MAX_ACCURACY_METRES } from '../../src/domain/whereAndWhen.ts';
import { newId, startTestServer, type TestServer } from '../support/pocketbase.ts';
import { buildWorld, userOf, valid, type Actor, type World } from '../support/rules-table.ts';

type Body = Record<string, unknown>;

let t: TestServer;
let w: World;
/** A report of A (made by regular A) and one of B, for the update cases. */
const target = { reportA: '', reportB: '' };
let reportsBefore = 0;
let refused = 0;

const PALM_BEACH = { latitude: 26.70512, longitude: -80.03641, accuracy: 12 };
const pbTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  t = await startTestServer();
  await t.admin.settings.update({ rateLimits: { enabled: false } });
  w = await buildWorld(t);
  target.reportA = (
    await t.admin.collection('reports').create({
      ...valid(w, 'reports', 'regular A'),
      position: PALM_BEACH,
      logged_at: '2025-03-04 05:06:07.000Z',
    })
  ).id;
  target.reportB = (
    await t.admin.collection('reports').create({
      ...valid(w, 'reports', 'director B'),
      community: w.b.community.id,
      house: w.seed.houseB,
      created_by: w.b.director.id,
    })
  ).id;
  reportsBefore = (await t.admin.collection('reports').getList(1, 1)).totalItems;
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

async function stored(id: string): Promise<Body | null> {
  try {
    return await t.admin.collection('reports').getOne(id);
  } catch {
    return null;
  }
}

async function send(actor: Actor, method: string, path: string, body: Body | FormData) {
  const headers: Record<string, string> = { Authorization: w.pb[actor].authStore.token };
  if (!(body instanceof FormData)) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers,
    body: body instanceof FormData ? body : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as Body | null;
  return { status: res.status, json, data: (json?.data ?? {}) as Body };
}

const validReport = (actor: Actor = 'regular A'): Body => ({ ...valid(w, 'reports', actor), id: newId() });

// ---- the values --------------------------------------------------------------------------------
/** Objects that are not a position: out of range, oversized, missing or extra keys, numbers as text. */
const BAD_POSITIONS: Array<[string, unknown]> = [
  ['latitude above 90', { ...PALM_BEACH, latitude: 90.000001 }],
  ['latitude below -90', { ...PALM_BEACH, latitude: -91 }],
  ['longitude above 180', { ...PALM_BEACH, longitude: 180.5 }],
  ['longitude below -180', { ...PALM_BEACH, longitude: -181 }],
  ['negative accuracy', { ...PALM_BEACH, accuracy: -1 }],
  ['accuracy of a continent', { ...PALM_BEACH, accuracy: MAX_ACCURACY_METRES + 1 }],
  ['latitude 1e308', { ...PALM_BEACH, latitude: 1e308 }],
  ['latitude as text', { ...PALM_BEACH, latitude: '26.70512' }],
  ['longitude null', { ...PALM_BEACH, longitude: null }],
  ['accuracy true', { ...PALM_BEACH, accuracy: true }],
  ['latitude as an object', { ...PALM_BEACH, latitude: { value: 26.7 } }],
  ['latitude as a list', { ...PALM_BEACH, latitude: [26.7] }],
  ['no accuracy', { latitude: 26.7, longitude: -80 }],
  ['no latitude', { longitude: -80, accuracy: 5 }],
  ['an empty object', {}],
  ['an extra key', { ...PALM_BEACH, altitude: 3 }],
  ['a padded extra key (100,000 characters)', { ...PALM_BEACH, note: 'x'.repeat(100_000) }],
  ['GeoJSON instead', { type: 'Point', coordinates: [-80.03641, 26.70512] }],
];
/** Not an object at all. */
const WRONG_TYPE_POSITIONS: unknown[] = ['26.70512,-80.03641', 26.7, true, [26.70512, -80.03641], ''];

const now = Date.now();
const BAD_LOGGED_AT: Array<[string, unknown]> = [
  ['text', 'yesterday'],
  ['30 February', '2026-02-30 10:00:00.000Z'],
  ['hour 25', '2026-11-20 25:00:00.000Z'],
  ['year 9999', '9999-01-01 00:00:00.000Z'],
  ['before 2000', '1999-12-31 23:59:59.000Z'],
  ['an hour ahead', pbTime(now + 60 * 60 * 1000)],
  ['a day ahead', pbTime(now + 24 * 60 * 60 * 1000)],
  ['just past the skew', pbTime(now + LOGGED_AT_SKEW_MS + 5 * 60 * 1000)],
  ['100,000 characters', '2026-11-20 10:00:00.000Z' + 'x'.repeat(100_000)],
  ['a number', 20261120],
  ['true', true],
  ['a list', ['2026-11-20 10:00:00.000Z']],
  ['an object', { date: '2026-11-20' }],
];

interface Case {
  what: string;
  field: 'position' | 'logged_at';
  value: unknown;
}

const CASES: Case[] = [
  ...BAD_POSITIONS.map(([what, value]) => ({ what: `position: ${what}`, field: 'position' as const, value })),
  ...WRONG_TYPE_POSITIONS.map((value) => ({
    what: `position = ${JSON.stringify(value)} (wrong type)`,
    field: 'position' as const,
    value,
  })),
  ...BAD_LOGGED_AT.map(([what, value]) => ({ what: `logged_at: ${what}`, field: 'logged_at' as const, value })),
];

function expectFieldError(data: Body, field: string): void {
  const error = data[field] as { code?: unknown; message?: unknown } | undefined;
  expect(error, `a field error for ${field}: ${JSON.stringify(data)}`).toBeDefined();
  expect(typeof error?.message).toBe('string');
}

describe('a create with a bad position or device time is refused with the field error, and nothing is stored', () => {
  test.each(CASES.map((c) => [c.what, c] as const))('directly · %s', async (_, c) => {
    const body = { ...validReport(), [c.field]: c.value };
    const answer = await send('regular A', 'POST', '/api/collections/reports/records', body);
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    expectFieldError(answer.data, c.field);
    expect(await stored(body.id as string)).toBeNull();
  });

  test.each(CASES.map((c) => [c.what, c] as const))('in a batch behind a valid report · %s', async (_, c) => {
    const first = validReport();
    const bad = { ...validReport(), [c.field]: c.value };
    const requests = [first, bad].map((body) => ({ method: 'POST', url: '/api/collections/reports/records', body }));
    const answer = await send('regular A', 'POST', '/api/batch', { requests });
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    const failed = (answer.data.requests as Record<string, { response?: { status?: number; data?: Body } }>)?.['1'];
    expect(failed?.response?.status).toBe(400);
    expectFieldError(failed?.response?.data ?? {}, c.field);
    expect(await stored(first.id as string), 'the valid report before it was not stored either').toBeNull();
    expect(await stored(bad.id as string)).toBeNull();
  });
});

/** A report with a photo as a browser uploads it: every value a string, the position as JSON text. */
function uploadForm(change: Record<string, string>): { form: FormData; id: string } {
  const id = newId();
  const form = new FormData();
  form.append('id', id);
  for (const [key, value] of Object.entries({ ...valid(w, 'reports', 'regular A'), ...change }))
    form.append(key, String(value));
  form.append('photos', new Blob([PNG], { type: 'image/png' }), 'photo.png');
  return { form, id };
}

describe('form-data (a report with a photo)', () => {
  const FORM_CASES: Array<[string, 'position' | 'logged_at', string]> = [
    ['position that is not JSON', 'position', 'lat=26.7&lon=-80.0'],
    ['position JSON out of range', 'position', JSON.stringify({ ...PALM_BEACH, latitude: 123 })],
    ['position JSON with an extra key', 'position', JSON.stringify({ ...PALM_BEACH, x: 1 })],
    ['position JSON as a list', 'position', '[26.7,-80.0,5]'],
    ['logged_at in the future', 'logged_at', pbTime(Date.now() + 24 * 60 * 60 * 1000)],
    ['logged_at that is not a date', 'logged_at', 'soon'],
  ];
  test.each(FORM_CASES)('%s is refused', async (_, field, value) => {
    const { form, id } = uploadForm({ [field]: value });
    const answer = await send('regular A', 'POST', '/api/collections/reports/records', form);
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    expectFieldError(answer.data, field);
    expect(await stored(id)).toBeNull();
  });
});

describe('write-once, and never in another community', () => {
  const UPDATE_CASES: Array<[string, Actor, () => string, Body, 400 | 404]> = [
    // A report's place and time are evidence: even its community's director does not change them.
    [
      'director A moves the position of a report of A',
      'director A',
      () => target.reportA,
      { position: { ...PALM_BEACH, latitude: 25 } },
      404,
    ],
    ['director A clears the position', 'director A', () => target.reportA, { position: null }, 404],
    [
      'director A changes the device time',
      'director A',
      () => target.reportA,
      { logged_at: '2025-03-04 05:00:00.000Z' },
      404,
    ],
    [
      'director A moves it with a narrative change beside it',
      'director A',
      () => target.reportA,
      { narative: 'Edited.', position: PALM_BEACH },
      404,
    ],
    [
      'director B sets the position of a report of A',
      'director B',
      () => target.reportA,
      { position: PALM_BEACH },
      404,
    ],
    [
      'director A sets the position of a report of B',
      'director A',
      () => target.reportB,
      { position: PALM_BEACH },
      404,
    ],
    ['regular A sets the position of a report of A', 'regular A', () => target.reportA, { position: PALM_BEACH }, 404],
    [
      'director A sends an out-of-range position',
      'director A',
      () => target.reportA,
      { position: { ...PALM_BEACH, longitude: 999 } },
      400,
    ],
  ];
  test.each(UPDATE_CASES)('%s: refused, the report unchanged', async (_, actor, id, change, status) => {
    const before = await stored(id());
    const answer = await send(actor, 'PATCH', `/api/collections/reports/records/${id()}`, change);
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(status);
    expect(await stored(id())).toEqual(before);
  });

  test.each([
    [
      'regular A files a report with a position into community B',
      'regular A' as Actor,
      () => ({ community: w.b.community.id }),
    ],
    ['regular A files a report with a position on a home of B', 'regular A' as Actor, () => ({ house: w.seed.houseB })],
    [
      'director B files one in B as created by an officer of A',
      'director B' as Actor,
      () => ({
        community: w.b.community.id,
        house: w.seed.houseB,
        created_by: w.a.regular.id,
      }),
    ],
  ])('%s: refused, nothing stored', async (_, actor, change) => {
    const body: Body = {
      ...validReport(actor),
      created_by: userOf(w, actor),
      position: PALM_BEACH,
      logged_at: pbTime(Date.now()),
      ...change(),
    };
    const answer = await send(actor, 'POST', '/api/collections/reports/records', body);
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    expect(await stored(body.id as string)).toBeNull();
  });
});

test('nothing was stored: the reports are as many as before', async () => {
  expect((await t.admin.collection('reports').getList(1, 1)).totalItems).toBe(reportsBefore);
  console.log(`bad position / device-time inputs tried: ${refused}, every one refused`);
  expect(refused).toBe(CASES.length * 2 + 6 + 8 + 3);
});

test('what the app sends is accepted and reads back: a position with the device time, none, and both in an upload', async () => {
  const officer = w.pb['regular A'];
  const loggedAt = pbTime(Date.now() - 17 * 60 * 1000);
  const withPosition = await officer
    .collection('reports')
    .create({ ...validReport(), position: PALM_BEACH, logged_at: loggedAt });
  expect(withPosition.position).toEqual(PALM_BEACH);
  expect(withPosition.logged_at).toBe(loggedAt);
  // The server's own time of receipt stays apart from the device's.
  expect(withPosition.created).not.toBe(loggedAt);

  // No position is not an error; a device clock a little ahead is within the skew.
  const without = await officer
    .collection('reports')
    .create({ ...validReport(), position: null, logged_at: pbTime(Date.now() + 60_000) });
  expect(without.position).toBeNull();
  // Older app versions send neither.
  const older = await officer.collection('reports').create(validReport());
  expect(older.position ?? null).toBeNull();
  expect(older.logged_at).toBe('');

  // The SDK's upload: the position goes in @jsonPayload, the photo beside it.
  const upload = await officer.collection('reports').create({
    ...validReport(),
    position: { latitude: -33.8688, longitude: 151.2093, accuracy: 0 },
    logged_at: loggedAt,
    photos: [new File([PNG], 'p.png', { type: 'image/png' })],
  });
  expect(upload.position).toEqual({ latitude: -33.8688, longitude: 151.2093, accuracy: 0 });
  expect(upload.photos).toHaveLength(1);
  // ...and a browser form with the position as JSON text.
  const { form, id } = uploadForm({ position: JSON.stringify(PALM_BEACH), logged_at: loggedAt });
  const answer = await send('regular A', 'POST', '/api/collections/reports/records', form);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  expect((await stored(id))?.position).toEqual(PALM_BEACH);

  // A director still edits the rest of a report.
  const edited = await w.pb['director A'].collection('reports').update(target.reportA, { narative: 'Edited.' });
  expect(edited.narative).toBe('Edited.');
  expect(edited.position).toEqual(PALM_BEACH);
});
