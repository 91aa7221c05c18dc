/**
 * A house check's answer to 'Is everything ok?' (reports.everything_ok)
 * against a real PocketBase: a 'No' check logged through the app's own
 * write path (outbox, replay, batch) is stored as 'no' beside its narrative;
 * malformed, oversized, wrongly typed or misplaced answers (on another type
 * of report, through a modifier, into another community) are refused and
 * change nothing, directly, in a batch behind a valid report and as
 * form-data; a check sent without the field (an older app version's queued
 * entry) gets the answer its narrative gives; and the migration's down and
 * up: the field goes and comes back, backfilled by the same rule.
 */
import '../support/browser-globals.ts';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensurePocketBase } from '../../scripts/pocketbase/install.ts';
import { hooksDir, migrationsDir, startPocketBase } from '../../scripts/pocketbase/server.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { pullAll } from '../../src/data/sync/pull.ts';
import { replayOutbox } from '../../src/data/sync/replay.ts';
import { queueHouseCheck } from '../../src/data/resources/houseChecks.ts';
import { HOUSE_CHECK_ISSUES_NARRATIVE, HOUSE_CHECK_OK_NARRATIVE } from '../../src/domain/houseCheck.ts';
import { answerFromNarrative, ONLY_HOUSE_CHECKS } from '../../src/domain/houseCheckAnswer.ts';
import { createCommunity, newId, startTestServer, SUPERUSER, type TestServer } from '../support/pocketbase.ts';
import { buildWorld, userOf, valid, type Actor, type World } from '../support/rules-table.ts';

type Body = Record<string, unknown>;

