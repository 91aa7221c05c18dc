/**
 * Cancelling the retries of a call that waits for its next try
 * (POST /api/scms/call-retries/cancel, pb_hooks/lib/calls.js and
 * lib/call_jobs.js) on a real PocketBase and the telephony stand-in: a busy
 * number in quiet hours leaves the job waiting for their end; a director or
 * a manager stops it (an officer may not, another community's home is not
 * found, bad input is refused and changes nothing); the waiting attempt is
 * never dialled, the call keeps who cancelled and when, and the home can be
 * called again. And the migration that brings who and when goes down and up.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase, { type RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensurePocketBase } from '../../scripts/pocketbase/install.ts';
import { hooksDir, migrationsDir, startPocketBase } from '../../scripts/pocketbase/server.ts';
import { STANDIN_NUMBERS as N } from '../../scripts/standins/telephony.ts';
import {
  attemptsOf,
  communityWithCalls,
  quietHoursAway,
  runDue,
  startCallJobsWorld,
  type CallJobsWorld,
  type CommunityWithCalls,
} from '../support/call-jobs.ts';
import { createCommunity, raiseSignInLimits, SUPERUSER } from '../support/pocketbase.ts';

let w: CallJobsWorld;
let c: CommunityWithCalls;
let other: CommunityWithCalls;
const tokens: Record<'director' | 'manager' | 'regular' | 'otherManager', string> = {
  director: '',
  manager: '',
  regular: '',
  otherManager: '',
};

// Quiet hours now and for an hour or more: a busy first try's retry waits for their end.
const QUIET_NOW = { retries: 1, retry_minutes: 1, text_fallback: true, ...quietHoursAway(-1, 3) };

beforeAll(async () => {
  w = await startCallJobsWorld();
  await raiseSignInLimits(w.t.admin);
  c = await communityWithCalls(w.t, 'cancel', QUIET_NOW);
  other = await communityWithCalls(w.t, 'elsewhere', QUIET_NOW);
  const token = async (email: string) => (await w.t.signIn(email)).authStore.token;
  tokens.director = await token(c.fixture.director.email);
  tokens.manager = await token(c.fixture.manager.email);
  tokens.regular = await token(c.fixture.regular.email);
  tokens.otherManager = await token(other.fixture.manager.email);
});

afterAll(async () => {
  await w?.stop();
});

async function cancel(body: unknown, token: string | null): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${w.t.url}/api/scms/call-retries/cancel`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token === null ? {} : { Authorization: token }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A home whose call was busy and now waits for the end of quiet hours. → {house, callId} */
async function waitingCall(community: CommunityWithCalls, address: string): Promise<{ house: string; callId: string }> {
  const house = await community.home(address, [{ number: N.busy, primary: true, type: 'cell' }]);
  const placed = await community.call(house, { override_quiet_hours: true });
  expect(placed.status, JSON.stringify(placed.json)).toBe(200);
  const callId = placed.json.call_id as string;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const call = await w.t.admin.collection('calls').getOne(callId);
    if (call.progress === 'waiting') break;
    if (Date.now() > deadline) throw new Error(`the call never waited: ${JSON.stringify(call)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { house, callId };
}

const callOf = (id: string): Promise<RecordModel> => w.t.admin.collection('calls').getOne(id);

describe('who may cancel', () => {
  test('signed out: 401; an officer: 403; another community: 404; nothing changes', async () => {
    const { house, callId } = await waitingCall(c, '1 Waiting Rd');
    expect((await cancel({ h_id: house }, null)).status).toBe(401);
    const officer = await cancel({ h_id: house }, tokens.regular);
    expect(officer.status).toBe(403);
    expect(officer.json.message).toBe('Only a director or a manager can cancel the retries of a call.');
    const foreign = await cancel({ h_id: house }, tokens.otherManager);
    expect(foreign.status).toBe(404);
    expect(foreign.json.message).toBe('Home not found.');
    // The same answer as a home that does not exist.
    expect((await cancel({ h_id: 'a'.repeat(15) }, tokens.manager)).status).toBe(404);

    expect(await callOf(callId)).toMatchObject({ progress: 'waiting', retries_cancelled_by: '' });
    expect((await attemptsOf(w.t, callId)).map((a) => a.state)).toEqual(['ended', 'scheduled']);
  });

  test('malformed or oversized input: 400 (413 for the size) and nothing changes', async () => {
    const { house, callId } = await waitingCall(c, '2 Waiting Rd');
    const bad: Array<[unknown, number]> = [
      ['not json', 400],
      ['[]', 400],
      ['null', 400],
      [{}, 400],
      [{ h_id: 42 }, 400],
      [{ h_id: 'short' }, 400],
      [{ h_id: house.toUpperCase() }, 400],
      [{ h_id: `${house}"` }, 400],
      [{ h_id: house, extra: true }, 400],
      [{ h_id: house, pad: 'x'.repeat(20_000) }, 413],
    ];
    for (const [body, status] of bad) {
      const reply = await cancel(body, tokens.manager);
      expect(reply.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect(reply.json).toMatchObject({ error: true, code: status });
    }
    expect((await cancel({ h_id: 42 }, tokens.manager)).json.data).toMatchObject({
      h_id: { code: 'validation_invalid_value', message: 'h_id must be the id of a home.' },
    });
    expect(await callOf(callId)).toMatchObject({ progress: 'waiting', retries_cancelled_by: '' });
    expect((await attemptsOf(w.t, callId)).map((a) => a.state)).toEqual(['ended', 'scheduled']);
  });

  test('a home with no call waiting: 409, and it says why', async () => {
    const house = await c.home('3 Quiet Rd', [{ number: N.busy, primary: true }]);
    const reply = await cancel({ h_id: house }, tokens.director);
    expect(reply.status).toBe(409);
    expect(reply.json.message).toBe('This home has no call waiting to try again.');
  });
});

