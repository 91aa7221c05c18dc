/**
 * Bad input against a real PocketBase: malformed,
 * oversized, wrongly typed and foreign (other community) values sent to
 * every writable collection — create and update, directly and through
 * /api/batch, as JSON and as form-data — and to every custom route that
 * takes input. Every one is refused (400 with the field's error where it is
 * a field, 403 or 404 where the writer may not), and nothing is stored: a
 * refused create leaves no record with its id, a refused update leaves its
 * record as it was, a refused batch leaves none of its requests, and every
 * collection's count is the same at the end. The wrongly typed values come
 * from the record rules' own list of fields, so a field added there is
 * probed here too. The count of inputs tried is printed and asserted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { RECORD_RULES, type FieldKind } from '../../src/domain/recordRules.ts';
import { newId, startTestServer, TEST_PASSWORD, type TestServer } from '../support/pocketbase.ts';
import { buildWorld, userOf, valid, type Actor, type CollectionName, type World } from '../support/rules-table.ts';

type Body = Record<string, unknown>;
type Writable =
  | 'houses'
  | 'residents'
  | 'phones'
  | 'concerns'
  | 'reports'
  | 'users'
  | 'checkpoints'
  | 'tours'
  | 'tour_walks'
  | 'checkpoint_scans'
  | 'duty_shifts'
  | 'alerts'
  | 'alert_events';
const WRITABLE: Writable[] = [
  'houses',
  'residents',
  'phones',
  'concerns',
  'reports',
  'users',
  'checkpoints',
  'tours',
  'tour_walks',
  'checkpoint_scans',
  'duty_shifts',
  'alerts',
  'alert_events',
];
const ALL_COLLECTIONS = ['communities', ...WRITABLE, 'calls', 'safety_settings', 'scms_meta'] as const;

let t: TestServer;
let w: World;
/** Records of community A (made by the superuser) that the update cases aim at, and one concern of B. */
const target = {} as Record<Writable, string> & {
  windowHouse: string;
  concernB: string;
  endedWalk: string;
  alertB: string;
};
let tried = 0;
let countsBefore: Record<string, number>;

beforeAll(async () => {
  // A telephony configuration whose provider is never reached: the call
  // route's checks answer before any call would be placed.
  t = await startTestServer({
    TWILIO_ACCOUNT_SID: 'AC' + '0'.repeat(32),
    TWILIO_AUTH_TOKEN: 'bad-input-token',
    TWILIO_FROM_NUMBER: '+15615550100',
    TWILIO_API_BASE: 'http://127.0.0.1:9',
    SCMS_PUBLIC_URL: 'http://127.0.0.1:9',
  });
  // Hundreds of requests in a minute: the rate limiter is not what is tested here.
  await t.admin.settings.update({ rateLimits: { enabled: false } });
  w = await buildWorld(t);
  for (const collection of WRITABLE) {
    const data = valid(w, collection, collection === 'reports' ? 'regular A' : 'director A');
    target[collection] = (await t.admin.collection(collection).create({ id: newId(), ...data })).id;
  }
  target.windowHouse = (
    await t.admin.collection('houses').create({
      ...valid(w, 'houses', 'regular A'),
      house_check: true,
      house_check_start_date: '2026-12-01 00:00:00.000Z',
      house_check_end_date: '2026-12-10 23:59:59.999Z',
    })
  ).id;
  target.endedWalk = (
    await t.admin.collection('tour_walks').create({
      ...valid(w, 'tour_walks', 'regular A'),
      ended_at: '2026-11-26 01:30:00.000Z',
      end_reason: 'ended',
    })
  ).id;
  target.alertB = (
    await t.admin.collection('alerts').create({
      officer: w.b.regular.id,
      kind: 'panic',
      raised_at: '2026-11-26 01:05:00.000Z',
      community: w.b.community.id,
    })
  ).id;
  target.concernB = (
    await t.admin
      .collection('concerns')
      .create({ name: 'B only', hint: 'b', say: 'b', added_by: w.b.director.id, community: w.b.community.id })
  ).id;
  countsBefore = await counts();
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of ALL_COLLECTIONS) out[name] = (await t.admin.collection(name).getList(1, 1)).totalItems;
  return out;
}

async function stored(collection: string, id: string): Promise<Body | null> {
  try {
    return await t.admin.collection(collection).getOne(id);
  } catch {
    return null;
  }
}

interface Answer {
  status: number;
  json: Body | null;
}