let t: TestServer;
let w: World;
/** A house check of A answered No, and a loud-noise report of A, for the update cases. */
const target = { check: '', noise: '' };
let reportsBefore = 0;
let refused = 0;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  t = await startTestServer();
  await t.admin.settings.update({ rateLimits: { enabled: false } });
  w = await buildWorld(t);
  target.check = (
    await t.admin.collection('reports').create({
      ...valid(w, 'reports', 'regular A'),
      narative: 'Back door open, resident called.',
      everything_ok: 'no',
    })
  ).id;
  target.noise = (
    await t.admin.collection('reports').create({ ...valid(w, 'reports', 'regular A'), type: 'loud_noise' })
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

/** A house check of A as regular A files it (valid() is a house check). */
const check = (actor: Actor = 'regular A'): Body => ({ ...valid(w, 'reports', actor), id: newId() });

function fieldMessage(data: Body, field: string): string {
  const error = data[field] as { message?: unknown } | undefined;
  expect(error, `a field error for ${field}: ${JSON.stringify(data)}`).toBeDefined();
  return String(error?.message);
}

// ---- the write path --------------------------------------------------------------------------
describe("the app's own write path", () => {
  test("a 'No' check logged offline lands as everything_ok 'no' beside its remark; a 'Yes' as 'yes'", async () => {
    const officer = w.pb['regular A'];
    const db = new ScmsDatabase(`answer-${newId()}`);
    try {
      await pullAll({ pb: officer, db });
      const user = { id: w.a.regular.id, community: w.a.community.id };
      const house = { id: w.seed.houseA, address: '1 Main St' };
      const failed = await queueHouseCheck(db, user, house, { everythingOk: false, remark: 'Side gate unlatched.' });
      const plainNo = await queueHouseCheck(db, user, house, { everythingOk: false });
      const passed = await queueHouseCheck(db, user, house, { everythingOk: true });
      // Before any replay the mirror already says so.
      expect((await db.reports.get(failed))?.everything_ok).toBe('no');
      expect(await replayOutbox({ pb: officer, db, owner: 'test' })).toMatchObject({ outcome: 'done', parked: 0 });
      expect(await stored(failed)).toMatchObject({ everything_ok: 'no', narative: 'Side gate unlatched.' });
      expect(await stored(plainNo)).toMatchObject({ everything_ok: 'no', narative: HOUSE_CHECK_ISSUES_NARRATIVE });
      expect(await stored(passed)).toMatchObject({ everything_ok: 'yes', narative: HOUSE_CHECK_OK_NARRATIVE });
      // ...and another device's mirror reads it back from the server.
      const other = new ScmsDatabase(`answer-other-${newId()}`);
      try {
        await pullAll({ pb: officer, db: other });
        expect((await other.reports.get(failed))?.everything_ok).toBe('no');
      } finally {
        other.close();
        await other.delete();
      }
    } finally {
      db.close();
      await db.delete();
    }
    reportsBefore += 3;
  });
});

// ---- refused input ---------------------------------------------------------------------------
const WRONG_TYPES: unknown[] = [true, false, 0, 1, null, ['no'], { value: 'no' }];
const UNKNOWN: Array<[string, unknown]> = [
  ['maybe', 'maybe'],
  ['No (capital)', 'No'],
  ['YES', 'YES'],
  ['padded', ' no '],
  ['n', 'n'],
  ['true as text', 'true'],
  ['100,000 characters', 'no'.repeat(50_000)],
];

interface Case {
  what: string;
  body: () => Body;
  field: string;
}

const CASES: Case[] = [
  ...WRONG_TYPES.map((value) => ({
    what: `everything_ok = ${JSON.stringify(value)} (wrong type)`,
    body: () => ({ ...check(), everything_ok: value }),
    field: 'everything_ok',
  })),
  ...UNKNOWN.map(([what, value]) => ({
    what: `everything_ok: ${what}`,
    body: () => ({ ...check(), everything_ok: value }),
    field: 'everything_ok',
  })),
  ...['yes', 'no'].map((value) => ({
    what: `a loud-noise report with everything_ok '${value}'`,
    body: () => ({ ...check(), type: 'loud_noise', everything_ok: value }),
    field: 'everything_ok',
  })),
  {
    what: "a loud-noise report with everything_ok+ 'no' (a modifier)",
    body: () => ({ ...check(), type: 'loud_noise', 'everything_ok+': 'no' }),
    field: 'everything_ok+',
  },
  {
    what: "a house check with type+ and everything_ok 'no'",
    body: () => ({ ...check(), 'type+': 'accident', everything_ok: 'no' }),
    field: 'type+',
  },
];

describe('a create with a bad answer is refused with the field error, and nothing is stored', () => {
  test.each(CASES.map((c) => [c.what, c] as const))('directly · %s', async (_, c) => {
    const body = c.body();
    const answer = await send('regular A', 'POST', '/api/collections/reports/records', body);
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    fieldMessage(answer.data, c.field);
    expect(await stored(body.id as string)).toBeNull();
  });

  test.each(CASES.map((c) => [c.what, c] as const))('in a batch behind a valid check · %s', async (_, c) => {
    const first: Body = { ...check(), everything_ok: 'no' };
    const bad = c.body();
    const requests = [first, bad].map((body) => ({ method: 'POST', url: '/api/collections/reports/records', body }));
    const answer = await send('regular A', 'POST', '/api/batch', { requests });
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    const failed = (answer.data.requests as Record<string, { response?: { status?: number; data?: Body } }>)?.['1'];
    expect(failed?.response?.status).toBe(400);
    fieldMessage(failed?.response?.data ?? {}, c.field);
    expect(await stored(first.id as string), 'the valid check before it was not stored either').toBeNull();
    expect(await stored(bad.id as string)).toBeNull();
  });

  test('the message names the rule: only a house check answers', async () => {
    const answer = await send('regular A', 'POST', '/api/collections/reports/records', {
      ...check(),
      type: 'accident',
      everything_ok: 'no',
    });
    refused++;
    expect(fieldMessage(answer.data, 'everything_ok')).toBe(`${ONLY_HOUSE_CHECKS}.`);
  });
});

/** A check with a photo as a browser uploads it: every value a string. */
function uploadForm(change: Record<string, string | string[]>): { form: FormData; id: string } {
  const id = newId();
  const form = new FormData();
  form.append('id', id);
  for (const [key, value] of Object.entries({ ...valid(w, 'reports', 'regular A'), ...change }))
    for (const one of Array.isArray(value) ? value : [value]) form.append(key, String(one));
  form.append('photos', new Blob([PNG], { type: 'image/png' }), 'photo.png');
  return { form, id };
}

describe('form-data (a check with a photo)', () => {
  test.each([
    ['an unknown value', { everything_ok: 'maybe' }],
    ['two values', { everything_ok: ['yes', 'no'] }],
    ['an answer on another type', { type: 'open_garage_door', everything_ok: 'yes' }],
  ] as const)('%s is refused', async (_, change) => {
    const { form, id } = uploadForm(change as Record<string, string | string[]>);
    const answer = await send('regular A', 'POST', '/api/collections/reports/records', form);
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    fieldMessage(answer.data, 'everything_ok');
    expect(await stored(id)).toBeNull();
  });
});

describe('updates, and never in another community', () => {
  const UPDATES: Array<[string, Actor, () => string, Body, 400 | 404]> = [
    ['director A sets an unknown answer', 'director A', () => target.check, { everything_ok: 'maybe' }, 400],
    ['director A sends the answer as a boolean', 'director A', () => target.check, { everything_ok: false }, 400],
    [
      'director A turns the check into another type, keeping its answer',
      'director A',
      () => target.check,
      { type: 'accident' },
      400,
    ],
    ['director A gives a loud-noise report an answer', 'director A', () => target.noise, { everything_ok: 'no' }, 400],
    ['director A changes the type with a modifier', 'director A', () => target.check, { 'type+': 'accident' }, 400],
    // Reports are edited by their community's director only; another community's never see them.
    ['regular A changes the answer', 'regular A', () => target.check, { everything_ok: 'yes' }, 404],
    ['director B changes the answer of a check of A', 'director B', () => target.check, { everything_ok: 'yes' }, 404],
  ];
  test.each(UPDATES)('%s: refused, the report unchanged', async (_, actor, id, change, status) => {
    const before = await stored(id());
    const answer = await send(actor, 'PATCH', `/api/collections/reports/records/${id()}`, change);
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(status);
    expect(await stored(id())).toEqual(before);
  });

  test.each([
    [
      'regular A files a check answered No into community B',
      'regular A' as Actor,
      () => ({ community: w.b.community.id }),
    ],
    ['regular A files a check answered No on a home of B', 'regular A' as Actor, () => ({ house: w.seed.houseB })],
    [
      'director B files one in B as created by an officer of A',
      'director B' as Actor,
      () => ({ community: w.b.community.id, house: w.seed.houseB, created_by: w.a.regular.id }),
    ],
  ])('%s: refused, nothing stored', async (_, actor, change) => {
    const body: Body = { ...check(actor), created_by: userOf(w, actor), everything_ok: 'no', ...change() };
    const answer = await send(actor, 'POST', '/api/collections/reports/records', body);
    refused++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    expect(await stored(body.id as string)).toBeNull();
  });

  test('a director corrects an answer, or turns a check into another type by clearing it', async () => {
    const director = w.pb['director A'];
    expect((await director.collection('reports').update(target.check, { everything_ok: 'yes' })).everything_ok).toBe(
      'yes',
    );
    const retyped = await director.collection('reports').update(target.check, { type: 'accident', everything_ok: '' });
    expect(retyped).toMatchObject({ type: 'accident', everything_ok: '' });
    // Back as it was, for the count below.
    await director.collection('reports').update(target.check, { type: 'house_check', everything_ok: 'no' });
  });
});

test('nothing was stored: the reports are as many as before', async () => {
  expect((await t.admin.collection('reports').getList(1, 1)).totalItems).toBe(reportsBefore);
  expect(refused).toBe(CASES.length * 2 + 1 + 3 + 7 + 3);
});

// ---- an older app version --------------------------------------------------------------------
describe('a house check sent without the field (an older app version) gets the answer its narrative gives', () => {
  const NARRATIVES: Array<[string, string]> = [
    [HOUSE_CHECK_ISSUES_NARRATIVE, 'no'],
    [HOUSE_CHECK_OK_NARRATIVE, 'yes'],
    ['House was inpected and issues were found', 'no'],
    // A remark replaced the sentence: the answer is not known, and not made up.
    ['Side gate unlatched, closed it.', ''],
  ];

  test.each(NARRATIVES)('directly: %j → %j', async (narrative, expected) => {
    const created = await w.pb['regular A'].collection('reports').create({ ...check(), narative: narrative });
    expect(created.everything_ok).toBe(expected);
    expect(created.everything_ok).toBe(answerFromNarrative(narrative));
  });

  test("as the older outbox sent it: the report and the home's last-checked date in one batch", async () => {
    const id = newId();
    const answer = await send('regular A', 'POST', '/api/batch', {
      requests: [
        {
          method: 'POST',
          url: '/api/collections/reports/records',
          body: { ...check(), id, narative: HOUSE_CHECK_ISSUES_NARRATIVE },
        },
        {
          method: 'PATCH',
          url: `/api/collections/houses/records/${w.seed.houseA}`,
          body: { house_check_last_date: new Date().toISOString().replace('T', ' ') },
        },
      ],
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect((await stored(id))?.everything_ok).toBe('no');
  });

  test('as an upload with a photo', async () => {
    const { form, id } = uploadForm({ narative: HOUSE_CHECK_ISSUES_NARRATIVE });
    const answer = await send('regular A', 'POST', '/api/collections/reports/records', form);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect((await stored(id))?.everything_ok).toBe('no');
  });

  test('a check that sends the field keeps it; another type without it stays empty', async () => {
    const officer = w.pb['regular A'].collection('reports');
    // What the officer answered wins over what the narrative seems to say.
    expect(
      (await officer.create({ ...check(), narative: HOUSE_CHECK_ISSUES_NARRATIVE, everything_ok: 'yes' }))
        .everything_ok,
    ).toBe('yes');
    expect(
      (await officer.create({ ...check(), narative: HOUSE_CHECK_OK_NARRATIVE, everything_ok: '' })).everything_ok,
    ).toBe('');
    expect(
      (await officer.create({ ...check(), type: 'loud_noise', narative: HOUSE_CHECK_ISSUES_NARRATIVE })).everything_ok,
    ).toBe('');
  });
});

// ---- the migration -----------------------------------------------------------------------------
const MIGRATION = '1765000000_report_everything_ok.js';

/** Whether the data folder's reports have the field and the column, asked inside PocketBase by a throwaway migration. */
async function probe(dataDir: string): Promise<{ field: boolean; column: boolean }> {
  const folder = mkdtempSync(join(tmpdir(), 'scms-answer-probe-'));
  try {
    writeFileSync(
      join(folder, '1999999999_probe.js'),
      `migrate((app) => {
  const reports = app.findCollectionByNameOrId('reports');
  const field = !!reports.fields.getByName('everything_ok');
  const rows = arrayOf(new DynamicModel({ name: '' }));
  app.db().newQuery("SELECT name FROM pragma_table_info('reports')").all(rows);
  const column = rows.some((row) => row.name === 'everything_ok');
  throw new Error('ANSWER' + JSON.stringify({ field: field, column: column }) + 'END');
});
`,
    );
    const run = spawnSync(
      await ensurePocketBase(),
      ['migrate', 'up', `--dir=${dataDir}`, `--migrationsDir=${folder}`, `--hooksDir=${hooksDir}`],
      { encoding: 'utf8' },
    );
    const found = /ANSWER(.*?)END/.exec(`${run.stdout}${run.stderr}`);
    if (!found) throw new Error(`no answer from the probe: ${run.stdout}${run.stderr}`);
    return JSON.parse(found[1]!) as { field: boolean; column: boolean };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('the migration', () => {
  test('down removes the field; up brings it back and backfills the house checks from their narratives', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scms-pb-answer-'));
    let server = await startPocketBase({ dataDir, superuser: SUPERUSER });
    try {
      const admin = new PocketBase(server.url);
      await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
      const f = await createCommunity(admin, 'hcm');
      const base = {
        weather: 'clear',
        incident_time: '2026-11-20 10:00:00.000Z',
        community: f.community.id,
        created_by: f.regular.id,
      };
      // House checks saved with an empty answer, as every check was before the field: the backfill fills them.
      const rows: Array<[string, string, string]> = [
        ['house_check', HOUSE_CHECK_ISSUES_NARRATIVE, 'no'],
        ['house_check', HOUSE_CHECK_OK_NARRATIVE, 'yes'],
        ['house_check', '<p>House was inpected and issues were found</p>', 'no'],
        ['house_check', '  \n<p> house was inspected and issues were found. Gate open.', 'no'],
        ['house_check', 'Side gate unlatched, closed it.', ''],
        ['house_check', 'Issues: House was inspected and issues were found', ''],
        ['loud_noise', HOUSE_CHECK_ISSUES_NARRATIVE, ''],
      ];
      const ids: string[] = [];
      for (const [type, narrative] of rows)
        ids.push(
          (await admin.collection('reports').create({ ...base, type, narative: narrative, everything_ok: '' })).id,
        );
      await server.stop();

      // Back to the version before it: down every migration from this one on (a later one may exist).
      const count = readdirSync(migrationsDir).filter((file) => file.endsWith('.js') && file >= MIGRATION).length;
      const bin = await ensurePocketBase();
      const folders = [`--dir=${dataDir}`, `--migrationsDir=${migrationsDir}`, `--hooksDir=${hooksDir}`];
      execFileSync(bin, ['migrate', 'down', String(count), ...folders], {
        input: 'y\n',
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      expect(await probe(dataDir)).toEqual({ field: false, column: false });

      server = await startPocketBase({ dataDir });
      const after = new PocketBase(server.url);
      await after.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
      const answers = await Promise.all(
        ids.map(async (id) => (await after.collection('reports').getOne(id)).everything_ok),
      );
      expect(answers).toEqual(rows.map(([, , expected]) => expected));
      // The SQL of the migration and the app's rule agree on every house check.
      rows.forEach(([type, narrative], i) => {
        if (type === 'house_check') expect(answers[i]).toBe(answerFromNarrative(narrative));
      });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
