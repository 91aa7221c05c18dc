/**
 * Every operation on every collection as every actor: anonymous, a regular,
 * a manager and a director of community A, and a director of community B,
 * all acting on records of community A.
 */
import { afterAll, beforeAll, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/pocketbase.ts';
import {
  ACTORS,
  COLLECTIONS,
  OPS,
  buildWorld,
  named,
  runCell,
  type Actor,
  type Cell,
  type CollectionName,
  type Op,
  type Outcome,
  type World,
} from '../support/rules-table.ts';

const STAFF_A: Actor[] = ['regular A', 'manager A', 'director A'];
const DIRECTOR_A: Actor[] = ['director A'];
const MANAGERS_A: Actor[] = ['manager A', 'director A'];
const NOBODY: Actor[] = [];

/** Who may do what on a record of community A (docs/product.md#who-may-do-what); everyone else is refused. */
const MAY: Record<CollectionName, Record<Op, Actor[]>> = {
  communities: { list: STAFF_A, view: STAFF_A, create: NOBODY, update: NOBODY, delete: NOBODY },
  users: { list: STAFF_A, view: STAFF_A, create: DIRECTOR_A, update: DIRECTOR_A, delete: DIRECTOR_A },
  houses: { list: STAFF_A, view: STAFF_A, create: STAFF_A, update: STAFF_A, delete: DIRECTOR_A },
  residents: { list: STAFF_A, view: STAFF_A, create: STAFF_A, update: STAFF_A, delete: STAFF_A },
  phones: { list: STAFF_A, view: STAFF_A, create: STAFF_A, update: STAFF_A, delete: STAFF_A },
  concerns: { list: STAFF_A, view: STAFF_A, create: DIRECTOR_A, update: DIRECTOR_A, delete: DIRECTOR_A },
  reports: { list: STAFF_A, view: STAFF_A, create: STAFF_A, update: DIRECTOR_A, delete: DIRECTOR_A },
  calls: { list: STAFF_A, view: STAFF_A, create: NOBODY, update: NOBODY, delete: NOBODY },
  checkpoints: { list: STAFF_A, view: STAFF_A, create: MANAGERS_A, update: MANAGERS_A, delete: MANAGERS_A },
  tours: { list: STAFF_A, view: STAFF_A, create: MANAGERS_A, update: MANAGERS_A, delete: MANAGERS_A },
  // A fresh walk is director A's own (rules-table.ts: fresh): only its officer ends it, and no one deletes one.
  tour_walks: { list: STAFF_A, view: STAFF_A, create: STAFF_A, update: DIRECTOR_A, delete: NOBODY },
  // Write-once, on one's own open walk (the seeded walk is regular A's).
  checkpoint_scans: { list: STAFF_A, view: STAFF_A, create: ['regular A'], update: NOBODY, delete: NOBODY },
  // A fresh shift is director A's own: only its officer ends it; no one deletes one.
  duty_shifts: { list: STAFF_A, view: STAFF_A, create: STAFF_A, update: DIRECTOR_A, delete: NOBODY },
  // Each raises their own panic; an alert ends through its steps only (alert_events).
  alerts: { list: STAFF_A, view: STAFF_A, create: STAFF_A, update: NOBODY, delete: NOBODY },
  // Anyone of the community responds; steps are written once.
  alert_events: { list: STAFF_A, view: STAFF_A, create: STAFF_A, update: NOBODY, delete: NOBODY },
};

/** Operations no API rule allows at all (a null rule): refused with 403 whoever asks. */
const LOCKED: Partial<Record<CollectionName, Op[]>> = {
  communities: ['create', 'update', 'delete'],
  calls: ['create', 'update', 'delete'],
  tour_walks: ['delete'],
  checkpoint_scans: ['update', 'delete'],
  duty_shifts: ['delete'],
  alerts: ['update', 'delete'],
  alert_events: ['update', 'delete'],
};

/**
 * How PocketBase refuses: a list rule filters records out; a failed create
 * rule is a 400; view, update and delete cannot find a record their rule
 * hides (404); a locked (null) rule is 403 for anyone but the superuser.
 */
function refusal(collection: CollectionName, op: Op): Outcome {
  if (op === 'list') return 'empty';
  if (op === 'view') return 404;
  if (LOCKED[collection]?.includes(op)) return 403;
  return op === 'create' ? 400 : 404;
}

const cells: Cell[] = COLLECTIONS.flatMap((collection) =>
  OPS.flatMap((op) =>
    ACTORS.map((actor): Cell => ({
      collection,
      op,
      actor,
      expect: MAY[collection][op].includes(actor) ? 'allowed' : refusal(collection, op),
    })),
  ),
);

let t: TestServer;
let w: World;
beforeAll(async () => {
  t = await startTestServer();
  w = await buildWorld(t);
});
afterAll(async () => {
  await t?.stop();
});

test.each(named(cells))('%s', async (_name, cell) => {
  await runCell(w, cell);
});