describe('a manager cancels', () => {
  test('the job stops with its last outcome, the retry is never dialled, history keeps who and when, and a new call can be placed', async () => {
    const { house, callId } = await waitingCall(c, '4 Waiting Rd');
    const refused = await c.call(house, { override_quiet_hours: true });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe('This home is already being called. Wait for that call to end.');
    const dialsBefore = w.standin.calls.length;

    const before = Date.now();
    const reply = await cancel({ h_id: house }, tokens.manager);
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json).toMatchObject({
      code: 200,
      message: 'Retries cancelled',
      call: { id: callId, progress: 'done' },
    });
    expect((reply.json.attempts as RecordModel[]).map((a) => a.state)).toEqual(['ended', 'skipped']);

    const call = await callOf(callId);
    expect(call).toMatchObject({
      progress: 'done',
      outcome: 'busy',
      retries_cancelled_by: c.fixture.manager.id,
      text_sent: false,
    });
    const at = Date.parse((call.retries_cancelled_at as string).replace(' ', 'T'));
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    const [, retry] = await attemptsOf(w.t, callId);
    expect(retry).toMatchObject({ state: 'skipped', reason: 'Not called: the retries were cancelled.' });
    // The home's pending call is over.
    expect((await w.t.admin.collection('houses').getOne(house)).pending_call_concerns_ids).toBe('');

    // The cron passes over it: nothing is dialled, even once the retry's time has come.
    await w.t.admin
      .collection('call_attempts')
      .update(retry!.id, { due_at: new Date(Date.now() - 1000).toISOString() });
    await runDue(w.t);
    expect(w.standin.calls).toHaveLength(dialsBefore);
    expect((await attemptsOf(w.t, callId))[1]!.state).toBe('skipped');
    // No text message either: a person chose to stop reaching the resident.
    expect(w.standin.messages).toHaveLength(0);

    // Nothing left to cancel; a new call can be placed.
    expect((await cancel({ h_id: house }, tokens.manager)).status).toBe(409);
    const again = await c.call(house, { override_quiet_hours: true });
    expect(again.status, JSON.stringify(again.json)).toBe(200);
  });

  test('a director may cancel too; their name is what the call keeps', async () => {
    const { house, callId } = await waitingCall(c, '5 Waiting Rd');
    expect((await cancel({ h_id: house }, tokens.director)).status).toBe(200);
    expect(await callOf(callId)).toMatchObject({ progress: 'done', retries_cancelled_by: c.fixture.director.id });
  });

  test('no one writes who cancelled through the records API', async () => {
    const { callId } = await waitingCall(other, '6 Waiting Rd');
    const res = await fetch(`${w.t.url}/api/collections/calls/records/${callId}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Authorization: tokens.otherManager },
      body: JSON.stringify({ progress: 'done', retries_cancelled_by: other.fixture.manager.id }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await callOf(callId)).toMatchObject({ progress: 'waiting', retries_cancelled_by: '' });
  });
});

// ---- the migration -----------------------------------------------------------------------------
const MIGRATION = '1765300000_call_retries_cancelled.js';
const FIELDS = ['retries_cancelled_by', 'retries_cancelled_at'];

/** Which of FIELDS the data folder's calls have as fields and as columns, asked inside PocketBase by a throwaway migration. */
async function probe(dataDir: string): Promise<{ fields: string[]; columns: string[] }> {
  const folder = mkdtempSync(join(tmpdir(), 'scms-cancel-probe-'));
  try {
    writeFileSync(
      join(folder, '1999999999_probe.js'),
      `migrate((app) => {
  const names = ${JSON.stringify(FIELDS)};
  const calls = app.findCollectionByNameOrId('calls');
  const rows = arrayOf(new DynamicModel({ name: '' }));
  app.db().newQuery("SELECT name FROM pragma_table_info('calls')").all(rows);
  const fields = names.filter((n) => !!calls.fields.getByName(n));
  const columns = names.filter((n) => rows.some((row) => row.name === n));
  throw new Error('ANSWER' + JSON.stringify({ fields: fields, columns: columns }) + 'END');
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
    return JSON.parse(found[1]!) as { fields: string[]; columns: string[] };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('the migration', () => {
  test('down removes who and when, keeping the calls; up brings the fields back, empty', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scms-pb-cancel-'));
    let server = await startPocketBase({ dataDir, superuser: SUPERUSER });
    try {
      const admin = new PocketBase(server.url);
      await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
      const f = await createCommunity(admin, 'cancelm');
      const house = await admin
        .collection('houses')
        .create({ address: '1 Down Rd', city: 'Jupiter', state: 'FL', zip: '33458', community: f.community.id });
      const call = await admin.collection('calls').create({
        house: house.id,
        community: f.community.id,
        to_number: N.busy,
        script: 'Your gate is open.',
        status: 'busy',
        progress: 'done',
        outcome: 'busy',
        created_by: f.manager.id,
        retries_cancelled_by: f.manager.id,
        retries_cancelled_at: '2026-11-20 10:00:00.000Z',
      });
      expect(call.retries_cancelled_by).toBe(f.manager.id);
      await server.stop();
      expect(await probe(dataDir)).toEqual({ fields: FIELDS, columns: FIELDS });

      // Back to the version before it: down every migration from this one on (a later one may exist).
      const count = readdirSync(migrationsDir).filter((file) => file.endsWith('.js') && file >= MIGRATION).length;
      const folders = [`--dir=${dataDir}`, `--migrationsDir=${migrationsDir}`, `--hooksDir=${hooksDir}`];
      execFileSync(await ensurePocketBase(), ['migrate', 'down', String(count), ...folders], {
        input: 'y\n',
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      expect(await probe(dataDir)).toEqual({ fields: [], columns: [] });

      server = await startPocketBase({ dataDir });
      const after = new PocketBase(server.url);
      await after.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
      expect(await after.collection('calls').getOne(call.id)).toMatchObject({
        outcome: 'busy',
        retries_cancelled_by: '',
        retries_cancelled_at: '',
      });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
