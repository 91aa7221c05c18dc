/**
 * Table-driven checks of the API rules: a "world" of two communities seeded
 * by the superuser, one signed-in client per actor, and `runCell`, which runs
 * one operation as one actor and checks — with the superuser client — that it
 * really happened (allowed) or really did not (denied).
 */
import PocketBase, { ClientResponseError, type RecordModel } from 'pocketbase';
import { expect } from 'vitest';
import { createCommunity, newId, TEST_PASSWORD, type CommunityFixture, type TestServer } from './pocketbase.ts';

export const ACTORS = ['anonymous', 'regular A', 'manager A', 'director A', 'director B'] as const;
export type Actor = (typeof ACTORS)[number];
export const OPS = ['list', 'view', 'create', 'update', 'delete'] as const;
export type Op = (typeof OPS)[number];
export const COLLECTIONS = [
  'communities',
  'users',
  'houses',
  'residents',
  'phones',
  'concerns',
  'reports',
  'calls',
  'checkpoints',
  'tours',
  'tour_walks',
  'checkpoint_scans',
  'duty_shifts',
  'alerts',
  'alert_events',
] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

/**
 * What a cell expects: success, an empty list (a list rule filters records
 * out instead of refusing), or the HTTP status PocketBase refuses with.
 */
export type Outcome = 'allowed' | 'empty' | 400 | 403 | 404;

type Body = Record<string, unknown>;

export interface World {
  t: TestServer;
  a: CommunityFixture;
  b: CommunityFixture;
  pb: Record<Actor, PocketBase>;
  /** Records seeded by the superuser; `*A` belong to community A, `*B` to B. */
  seed: {
    houseA: string;
    houseA2: string;
    residentA: string;
    phoneA: string;
    concernA: string;
    reportA: string;
    callA: string;
    houseB: string;
    residentB: string;
    phoneB: string;
    checkpointA: string;
    /** The short code the server gave checkpointA (a scan of it carries this). */
    checkpointCodeA: string;
    tourA: string;
    walkA: string;
    scanA: string;
    checkpointB: string;
    tourB: string;
    walkB: string;
    /** Regular A's shift, an alert raised in it, and manager A's 'responding' on it. */
    shiftA: string;
    alertA: string;
    eventA: string;
  };
}

/** The user behind an actor; anonymous borrows director A so that only the missing sign-in can make it fail. */
export function userOf(w: World, actor: Actor): string {
  switch (actor) {
    case 'regular A':
      return w.a.regular.id;
    case 'manager A':
      return w.a.manager.id;
    case 'director B':
      return w.b.director.id;
    default:
      return w.a.director.id;
  }
}

// PocketBase answers dates in this form; sending it lets stored values compare equal.
const INCIDENT_TIME = '2025-03-04 05:06:07.000Z';
/** A round of the seeded tours, and times on it. */
export const ROUND_START = '2026-11-26 01:00:00.000Z';
const STARTED_AT = '2026-11-26 01:02:00.000Z';
const SCANNED_AT = '2026-11-26 01:05:00.000Z';
export const CHECKPOINT_POSITION = { latitude: 26.9342, longitude: -80.0942, accuracy: 8 };

