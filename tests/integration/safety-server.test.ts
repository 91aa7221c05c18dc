/**
 * Officer safety on a real PocketBase: what the server adds to the API
 * rules (pocketbase/pb_hooks/lib/safety.js). An officer has one open shift
 * (a new one ends the one left open); their own end of a shift is said to
 * be theirs; a shift left open past the community's limit is ended by the
 * server at the limit, once, also when the job runs again; an alert names
 * the shift it was raised in; its first 'safe' or 'resolved' step ends it,
 * later steps only join its history. The safety settings are directors'
 * alone, one per community, with their limits checked. Who may do what on
 * shifts, alerts and steps is rules-crud's; their bad input is bad-input's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type PocketBase from 'pocketbase';
import { ClientResponseError } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensurePocketBase } from '../../scripts/pocketbase/install.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { newId, startTestServer, type TestServer } from '../support/pocketbase.ts';
import { buildWorld, type World } from '../support/rules-table.ts';

let t: TestServer;
let w: World;
let regular: PocketBase;
let manager: PocketBase;

const HOUR = 60 * 60 * 1000;
const ago = (hours: number) => pbDate(new Date(Date.now() - hours * HOUR));

beforeAll(async () => {
  t = await startTestServer();
  await t.admin.settings.update({ rateLimits: { enabled: false } });
  w = await buildWorld(t);
  regular = w.pb['regular A'];
  manager = w.pb['manager A'];
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

async function status(request: Promise<unknown>): Promise<{ status: number; data: Record<string, unknown> }> {
  try {
    await request;
    return { status: 200, data: {} };
  } catch (error) {
    if (error instanceof ClientResponseError)
      return { status: error.status, data: (error.response?.data ?? {}) as Record<string, unknown> };
    throw error;
  }
}

const shift = (officer: string, startedAt: string, community = w.a.community.id) => ({
  id: newId(),
  officer,
  started_at: startedAt,
  community,
});

describe('shifts', () => {
  test("an officer's end is theirs; a new shift ends the one they left open, at its start", async () => {
    const first = await manager.collection('duty_shifts').create(shift(w.a.manager.id, ago(3)));
    const second = await manager.collection('duty_shifts').create(shift(w.a.manager.id, ago(1)));
    const left = await t.admin.collection('duty_shifts').getOne(first.id);
    expect([left.ended_at, left.ended_by]).toEqual([second.started_at, 'new_shift']);
    const ended = await manager.collection('duty_shifts').update(second.id, { ended_at: ago(0) });
    expect(ended.ended_by).toBe('officer');
    // Once: an ended shift is not ended again.
    expect((await status(manager.collection('duty_shifts').update(second.id, { ended_at: ago(0) }))).status).toBe(404);
  });

  test("a shift open past the community's limit ends at the limit, once; a younger one stays open", async () => {
    await t.admin.collection('safety_settings').create({
      community: w.b.community.id,
      shift_limit_hours: 2,
      check_grace_minutes: 5,
    });
    // Community A keeps the default 14 hours; B has 2.
    const longA = await t.admin.collection('duty_shifts').create(shift(w.a.director.id, ago(15)));
    const youngA = await t.admin.collection('duty_shifts').create(shift(w.a.regular.id, ago(3)));
    const overB = await t.admin.collection('duty_shifts').create(shift(w.b.director.id, ago(3), w.b.community.id));
    const run = () => t.admin.send<{ ended: number }>('/api/scms/safety-jobs/run', { method: 'POST' });
    // The minute's cron may have ended them a moment before this run: what is checked is what was done.
    await run();
    const a = await t.admin.collection('duty_shifts').getOne(longA.id);
    expect(a.ended_by).toBe('limit');
    expect(Date.parse(a.ended_at.replace(' ', 'T')) - Date.parse(a.started_at.replace(' ', 'T'))).toBe(14 * HOUR);
    const b = await t.admin.collection('duty_shifts').getOne(overB.id);
    expect(b.ended_by).toBe('limit');
    expect(Date.parse(b.ended_at.replace(' ', 'T')) - Date.parse(b.started_at.replace(' ', 'T'))).toBe(2 * HOUR);
    expect((await t.admin.collection('duty_shifts').getOne(youngA.id)).ended_at).toBe('');
    // Again: nothing more to end, and the ended ones keep their end.
    expect((await run()).ended).toBe(0);
    expect((await t.admin.collection('duty_shifts').getOne(longA.id)).ended_at).toBe(a.ended_at);
  });
});

describe('alerts', () => {
  test('a panic names the shift it was raised in, and its first safe or resolved step ends it', async () => {
    const onDuty = await regular.collection('duty_shifts').create(shift(w.a.regular.id, ago(1)));
    const alert = await regular.collection('alerts').create({
      id: newId(),
      officer: w.a.regular.id,
      kind: 'panic',
      raised_at: ago(0),
      position: { latitude: 26.93, longitude: -80.09, accuracy: 12 },
      community: w.a.community.id,
    });
    expect(alert.shift).toBe(onDuty.id);
    expect(alert.ended_at).toBe('');
    const step = (pb: PocketBase, by: string, kind: string) =>
      pb.collection('alert_events').create({
        id: newId(),
        alert: alert.id,
        by,
        kind,
        at: ago(0),
        community: w.a.community.id,
      });
    await step(manager, w.a.manager.id, 'responding');
    expect((await t.admin.collection('alerts').getOne(alert.id)).ended_at).toBe('');
    const safe = await step(regular, w.a.regular.id, 'safe');
    const ended = await t.admin.collection('alerts').getOne(alert.id);
    expect([ended.ended_at, ended.ended_by, ended.end_kind]).toEqual([safe.at, w.a.regular.id, 'safe']);
    // A resolution after it ended joins the history; the end stays the officer's.
    await step(manager, w.a.manager.id, 'resolved');
    expect((await t.admin.collection('alerts').getOne(alert.id)).end_kind).toBe('safe');
    const history = await t.admin
      .collection('alert_events')
      .getFullList({ filter: t.admin.filter('alert = {:a}', { a: alert.id }), sort: 'created' });
    expect(history.map((event) => event.kind)).toEqual(['responding', 'safe', 'resolved']);
  });
});

describe('safety settings', () => {
  const settings = (community: string) => ({
    id: newId(),
    community,
    emergency_number: '+15615550911',
    shift_limit_hours: 12,
    check_minutes: 30,
    check_grace_minutes: 5,
  });

  test('directors alone save them, one per community; everyone of the community reads them', async () => {
    for (const actor of ['regular A', 'manager A', 'director B'] as const)
      expect((await status(w.pb[actor].collection('safety_settings').create(settings(w.a.community.id)))).status).toBe(
        400,
      );
    const saved = await w.pb['director A'].collection('safety_settings').create(settings(w.a.community.id));
    expect((await regular.collection('safety_settings').getOne(saved.id)).emergency_number).toBe('+15615550911');
    expect((await status(w.pb['director B'].collection('safety_settings').getOne(saved.id))).status).toBe(404);
    expect(
      (await status(w.pb['director A'].collection('safety_settings').create(settings(w.a.community.id)))).status,
    ).toBe(400);
    expect((await status(manager.collection('safety_settings').update(saved.id, { check_minutes: 0 }))).status).toBe(
      404,
    );
    const changed = await w.pb['director A'].collection('safety_settings').update(saved.id, { check_minutes: 0 });
    expect(changed.check_minutes).toBe(0);
    expect((await status(w.pb['director A'].collection('safety_settings').delete(saved.id))).status).toBe(403);
  });

  test.each([
    ['emergency_number', '911'],
    ['emergency_number', '+1561555'.padEnd(20, '0')],
    ['emergency_number', 5615550911],
    ['shift_limit_hours', 0],
    ['shift_limit_hours', 25],
    ['shift_limit_hours', 12.5],
    ['shift_limit_hours', '12'],
    ['check_minutes', 5],
    ['check_minutes', 241],
    ['check_grace_minutes', 0],
    ['check_grace_minutes', 61],
    ['community', 'x'.repeat(18)],
  ])('%s = %j is refused with its field, and nothing is stored', async (field, value) => {
    const body = { ...settings(w.b.community.id), [field]: value };
    const answer = await status(w.pb['director B'].collection('safety_settings').create(body));
    expect(answer.status).toBe(400);
    expect(answer.data[field], JSON.stringify(answer.data)).toBeDefined();
    expect((await status(t.admin.collection('safety_settings').getOne(body.id))).status).toBe(404);
  });
});

describe('the lone-worker check', () => {
  const MINUTE = 60 * 1000;
  const minutesAgo = (minutes: number) => pbDate(new Date(Date.now() - minutes * MINUTE));
  const run = () =>
    t.admin.send<{ ended: number; asked: number; raised: number }>('/api/scms/safety-jobs/run', { method: 'POST' });
  const missedOf = (shift: string) =>
    t.admin
      .collection('alerts')
      .getFullList({ filter: t.admin.filter('shift = {:s} && kind = "missed_check_in"', { s: shift }) });

  test('asks when due, raises a missed check-in after the grace, once, also after a restart; an answer moves the next check', async () => {
    const settings = await t.admin
      .collection('safety_settings')
      .getFirstListItem(t.admin.filter('community = {:c}', { c: w.b.community.id }));
    await t.admin.collection('safety_settings').update(settings.id, { check_minutes: 15, check_grace_minutes: 5 });
    const officerB = await t.signIn(w.b.regular.email);
    // Due 3 minutes ago, within the grace: asked, not raised.
    const due = await officerB
      .collection('duty_shifts')
      .create(shift(w.b.regular.id, minutesAgo(18), w.b.community.id));
    expect((await run()).raised).toBe(0);
    const asked = await t.admin.collection('notifications').getFullList({
      filter: t.admin.filter('user = {:u} && kind = "check_in_due"', { u: w.b.regular.id }),
    });
    expect(asked.map((n) => n.title)).toEqual(['Are you OK?']);
    expect(await missedOf(due.id)).toEqual([]);

    // The grace gone by (the shift started 25 minutes ago): one missed check-in, as a panic goes.
    await t.admin.collection('duty_shifts').update(due.id, { started_at: minutesAgo(25) });
    // This run or the minute's cron, whichever came first, raised it.
    await run();
    expect(await missedOf(due.id)).toHaveLength(1);
    const [missed] = await missedOf(due.id);
    expect([missed!.officer, missed!.ended_at, missed!.community]).toEqual([w.b.regular.id, '', w.b.community.id]);
    const told = await t.admin.collection('notifications').getFullList({
      filter: t.admin.filter('source = {:s} && kind = "missed_check_in"', { s: missed!.id }),
    });
    expect(told.map((n) => n.user)).toContain(w.b.director.id);
    expect(told.map((n) => n.user)).not.toContain(w.b.regular.id);

    // Again, and after a restart: nothing raised twice, nothing asked twice.
    const askedOf = () =>
      t.admin.collection('notifications').getFullList({
        filter: t.admin.filter('user = {:u} && kind = "check_in_due"', { u: w.b.regular.id }),
      });
    const askedBefore = (await askedOf()).length;
    expect((await run()).raised).toBe(0);
    await t.restart();
    expect((await run()).raised).toBe(0);
    expect(await missedOf(due.id)).toHaveLength(1);
    expect(await askedOf()).toHaveLength(askedBefore);

    // 'I'm OK': the officer's answer moves the next check a whole interval on.
    const answered = await (
      await t.signIn(w.b.regular.email)
    )
      .collection('duty_shifts')
      .update(due.id, { checked_at: minutesAgo(0) });
    expect(answered.checked_at).not.toBe('');
    expect(answered.ended_at).toBe('');
    const after = await run();
    expect(after.raised).toBe(0);
    expect(await missedOf(due.id)).toHaveLength(1);
  });

  test('a community without the check asks nothing', async () => {
    const officerA = await t.signIn(w.a.manager.email);
    const open = await officerA.collection('duty_shifts').create(shift(w.a.manager.id, minutesAgo(600)));
    await run();
    expect(await missedOf(open.id)).toEqual([]);
  });
});

describe('missed tour rounds', () => {
  /**
   * Dates a tour back (PocketBase sets `created` itself): a tour made now has
   * no missed round yet, its earlier rounds were never due. PocketBase's own
   * `migrate up` with a throwaway migration writes it into the running
   * server's database (SQLite takes the two processes' writes in turn).
   */
  async function backdateTour(id: string, created: string): Promise<void> {
    const folder = mkdtempSync(join(tmpdir(), 'scms-backdate-'));
    try {
      writeFileSync(
        join(folder, '1999999999_backdate_tour.js'),
        `migrate((app) => { app.db().newQuery("UPDATE tours SET created = {:c} WHERE id = {:id}").bind({ c: ${JSON.stringify(created)}, id: ${JSON.stringify(id)} }).execute(); });\n`,
      );
      const run = spawnSync(
        await ensurePocketBase(),
        ['migrate', 'up', `--dir=${t.dataDir}`, `--migrationsDir=${folder}`],
        {
          encoding: 'utf8',
        },
      );
      if (run.status !== 0) throw new Error(`backdating failed: ${run.stdout}${run.stderr}`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  test("each missed round of the shift is told once to the community's directors and managers", async () => {
    const tour = await t.admin.collection('tours').create({
      name: 'Quarter-hourly',
      checkpoints: [w.seed.checkpointA],
      start: '00:00',
      end: '23:45',
      every_minutes: 15,
      round_minutes: 5,
      active: true,
      community: w.a.community.id,
      created_by: w.a.director.id,
    });
    await backdateTour(tour.id, pbDate(new Date(Date.now() - 2 * 24 * HOUR)));
    const run = () => t.admin.send<{ missedRounds: number }>('/api/scms/safety-jobs/run', { method: 'POST' });
    const told = () =>
      t.admin.collection('notifications').getFullList({ filter: 'kind = "missed_round"', sort: 'created' });
    // This run or the cron, whichever came first, told them.
    await run();
    const first = await told();
    expect(first.length).toBeGreaterThan(0);
    const recipients = new Set(first.map((n) => n.user));
    expect(recipients.has(w.a.director.id)).toBe(true);
    expect(recipients.has(w.a.manager.id)).toBe(true);
    expect(recipients.has(w.b.director.id)).toBe(false);
    expect(first.every((n) => n.title === 'Missed round: Quarter-hourly' && n.url === '/tours')).toBe(true);
    // Again: nothing told twice.
    expect((await run()).missedRounds).toBe(0);
    expect((await told()).length).toBe(first.length);
  });
});