async function send(
  actor: Actor,
  method: string,
  path: string,
  body: unknown,
  contentType: string | null = 'application/json',
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (contentType) headers['Content-Type'] = contentType;
  const token = w.pb[actor].authStore.token;
  if (token) headers.Authorization = token;
  const payload = body instanceof FormData || typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${t.url}${path}`, { method, headers, body: payload });
  const text = await res.text();
  let json: Body | null = null;
  try {
    json = JSON.parse(text) as Body;
  } catch {
    // not JSON
  }
  return { status: res.status, json };
}

const fieldsOf = (json: Body | null): Body => (json?.data && typeof json.data === 'object' ? (json.data as Body) : {});

// ---- the cases ------------------------------------------------------------------------------
interface Case {
  collection: Writable | 'communities' | 'calls' | 'scms_meta';
  op: 'create' | 'update';
  actor: Actor;
  what: string;
  /** create: the whole body (an id is added); update: the change. */
  body: () => Body;
  /** update: the record changed (default: the collection's target). */
  on?: () => string;
  expect: 400 | 403 | 404;
  /** The field whose error the answer must carry. */
  field?: string;
}

/** Who writes each collection in the value cases: someone the API rules let through. */
const WRITER: Record<Writable, { create: Actor; update: Actor }> = {
  houses: { create: 'regular A', update: 'regular A' },
  residents: { create: 'regular A', update: 'regular A' },
  phones: { create: 'regular A', update: 'regular A' },
  concerns: { create: 'director A', update: 'director A' },
  reports: { create: 'regular A', update: 'director A' },
  users: { create: 'director A', update: 'director A' },
  checkpoints: { create: 'manager A', update: 'manager A' },
  tours: { create: 'manager A', update: 'manager A' },
  // The target walk is director A's own: only its officer may end it.
  tour_walks: { create: 'regular A', update: 'director A' },
  // Write-once: an update is refused whatever it sends; a bad value is refused first, by its field.
  checkpoint_scans: { create: 'regular A', update: 'regular A' },
  // The target shift is director A's own: only its officer may end it.
  duty_shifts: { create: 'regular A', update: 'director A' },
  // Alerts and their steps are never changed through the API; a bad value is refused first, by its field.
  alerts: { create: 'regular A', update: 'regular A' },
  alert_events: { create: 'regular A', update: 'regular A' },
};

/** Values of the wrong JSON type for each kind of field (never converted: 123 is not "123", a list is not its last item, "yes" is not true). */
const WRONG_TYPES: Record<FieldKind, unknown[]> = {
  text: [123, true, ['a', 'b'], { text: 'a' }, null],
  secret: [12345678, false, ['patrol-pass-123'], null],
  bool: ['yes', 'true', 1, 0, null, [true]],
  date: [20261201, true, ['2026-12-01 00:00:00.000Z'], { date: '2026-12-01' }],
  ref: [123, true, ['abcdefghijklmno', 'abcdefghijklmn1'], { id: 'x' }],
  refs: [123, true, 'abcdefghijklmno', [1, 2], { id: 'x' }, null],
  file: [[1, 2], [{ name: 'x.png' }]],
  object: ['26.7,-80.1', 123, true, [26.7, -80.1]],
  number: ['5', true, [5], { n: 5 }, null],
};

const shown = (value: unknown) =>
  typeof value === 'string' && value.length > 24 ? `<${value.length} characters>` : JSON.stringify(value);
const text = (length: number) => 'x'.repeat(length);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace('T', ' ');

function typeCases(): Case[] {
  const cases: Case[] = [];
  for (const collection of WRITABLE) {
    for (const [field, kind] of Object.entries(RECORD_RULES[collection]!.kinds)) {
      for (const value of WRONG_TYPES[kind]) {
        for (const op of ['create', 'update'] as const) {
          const actor = WRITER[collection][op];
          cases.push({
            collection,
            op,
            actor,
            what: `${field} = ${shown(value)} (wrong type)`,
            expect: 400,
            field,
            body: () =>
              op === 'create'
                ? { ...valid(w, collection as CollectionName, actor), [field]: value }
                : { [field]: value },
          });
        }
      }
    }
  }
  return cases;
}

/** Values of the right type that the rules (and the forms) refuse. */
const BAD_VALUES: Record<Writable, Array<[string, unknown]>> = {
  houses: [
    ['address', '   '],
    ['address', ''],
    ['address', text(101)],
    ['address', text(100_000)],
    ['apt', text(101)],
    ['city', ' '],
    ['city', text(101)],
    ['zip', ''],
    ['zip', text(101)],
    ['state', 'XX'],
    ['state', 'fl'],
    ['note', text(4501)],
    ['member_number', text(15)],
    ['security_code', text(9)],
    ['house_check_note', text(4501)],
    ['house_check_last_date', 'abc'],
    ['house_check_last_date', '2026-02-30 00:00:00.000Z'],
    ['house_check_last_date', '9999-12-31 00:00:00.000Z'],
    ['house_check_start_date', 'next tuesday'],
    ['house_check_end_date', '2026-12-01 25:00:00.000Z'],
  ],
  residents: [
    ['first_name', '   '],
    ['first_name', text(31)],
    ['last_name', ''],
    ['last_name', text(31)],
  ],
  phones: [
    ['phone_number', '+12'],
    ['phone_number', 'abc'],
    ['phone_number', ''],
    ['phone_number', '+1561555010'],
    ['phone_number', '5615550100'],
    ['phone_number', text(17)],
    ['type', 'fax'],
  ],
  concerns: [
    ['name', ''],
    ['name', '   '],
    ['name', text(101)],
    ['hint', ''],
    ['hint', text(201)],
    ['say', ' '],
    ['say', text(351)],
  ],
  reports: [
    ['narative', '   '],
    ['narative', text(4501)],
    ['narative', text(100_000)],
    ['ai_generated_narative', text(4501)],
    ['type', 'nope'],
    ['type', 'vehicle_tailgate'],
    ['weather', 'hail'],
    ['incident_time', '9999-01-01 00:00:00.000Z'],
    ['incident_time', 'abc'],
    ['incident_time', ''],
    ['incident_time', inDays(3)],
    ['phone_number', 'abc'],
    ['phone_number', '+12'],
  ],
  users: [
    ['first_name', ''],
    ['first_name', text(31)],
    ['last_name', '  '],
    ['email', 'not-an-email'],
    ['type', 'boss'],
  ],
  checkpoints: [
    ['name', ''],
    ['name', '   '],
    ['name', text(81)],
    ['name', text(100_000)],
    ['radius', 0],
    ['radius', 9],
    ['radius', 1001],
    ['radius', 20.5],
    ['instructions', text(1001)],
    ['question', text(201)],
    ['position', { latitude: 91, longitude: -80.1, accuracy: 5 }],
    ['position', { latitude: 26.9, longitude: -80.1 }],
    ['position', { latitude: 26.9, longitude: -80.1, accuracy: 5, note: text(1000) }],
  ],
  tours: [
    ['name', ' '],
    ['name', text(81)],
    ['checkpoints', []],
    ['checkpoints', [text(40)]],
    ['checkpoints', Array.from({ length: 51 }, () => 'abcdefghijklmno')],
    ['start', '24:00'],
    ['start', '8pm'],
    ['end', ''],
    ['every_minutes', 10],
    ['every_minutes', 1441],
    ['every_minutes', 30.5],
    ['round_minutes', 4],
    ['round_minutes', 721],
  ],
  tour_walks: [
    ['round_start', 'abc'],
    ['round_start', '9999-01-01 00:00:00.000Z'],
    ['started_at', inDays(3)],
    ['ended_at', '2026-02-30 00:00:00.000Z'],
    ['ended_at', inDays(3)],
    ['end_reason', text(501)],
  ],
  checkpoint_scans: [
    ['scanned_at', inDays(3)],
    ['scanned_at', 'yesterday'],
    ['method', 'photo'],
    ['answer', 'maybe'],
    ['note', text(501)],
    ['code', text(201)],
    ['position', { latitude: 26.9, longitude: 200, accuracy: 5 }],
  ],
  duty_shifts: [
    ['started_at', inDays(3)],
    ['started_at', 'now'],
    ['ended_at', '2026-02-30 00:00:00.000Z'],
    ['ended_at', inDays(3)],
    ['start_position', { latitude: 91, longitude: -80.1, accuracy: 5 }],
    ['end_position', { latitude: 26.9, longitude: -80.1, accuracy: 5, note: text(1000) }],
    ['checked_at', inDays(3)],
    ['checked_at', '2026-13-01 00:00:00.000Z'],
  ],
  alerts: [
    ['kind', 'fire'],
    ['raised_at', inDays(3)],
    ['raised_at', '9999-01-01 00:00:00.000Z'],
    ['position', { latitude: 26.9, longitude: 200, accuracy: 5 }],
    ['shift', text(18)],
  ],
  alert_events: [
    ['kind', 'ignored'],
    ['at', inDays(3)],
    ['at', ''],
    ['alert', text(18)],
  ],
};

function valueCases(): Case[] {
  const cases: Case[] = [];
  for (const collection of WRITABLE) {
    for (const [field, value] of BAD_VALUES[collection]) {
      for (const op of ['create', 'update'] as const) {
        const actor = WRITER[collection][op];
        cases.push({
          collection,
          op,
          actor,
          what: `${field} = ${shown(value)}`,
          expect: 400,
          field,
          body: () => (op === 'create' ? { ...valid(w, collection, actor), [field]: value } : { [field]: value }),
        });
      }
    }
  }
  // A password is 8 to 24 characters (25 was accepted).
  for (const password of [text(25), text(7), text(100)]) {
    cases.push({
      collection: 'users',
      op: 'create',
      actor: 'director A',
      what: `password of ${password.length} characters`,
      expect: 400,
      field: 'password',
      body: () => ({ ...valid(w, 'users', 'director A'), password, passwordConfirm: password }),
    });
  }
  // ...and for a password a user chooses for themselves (the own-password change).
  for (const password of [text(25), text(7)]) {
    cases.push({
      collection: 'users',
      op: 'update',
      actor: 'regular A',
      what: `own password of ${password.length} characters`,
      on: () => w.a.regular.id,
      expect: 400,
      field: 'password',
      body: () => ({ oldPassword: TEST_PASSWORD, password, passwordConfirm: password }),
    });
  }
  // A resident is saved only with both names.
  cases.push({
    collection: 'residents',
    op: 'create',
    actor: 'regular A',
    what: 'without a last name',
    expect: 400,
    field: 'last_name',
    body: () => ({ first_name: 'Ann', house: w.seed.houseA }),
  });
  // The house-check window, on a create and on the house that has one.
  const windows: Array<[string, Body, string]> = [
    ['house check on with no dates', { house_check: true }, 'house_check_start_date'],
    [
      'house check on with only a start date',
      { house_check: true, house_check_start_date: '2026-12-01 00:00:00.000Z' },
      'house_check_end_date',
    ],
    [
      'a window ending before it starts',
      {
        house_check: true,
        house_check_start_date: '2026-12-10 00:00:00.000Z',
        house_check_end_date: '2026-12-01 23:59:59.999Z',
      },
      'house_check_end_date',
    ],
  ];
  for (const [what, change, field] of windows) {
    cases.push({
      collection: 'houses',
      op: 'create',
      actor: 'regular A',
      what,
      expect: 400,
      field,
      body: () => ({ ...valid(w, 'houses', 'regular A'), ...change }),
    });
    cases.push({
      collection: 'houses',
      op: 'update',
      actor: 'regular A',
      what,
      expect: 400,
      field,
      body: () => change,
    });
  }
  const onWindow = () => target.windowHouse;
  cases.push({
    collection: 'houses',
    op: 'update',
    actor: 'regular A',
    what: 'the end moved before the start',
    on: onWindow,
    expect: 400,
    field: 'house_check_end_date',
    body: () => ({ house_check_end_date: '2026-11-30 23:59:59.999Z' }),
  });
  cases.push({
    collection: 'houses',
    op: 'update',
    actor: 'regular A',
    what: 'the start moved after the end',
    on: onWindow,
    expect: 400,
    field: 'house_check_end_date',
    body: () => ({ house_check_start_date: '2026-12-11 00:00:00.000Z' }),
  });
  cases.push({
    collection: 'houses',
    op: 'update',
    actor: 'regular A',
    what: 'the end date cleared while on',
    on: onWindow,
    expect: 400,
    field: 'house_check_end_date',
    body: () => ({ house_check_end_date: '' }),
  });
  return cases;
}

/** Writes into another community, or by someone the rules do not let write. */
function foreignCases(): Case[] {
  const A = (collection: CollectionName, actor: Actor, change: (world: World) => Body) => () => ({
    ...valid(w, collection, actor),
    ...change(w),
  });
  return [
    {
      collection: 'houses',
      op: 'create',
      actor: 'regular A',
      what: 'in community B',
      expect: 400,
      body: A('houses', 'regular A', (x) => ({ community: x.b.community.id })),
    },
    {
      collection: 'houses',
      op: 'update',
      actor: 'regular A',
      what: 'a home of B',
      on: () => w.seed.houseB,
      expect: 404,
      body: () => ({ note: 'foreign' }),
    },
    {
      collection: 'houses',
      op: 'update',
      actor: 'director B',
      what: 'a home of A',
      expect: 404,
      body: () => ({ note: 'foreign' }),
    },
    {
      collection: 'houses',
      op: 'update',
      actor: 'director B',
      what: 'the window of a home of A (no hint that it exists)',
      on: () => target.windowHouse,
      expect: 404,
      body: () => ({ house_check_end_date: '2026-11-30 23:59:59.999Z' }),
    },
    {
      collection: 'houses',
      op: 'update',
      actor: 'regular A',
      what: 'community → B',
      expect: 404,
      body: () => ({ community: w.b.community.id }),
    },
    {
      collection: 'houses',
      op: 'create',
      actor: 'anonymous',
      what: 'signed out',
      expect: 400,
      body: A('houses', 'regular A', () => ({})),
    },
    {
      collection: 'residents',
      op: 'create',
      actor: 'regular A',
      what: 'in a home of B',
      expect: 400,
      body: A('residents', 'regular A', (x) => ({ house: x.seed.houseB })),
    },
    {
      collection: 'residents',
      op: 'update',
      actor: 'regular A',
      what: 'a resident of B',
      on: () => w.seed.residentB,
      expect: 404,
      body: () => ({ first_name: 'Foreign' }),
    },
    {
      collection: 'residents',
      op: 'update',
      actor: 'regular A',
      what: 'moved to a home of B',
      expect: 404,
      body: () => ({ house: w.seed.houseB }),
    },
    {
      collection: 'phones',
      op: 'create',
      actor: 'regular A',
      what: 'in a home of B',
      expect: 400,
      body: A('phones', 'regular A', (x) => ({ house: x.seed.houseB })),
    },
    {
      collection: 'phones',
      op: 'update',
      actor: 'director B',
      what: 'a phone of A',
      expect: 404,
      body: () => ({ phone_number: '+15615550177' }),
    },
    {
      collection: 'phones',
      op: 'update',
      actor: 'regular A',
      what: 'a phone of B',
      on: () => w.seed.phoneB,
      expect: 404,
      body: () => ({ phone_number: '+15615550177' }),
    },
    {
      collection: 'concerns',
      op: 'create',
      actor: 'director A',
      what: 'in community B',
      expect: 400,
      body: A('concerns', 'director A', (x) => ({ community: x.b.community.id })),
    },
    {
      collection: 'concerns',
      op: 'create',
      actor: 'regular A',
      what: 'by a regular officer',
      expect: 400,
      body: A('concerns', 'regular A', () => ({})),
    },
    {
      collection: 'concerns',
      op: 'update',
      actor: 'director A',
      what: 'a concern of B',
      on: () => target.concernB,
      expect: 404,
      body: () => ({ name: 'Foreign' }),
    },
    {
      collection: 'concerns',
      op: 'update',
      actor: 'manager A',
      what: 'by a manager',
      expect: 404,
      body: () => ({ name: 'Managed' }),
    },
    {
      collection: 'reports',
      op: 'create',
      actor: 'regular A',
      what: 'in community B',
      expect: 400,
      body: A('reports', 'regular A', (x) => ({ community: x.b.community.id, house: '' })),
    },
    {
      collection: 'reports',
      op: 'create',
      actor: 'regular A',
      what: 'about a home of B',
      expect: 400,
      body: A('reports', 'regular A', (x) => ({ house: x.seed.houseB })),
    },
    {
      collection: 'reports',
      op: 'create',
      actor: 'regular A',
      what: 'about a resident of B',
      expect: 400,
      body: A('reports', 'regular A', (x) => ({ resident: x.seed.residentB })),
    },
    {
      collection: 'reports',
      op: 'create',
      actor: 'regular A',
      what: 'in the name of the manager',
      expect: 400,
      body: A('reports', 'regular A', (x) => ({ created_by: x.a.manager.id })),
    },
    {
      collection: 'reports',
      op: 'update',
      actor: 'regular A',
      what: 'by a regular officer',
      expect: 404,
      body: () => ({ narative: 'rewritten' }),
    },
    {
      collection: 'reports',
      op: 'update',
      actor: 'director B',
      what: 'a report of A',
      expect: 404,
      body: () => ({ narative: 'rewritten' }),
    },
    {
      collection: 'users',
      op: 'create',
      actor: 'director A',
      what: 'in community B',
      expect: 400,
      body: A('users', 'director A', (x) => ({ community: x.b.community.id })),
    },
    {
      collection: 'users',
      op: 'create',
      actor: 'manager A',
      what: 'by a manager',
      expect: 400,
      body: A('users', 'director A', () => ({})),
    },
    {
      collection: 'users',
      op: 'update',
      actor: 'director A',
      what: 'a director of B',
      on: () => w.b.director.id,
      expect: 404,
      body: () => ({ first_name: 'Foreign' }),
    },
    {
      collection: 'users',
      op: 'update',
      actor: 'director B',
      what: 'a user of A',
      expect: 404,
      body: () => ({ first_name: 'Foreign' }),
    },
    {
      collection: 'users',
      op: 'update',
      actor: 'director A',
      what: 'a regular promoted to director',
      expect: 404,
      body: () => ({ type: 'director' }),
    },
    {
      collection: 'communities',
      op: 'create',
      actor: 'director A',
      what: 'a new community',
      expect: 403,
      body: () => ({ name: 'Mine now' }),
    },
    {
      collection: 'communities',
      op: 'update',
      actor: 'director A',
      what: 'its own community',
      on: () => w.a.community.id,
      expect: 403,
      body: () => ({ name: 'Renamed' }),
    },
    {
      collection: 'calls',
      op: 'create',
      actor: 'regular A',
      what: 'a call record',
      expect: 403,
      body: () => ({
        house: w.seed.houseA,
        community: w.a.community.id,
        to_number: '+15615550101',
        script: 'Hi.',
        status: 'queued',
        created_by: w.a.regular.id,
      }),
    },
    {
      collection: 'calls',
      op: 'update',
      actor: 'director A',
      what: 'a call record',
      on: () => w.seed.callA,
      expect: 403,
      body: () => ({ status: 'completed' }),
    },
    ...tourForeignCases(A),
    {
      collection: 'scms_meta',
      op: 'create',
      actor: 'director A',
      what: 'a server fact',
      expect: 403,
      body: () => ({ key: 'demo_seed', value: true }),
    },
  ];
}

/** Checkpoint tours: another community's records and codes, made-up codes, and writes the rules keep to some. */
function tourForeignCases(
  A: (collection: CollectionName, actor: Actor, change: (world: World) => Body) => () => Body,
): Case[] {
  const scan = (what: string, change: (world: World) => Body, field?: string): Case => ({
    collection: 'checkpoint_scans',
    op: 'create',
    actor: 'regular A',
    what,
    expect: 400,
    field,
    body: A('checkpoint_scans', 'regular A', change),
  });
  return [
    {
      collection: 'checkpoints',
      op: 'create',
      actor: 'regular A',
      what: 'by a regular officer',
      expect: 400,
      body: A('checkpoints', 'regular A', () => ({})),
    },
    {
      collection: 'checkpoints',
      op: 'create',
      actor: 'manager A',
      what: 'in community B',
      expect: 400,
      body: A('checkpoints', 'manager A', (x) => ({ community: x.b.community.id })),
    },
    {
      collection: 'checkpoints',
      op: 'update',
      actor: 'director B',
      what: 'a checkpoint of A',
      expect: 404,
      body: () => ({ name: 'Foreign' }),
    },
    {
      collection: 'tours',
      op: 'create',
      actor: 'manager A',
      what: 'with a checkpoint of B',
      expect: 400,
      field: 'checkpoints',
      body: A('tours', 'manager A', (x) => ({ checkpoints: [x.seed.checkpointA, x.seed.checkpointB] })),
    },
    {
      collection: 'tours',
      op: 'create',
      actor: 'manager A',
      what: 'with a checkpoint listed twice',
      expect: 400,
      field: 'checkpoints',
      body: A('tours', 'manager A', (x) => ({ checkpoints: [x.seed.checkpointA, x.seed.checkpointA] })),
    },
    {
      collection: 'tours',
      op: 'update',
      actor: 'manager A',
      what: 'a checkpoint of B added',
      expect: 400,
      field: 'checkpoints',
      body: () => ({ checkpoints: [w.seed.checkpointB] }),
    },
    {
      collection: 'tours',
      op: 'update',
      actor: 'manager A',
      what: 'a round longer than the time between rounds',
      expect: 400,
      field: 'round_minutes',
      body: () => ({ every_minutes: 30, round_minutes: 45 }),
    },
    {
      collection: 'tours',
      op: 'create',
      actor: 'regular A',
      what: 'by a regular officer',
      expect: 400,
      body: A('tours', 'regular A', () => ({})),
    },
    {
      collection: 'tour_walks',
      op: 'create',
      actor: 'regular A',
      what: 'of a tour of B',
      expect: 400,
      body: A('tour_walks', 'regular A', (x) => ({ tour: x.seed.tourB })),
    },
    {
      collection: 'tour_walks',
      op: 'create',
      actor: 'regular A',
      what: 'in the name of the manager',
      expect: 400,
      body: A('tour_walks', 'regular A', (x) => ({ officer: x.a.manager.id })),
    },
    {
      collection: 'tour_walks',
      op: 'create',
      actor: 'regular A',
      what: 'started already ended',
      expect: 400,
      body: A('tour_walks', 'regular A', () => ({ ended_at: '2026-11-26 01:30:00.000Z' })),
    },
    {
      collection: 'tour_walks',
      op: 'update',
      actor: 'regular A',
      what: "ending another officer's walk",
      expect: 404,
      body: () => ({ ended_at: '2026-11-26 01:30:00.000Z', end_reason: 'not mine' }),
    },
    {
      collection: 'tour_walks',
      op: 'update',
      actor: 'director A',
      what: 'moved to another round while ending it',
      expect: 404,
      body: () => ({ ended_at: '2026-11-26 01:30:00.000Z', round_start: '2026-11-26 03:00:00.000Z' }),
    },
    {
      collection: 'tour_walks',
      op: 'update',
      actor: 'director A',
      what: 'ended before it started',
      expect: 400,
      field: 'ended_at',
      body: () => ({ ended_at: '2026-11-26 00:30:00.000Z' }),
    },
    scan('with the QR code of a checkpoint of B', (x) => ({ method: 'camera', code: qrOf(x.b.community.id) }), 'code'),
    scan('with a made-up QR code', (x) => ({ method: 'camera', code: qrOf(x.a.community.id) }), 'code'),
    scan('with a made-up short code', () => ({ method: 'code', code: 'ZZZZZZ' }), 'code'),
    scan('with a mistyped short code', () => ({ method: 'code', code: 'K7M-4Q' }), 'code'),
    scan('with no code', () => ({ code: '' }), 'code'),
    scan('with text that is no checkpoint code', () => ({ method: 'camera', code: 'https://example.com' }), 'code'),
    scan('of a checkpoint of B', (x) => ({ checkpoint: x.seed.checkpointB })),
    scan('on a walk of B', (x) => ({ walk: x.seed.walkB })),
    scan('in community B', (x) => ({ community: x.b.community.id })),
    scan('in the name of the manager', (x) => ({ officer: x.a.manager.id })),
    {
      collection: 'checkpoint_scans',
      op: 'create',
      actor: 'manager A',
      what: "on another officer's walk",
      expect: 400,
      body: A('checkpoint_scans', 'manager A', () => ({})),
    },
    scan('made before its walk started', () => ({ scanned_at: '2026-11-26 00:59:00.000Z' })),
    scan('on a walk that has ended', () => ({ walk: target.endedWalk })),
    {
      collection: 'checkpoint_scans',
      op: 'update',
      actor: 'regular A',
      what: 'a scan changed after it was made',
      expect: 403,
      body: () => ({ answer: 'no' }),
    },
    ...safetyForeignCases(A),
  ];
}

/** Shifts, alerts and their steps: in another's name, in community B, on B's alert, or a step the writer may not take. */
function safetyForeignCases(
  A: (collection: CollectionName, actor: Actor, change: (world: World) => Body) => () => Body,
): Case[] {
  const create = (collection: CollectionName, actor: Actor, what: string, change: (x: World) => Body): Case => ({
    collection,
    op: 'create',
    actor,
    what,
    expect: 400,
    body: A(collection, actor, change),
  });
  return [
    create('duty_shifts', 'regular A', 'in the name of the manager', (x) => ({ officer: x.a.manager.id })),
    create('duty_shifts', 'regular A', 'in community B', (x) => ({ community: x.b.community.id })),
    create('duty_shifts', 'regular A', 'started already ended', () => ({ ended_at: '2026-11-26 09:00:00.000Z' })),
    create('duty_shifts', 'regular A', 'saying the server ended it', () => ({ ended_by: 'limit' })),
    {
      collection: 'duty_shifts',
      op: 'update',
      actor: 'manager A',
      what: "ending another officer's shift",
      expect: 404,
      body: () => ({ ended_at: '2026-11-26 09:00:00.000Z' }),
    },
    {
      collection: 'duty_shifts',
      op: 'update',
      actor: 'director A',
      what: 'a check-in that also moves its position',
      expect: 404,
      body: () => ({
        checked_at: '2026-11-26 03:00:00.000Z',
        end_position: { latitude: 1, longitude: 1, accuracy: 5 },
      }),
    },
    {
      collection: 'duty_shifts',
      op: 'update',
      actor: 'manager A',
      what: "a check-in on another officer's shift",
      expect: 404,
      body: () => ({ checked_at: '2026-11-26 03:00:00.000Z' }),
    },
    {
      collection: 'duty_shifts',
      op: 'update',
      actor: 'director A',
      what: 'moved to another start while ending it',
      expect: 404,
      body: () => ({ ended_at: '2026-11-26 09:00:00.000Z', started_at: '2026-11-26 00:00:00.000Z' }),
    },
    create('alerts', 'regular A', 'in the name of the manager', (x) => ({ officer: x.a.manager.id })),
    create('alerts', 'regular A', 'in community B', (x) => ({ community: x.b.community.id })),
    create('alerts', 'regular A', 'a missed check-in raised by a phone', () => ({ kind: 'missed_check_in' })),
    create('alerts', 'regular A', 'raised already ended', () => ({ ended_at: '2026-11-26 09:00:00.000Z' })),
    {
      collection: 'alerts',
      op: 'update',
      actor: 'director A',
      what: 'ended by a change instead of a step',
      expect: 403,
      body: () => ({ ended_at: '2026-11-26 09:00:00.000Z', end_kind: 'resolved' }),
    },
    create('alert_events', 'regular A', 'on an alert of B', () => ({ alert: target.alertB })),
    create('alert_events', 'director B', 'by a director of B on an alert of A', (x) => ({
      community: x.b.community.id,
    })),
    create('alert_events', 'regular A', 'in the name of the manager', (x) => ({ by: x.a.manager.id })),
    create('alert_events', 'manager A', "'safe' said by someone other than its officer", () => ({ kind: 'safe' })),
    create('alert_events', 'regular A', "'resolved' by a regular officer", () => ({ kind: 'resolved' })),
  ];
}

/** A QR text of a community with a token no checkpoint has. */
function qrOf(community: string): string {
  return `scms-cp:${community}:${'q'.repeat(20)}`;
}

const CASES = [...typeCases(), ...valueCases(), ...foreignCases()];

function recordPath(c: Case, id: string): { method: string; path: string } {
  return c.op === 'create'
    ? { method: 'POST', path: `/api/collections/${c.collection}/records` }
    : { method: 'PATCH', path: `/api/collections/${c.collection}/records/${id}` };
}

/** What a case sends and which record it would touch. */
function prepare(c: Case): { id: string; body: Body } {
  if (c.op === 'create') {
    const body = { ...c.body() };
    // The wrongly typed `id` cases keep their own id; the others get one to look for afterwards.
    if (!('id' in body)) body.id = newId();
    return { id: typeof body.id === 'string' ? body.id : '', body };
  }
  return { id: c.on ? c.on() : target[c.collection as Writable], body: c.body() };
}

/** Nothing of the case is stored: no record with its id, or the record exactly as before. */
async function expectUntouched(c: Case, id: string, before: Body | null): Promise<void> {
  if (c.op === 'create') {
    if (id !== '') expect(await stored(c.collection, id), 'no record was created').toBeNull();
  } else {
    expect(await stored(c.collection, id), 'the record is unchanged').toEqual(before);
  }
}

function expectFieldError(c: Case, data: Body): void {
  if (!c.field) return;
  const error = data[c.field] as { code?: unknown; message?: unknown } | undefined;
  expect(error, `a field error for ${c.field}`).toBeDefined();
  expect(typeof error?.code).toBe('string');
  expect(typeof error?.message).toBe('string');
}

const caseName = (c: Case) => `${c.collection} · ${c.op} ${c.what} · ${c.actor} → ${c.expect}`;

describe('directly', () => {
  test.each(CASES.map((c) => [caseName(c), c] as const))('%s', async (_, c) => {
    const { id, body } = prepare(c);
    const before = c.op === 'update' ? await stored(c.collection, id) : null;
    const { method, path } = recordPath(c, id);
    const answer = await send(c.actor, method, path, body);
    tried++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(c.expect);
    expectFieldError(c, fieldsOf(answer.json));
    await expectUntouched(c, id, before);
  });
});

describe('through /api/batch, after a valid report of the same writer (all or nothing)', () => {
  test.each(CASES.map((c) => [caseName(c), c] as const))('%s', async (_, c) => {
    const { id, body } = prepare(c);
    const before = c.op === 'update' ? await stored(c.collection, id) : null;
    const community = c.actor === 'director B' ? w.b.community.id : w.a.community.id;
    // Signed out, nobody can write the report that goes first.
    const first =
      c.actor === 'anonymous'
        ? null
        : {
            id: newId(),
            narative: 'Valid, and sent first.',
            type: 'accident',
            weather: 'clear',
            incident_time: '2025-03-04 05:06:07.000Z',
            community,
            created_by: userOf(w, c.actor),
          };
    const { method, path } = recordPath(c, id);
    const requests = [
      ...(first ? [{ method: 'POST', url: '/api/collections/reports/records', body: first }] : []),
      { method, url: path, body },
    ];
    const answer = await send(c.actor, 'POST', '/api/batch', { requests });
    tried++;
    // A batch fails as a whole (400); the failed request's own answer is inside, under its index.
    expect(answer.status, JSON.stringify(answer.json)).toBe(400);
    const failed = (
      fieldsOf(answer.json).requests as Record<string, { response?: { status?: number; data?: Body } }> | undefined
    )?.[String(requests.length - 1)];
    expect(failed?.response?.status, JSON.stringify(answer.json)).toBe(c.expect);
    expectFieldError(c, failed?.response?.data ?? {});
    if (first) expect(await stored('reports', first.id), 'the valid report before it was not stored either').toBeNull();
    await expectUntouched(c, id, before);
  });
});

// ---- form-data (uploads) and malformed bodies ---------------------------------------------------
interface RawCase {
  what: string;
  actor: Actor;
  method: string;
  path: () => string;
  body: () => FormData | string;
  contentType: string | null;
  expect: 400 | 403 | 404;
  field?: string;
  /** The record a create would make (its id is in the body), or an update would change. */
  record?: { collection: Writable; id: () => string; create: boolean };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const fixedIds = { report: newId(), house: newId(), batchReport: newId() };

function reportForm(change: Record<string, string | string[]>, id = fixedIds.report): FormData {
  const base = valid(w, 'reports', 'regular A');
  const form = new FormData();
  form.append('id', id);
  for (const [key, value] of Object.entries({ ...base, injury: 'false', ems_pbso: 'false', ...change })) {
    for (const one of Array.isArray(value) ? value : [String(value)]) form.append(key, one);
  }
  form.append('photos', new Blob([PNG], { type: 'image/png' }), 'photo.png');
  return form;
}

function houseForm(change: Record<string, string>): FormData {
  const form = new FormData();
  form.append('id', fixedIds.house);
  for (const [key, value] of Object.entries({ ...valid(w, 'houses', 'regular A'), ...change }))
    form.append(key, String(value));
  form.append('image', new Blob([PNG], { type: 'image/png' }), 'home.png');
  return form;
}

/** The SDK's batch with a file: form-data, the requests as JSON in @jsonPayload, the files beside them. */
function batchForm(sub: Body): FormData {
  const form = new FormData();
  form.append(
    '@jsonPayload',
    JSON.stringify({
      requests: [
        {
          method: 'POST',
          url: '/api/collections/reports/records',
          body: { ...valid(w, 'reports', 'regular A'), id: fixedIds.batchReport, ...sub },
        },
      ],
    }),
  );
  form.append('requests.0.photos', new Blob([PNG], { type: 'image/png' }), 'photo.png');
  return form;
}

const reportRecord = { collection: 'reports' as const, id: () => fixedIds.report, create: true };
const houseRecord = { collection: 'houses' as const, id: () => fixedIds.house, create: true };
const batchRecord = { collection: 'reports' as const, id: () => fixedIds.batchReport, create: true };
const reportsPath = () => '/api/collections/reports/records';
const housesPath = () => '/api/collections/houses/records';
const form = (
  what: string,
  body: () => FormData,
  field: string,
  path = reportsPath,
  record: RawCase['record'] = reportRecord,
): RawCase => ({ what, actor: 'regular A', method: 'POST', path, body, contentType: null, expect: 400, field, record });

const RAW_CASES: RawCase[] = [
  form('report upload: injury "yes"', () => reportForm({ injury: 'yes' }), 'injury'),
  form('report upload: ems_pbso "1"', () => reportForm({ ems_pbso: '1' }), 'ems_pbso'),
  form('report upload: narative sent twice', () => reportForm({ narative: ['one', 'two'] }), 'narative'),
  form('report upload: narative of spaces', () => reportForm({ narative: '   ' }), 'narative'),
  form('report upload: incident_time "abc"', () => reportForm({ incident_time: 'abc' }), 'incident_time'),
  form(
    'report upload: incident_time in 9999',
    () => reportForm({ incident_time: '9999-01-01 00:00:00.000Z' }),
    'incident_time',
  ),
  form('report upload: phone_number "abc"', () => reportForm({ phone_number: 'abc' }), 'phone_number'),
  form('report upload: type "nope"', () => reportForm({ type: 'nope' }), 'type'),
  form(
    'report upload: @jsonPayload injury "yes"',
    () => {
      const f = reportForm({});
      f.append('@jsonPayload', JSON.stringify({ injury: 'yes' }));
      return f;
    },
    'injury',
  ),
  form(
    'report upload: @jsonPayload narative 123',
    () => {
      const f = reportForm({});
      f.append('@jsonPayload', JSON.stringify({ narative: 123 }));
      return f;
    },
    'narative',
  ),
  {
    ...form(
      'report upload: @jsonPayload not JSON',
      () => {
        const f = reportForm({});
        f.append('@jsonPayload', '{oops');
        return f;
      },
      '',
    ),
    field: undefined,
  },
  form(
    'home upload: house_check "yes"',
    () => houseForm({ house_check: 'yes' }),
    'house_check',
    housesPath,
    houseRecord,
  ),
  form('home upload: address of spaces', () => houseForm({ address: '   ' }), 'address', housesPath, houseRecord),
  form(
    'home upload: window ending before it starts',
    () =>
      houseForm({
        house_check: 'true',
        house_check_start_date: '2026-12-10 00:00:00.000Z',
        house_check_end_date: '2026-12-01 23:59:59.999Z',
      }),
    'house_check_end_date',
    housesPath,
    houseRecord,
  ),
  form(
    'home upload: house_check_start_date "soon"',
    () => houseForm({ house_check_start_date: 'soon' }),
    'house_check_start_date',
    housesPath,
    houseRecord,
  ),
  {
    ...form(
      'home update upload: security_code of 9',
      () => {
        const f = new FormData();
        f.append('security_code', text(9));
        f.append('image', new Blob([PNG], { type: 'image/png' }), 'x.png');
        return f;
      },
      'security_code',
    ),
    method: 'PATCH',
    path: () => `/api/collections/houses/records/${target.houses}`,
    record: { collection: 'houses', id: () => target.houses, create: false },
  },
  form(
    'batch upload: injury "no"',
    () => batchForm({ injury: 'no' }),
    'injury',
    () => '/api/batch',
    batchRecord,
  ),
  form(
    'batch upload: narative ["a","b"]',
    () => batchForm({ narative: ['a', 'b'] }),
    'narative',
    () => '/api/batch',
    batchRecord,
  ),
  form(
    'batch upload: incident_time 20250101',
    () => batchForm({ incident_time: 20250101 }),
    'incident_time',
    () => '/api/batch',
    batchRecord,
  ),
  // Bodies that are no record at all.
  ...['[1,2]', '"a home"', '{"address": ', 'null', '42'].map((body): RawCase => ({
    what: `create body ${body}`,
    actor: 'regular A',
    method: 'POST',
    path: housesPath,
    body: () => body,
    contentType: 'application/json',
    expect: 400,
  })),
  ...['[]', '{"address": "1 A"'].map((body): RawCase => ({
    what: `update body ${body}`,
    actor: 'regular A',
    method: 'PATCH',
    path: () => `/api/collections/houses/records/${target.houses}`,
    body: () => body,
    contentType: 'application/json',
    expect: 400,
    record: { collection: 'houses', id: () => target.houses, create: false },
  })),
  ...[
    '{"requests": {"0": {}}}',
    '{"requests": [{"method": "POST", "url": "/api/collections/houses/records", "body": [1]}]}',
    '{"requests": [{"method": "POST", "url": "/api/collections/houses/records", "body": "x"}]}',
    '[{"method":"POST"}]',
    '{bad',
  ].map((body): RawCase => ({
    what: `batch body ${body}`,
    actor: 'regular A',
    method: 'POST',
    path: () => '/api/batch',
    body: () => body,
    contentType: 'application/json',
    expect: 400,
  })),
  // The collection named by its id is the same collection.
  {
    what: 'address of spaces, the collection named by its id',
    actor: 'regular A',
    method: 'POST',
    path: () => `/api/collections/${houseCollectionId}/records`,
    body: () => JSON.stringify({ ...valid(w, 'houses', 'regular A'), id: fixedIds.house, address: '  ' }),
    contentType: 'application/json',
    expect: 400,
    field: 'address',
    record: houseRecord,
  },
];
let houseCollectionId = '';

describe('form-data uploads and malformed bodies', () => {
  beforeAll(async () => {
    houseCollectionId = (await t.admin.collections.getOne('houses')).id;
  });
  test.each(RAW_CASES.map((c) => [`${c.what} → ${c.expect}`, c] as const))('%s', async (_, c) => {
    const before = c.record && !c.record.create ? await stored(c.record.collection, c.record.id()) : null;
    const answer = await send(c.actor, c.method, c.path(), c.body(), c.contentType);
    tried++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(c.expect);
    if (c.field) {
      const batch = (fieldsOf(answer.json).requests as Record<string, { response?: { data?: Body } }> | undefined)?.[
        '0'
      ];
      const data = batch ? (batch.response?.data ?? {}) : fieldsOf(answer.json);
      expect(data[c.field], JSON.stringify(answer.json)).toBeDefined();
    }
    if (c.record) expect(await stored(c.record.collection, c.record.id())).toEqual(before);
  });
});

// ---- custom routes ---------------------------------------------------------------------------------
interface RouteCase {
  route: string;
  what: string;
  actor: Actor;
  path?: () => string;
  body: () => unknown;
  contentType?: string;
  expect: 400 | 401 | 403 | 404 | 413;
  field?: string;
}

const concern = (id = w.seed.concernA) => ({ id, name: 'Noise', selected: true });
const ROUTE_CASES: RouteCase[] = [
  ...[
    {},
    { user_input: 123 },
    { user_input: ['a', 'b'] },
    { user_input: '' },
    { user_input: '   ' },
    { user_input: text(4501) },
    { user_input: null },
    { user_input: { text: 'a' } },
    { user_input: true },
  ].map((body): RouteCase => ({
    route: '/api/scms/ai-assist',
    what: `body ${shown(body)}`,
    actor: 'regular A',
    body: () => body,
    expect: 400,
    field: 'user_input',
  })),
  ...['not json', '[]', 'null', '"text"'].map((body): RouteCase => ({
    route: '/api/scms/ai-assist',
    what: `body ${body}`,
    actor: 'regular A',
    body: () => body,
    expect: 400,
  })),
  {
    route: '/api/scms/ai-assist',
    what: 'signed out',
    actor: 'anonymous',
    body: () => ({ user_input: 'a' }),
    expect: 401,
  },
  ...[
    ['no home', () => ({ concerns: [concern()] }), 'h_id'],
    ['h_id 123', () => ({ h_id: 123, concerns: [concern()] }), 'h_id'],
    ['h_id a list', () => ({ h_id: [w.seed.houseA], concerns: [concern()] }), 'h_id'],
    ['h_id too short', () => ({ h_id: 'abc', concerns: [concern()] }), 'h_id'],
    ['concerns a string', () => ({ h_id: w.seed.houseA, concerns: 'noise' }), 'concerns'],
    ['concerns of numbers', () => ({ h_id: w.seed.houseA, concerns: [1, 2] }), 'concerns'],
    ['no concern chosen', () => ({ h_id: w.seed.houseA, concerns: [] }), 'concerns'],
    [
      'four concerns',
      () => ({
        h_id: w.seed.houseA,
        concerns: [concern(newId()), concern(newId()), concern(newId()), concern(newId())],
      }),
      'concerns',
    ],
    ['one concern twice', () => ({ h_id: w.seed.houseA, concerns: [concern(), concern()] }), 'concerns'],
    [
      'selected "yes"',
      () => ({ h_id: w.seed.houseA, concerns: [{ id: w.seed.concernA, selected: 'yes' }] }),
      'concerns',
    ],
    ['a concern of B', () => ({ h_id: w.seed.houseA, concerns: [concern(target.concernB)] }), 'concerns'],
    ['a concern that does not exist', () => ({ h_id: w.seed.houseA, concerns: [concern(newId())] }), 'concerns'],
  ].map(([what, body, field]): RouteCase => ({
    route: '/api/scms/call-resident',
    what: what as string,
    actor: 'regular A',
    body: body as () => unknown,
    expect: 400,
    field: field as string,
  })),
  ...['{', '[]', 'null'].map((body): RouteCase => ({
    route: '/api/scms/call-resident',
    what: `body ${body}`,
    actor: 'regular A',
    body: () => body,
    expect: 400,
  })),
  {
    route: '/api/scms/call-resident',
    what: 'a home of B',
    actor: 'regular A',
    body: () => ({ h_id: w.seed.houseB, concerns: [concern()] }),
    expect: 404,
  },
  {
    route: '/api/scms/call-resident',
    what: 'a home that does not exist',
    actor: 'regular A',
    body: () => ({ h_id: newId(), concerns: [concern()] }),
    expect: 404,
  },
  {
    route: '/api/scms/call-resident',
    what: 'a home of A, by director B',
    actor: 'director B',
    body: () => ({ h_id: w.seed.houseA, concerns: [concern()] }),
    expect: 404,
  },
  {
    route: '/api/scms/call-resident',
    what: 'signed out',
    actor: 'anonymous',
    body: () => ({ h_id: w.seed.houseA, concerns: [concern()] }),
    expect: 401,
  },
  // The provider's callback is signed; nothing unsigned moves a call along.
  ...[
    ['unsigned', 'CallSid=CA1&CallStatus=completed'],
    ['unsigned, for the seeded call', 'CallSid=&CallStatus=failed'],
    ['empty', ''],
  ].map(([what, body]): RouteCase => ({
    route: '/api/scms/call-status',
    what: what!,
    actor: 'anonymous',
    body: () => body,
    contentType: 'application/x-www-form-urlencoded',
    expect: 403,
  })),
  {
    route: '/api/scms/call-status',
    what: 'a form that is not encoded',
    actor: 'anonymous',
    body: () => '%%%',
    contentType: 'application/x-www-form-urlencoded',
    expect: 400,
  },
  {
    route: '/api/scms/call-status',
    what: 'JSON instead of a form',
    actor: 'anonymous',
    body: () => ({ CallSid: 'CA1', CallStatus: 'completed' }),
    expect: 403,
  },
  // The machine-detection verdict and the key press are signed too; running the due attempts is for superusers.
  ...['/api/scms/call-status/amd', '/api/scms/call-status/gather'].flatMap((route): RouteCase[] => [
    ...[
      ['unsigned', route.endsWith('amd') ? 'CallSid=CA1&AnsweredBy=machine_end_beep' : 'CallSid=CA1&Digits=1'],
      ['empty', ''],
    ].map(([what, body]): RouteCase => ({
      route,
      what: what!,
      actor: 'anonymous',
      body: () => body,
      contentType: 'application/x-www-form-urlencoded',
      expect: 403,
    })),
    {
      route,
      what: 'a form that is not encoded',
      actor: 'anonymous',
      body: () => '%%%',
      contentType: 'application/x-www-form-urlencoded',
      expect: 400,
    },
    {
      route,
      what: 'JSON instead of a form',
      actor: 'anonymous',
      body: () => ({ CallSid: 'CA1', Digits: '1' }),
      expect: 403,
    },
  ]),
  // Which server holds an account: the same rule as the directory service's (src/domain/directory.ts).
  ...(
    [
      ['malformed JSON', '{"email": "a@b.example"', 400],
      ['no email', {}, 400],
      ['an email that is not one', { email: 'not-an-email' }, 400],
      ['an email of 255 characters', { email: `${text(243)}@example.com` }, 400],
      ['a number', { email: 42 }, 400],
      ['a list', ['a@b.example'], 400],
      ['another field besides', { email: 'a@b.example', community: 'x' }, 400],
      ['a body over 1 KiB', { email: 'a@b.example', pad: text(2000) }, 413],
    ] as const
  ).map(([what, body, status]): RouteCase => ({
    route: '/api/scms/directory',
    what,
    actor: 'anonymous',
    body: () => body,
    expect: status,
  })),
  ...(['anonymous', 'regular A', 'director A'] as const).map((actor): RouteCase => ({
    route: '/api/scms/safety-jobs/run',
    what: 'not a superuser',
    actor,
    body: () => ({}),
    expect: 403,
  })),
  ...(['anonymous', 'regular A', 'director A'] as const).map((actor): RouteCase => ({
    route: '/api/scms/call-jobs/run',
    what: 'not a superuser',
    actor,
    body: () => ({}),
    expect: 403,
  })),
  {
    route: '/api/scms/call-resident',
    what: 'override_quiet_hours "yes"',
    actor: 'regular A',
    body: () => ({ h_id: w.seed.houseA, concerns: [concern()], override_quiet_hours: 'yes' }),
    expect: 400,
    field: 'override_quiet_hours',
  },
  // Cancelling a call's retries: directors and managers, their own community's homes, `{h_id}` alone.
  ...[
    ['no h_id', () => ({})],
    ['h_id a number', () => ({ h_id: 42 })],
    ['h_id no id', () => ({ h_id: "x' OR 1=1" })],
    ['h_id too long', () => ({ h_id: text(16) })],
    ['an unknown field', () => ({ h_id: w.seed.houseA, progress: 'done' })],
  ].map(([what, body]): RouteCase => ({
    route: '/api/scms/call-retries/cancel',
    what: what as string,
    actor: 'manager A',
    body: body as () => unknown,
    expect: 400,
  })),
  ...['{', '[]', 'null'].map((body): RouteCase => ({
    route: '/api/scms/call-retries/cancel',
    what: `body ${body}`,
    actor: 'director A',
    body: () => body,
    expect: 400,
  })),
  ...(
    [
      ['a home of B', 'manager A', () => w.seed.houseB, 404],
      ['a home that does not exist', 'director A', () => newId(), 404],
      ['a home of A, by director B', 'director B', () => w.seed.houseA, 404],
      ['by a regular officer', 'regular A', () => w.seed.houseA, 403],
      ['signed out', 'anonymous', () => w.seed.houseA, 401],
    ] as const
  ).map(([what, actor, house, status]): RouteCase => ({
    route: '/api/scms/call-retries/cancel',
    what,
    actor,
    body: () => ({ h_id: house() }),
    expect: status,
  })),
  // A director resets passwords of their own community only.
  {
    route: '/api/scms/users/{id}/reset-password',
    what: 'by a regular officer',
    actor: 'regular A',
    path: () => `/api/scms/users/${w.a.manager.id}/reset-password`,
    body: () => ({}),
    expect: 403,
  },
  {
    route: '/api/scms/users/{id}/reset-password',
    what: 'by a manager',
    actor: 'manager A',
    path: () => `/api/scms/users/${w.a.regular.id}/reset-password`,
    body: () => ({}),
    expect: 403,
  },
  {
    route: '/api/scms/users/{id}/reset-password',
    what: 'a user of B',
    actor: 'director A',
    path: () => `/api/scms/users/${w.b.regular.id}/reset-password`,
    body: () => ({}),
    expect: 404,
  },
  {
    route: '/api/scms/users/{id}/reset-password',
    what: 'a user that does not exist',
    actor: 'director A',
    path: () => `/api/scms/users/${newId()}/reset-password`,
    body: () => ({}),
    expect: 404,
  },
  {
    route: '/api/scms/users/{id}/reset-password',
    what: 'an id that is no id',
    actor: 'director A',
    path: () => `/api/scms/users/${encodeURIComponent("x' OR 1=1")}/reset-password`,
    body: () => ({}),
    expect: 404,
  },
  {
    route: '/api/scms/users/{id}/reset-password',
    what: 'signed out',
    actor: 'anonymous',
    path: () => `/api/scms/users/${w.a.regular.id}/reset-password`,
    body: () => ({}),
    expect: 401,
  }, // A first password is one's own, chosen in a session of a temporary password: everyone else is turned away
  // before the body is read (the bodies of a user who may choose one: tests/integration/first-password.test.ts).
  ...(
    [
      [
        'signed out',
        'anonymous',
        () => w.a.regular.id,
        () => ({ password: 'abcd2345', passwordConfirm: 'abcd2345' }),
        401,
      ],
      [
        "another user's id",
        'regular A',
        () => w.a.manager.id,
        () => ({ password: 'abcd2345', passwordConfirm: 'abcd2345' }),
        403,
      ],
      [
        'a user of B',
        'director A',
        () => w.b.regular.id,
        () => ({ password: 'abcd2345', passwordConfirm: 'abcd2345' }),
        403,
      ],
      ['an id that is no id', 'regular A', () => encodeURIComponent("x' OR 1=1"), () => ({}), 403],
      [
        'a password of their own',
        'regular A',
        () => w.a.regular.id,
        () => ({ password: 'abcd2345', passwordConfirm: 'abcd2345' }),
        403,
      ],
      ['a malformed body, password their own', 'regular A', () => w.a.regular.id, () => ({ password: 123 }), 403],
      ['body not json, password their own', 'manager A', () => w.a.manager.id, () => '{', 403],
    ] as const
  ).map(([what, actor, id, body, status]): RouteCase => ({
    route: '/api/scms/users/{id}/first-password',
    what,
    actor,
    path: () => `/api/scms/users/${id()}/first-password`,
    body,
    expect: status,
  })),
];

/** Custom routes that take input (every method but GET), from the hooks themselves. */
function routesTakingInput(): string[] {
  const dir = join(projectRoot, 'pocketbase', 'pb_hooks');
  const routes: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.pb.js'))) {
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/routerAdd\(\s*'([A-Z]+)',\s*'([^']+)'/g))
      if (m[1] !== 'GET') routes.push(m[2]!);
  }
  return routes;
}

describe('custom routes', () => {
  test('every custom route that takes input has bad-input cases here', () => {
    const covered = new Set(ROUTE_CASES.map((c) => c.route));
    const routes = routesTakingInput();
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.filter((route) => !covered.has(route))).toEqual([]);
  });

  const present = new Set(routesTakingInput());
  test.each(
    ROUTE_CASES.filter((c) => present.has(c.route)).map(
      (c) => [`${c.route} · ${c.what} · ${c.actor} → ${c.expect}`, c] as const,
    ),
  )('%s', async (_, c) => {
    const answer = await send(
      c.actor,
      'POST',
      c.path ? c.path() : c.route,
      c.body(),
      c.contentType ?? 'application/json',
    );
    tried++;
    expect(answer.status, JSON.stringify(answer.json)).toBe(c.expect);
    if (c.field) expect(fieldsOf(answer.json)[c.field], JSON.stringify(answer.json)).toBeDefined();
  });
});

test('nothing was stored: every collection has its count from before, and the staff still sign in with their passwords', async () => {
  expect(await counts()).toEqual(countsBefore);
  const signedIn: PocketBase = await t.signIn(w.a.manager.email, TEST_PASSWORD);
  expect(signedIn.authStore.isValid).toBe(true);
  console.log(`bad inputs tried: ${tried}, every one refused`);
  expect(tried).toBeGreaterThanOrEqual(300);
});

test('what the app sends is still accepted: a report with a photo (form-data), a home with an image in a batch, a house check', async () => {
  const officer = w.pb['regular A'];
  const report = await officer.collection('reports').create({
    ...valid(w, 'reports', 'regular A'),
    injury: true,
    photos: [new File([PNG], 'p.png', { type: 'image/png' })],
  });
  expect(report.injury).toBe(true);
  expect(report.photos).toHaveLength(1);
  const batch = officer.createBatch();
  const house = newId();
  batch
    .collection('houses')
    .create({ id: house, ...valid(w, 'houses', 'regular A'), image: new File([PNG], 'h.png', { type: 'image/png' }) });
  batch.collection('residents').create({ first_name: 'Ann', last_name: 'Lee', owner: true, house });
  batch.collection('phones').create({ phone_number: '+442079460958', primary: true, type: 'home', house });
  await batch.send();
  const check = officer.createBatch();
  check
    .collection('reports')
    .create({ ...valid(w, 'reports', 'regular A'), type: 'house_check', house: target.windowHouse });
  check
    .collection('houses')
    .update(target.windowHouse, { house_check_last_date: new Date().toISOString().replace('T', ' ') });
  await check.send();
  expect((await stored('houses', target.windowHouse))?.house_check_last_date).not.toBe('');
});