/** Data valid against the schema for a new record of community A created by `actor`. */
export function valid(w: World, collection: CollectionName, actor: Actor): Body {
  const community = w.a.community.id;
  switch (collection) {
    case 'communities':
      return { name: 'New community', address: '9 New Way' };
    case 'users': {
      const email = `${newId()}@scms.test`;
      return {
        email,
        password: TEST_PASSWORD,
        passwordConfirm: TEST_PASSWORD,
        first_name: 'New',
        last_name: 'Officer',
        type: 'regular',
        community,
      };
    }
    case 'houses':
      return {
        address: '2 Ocean Dr',
        city: 'Jupiter',
        state: 'FL',
        zip: '33458',
        note: 'gate code at the back',
        community,
      };
    case 'residents':
      return { first_name: 'Ann', last_name: 'Lee', owner: true, house: w.seed.houseA };
    case 'phones':
      return { phone_number: '+15615550101', primary: true, type: 'cell', house: w.seed.houseA };
    case 'concerns':
      return {
        name: 'Open garage',
        hint: 'garage open at night',
        say: 'Your garage door is open.',
        added_by: userOf(w, actor),
        community,
      };
    case 'reports':
      return {
        narative: 'All quiet.',
        type: 'house_check',
        weather: 'clear',
        incident_time: INCIDENT_TIME,
        community,
        created_by: userOf(w, actor),
        house: w.seed.houseA,
      };
    case 'calls':
      return {
        house: w.seed.houseA,
        community,
        concerns: [w.seed.concernA],
        to_number: '+15615550102',
        script: 'Hello.',
        status: 'queued',
        created_by: userOf(w, actor),
      };
    case 'checkpoints':
      return {
        name: 'Pool gate',
        position: CHECKPOINT_POSITION,
        radius: 30,
        instructions: 'Check the pool gate is locked.',
        question: 'Is the gate locked?',
        community,
        created_by: userOf(w, actor),
      };
    case 'tours':
      return {
        name: 'Night round',
        checkpoints: [w.seed.checkpointA],
        start: '20:00',
        end: '06:00',
        every_minutes: 120,
        round_minutes: 30,
        ordered: true,
        active: true,
        community,
        created_by: userOf(w, actor),
      };
    case 'tour_walks':
      return {
        tour: w.seed.tourA,
        officer: userOf(w, actor),
        round_start: ROUND_START,
        started_at: STARTED_AT,
        ended_at: '',
        end_reason: '',
        community,
      };
    case 'duty_shifts':
      return { officer: userOf(w, actor), started_at: STARTED_AT, start_position: CHECKPOINT_POSITION, community };
    case 'alerts':
      return {
        officer: userOf(w, actor),
        kind: 'panic',
        raised_at: SCANNED_AT,
        position: CHECKPOINT_POSITION,
        community,
      };
    case 'alert_events':
      return { alert: w.seed.alertA, by: userOf(w, actor), kind: 'responding', at: SCANNED_AT, community };
    case 'checkpoint_scans':
      return {
        walk: w.seed.walkA,
        checkpoint: w.seed.checkpointA,
        officer: userOf(w, actor),
        scanned_at: SCANNED_AT,
        method: 'code',
        code: w.seed.checkpointCodeA,
        position: CHECKPOINT_POSITION,
        answer: 'yes',
        note: '',
        community,
      };
  }
}

/** A change that every rule lets through when the actor may update at all. */
export function harmless(collection: CollectionName): Body {
  const changes: Record<CollectionName, Body> = {
    communities: { name: 'Renamed' },
    users: { first_name: 'Renamed' },
    houses: { note: 'changed by a cell' },
    residents: { first_name: 'Renamed' },
    phones: { phone_number: '+15615550199' },
    concerns: { hint: 'changed by a cell' },
    reports: { narative: 'changed by a cell' },
    calls: { error: 'changed by a cell' },
    checkpoints: { instructions: 'changed by a cell' },
    tours: { name: 'Renamed' },
    tour_walks: { ended_at: '2026-11-26 02:00:00.000Z', end_reason: 'changed by a cell' },
    checkpoint_scans: { note: 'changed by a cell' },
    duty_shifts: { ended_at: '2026-11-26 09:00:00.000Z', end_position: CHECKPOINT_POSITION },
    alerts: { position: null },
    alert_events: { kind: 'safe' },
  };
  return changes[collection];
}

/** A new record of community A made by the superuser, for an update or delete cell to act on. */
export async function fresh(w: World, collection: CollectionName): Promise<string> {
  // Communities are not made fresh: A staff can only ever reach their own.
  if (collection === 'communities') return w.a.community.id;
  const data = valid(w, collection, collection === 'reports' ? 'regular A' : 'director A');
  return (await w.t.admin.collection(collection).create({ id: newId(), ...data })).id;
}

