/**
 * Durable scheduling of call jobs: a retry lives in the database,
 * so a server restart between two attempts neither loses it nor dials twice;
 * PocketBase's own cron (cronAdd, every minute) dials it after the restart,
 * with nobody asking; an attempt the server was dialling when it stopped is
 * never dialled again, and the job goes on. Slow on purpose: it waits for
 * the cron's next minute.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { STANDIN_NUMBERS as N } from '../../scripts/standins/telephony.ts';
import {
  attemptsOf,
  attemptSummary,
  communityWithCalls,
  runDue,
  startCallJobsWorld,
  waitForJob,
  type CallJobsWorld,
  type CommunityWithCalls,
} from '../support/call-jobs.ts';

let w: CallJobsWorld;
let c: CommunityWithCalls;

beforeAll(async () => {
  w = await startCallJobsWorld();
  // Quiet hours from 00:00 to 00:00 are none; one retry 3 "minutes" (3 s) later.
  c = await communityWithCalls(w.t, 'restart', {
    retries: 1,
    retry_minutes: 3,
    text_fallback: false,
    quiet_start: '00:00',
    quiet_end: '00:00',
    time_zone: 'UTC',
  });
});

afterAll(async () => {
  await w?.stop();
});

const dialsTo = (number: string) => w.standin.calls.filter((call) => call.to === number).length;

test(
  'a restart between two attempts: the cron dials the retry once; an interrupted dial is not repeated',
  { timeout: 180_000 },
  async () => {
    const reply = await c.call(await c.home('1 Restart Rd', [{ number: N.busy, type: 'home', primary: true }]));
    expect(reply.status).toBe(200);
    const callId = reply.json.call_id as string;
    for (let i = 0; i < 80 && (await attemptsOf(w.t, callId)).length < 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await attemptsOf(w.t, callId)).map((a) => a.state)).toEqual(['ended', 'scheduled']);

    // An attempt caught between its claim and the provider's answer: the
    // server stopped while dialling (made by hand: a kill at that instant
    // cannot be timed from outside).
    const house = await c.home('2 Interrupted Rd', [
      { number: '+15615550166', primary: true },
      { number: N.answers, type: 'home' },
    ]);
    const phones = await w.t.admin.collection('phones').getFullList({ filter: `house = "${house}"`, sort: '-primary' });
    const stuck = await w.t.admin.collection('calls').create({
      house,
      community: c.fixture.community.id,
      concerns: [c.concernId],
      to_number: '+15615550166',
      script: 'Hello. Thank you. Good bye.',
      status: 'queued',
      progress: 'calling',
      created_by: c.fixture.manager.id,
    });
    const interrupted = await w.t.admin.collection('call_attempts').create({
      call: stuck.id,
      house,
      community: c.fixture.community.id,
      sequence: 1,
      phone: phones[0]!.id,
      to_number: '+15615550166',
      phone_type: 'cell',
      state: 'dialling',
    });
    const interruptedAt = Date.now();

    await w.t.restart();
    expect(dialsTo(N.busy)).toBe(1);

    // Nobody runs the jobs by hand: the cron's next minute dials the retry.
    const call = await waitForJob(w.t, callId, { timeoutMs: 75_000 });
    expect(call).toMatchObject({ progress: 'done', outcome: 'busy' });
    expect(await attemptSummary(w.t, callId)).toEqual([
      [N.busy, 'ended', 'busy', false],
      [N.busy, 'ended', 'busy', false],
    ]);
    expect(dialsTo(N.busy)).toBe(2);
    await runDue(w.t);
    await runDue(w.t);
    expect(dialsTo(N.busy)).toBe(2);

    // A minute after it was claimed, the interrupted attempt is ended as failed
    // (by this run, or by the cron if its minute came first), never dialled,
    // and the job goes on to the next phone.
    await new Promise((r) => setTimeout(r, Math.max(0, interruptedAt + 62_000 - Date.now())));
    await runDue(w.t);
    const done = await waitForJob(w.t, stuck.id, { tick: true });
    expect(done.outcome).toBe('answered');
    const ended = await w.t.admin.collection('call_attempts').getOne(interrupted.id);
    expect(ended).toMatchObject({
      state: 'ended',
      outcome: 'failed',
      reason:
        'The server stopped while placing this call; it was not dialled again, so the resident is never called twice.',
    });
    expect(dialsTo('+15615550166')).toBe(0);
    expect((await attemptSummary(w.t, stuck.id)).map(([number, , outcome]) => [number, outcome])).toEqual([
      ['+15615550166', 'failed'],
      [N.answers, 'answered'],
    ]);
  },
);
