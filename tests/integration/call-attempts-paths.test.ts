/**
 * Every path of a call job on a real PocketBase and the telephony
 * stand-in over real HTTP, each chosen by the number dialled (README,
 * "Telephony stand-in"): answered, voicemail (the message replaces the TwiML
 * after the beep), pressed 1 (acknowledged), invalid number, busy then
 * answered on retry, no answer after every retry then the next phone, the
 * text fallback, do-not-call, quiet hours; and callbacks with bad signatures
 * refused. Retries come due in "minutes" of one second
 * (SCMS_CALL_MINUTE_SECONDS); what the cron does every minute, the tests do
 * through POST /api/scms/call-jobs/run.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STANDIN_NUMBERS as N } from '../../scripts/standins/telephony.ts';
import { twilioSignature } from '../../scripts/standins/twilio-signature.ts';
import { DEFAULT_CALL_SETTINGS, quietHoursAt, quietHoursQuestion } from '../../src/domain/quietHours.ts';
import {
  attemptsOf,
  attemptSummary,
  communityWithCalls,
  quietHoursAway,
  runDue,
  startCallJobsWorld,
  TOKEN,
  waitForJob,
  waitForText,
  type CallJobsWorld,
  type CommunityWithCalls,
} from '../support/call-jobs.ts';

let w: CallJobsWorld;
let c: CommunityWithCalls;

beforeAll(async () => {
  w = await startCallJobsWorld();
  c = await communityWithCalls(w.t, 'paths', {
    retries: 1,
    retry_minutes: 1,
    text_fallback: true,
    ...quietHoursAway(12, 1),
  });
});

afterAll(async () => {
  await w?.stop();
});

const placed = async (houseId: string, extra: Record<string, unknown> = {}) => {
  const reply = await c.call(houseId, extra);
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return reply.json.call_id as string;
};
const dialsTo = (number: string) => w.standin.calls.filter((call) => call.to === number).length;

describe('one number, one attempt', () => {
  test('answered by a person: Answered, with its start, end and duration', async () => {
    const reply = await c.call(await c.home('1 Answer Rd', [{ number: N.answers, primary: true }]));
    expect(reply.json).toMatchObject({
      code: 200,
      message: 'Call placed to the resident',
      to_number: N.answers,
      skipped: [],
    });
    const callId = reply.json.call_id as string;
    const call = await waitForJob(w.t, callId);
    expect(call).toMatchObject({ progress: 'done', outcome: 'answered', acknowledged: false, status: 'completed' });
    const [attempt] = await attemptsOf(w.t, callId);
    expect(attempt).toMatchObject({
      sequence: 1,
      to_number: N.answers,
      phone_type: 'cell',
      state: 'ended',
      outcome: 'answered',
      answered_by: 'human',
      provider_status: 'completed',
    });
    expect(attempt!.provider_call_id).toMatch(/^CA[0-9a-f]{32}$/);
    expect(Date.parse(attempt!.started_at as string)).toBeLessThanOrEqual(Date.parse(attempt!.ended_at as string));
    expect(typeof attempt!.duration).toBe('number');
    // The provider got AMD in the background and the press-1 prompt after the script.
    const sent = w.standin.calls.find((s) => s.sid === attempt!.provider_call_id)!;
    expect(sent).toMatchObject({
      machineDetection: 'DetectMessageEnd',
      asyncAmd: true,
      asyncAmdStatusCallback: `${w.publicUrl}/api/scms/call-status/amd`,
    });
    expect(sent.twiml).toContain(
      '<Gather action="' + w.publicUrl + '/api/scms/call-status/gather" method="POST" numDigits="1"',
    );
    expect(sent.webhooks.map((h) => [h.kind, h.httpStatus])).toEqual([['amd', 204]]);
    expect((await w.t.admin.collection('houses').getOne(call.house as string)).pending_call_concerns_ids).toBe('');
  });

  test('a machine: Voicemail, the script alone played after the beep', async () => {
    const callId = await placed(await c.home('2 Machine Rd', [{ number: N.voicemail, primary: true }]));
    const call = await waitForJob(w.t, callId);
    expect(call).toMatchObject({ outcome: 'voicemail', acknowledged: false });
    expect(await attemptSummary(w.t, callId)).toEqual([[N.voicemail, 'ended', 'voicemail', false]]);
    const sent = w.standin.calls.find((s) => s.to === N.voicemail)!;
    expect(sent.answeredBy).toBe('machine_end_beep');
    expect(sent.updates).toEqual([`<Response><Say voice="alice">${call.script as string}</Say></Response>`]);
  });

  test('the resident presses 1: Acknowledged, on the attempt and the call', async () => {
    const callId = await placed(await c.home('3 Press Rd', [{ number: N.pressesOne, primary: true }]));
    const call = await waitForJob(w.t, callId);
    expect(call).toMatchObject({ outcome: 'answered', acknowledged: true });
    expect(await attemptSummary(w.t, callId)).toEqual([[N.pressesOne, 'ended', 'answered', true]]);
    const gather = w.standin.calls.find((s) => s.to === N.pressesOne)!.webhooks.find((h) => h.kind === 'gather')!;
    expect(gather.httpStatus).toBe(200);
    expect(gather.params.Digits).toBe('1');
  });

  test('a fax machine: Failed (it takes no message), hung up on, and the next phone called', async () => {
    const callId = await placed(
      await c.home('4a Fax Rd', [
        { number: N.fax, type: 'business', primary: true },
        { number: N.answers, type: 'home' },
      ]),
    );
    const call = await waitForJob(w.t, callId);
    expect(call.outcome).toBe('answered');
    expect((await attemptsOf(w.t, callId)).map((a) => [a.to_number, a.outcome, a.answered_by, a.reason])).toEqual([
      [N.fax, 'failed', 'fax', 'A fax machine answered.'],
      [N.answers, 'answered', 'human', ''],
    ]);
    expect(w.standin.calls.find((s) => s.to === N.fax)!.updates).toEqual(['<Response><Hangup/></Response>']);
  });

  test('an invalid number: Failed, and no text without a cell phone', async () => {
    const callId = await placed(await c.home('4 Invalid Rd', [{ number: N.invalid, type: 'home', primary: true }]));
    await waitForJob(w.t, callId);
    const call = await waitForText(w.t, callId);
    expect(call).toMatchObject({
      outcome: 'failed',
      status: 'failed',
      text_sent: true,
      error: 'No text message: the home has no cell phone that may be called.',
    });
    expect(await attemptSummary(w.t, callId)).toEqual([[N.invalid, 'ended', 'failed', false]]);
    expect(w.standin.messages.filter((m) => m.to === N.invalid)).toEqual([]);
  });
});

describe('retries and the next phone', () => {
  test('busy, then answered on the retry one "minute" later', async () => {
    const callId = await placed(await c.home('5 Retry Rd', [{ number: N.busyThenAnswers, primary: true }]));
    // The first attempt ends busy and the retry waits in the database.
    const waiting = await (async () => {
      for (let i = 0; i < 80; i++) {
        const attempts = await attemptsOf(w.t, callId);
        if (attempts.length === 2) return attempts;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no retry was scheduled');
    })();
    expect(waiting.map((a) => [a.outcome, a.state])).toEqual([
      ['busy', 'ended'],
      ['', 'scheduled'],
    ]);
    expect(
      Date.parse(waiting[1]!.due_at as string) - Date.parse(waiting[0]!.ended_at as string),
    ).toBeGreaterThanOrEqual(900);
    expect((await w.t.admin.collection('calls').getOne(callId)).progress).toBe('waiting');
    const call = await waitForJob(w.t, callId, { tick: true });
    expect(call.outcome).toBe('answered');
    expect(await attemptSummary(w.t, callId)).toEqual([
      [N.busyThenAnswers, 'ended', 'busy', false],
      [N.busyThenAnswers, 'ended', 'answered', false],
    ]);
    expect(dialsTo(N.busyThenAnswers)).toBe(2);
  });

  test('no answer after every retry, then the next phone (primary first, then cell, home, business)', async () => {
    const before = dialsTo(N.answers);
    const house = await c.home('6 Next Rd', [
      { number: N.answers, type: 'business' },
      { number: N.noAnswer, type: 'home', primary: true },
      { number: N.busy, type: 'home' },
    ]);
    const callId = await placed(house);
    const call = await waitForJob(w.t, callId, { tick: true });
    expect(call.outcome).toBe('answered');
    expect(await attemptSummary(w.t, callId)).toEqual([
      [N.noAnswer, 'ended', 'no_answer', false],
      [N.noAnswer, 'ended', 'no_answer', false],
      [N.busy, 'ended', 'busy', false],
      [N.busy, 'ended', 'busy', false],
      [N.answers, 'ended', 'answered', false],
    ]);
    expect(dialsTo(N.answers)).toBe(before + 1);
    expect(call.text_sent).toBe(false);
  });

  test('nobody reached: the script goes to the cell phone as a text message, once', async () => {
    const house = await c.home('7 Text Rd', [
      { number: N.busy, type: 'home', primary: true },
      { number: '+15615550177', type: 'cell', doNotCall: true },
      { number: N.noAnswer, type: 'cell' },
    ]);
    const callId = await placed(house);
    await waitForJob(w.t, callId, { tick: true });
    const call = await waitForText(w.t, callId);
    expect(call).toMatchObject({ outcome: 'no_answer', text_sent: true, error: '' });
    const texts = w.standin.messages.filter((m) => m.to === N.noAnswer);
    expect(texts.map((m) => m.body)).toEqual([call.script]);
    await runDue(w.t);
    expect(w.standin.messages.filter((m) => m.to === N.noAnswer)).toHaveLength(1);
  });
});

describe('a lost final callback', () => {
  test('15 "minutes" later the provider is asked how the call ended', async () => {
    const callId = await placed(await c.home('12 Lost Rd', [{ number: N.finalCallbackLost, primary: true }]));
    const sent = await (async () => {
      for (let i = 0; i < 100; i++) {
        const call = w.standin.calls.find((s) => s.to === N.finalCallbackLost);
        if (call?.status === 'completed') return call;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the stand-in call did not end');
    })();
    expect(sent.callbacks.map((cb) => cb.callStatus)).toEqual(['initiated', 'ringing', 'in-progress']);
    const [waiting] = await attemptsOf(w.t, callId);
    expect(waiting).toMatchObject({ state: 'placed', provider_status: 'in-progress' });
    expect((await runDue(w.t)).recovered).toBe(0);
    expect((await w.t.admin.collection('calls').getOne(callId)).progress).toBe('calling');

    expect(w.standin.lookups).not.toContain(sent.sid);

    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(waiting!.updated as string) + 15_500 - Date.now())));
    // The minute's cron may have asked first; either way the provider is asked once.
    await runDue(w.t);
    const call = await waitForJob(w.t, callId);
    expect(w.standin.lookups.filter((sid) => sid === sent.sid)).toHaveLength(1);
    expect(call).toMatchObject({ outcome: 'answered', status: 'completed' });
    expect(await attemptSummary(w.t, callId)).toEqual([[N.finalCallbackLost, 'ended', 'answered', false]]);
    expect((await w.t.admin.collection('houses').getOne(call.house as string)).pending_call_concerns_ids).toBe('');
  });
});

describe('do-not-call', () => {
  test('a do-not-call phone is skipped, with the reason, and the next one called', async () => {
    const reply = await c.call(
      await c.home('8 Wish Rd', [
        { number: '+15615550188', primary: true, doNotCall: true },
        { number: N.answers, type: 'home' },
      ]),
    );
    // The call sheet can say which number was called and which not, and why.
    expect(reply.json).toMatchObject({
      to_number: N.answers,
      skipped: [
        { to_number: '+15615550188', reason: 'Not called: the resident asked not to be called on this number.' },
      ],
    });
    const callId = reply.json.call_id as string;
    await waitForJob(w.t, callId);
    const attempts = await attemptsOf(w.t, callId);
    expect(attempts.map((a) => [a.to_number, a.state, a.outcome, a.reason])).toEqual([
      ['+15615550188', 'skipped', '', 'Not called: the resident asked not to be called on this number.'],
      [N.answers, 'ended', 'answered', ''],
    ]);
    expect(dialsTo('+15615550188')).toBe(0);
  });

  test('a home whose every phone is do-not-call is not called, and says why', async () => {
    const callsBefore = w.standin.calls.length;
    const reply = await c.call(
      await c.home('9 Quiet Rd', [{ number: '+15615550199', primary: true, doNotCall: true }]),
    );
    expect(reply.status).toBe(400);
    expect(reply.json.message).toBe("Not called: the resident asked not to be called on any of this home's numbers.");
    expect(w.standin.calls).toHaveLength(callsBefore);
  });
});

describe('quiet hours', () => {
  test('placing a call asks for an explicit yes with the local time; retries wait for their end', async () => {
    const q = await communityWithCalls(w.t, 'quiet', {
      retries: 1,
      retry_minutes: 1,
      text_fallback: false,
      ...quietHoursAway(-1, 3),
    });
    const house = await q.home('10 Night Rd', [{ number: N.busy, primary: true }]);
    const callsBefore = w.standin.calls.length;
    const asked = await q.call(house);
    const now = new Date();
    const local = `${String(now.getUTCHours()).padStart(2, '0')}:${String(now.getUTCMinutes()).padStart(2, '0')}`;
    expect(asked.status).toBe(409);
    expect(asked.json.message).toMatch(
      /^It is \d\d:\d\d for the resident, within the community's quiet hours \(\d\d:\d\d–\d\d:\d\d\)\. Call anyway\?$/,
    );
    const detail = (asked.json.data as Record<string, Record<string, string>>).override_quiet_hours!;
    expect(detail).toMatchObject({ code: 'confirm_quiet_hours', time_zone: 'UTC' });
    expect(
      Math.abs(
        Number(detail.local_time!.slice(0, 2)) * 60 +
          Number(detail.local_time!.slice(3)) -
          (Number(local.slice(0, 2)) * 60 + Number(local.slice(3))),
      ),
    ).toBeLessThanOrEqual(1);
    expect(w.standin.calls).toHaveLength(callsBefore);
    expect((await w.t.admin.collection('calls').getList(1, 1, { filter: `house = "${house}"` })).totalItems).toBe(0);
    expect((await q.call(house, { override_quiet_hours: 'yes' })).status).toBe(400);

    const callId = (await q.call(house, { override_quiet_hours: true })).json.call_id as string;
    expect(callId).toMatch(/^[a-z0-9]{15}$/);
    // Busy; the retry is due at the end of quiet hours, not a "minute" later.
    for (let i = 0; i < 80 && (await attemptsOf(w.t, callId)).length < 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    const [, retry] = await attemptsOf(w.t, callId);
    expect(retry).toMatchObject({ state: 'scheduled' });
    expect(Date.parse(retry!.due_at as string)).toBeGreaterThan(Date.now() + 50 * 60_000);
    await new Promise((r) => setTimeout(r, 1500));
    await runDue(w.t);
    expect((await attemptsOf(w.t, callId))[1]!.state).toBe('scheduled');
    expect(w.standin.calls).toHaveLength(callsBefore + 1);
    // The home stays with its one active job meanwhile.
    const again = await q.call(house, { override_quiet_hours: true });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('This home is already being called. Wait for that call to end.');
  });

  test('a community whose director saved no settings has the default quiet hours, 21:00–08:00 New York time', async () => {
    const d = await communityWithCalls(w.t, 'defaults', null);
    const house = await d.home('11 Default Rd', [{ number: N.answers, primary: true }]);
    // The same rule the server compiles in; which branch runs depends on the hour the test runs at.
    const expected = quietHoursAt(DEFAULT_CALL_SETTINGS, Date.now());
    const reply = await d.call(house);
    if (expected.quiet) {
      expect(reply.status).toBe(409);
      expect(reply.json.message).toBe(
        quietHoursQuestion({
          localTime: expected.localTime,
          quietStart: DEFAULT_CALL_SETTINGS.quietStart,
          quietEnd: DEFAULT_CALL_SETTINGS.quietEnd,
        }),
      );
      const detail = (reply.json.data as Record<string, Record<string, string>>).override_quiet_hours!;
      expect(detail.time_zone).toBe('America/New_York');
    } else {
      expect(reply.status).toBe(200);
    }
    // The caller's yes places it at any hour.
    if (expected.quiet) expect((await d.call(house, { override_quiet_hours: true })).status).toBe(200);
    const jobs = await w.t.admin.collection('calls').getFullList({ filter: `house = "${house}"` });
    expect(jobs).toHaveLength(1);
  });
});

describe('one active job per home', () => {
  test('two calls to a home at the same moment: one is placed, the other told why', async () => {
    const house = await c.home('13 Twice Rd', [{ number: N.answers, primary: true }]);
    const replies = await Promise.all([c.call(house), c.call(house)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(replies.find((r) => r.status === 409)!.json.message).toBe(
      'This home is already being called. Wait for that call to end.',
    );
    const jobs = await w.t.admin.collection('calls').getFullList({ filter: `house = "${house}"` });
    expect(jobs).toHaveLength(1);
    await waitForJob(w.t, jobs[0]!.id);
    // Once it is over, the home can be called again.
    expect((await c.call(house)).status).toBe(200);
  });
});

describe('callbacks', () => {
  test('AMD and key-press callbacks with bad signatures are refused and change nothing', async () => {
    const callId = await placed(await c.home('11 Forged Rd', [{ number: N.answers, primary: true }]));
    await waitForJob(w.t, callId);
    const [attempt] = await attemptsOf(w.t, callId);
    const sid = attempt!.provider_call_id as string;
    const post = (path: string, params: Record<string, string>, signature: string | null) =>
      fetch(`${w.t.url}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(signature === null ? {} : { 'X-Twilio-Signature': signature }),
        },
        body: new URLSearchParams(params).toString(),
      });
    const gather = { CallSid: sid, Digits: '1' };
    const amd = { CallSid: sid, AnsweredBy: 'machine_end_beep' };
    const forged: Array<[string, string, Record<string, string>, string | null]> = [
      ['gather unsigned', '/api/scms/call-status/gather', gather, null],
      [
        'gather other token',
        '/api/scms/call-status/gather',
        gather,
        twilioSignature('not-the-token', `${w.publicUrl}/api/scms/call-status/gather`, gather),
      ],
      [
        'gather signed for the status route',
        '/api/scms/call-status/gather',
        gather,
        twilioSignature(TOKEN, `${w.publicUrl}/api/scms/call-status`, gather),
      ],
      [
        'gather other digits',
        '/api/scms/call-status/gather',
        gather,
        twilioSignature(TOKEN, `${w.publicUrl}/api/scms/call-status/gather`, { ...gather, Digits: '2' }),
      ],
      ['amd unsigned', '/api/scms/call-status/amd', amd, null],
      [
        'amd other token',
        '/api/scms/call-status/amd',
        amd,
        twilioSignature('not-the-token', `${w.publicUrl}/api/scms/call-status/amd`, amd),
      ],
      [
        'amd signed for the gather route',
        '/api/scms/call-status/amd',
        amd,
        twilioSignature(TOKEN, `${w.publicUrl}/api/scms/call-status/gather`, amd),
      ],
    ];
    for (const [label, path, params, signature] of forged) {
      expect((await post(path, params, signature)).status, label).toBe(403);
    }
    expect(await w.t.admin.collection('call_attempts').getOne(attempt!.id)).toMatchObject({
      acknowledged: false,
      answered_by: 'human',
    });
    expect((await w.t.admin.collection('calls').getOne(callId)).acknowledged).toBe(false);
    // Signed properly, the same key press counts (the late one of a resident who pressed after the end).
    const ok = await post(
      '/api/scms/call-status/gather',
      gather,
      twilioSignature(TOKEN, `${w.publicUrl}/api/scms/call-status/gather`, gather),
    );
    expect(ok.status).toBe(200);
    expect((await w.t.admin.collection('calls').getOne(callId)).acknowledged).toBe(true);
  });

  test('only a superuser runs the due attempts by hand', async () => {
    const manager = await w.t.signIn(c.fixture.manager.email);
    const res = await fetch(`${w.t.url}/api/scms/call-jobs/run`, {
      method: 'POST',
      headers: { Authorization: manager.authStore.token },
    });
    expect(res.status).toBe(403);
    expect((await fetch(`${w.t.url}/api/scms/call-jobs/run`, { method: 'POST' })).status).toBe(403);
  });
});