export async function buildWorld(t: TestServer): Promise<World> {
  const a = await createCommunity(t.admin, 'a');
  const b = await createCommunity(t.admin, 'b');
  const make = async (collection: CollectionName, data: Body) => (await t.admin.collection(collection).create(data)).id;
  const house = (community: string, address: string) =>
    make('houses', { address, city: 'Jupiter', state: 'FL', zip: '33458', community });
  const houseA = await house(a.community.id, '1 Main St');
  const houseA2 = await house(a.community.id, '3 Main St');
  const houseB = await house(b.community.id, '5 Other St');
  const residentA = await make('residents', { first_name: 'Ann', last_name: 'A', house: houseA });
  const residentB = await make('residents', { first_name: 'Bob', last_name: 'B', house: houseB });
  const phoneA = await make('phones', { phone_number: '+15615550001', house: houseA });
  const phoneB = await make('phones', { phone_number: '+15615550002', house: houseB });
  const concernA = await make('concerns', {
    name: 'Noise',
    hint: 'loud music',
    say: 'Please lower the music.',
    added_by: a.director.id,
    community: a.community.id,
  });
  const reportA = await make('reports', {
    narative: 'Seeded.',
    type: 'loud_noise',
    weather: 'clear',
    incident_time: INCIDENT_TIME,
    community: a.community.id,
    created_by: a.regular.id,
    house: houseA,
  });
  const callA = await make('calls', {
    house: houseA,
    community: a.community.id,
    concerns: [concernA],
    to_number: '+15615550001',
    script: 'Hello.',
    status: 'completed',
    created_by: a.director.id,
  });
  // Tours: a checkpoint, a tour, a walk and a scan of A (the regular's), and of B.
  const tourWorld = async (community: CommunityFixture) => {
    const checkpoint = await t.admin.collection('checkpoints').create({
      name: 'Gate',
      position: CHECKPOINT_POSITION,
      radius: 30,
      community: community.community.id,
      created_by: community.director.id,
    });
    const tour = await make('tours', {
      name: 'Night',
      checkpoints: [checkpoint.id],
      start: '20:00',
      end: '06:00',
      every_minutes: 120,
      round_minutes: 30,
      community: community.community.id,
      created_by: community.director.id,
    });
    const walk = await make('tour_walks', {
      tour,
      officer: community.regular.id,
      round_start: ROUND_START,
      started_at: STARTED_AT,
      community: community.community.id,
    });
    return { checkpoint: checkpoint.id, code: String(checkpoint.short_code), tour, walk };
  };
  const toursA = await tourWorld(a);
  const toursB = await tourWorld(b);
  const scanA = await make('checkpoint_scans', {
    walk: toursA.walk,
    checkpoint: toursA.checkpoint,
    officer: a.regular.id,
    scanned_at: SCANNED_AT,
    method: 'camera',
    community: a.community.id,
  });
  // Officer safety: regular A on duty, a panic of theirs, manager A responding.
  const shiftA = await make('duty_shifts', {
    officer: a.regular.id,
    started_at: STARTED_AT,
    community: a.community.id,
  });
  const alertA = await make('alerts', {
    officer: a.regular.id,
    kind: 'panic',
    raised_at: SCANNED_AT,
    community: a.community.id,
  });
  const eventA = await make('alert_events', {
    alert: alertA,
    by: a.manager.id,
    kind: 'responding',
    at: SCANNED_AT,
    community: a.community.id,
  });
  // One password sign-in per actor: the rate limiter allows 20 a minute.
  const pb: Record<Actor, PocketBase> = {
    anonymous: t.client(),
    'regular A': await t.signIn(a.regular.email),
    'manager A': await t.signIn(a.manager.email),
    'director A': await t.signIn(a.director.email),
    'director B': await t.signIn(b.director.email),
  };
  return {
    t,
    a,
    b,
    pb,
    seed: {
      houseA,
      houseA2,
      residentA,
      phoneA,
      concernA,
      reportA,
      callA,
      houseB,
      residentB,
      phoneB,
      checkpointA: toursA.checkpoint,
      checkpointCodeA: toursA.code,
      tourA: toursA.tour,
      walkA: toursA.walk,
      scanA,
      checkpointB: toursB.checkpoint,
      tourB: toursB.tour,
      walkB: toursB.walk,
      shiftA,
      alertA,
      eventA,
    },
  };
}

export interface Cell {
  collection: CollectionName;
  op: Op;
  actor: Actor;
  /** What is special about this cell, shown between the operation and the actor. */
  what?: string;
  /** create: the data (an id is added unless given); update: the change. Defaults: valid() and harmless(). */
  body?: (w: World) => Body;
  /** The record acted on. Defaults: the seeded A record for list and view, a fresh A record for update and delete. */
  target?: (w: World) => string | Promise<string>;
  expect: Outcome;
}

