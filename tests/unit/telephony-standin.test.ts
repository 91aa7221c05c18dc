import { loadHookLib } from '../support/hook-lib.ts';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildHookLibs } from '../../scripts/pocketbase/hook-libs.ts';
import { startTelephonyStandin, type TelephonyStandin } from '../../scripts/standins/telephony.ts';

const ACCOUNT = 'AC' + '0123456789abcdef'.repeat(2);
const TOKEN = 'standin-auth-token';
const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Alert at gate 2</Say></Response>';

// The goja lib the PocketBase hook validates callbacks with (built from
// pocketbase/hook-src/twilioSignature.ts before it is loaded).
type Validate = (token: string, url: string, params: Record<string, string | string[]>, sig: unknown) => boolean;
await buildHookLibs();
const { validTwilioSignature } = loadHookLib<{ validTwilioSignature: Validate }>('generated/twilio_signature.js');

interface Received {
  method: string;
  url: string; // absolute, as requested
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

/** A local webhook receiver; /fail answers 500 to everything. */
let receiver: Server;
let receiverBase = '';
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: receiverBase + (req.url ?? ''),
        headers: req.headers,
        form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(req.url?.startsWith('/fail') ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const standins: TelephonyStandin[] = [];
afterEach(async () => {
  await Promise.all(standins.splice(0).map((s) => s.stop()));
  received.length = 0;
});

async function start(
  opts: { finalStatus?: 'completed' | 'busy' | 'no-answer' | 'failed' } = {},
): Promise<TelephonyStandin> {
  const s = await startTelephonyStandin({ port: 0, accountSid: ACCOUNT, authToken: TOKEN, stepDelayMs: 20, ...opts });
  standins.push(s);
  return s;
}

const basic = (user: string, pass: string): string => 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64');

async function createCall(
  base: string,
  form: Record<string, string | string[]>,
  opts: { auth?: string | null; account?: string; contentType?: string; body?: string } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) params.append(k, one);
  const headers: Record<string, string> = { 'Content-Type': opts.contentType ?? 'application/x-www-form-urlencoded' };
  const auth = opts.auth === undefined ? basic(ACCOUNT, TOKEN) : opts.auth;
  if (auth !== null) headers.Authorization = auth;
  const res = await fetch(`${base}/2010-04-01/Accounts/${opts.account ?? ACCOUNT}/Calls.json`, {
    method: 'POST',
    headers,
    body: opts.body ?? params.toString(),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const goodCall = { To: '+27821234567', From: '+27215550100', Twiml: TWIML };

/** Waits until `n` callbacks arrived, then a little more to catch extras. */
async function callbacks(n: number): Promise<Received[]> {
  await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(n), { timeout: 3000, interval: 10 });
  await new Promise((r) => setTimeout(r, 100));
  return received;
}

describe('telephony stand-in: Calls.json errors', () => {
  it('answers 401 / 20003 without or with wrong basic auth', async () => {
    const s = await start();
    for (const auth of [null, basic(ACCOUNT, 'wrong'), basic('ACother', TOKEN), 'Bearer x']) {
      const r = await createCall(s.url, goodCall, { auth });
      expect(r.status, String(auth)).toBe(401);
      expect(r.json).toEqual({
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      });
    }
    expect(s.calls).toHaveLength(0);
  });

  it('answers 404 / 20404 for another account in the path and for unknown paths', async () => {
    const s = await start();
    const r = await createCall(s.url, goodCall, { account: 'AC' + 'f'.repeat(32) });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe(20404);
    const unknown = await fetch(`${s.url}/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, {
      headers: { Authorization: basic(ACCOUNT, TOKEN) },
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: number }).code).toBe(20404);
  });

  it('answers 405 for a method other than POST on Calls.json', async () => {
    const s = await start();
    const r = await fetch(`${s.url}/2010-04-01/Accounts/${ACCOUNT}/Calls.json`, {
      method: 'DELETE',
      headers: { Authorization: basic(ACCOUNT, TOKEN) },
    });
    expect(r.status).toBe(405);
    expect(((await r.json()) as { code: number }).code).toBe(20004);
  });

  it("validates like Twilio, with Twilio's error codes", async () => {
    const s = await start();
    const cases: Array<[Record<string, string>, number, string | RegExp]> = [
      [{ ...goodCall, To: '0821234567' }, 21211, "The 'To' number 0821234567 is not a valid phone number."],
      [{ ...goodCall, To: '+0821234567' }, 21211, /not a valid phone number/],
      [{ From: goodCall.From, Twiml: TWIML }, 21201, /'To'/],
      [{ To: goodCall.To, Twiml: TWIML }, 21213, /'From'/],
      [{ ...goodCall, From: 'gatehouse' }, 21212, /'From'/],
      [{ To: goodCall.To, From: goodCall.From }, 21205, 'Url parameter is required.'],
      [{ ...goodCall, Url: 'https://example.test/twiml' }, 21205, /Url/],
      [{ ...goodCall, Twiml: 'Alert at gate 2' }, 12100, /TwiML/],
      [{ ...goodCall, Twiml: `<Response><Say>${'a'.repeat(4000)}</Say></Response>` }, 32018, /4000/],
      [{ ...goodCall, StatusCallback: 'not a url' }, 21609, /StatusCallback/],
    ];
    for (const [form, code, message] of cases) {
      const r = await createCall(s.url, form);
      expect(r.status, JSON.stringify(form).slice(0, 80)).toBe(400);
      expect(r.json).toMatchObject({ code, status: 400, more_info: `https://www.twilio.com/docs/errors/${code}` });
      expect(r.json.message).toMatch(message);
    }
    expect(s.calls).toHaveLength(0);
  });

  it('rejects a body that is not form-encoded', async () => {
    const s = await start();
    const r = await createCall(s.url, {}, { contentType: 'application/json', body: JSON.stringify(goodCall) });
    expect(r.status).toBe(400);
    expect(s.calls).toHaveLength(0);
  });
});

describe('telephony stand-in: a call', () => {
  it('creates the call: 201 and a Twilio Call resource', async () => {
    const s = await start();
    const r = await createCall(s.url, goodCall);
    expect(r.status).toBe(201);
    const sid = r.json.sid as string;
    expect(sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(r.json).toMatchObject({
      account_sid: ACCOUNT,
      to: goodCall.To,
      from: goodCall.From,
      status: 'queued',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      uri: `/2010-04-01/Accounts/${ACCOUNT}/Calls/${sid}.json`,
      duration: null,
      price: null,
      start_time: null,
    });
    expect(r.json.date_created).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0]).toMatchObject({ sid, to: goodCall.To, from: goodCall.From, twiml: TWIML, statusCallback: null });
  });

  it('sends signed status callbacks in order: initiated, ringing, in-progress, completed', async () => {
    const s = await start();
    const callbackUrl = `${receiverBase}/api/twilio/status?alert=a1b2`;
    const r = await createCall(s.url, {
      ...goodCall,
      StatusCallback: callbackUrl,
      StatusCallbackEvent: 'initiated ringing answered completed',
    });
    expect(r.status).toBe(201);

    const got = await callbacks(4);
    expect(got.map((c) => c.form.get('CallStatus'))).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
    expect(got.map((c) => c.form.get('SequenceNumber'))).toEqual(['0', '1', '2', '3']);
    for (const c of got) {
      expect(c.method).toBe('POST');
      expect(c.url).toBe(callbackUrl);
      expect(c.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(c.headers['user-agent']).toBe('TwilioProxy/1.1');
      expect(c.form.get('CallSid')).toBe(r.json.sid);
      expect(c.form.get('AccountSid')).toBe(ACCOUNT);
      expect(c.form.get('To')).toBe(goodCall.To);
      expect(c.form.get('From')).toBe(goodCall.From);
      expect(c.form.get('Direction')).toBe('outbound-api');
      expect(c.form.get('ApiVersion')).toBe('2010-04-01');
      expect(c.form.get('Timestamp')).toMatch(/\+0000$/);
      expect(c.form.has('CallDuration')).toBe(c.form.get('CallStatus') === 'completed');

      // The signature covers the exact URL and every param received.
      const params = Object.fromEntries(c.form);
      const signature = c.headers['x-twilio-signature'];
      expect(validTwilioSignature(TOKEN, callbackUrl, params, signature)).toBe(true);
      expect(validTwilioSignature('other-token', callbackUrl, params, signature)).toBe(false);
      expect(validTwilioSignature(TOKEN, `${receiverBase}/api/twilio/status?alert=zzzz`, params, signature)).toBe(
        false,
      );
      expect(validTwilioSignature(TOKEN, callbackUrl, { ...params, CallStatus: 'busy' }, signature)).toBe(false);
    }

    const call = s.calls[0];
    expect(call?.statuses).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
    const state = await fetch(`${s.url}/2010-04-01/Accounts/${ACCOUNT}/Calls/${String(r.json.sid)}.json`, {
      headers: { Authorization: basic(ACCOUNT, TOKEN) },
    });
    expect(state.status).toBe(200);
    expect(await state.json()).toMatchObject({ sid: r.json.sid, status: 'completed' });
  });

  it('accepts StatusCallbackEvent repeated, as the SDKs send it', async () => {
    const s = await start();
    await createCall(s.url, {
      ...goodCall,
      StatusCallback: `${receiverBase}/cb`,
      StatusCallbackEvent: ['ringing', 'completed'],
    });
    const got = await callbacks(2);
    expect(got.map((c) => c.form.get('CallStatus'))).toEqual(['ringing', 'completed']);
  });

  it('sends no final status when completed is not among the events', async () => {
    const s = await start();
    await createCall(s.url, {
      ...goodCall,
      StatusCallback: `${receiverBase}/cb`,
      StatusCallbackEvent: 'initiated answered',
    });
    const got = await callbacks(2);
    await vi.waitFor(() => expect(s.calls[0]?.status).toBe('completed'), { timeout: 1000, interval: 10 });
    await new Promise((r) => setTimeout(r, 50));
    expect(got.map((c) => c.form.get('CallStatus'))).toEqual(['initiated', 'in-progress']);
  });

  it('without StatusCallbackEvent sends only the final status', async () => {
    const s = await start();
    await createCall(s.url, { ...goodCall, StatusCallback: `${receiverBase}/cb` });
    const got = await callbacks(1);
    expect(got.map((c) => c.form.get('CallStatus'))).toEqual(['completed']);
    expect(got[0]?.form.get('SequenceNumber')).toBe('0');
  });

  it('reports the configured final status (busy) without ever answering', async () => {
    const s = await start({ finalStatus: 'busy' });
    await createCall(s.url, {
      ...goodCall,
      StatusCallback: `${receiverBase}/cb`,
      StatusCallbackEvent: 'initiated ringing answered completed',
    });
    const got = await callbacks(3);
    expect(got.map((c) => c.form.get('CallStatus'))).toEqual(['initiated', 'ringing', 'busy']);
    expect(got[2]?.form.has('CallDuration')).toBe(false);
  });

  it('retries a failing callback at most twice, then moves on', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const s = await start();
      await createCall(s.url, {
        ...goodCall,
        StatusCallback: `${receiverBase}/fail`,
        StatusCallbackEvent: 'ringing completed',
      });
      const got = await callbacks(6);
      expect(got.map((c) => c.form.get('CallStatus'))).toEqual([
        'ringing',
        'ringing',
        'ringing',
        'completed',
        'completed',
        'completed',
      ]);
      expect(s.calls[0]?.callbacks.map((c) => [c.callStatus, c.attempts, c.httpStatus])).toEqual([
        ['ringing', 3, 500],
        ['completed', 3, 500],
      ]);
      expect(stderr).toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
  });

  it('stop() cancels the callbacks still pending', async () => {
    const s = await start();
    await createCall(s.url, {
      ...goodCall,
      StatusCallback: `${receiverBase}/cb`,
      StatusCallbackEvent: 'initiated ringing answered completed',
    });
    await s.stop();
    await new Promise((r) => setTimeout(r, 150));
    expect(received).toHaveLength(0);
  });
});
