/**
 * The telephony stand-in's paths, on its own over real HTTP: the
 * path chosen by the number dialled (AMD verdict, keys pressed at the
 * <Gather>, busy, no answer, invalid, busy once then answered), updating a
 * live call's TwiML, and text messages (POST .../Messages.json) with
 * Twilio's error codes. The server's side of each path is in
 * tests/integration/call-attempts-paths.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  STANDIN_NUMBERS as N,
  startTelephonyStandin,
  type TelephonyStandin,
} from '../../scripts/standins/telephony.ts';
import { twilioSignature } from '../../scripts/standins/twilio-signature.ts';

const ACCOUNT = 'AC' + 'fedcba9876543210'.repeat(2);
const TOKEN = 'standin-paths-token';
const auth = 'Basic ' + Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64');

interface Hook {
  path: string;
  form: Record<string, string>;
  signatureOk: boolean;
}
let receiver: Server;
let base = '';
const hooks: Hook[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      const url = base + (req.url ?? '');
      hooks.push({
        path: req.url ?? '',
        form,
        signatureOk: req.headers['x-twilio-signature'] === twilioSignature(TOKEN, url, form),
      });
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end('<Response/>');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

let s: TelephonyStandin;
afterEach(async () => {
  await s?.stop();
  hooks.length = 0;
});

const post = async (path: string, form: Record<string, string>) => {
  const res = await fetch(`${s.url}/2010-04-01/Accounts/${ACCOUNT}${path}`, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

const twiml = `<Response><Say>Hello.</Say><Gather action="/gather" method="POST" numDigits="1"><Say>Press 1.</Say></Gather></Response>`;
const dial = (to: string) =>
  post('/Calls.json', {
    To: to,
    From: '+15615550100',
    Twiml: twiml,
    StatusCallback: `${base}/status`,
    MachineDetection: 'DetectMessageEnd',
    AsyncAmd: 'true',
    AsyncAmdStatusCallback: `${base}/amd`,
  });
const finals = () =>
  hooks.filter(
    (h) => h.path === '/status' && ['completed', 'busy', 'no-answer', 'failed'].includes(h.form.CallStatus ?? ''),
  );

describe('the path is chosen by the number dialled', () => {
  it.each([
    [N.answers, 'completed', 'human', false],
    [N.voicemail, 'completed', 'machine_end_beep', false],
    [N.pressesOne, 'completed', 'human', true],
    [N.busy, 'busy', null, false],
    [N.noAnswer, 'no-answer', null, false],
    [N.invalid, 'failed', null, false],
    ['+15615550199', 'completed', 'human', false],
  ] as const)('%s ends %s', async (to, final, answeredBy, presses) => {
    s = await startTelephonyStandin({ accountSid: ACCOUNT, authToken: TOKEN, stepDelayMs: 10 });
    expect((await dial(to)).status).toBe(201);
    await vi.waitFor(() => expect(finals()).toHaveLength(1), { timeout: 3000, interval: 10 });
    expect(finals()[0]!.form.CallStatus).toBe(final);
    const amd = hooks.filter((h) => h.path === '/amd');
    expect(amd.map((h) => h.form.AnsweredBy)).toEqual(answeredBy ? [answeredBy] : []);
    if (answeredBy) expect(finals()[0]!.form.AnsweredBy).toBe(answeredBy);
    // The <Gather>'s relative action resolves against the status callback's URL.
    expect(hooks.filter((h) => h.path === '/gather').map((h) => h.form.Digits)).toEqual(presses ? ['1'] : []);
    expect(hooks.every((h) => h.signatureOk)).toBe(true);
  });

  it('busy once, then answered', async () => {
    s = await startTelephonyStandin({ accountSid: ACCOUNT, authToken: TOKEN, stepDelayMs: 10 });
    await dial(N.busyThenAnswers);
    await vi.waitFor(() => expect(finals()).toHaveLength(1), { timeout: 3000, interval: 10 });
    await dial(N.busyThenAnswers);
    await vi.waitFor(() => expect(finals()).toHaveLength(2), { timeout: 3000, interval: 10 });
    expect(finals().map((h) => h.form.CallStatus)).toEqual(['busy', 'completed']);
  });

  it('without MachineDetection no verdict is sent', async () => {
    s = await startTelephonyStandin({ accountSid: ACCOUNT, authToken: TOKEN, stepDelayMs: 10 });
    await post('/Calls.json', {
      To: N.voicemail,
      From: '+15615550100',
      Twiml: twiml,
      StatusCallback: `${base}/status`,
    });
    await vi.waitFor(() => expect(finals()).toHaveLength(1), { timeout: 3000, interval: 10 });
    expect(hooks.filter((h) => h.path === '/amd')).toEqual([]);
    expect(finals()[0]!.form.AnsweredBy).toBeUndefined();
  });
});

describe('updating a live call and sending texts', () => {
  it("replaces a live call's TwiML; an ended or unknown call is refused", async () => {
    s = await startTelephonyStandin({ accountSid: ACCOUNT, authToken: TOKEN, stepDelayMs: 200 });
    const sid = String((await dial(N.answers)).json.sid);
    const update = await post(`/Calls/${sid}.json`, { Twiml: '<Response><Say>Hi.</Say></Response>' });
    expect(update.status).toBe(200);
    expect(s.calls[0]!.updates).toEqual(['<Response><Say>Hi.</Say></Response>']);
    expect((await post(`/Calls/${sid}.json`, {})).json.code).toBe(21205);
    expect((await post(`/Calls/CA${'0'.repeat(32)}.json`, { Twiml: '<Response/>' })).status).toBe(404);
    await vi.waitFor(() => expect(finals()).toHaveLength(1), { timeout: 3000, interval: 10 });
    const late = await post(`/Calls/${sid}.json`, { Twiml: '<Response/>' });
    expect([late.status, late.json.code]).toEqual([400, 21220]);
  });

  it('sends a text message, refusing what Twilio refuses', async () => {
    s = await startTelephonyStandin({ accountSid: ACCOUNT, authToken: TOKEN, stepDelayMs: 10 });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const sent = await post('/Messages.json', {
        To: N.noAnswer,
        From: '+15615550100',
        Body: 'Hello. Thank you. Good bye.',
      });
      expect(sent.status).toBe(201);
      expect(sent.json).toMatchObject({
        to: N.noAnswer,
        from: '+15615550100',
        body: 'Hello. Thank you. Good bye.',
        status: 'queued',
        direction: 'outbound-api',
      });
      expect(String(sent.json.sid)).toMatch(/^SM[0-9a-f]{32}$/);
      expect(s.messages.map((m) => m.body)).toEqual(['Hello. Thank you. Good bye.']);
      expect(log).toHaveBeenCalledWith(`telephony stand-in: text to ${N.noAnswer}: Hello. Thank you. Good bye.`);
    } finally {
      log.mockRestore();
    }
    const bad: Array<[Record<string, string>, number]> = [
      [{ From: '+15615550100', Body: 'x' }, 21604],
      [{ To: '5550104', From: '+15615550100', Body: 'x' }, 21211],
      [{ To: N.noAnswer, Body: 'x' }, 21603],
      [{ To: N.noAnswer, From: 'SCMS!', Body: 'x' }, 21212],
      [{ To: N.noAnswer, From: '+15615550100' }, 21602],
      [{ To: N.noAnswer, From: '+15615550100', Body: 'x'.repeat(1601) }, 21617],
    ];
    for (const [form, code] of bad) {
      const r = await post('/Messages.json', form);
      expect([r.status, r.json.code], JSON.stringify(form)).toEqual([400, code]);
    }
    expect(s.messages).toHaveLength(1);
  });

  it('refuses an unknown MachineDetection and a bad AMD callback URL', async () => {
    s = await startTelephonyStandin({ accountSid: ACCOUNT, authToken: TOKEN, stepDelayMs: 10 });
    const extras: Array<Record<string, string>> = [
      { MachineDetection: 'Maybe' },
      { MachineDetection: 'Enable', AsyncAmdStatusCallback: 'not a url' },
    ];
    for (const extra of extras) {
      const r = await post('/Calls.json', { To: N.answers, From: '+15615550100', Twiml: twiml, ...extra });
      expect([r.status, r.json.code]).toEqual([400, 21200]);
    }
    expect(s.calls).toHaveLength(0);
  });
});