export function cellName(c: Cell): string {
  const outcome =
    c.expect === 'allowed' ? 'allowed' : c.expect === 'empty' ? 'denied (empty list)' : `denied (${c.expect})`;
  return `${c.collection} · ${c.op}${c.what ? ` ${c.what}` : ''} · ${c.actor} → ${outcome}`;
}

/** [test name, cell] rows for `test.each(...)('%s', ...)` (`$name` would quote and truncate the name). */
export function named(cells: Cell[]): [string, Cell][] {
  return cells.map((c) => [cellName(c), c]);
}

const seededOf: Record<CollectionName, (w: World) => string> = {
  communities: (w) => w.a.community.id,
  users: (w) => w.a.regular.id,
  houses: (w) => w.seed.houseA,
  residents: (w) => w.seed.residentA,
  phones: (w) => w.seed.phoneA,
  concerns: (w) => w.seed.concernA,
  reports: (w) => w.seed.reportA,
  calls: (w) => w.seed.callA,
  checkpoints: (w) => w.seed.checkpointA,
  tours: (w) => w.seed.tourA,
  tour_walks: (w) => w.seed.walkA,
  checkpoint_scans: (w) => w.seed.scanA,
  duty_shifts: (w) => w.seed.shiftA,
  alerts: (w) => w.seed.alertA,
  alert_events: (w) => w.seed.eventA,
};

/** The HTTP status of a request: 200 for any success, the error's status otherwise. */
async function statusOf(request: Promise<unknown>): Promise<number> {
  try {
    await request;
    return 200;
  } catch (error) {
    if (error instanceof ClientResponseError) return error.status;
    throw error;
  }
}

/** The record as the superuser sees it, or null when it does not exist. */
async function stored(w: World, collection: CollectionName, id: string): Promise<RecordModel | null> {
  try {
    return await w.t.admin.collection(collection).getOne(id);
  } catch (error) {
    if (error instanceof ClientResponseError && error.status === 404) return null;
    throw error;
  }
}

/** Every sent field (passwords are never returned) is what was stored. */
function expectStoredAs(record: RecordModel | null, body: Body): void {
  expect(record).not.toBeNull();
  for (const [key, value] of Object.entries(body)) {
    // A scan's code is checked, never stored (pocketbase/pb_hooks/lib/tours.js).
    if (key === 'password' || key === 'passwordConfirm' || key === 'code') continue;
    expect(record?.[key], key).toEqual(value);
  }
}

export async function runCell(w: World, c: Cell): Promise<void> {
  const col = w.pb[c.actor].collection(c.collection);
  const allowed = c.expect === 'allowed';
  const status = allowed ? 200 : c.expect;

  if (c.op === 'list') {
    const id = await (c.target ?? seededOf[c.collection])(w);
    const page = await col.getList(1, 10, { filter: w.t.admin.filter('id = {:id}', { id }) });
    expect(page.items.map((r) => r.id)).toEqual(allowed ? [id] : []);
    expect(page.totalItems).toBe(allowed ? 1 : 0);
    return;
  }
  if (c.op === 'view') {
    const id = await (c.target ?? seededOf[c.collection])(w);
    expect(await statusOf(col.getOne(id))).toBe(status);
    return;
  }
  if (c.op === 'create') {
    const body = { id: newId(), ...(c.body ? c.body(w) : valid(w, c.collection, c.actor)) };
    const id = String(body.id);
    const before = await stored(w, c.collection, id);
    if (allowed) expect(before).toBeNull();
    expect(await statusOf(col.create(body))).toBe(status);
    const after = await stored(w, c.collection, id);
    if (allowed) expectStoredAs(after, body);
    else expect(after).toEqual(before); // not created, or the existing record untouched
    return;
  }
  const id = await (c.target ?? ((world: World) => fresh(world, c.collection)))(w);
  const before = await stored(w, c.collection, id);
  expect(before).not.toBeNull();
  if (c.op === 'update') {
    const change = c.body ? c.body(w) : harmless(c.collection);
    expect(await statusOf(col.update(id, change))).toBe(status);
    const after = await stored(w, c.collection, id);
    if (allowed) expectStoredAs(after, change);
    else expect(after).toEqual(before);
    return;
  }
  expect(await statusOf(col.delete(id))).toBe(status);
  expect(await stored(w, c.collection, id)).toEqual(allowed ? null : before);
}
