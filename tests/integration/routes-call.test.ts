/**
 * POST /api/scms/call-resident and POST /api/scms/call-status against a real
 * PocketBase and the Twilio-compatible stand-in, over real HTTP: the call is
 * placed, the stand-in posts signed status callbacks, and the hooks move the
 * call record along and clear the house's pending concerns.
 *
 * The rate limiter is on (60 /api/scms/ requests a minute per client IP, the
 * stand-in's callbacks included), so the file keeps its request count low.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type PocketBase from 'pocketbase';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { freePort } from '../../scripts/pocketbase/server.ts';
import { startTelephonyStandin, type TelephonyStandin } from '../../scripts/standins/telephony.ts';
import { twilioSignature } from '../../scripts/standins/twilio-signature.ts';
import { LIMIT_EXCEEDED_MESSAGE } from '../../src/domain/callScript.ts';
import { settingsAwayFromQuietHours } from '../support/call-jobs.ts';
import { createCommunity, startTestServer, type TestServer } from '../support/pocketbase.ts';

const SID = 'AC' + 'a1b2c3d4e5f60718'.repeat(2);
const TOKEN = 'routes-call-auth-token';
const FROM = '+15615550100';

interface Reply {
  status: number;
  contentType: string;
  text: string;
  json: Record<string, unknown> | null;
}

async function send(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (the TwiML answer of the status callback)
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json };
}

/** POSTs `body` (an object is JSON-encoded, a string is sent as it is). */
function postJson(baseUrl: string, path: string, body: unknown, token?: string): Promise<Reply> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = token;
  return send(`${baseUrl}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * A pass-through HTTP proxy standing for the server's public address. The
 * provider signs the exact StatusCallback URL, which is built from
 * SCMS_PUBLIC_URL; the harness picks PocketBase's port itself, so the public
 * URL is this proxy's, known before PocketBase starts — as in production,
 * where PocketBase sits behind a reverse proxy.
 */
async function startFrontProxy(): Promise<{
  url: string;
  setTarget: (url: string) => void;
  stop: () => Promise<void>;
}> {
  let target: URL | null = null;
  const server: Server = createServer((req, res) => {
    if (!target) {
      res.writeHead(503).end();
      return;
    }
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setTarget: (url) => {
      target = new URL(url);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

/** Seeds what a call needs: concerns, a house with phones, a signed-in manager. */
async function seedCommunity(t: TestServer, slug: string, name: string) {
  const fixture = await createCommunity(t.admin, slug, name);
  // Calls go through at any hour the test runs (without settings, 21:00–08:00 New York is quiet).
  await t.admin.collection('call_settings').create(settingsAwayFromQuietHours(fixture.community.id));
  const concern = (n: number, say: string) =>
    t.admin.collection('concerns').create({
      name: `Concern ${n}`,
      hint: `Hint ${n}`,
      say,
      added_by: fixture.director.id,
      community: fixture.community.id,
    });
  const concerns = [
    await concern(1, '<p>Your garage door is open.</p>'),
    await concern(2, '<p>Packages &amp; mail</p><p>are at the gate.</p>'),
    await concern(3, 'A <strong>vehicle</strong> is parked on the lawn.'),
    await concern(4, 'Your sprinklers are running.'),
  ];
  const house = (address: string) =>
    t.admin
      .collection('houses')
      .create({ address, city: 'Jupiter', state: 'FL', zip: '33458', community: fixture.community.id });
  const phoned = await house('1 Ocean Dr');
  await t.admin
    .collection('phones')
    .create({ phone_number: '+15615550111', primary: false, type: 'home', house: phoned.id });
  await t.admin
    .collection('phones')
    .create({ phone_number: '+15615550122', primary: true, type: 'cell', house: phoned.id });
  const noPhone = await house('2 Ocean Dr');
  const oneHomePhone = await house('3 Ocean Dr');
  await t.admin
    .collection('phones')
    .create({ phone_number: '+15615550133', primary: false, type: 'home', house: oneHomePhone.id });
  return {
    fixture,
    concerns: concerns.map((c) => ({ id: c.id, name: c.name as string })),
    houses: { phoned: phoned.id, noPhone: noPhone.id, oneHomePhone: oneHomePhone.id },
  };
}

type Seeded = Awaited<ReturnType<typeof seedCommunity>>;

function concernList(seeded: Seeded, count: number) {
  return seeded.concerns.slice(0, count).map((c) => ({ id: c.id, name: c.name, selected: true }));
}

describe('with the telephony provider configured', () => {
  let t: TestServer;
  let standin: TelephonyStandin;
  let proxy: Awaited<ReturnType<typeof startFrontProxy>>;
  let a: Seeded;
  let b: Seeded;
  let manager: PocketBase;
  let token = '';

  const callCount = async () => (await t.admin.collection('calls').getList(1, 1)).totalItems;
  const pendingOf = async (houseId: string) =>
    (await t.admin.collection('houses').getOne(houseId)).pending_call_concerns_ids as string;
  const callResident = (body: unknown, auth = token) => postJson(t.url, '/api/scms/call-resident', body, auth);

  /** A status callback as the provider sends it, signed over `signedUrl`. */
  const callback = (
    params: Record<string, string>,
    options: {
      authToken?: string;
      signedUrl?: string;
      signedParams?: Record<string, string>;
      signature?: string | null;
    } = {},
  ) => {
    const signedUrl = options.signedUrl ?? `${proxy.url}/api/scms/call-status`;
    const signature =
      options.signature === undefined
        ? twilioSignature(options.authToken ?? TOKEN, signedUrl, options.signedParams ?? params)
        : options.signature;
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
    if (signature !== null) headers['X-Twilio-Signature'] = signature;
    return send(`${proxy.url}/api/scms/call-status`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(params).toString(),
    });
  };

  /** A calls record in a given state, made directly (as superuser). */
  const makeCall = async (status: string, concernIds: string[], houseId = a.houses.phoned) => {
    const sid = 'CA' + Math.random().toString(16).slice(2).padEnd(32, '0').slice(0, 32);
    const call = await t.admin.collection('calls').create({
      house: houseId,
      community: a.fixture.community.id,
      concerns: concernIds,
      to_number: '+15615550122',
      script: 'Hello.',
      status,
      provider_call_id: sid,
      created_by: a.fixture.manager.id,
    });
    return { id: call.id, sid };
  };

  beforeAll(async () => {
    standin = await startTelephonyStandin({ accountSid: SID, authToken: TOKEN, stepDelayMs: 300 });
    proxy = await startFrontProxy();
    t = await startTestServer({
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM_NUMBER: FROM,
      TWILIO_API_BASE: standin.url,
      SCMS_PUBLIC_URL: proxy.url,
    });
    proxy.setTarget(t.url);
    a = await seedCommunity(t, 'calla', 'Palm Grove Estates');
    b = await seedCommunity(t, 'callb', 'Heron Bay');
    manager = await t.signIn(a.fixture.manager.email);
    token = manager.authStore.token;
  });

  afterAll(async () => {
    await standin?.stop();
    await t?.stop();
    await proxy?.stop();
  });

  test('a call is placed, recorded, and followed to completion by signed status callbacks', async () => {
    const [c1, c2, c3] = a.concerns;
    const reply = await callResident({
      h_id: a.houses.phoned,
      concerns: [
        { id: c1!.id, name: c1!.name, selected: true },
        { id: c2!.id, name: c2!.name, selected: true },
        { id: c3!.id, name: c3!.name, selected: false },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ code: 200, message: 'Call placed to the resident' });
    const callId = reply.json?.call_id as string;

    // The provider got the primary phone, our number, the script as TwiML and
    // the public status-callback URL.
    expect(standin.calls).toHaveLength(1);
    const placed = standin.calls[0]!;
    const script =
      'Hello. This is Palm Grove Estates security team. Your garage door is open. Packages & mail are at the gate. Thank you. Good bye.';
    expect(placed.to).toBe('+15615550122');
    expect(placed.from).toBe(FROM);
    expect(placed.twiml).toBe(
      '<Response><Say voice="alice">Hello. This is Palm Grove Estates security team. Your garage door is open. Packages &amp; mail are at the gate. Thank you. Good bye.</Say>' +
        // Then the request to press 1 (call-attempts-*.test.ts follow it).
        `<Gather action="${proxy.url}/api/scms/call-status/gather" method="POST" numDigits="1" timeout="8"><Say voice="alice">To confirm that you got this message, press 1.</Say></Gather></Response>`,
    );
    expect(placed.statusCallback).toBe(`${proxy.url}/api/scms/call-status`);
    expect(placed.statusCallbackMethod).toBe('POST');
    expect(placed.statusCallbackEvents).toEqual(['initiated', 'ringing', 'answered', 'completed']);

    // Recorded before the provider reported anything beyond "initiated".
    const call = await t.admin.collection('calls').getOne(callId);
    expect(call).toMatchObject({
      house: a.houses.phoned,
      community: a.fixture.community.id,
      concerns: [c1!.id, c2!.id],
      to_number: '+15615550122',
      script,
      status: 'queued',
      provider_call_id: placed.sid,
      created_by: a.fixture.manager.id,
      error: '',
    });
    expect(await pendingOf(a.houses.phoned)).toBe(`${c1!.id},${c2!.id}`);

    const done = await waitFor(
      'the call to complete',
      () => t.admin.collection('calls').getOne(callId),
      (c) => c.status === 'completed',
    );
    expect(done.status).toBe('completed');
    expect(await pendingOf(a.houses.phoned)).toBe('');
    // Every callback (initiated, ringing, in-progress, completed) was accepted.
    await waitFor(
      'the last callback',
      async () => placed.callbacks.length,
      (n) => n === 4,
    );
    expect(placed.callbacks.map((c) => [c.callStatus, c.httpStatus])).toEqual([
      ['initiated', 200],
      ['ringing', 200],
      ['in-progress', 200],
      ['completed', 200],
    ]);
  });

  test('a home without a primary phone is called on its first phone', async () => {
    const before = standin.calls.length;
    const reply = await callResident({ h_id: a.houses.oneHomePhone, concerns: concernList(a, 1) });
    expect(reply.status).toBe(200);
    expect(standin.calls).toHaveLength(before + 1);
    expect(standin.calls[before]!.to).toBe('+15615550133');
    const call = await t.admin.collection('calls').getOne(reply.json?.call_id as string);
    expect(call.to_number).toBe('+15615550133');
  });

  describe('refusals that write nothing', () => {
    let callsBefore = 0;
    let providerCallsBefore = 0;
    beforeEach(async () => {
      callsBefore = await callCount();
      providerCallsBefore = standin.calls.length;
    });
    afterEach(async () => {
      expect(await callCount()).toBe(callsBefore);
      expect(standin.calls).toHaveLength(providerCallsBefore);
      expect(await pendingOf(a.houses.noPhone)).toBe('');
    });

    const expectFailure = (reply: Reply, code: number, message?: string) => {
      expect(reply.status, reply.text).toBe(code);
      expect(reply.json).toMatchObject({ error: true, code });
      expect(typeof reply.json?.message).toBe('string');
      if (message !== undefined) expect(reply.json?.message).toBe(message);
    };

    test('a fourth concern is refused with the Limit Exceeded message', async () => {
      const reply = await callResident({ h_id: a.houses.phoned, concerns: concernList(a, 4) });
      expectFailure(reply, 400, LIMIT_EXCEEDED_MESSAGE);
      expect(await pendingOf(a.houses.phoned)).toBe('');
    });

    test("another community's home answers like a missing one", async () => {
      expectFailure(await callResident({ h_id: b.houses.phoned, concerns: concernList(a, 1) }), 404, 'Home not found.');
      expectFailure(
        await callResident({ h_id: 'zzzzzzzzzzzzzzz', concerns: concernList(a, 1) }),
        404,
        'Home not found.',
      );
      expect(await pendingOf(b.houses.phoned)).toBe('');
    });

    test("another community's concern is refused", async () => {
      const reply = await callResident({
        h_id: a.houses.phoned,
        concerns: [...concernList(a, 1), ...concernList(b, 1)],
      });
      expectFailure(reply, 400);
      expect(reply.json?.data).toHaveProperty('concerns');
    });

    test('a home without phones is refused', async () => {
      expectFailure(
        await callResident({ h_id: a.houses.noPhone, concerns: concernList(a, 2) }),
        400,
        'Primary phone number missing',
      );
    });

    test('malformed, mistyped and oversized bodies are refused', async () => {
      const h = a.houses.phoned;
      const one = concernList(a, 1);
      const id = a.concerns[0]!.id;
      const cases: Array<[string, unknown]> = [
        ['malformed JSON', '{"h_id": "abc", "concerns": ['],
        ['not an object', JSON.stringify([h])],
        ['empty body', ''],
        ['h_id not a string', { h_id: 12345, concerns: one }],
        ['h_id missing', { concerns: one }],
        ['h_id oversized', { h_id: 'a'.repeat(5000), concerns: one }],
        ['concerns not a list', { h_id: h, concerns: id }],
        ['concern without id', { h_id: h, concerns: [{ name: 'x', selected: true }] }],
        ['concern id not a string', { h_id: h, concerns: [{ id: 7, selected: true }] }],
        ['concern name oversized', { h_id: h, concerns: [{ id, name: 'n'.repeat(101), selected: true }] }],
        ['selected not a boolean', { h_id: h, concerns: [{ id, selected: 'yes' }] }],
        ['no concern chosen', { h_id: h, concerns: [{ id, selected: false }] }],
        ['a concern twice', { h_id: h, concerns: [{ id }, { id }] }],
      ];
      for (const [label, body] of cases) {
        const reply = await callResident(body);
        expect(reply.status, label).toBe(400);
        expect(reply.json, label).toMatchObject({ error: true, code: 400 });
      }
      const huge = await callResident({ h_id: h, concerns: one, padding: 'x'.repeat(20_000) });
      expectFailure(huge, 413);
      expect(await pendingOf(h)).toBe('');
    });

    test('anonymous callers are refused', async () => {
      expectFailure(await callResident({ h_id: a.houses.phoned, concerns: concernList(a, 1) }, ''), 401);
    });
  });

  describe('status callbacks', () => {
    test('unsigned or badly signed callbacks are refused and change nothing', async () => {
      const [c1] = a.concerns;
      const call = await makeCall('ringing', [c1!.id]);
      const params = { CallSid: call.sid, CallStatus: 'completed', AccountSid: SID };
      const attempts = [
        await callback(params, { signature: null }),
        await callback(params, { authToken: 'not-the-token' }),
        // Signed over the URL PocketBase listens on, not the public one.
        await callback(params, { signedUrl: `${t.url}/api/scms/call-status` }),
        // A valid signature for other parameters.
        await callback(params, { signedParams: { ...params, CallStatus: 'ringing' } }),
      ];
      for (const reply of attempts) {
        expect(reply.status).toBe(403);
        expect(reply.json).toMatchObject({ error: true, code: 403 });
      }
      // A body that is not form-encoding at all cannot even be checked.
      const garbled = await send(`${proxy.url}/api/scms/call-status`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': 'x' },
        body: `CallSid=${call.sid}&CallStatus=%zz`,
      });
      expect(garbled.status).toBe(400);
      expect((await t.admin.collection('calls').getOne(call.id)).status).toBe('ringing');
    });

    test('callbacks arriving out of order never move a call backwards', async () => {
      const [c1, c2] = a.concerns;
      const house = a.houses.oneHomePhone;
      const call = await makeCall('queued', [c1!.id, c2!.id], house);
      await t.admin.collection('houses').update(house, { pending_call_concerns_ids: `${c1!.id},${c2!.id}` });

      const completed = await callback({ CallSid: call.sid, CallStatus: 'completed', CallDuration: '12' });
      expect(completed.status).toBe(200);
      expect(completed.contentType).toMatch(/^text\/xml/);
      expect(completed.text).toBe('<Response/>');
      expect((await t.admin.collection('calls').getOne(call.id)).status).toBe('completed');
      expect(await pendingOf(house)).toBe('');

      expect((await callback({ CallSid: call.sid, CallStatus: 'ringing' })).status).toBe(200);
      expect((await callback({ CallSid: call.sid, CallStatus: 'in-progress' })).status).toBe(200);
      expect((await t.admin.collection('calls').getOne(call.id)).status).toBe('completed');
    });

    test("an ended call leaves a newer call's pending concerns alone", async () => {
      const [c1, c2, c3] = a.concerns;
      const house = a.houses.oneHomePhone;
      const older = await makeCall('ringing', [c1!.id], house);
      await t.admin.collection('houses').update(house, { pending_call_concerns_ids: `${c2!.id},${c3!.id}` });
      const reply = await callback({ CallSid: older.sid, CallStatus: 'no-answer' });
      expect(reply.status).toBe(200);
      expect((await t.admin.collection('calls').getOne(older.id)).status).toBe('no-answer');
      expect(await pendingOf(house)).toBe(`${c2!.id},${c3!.id}`);
      await t.admin.collection('houses').update(house, { pending_call_concerns_ids: '' });
    });

    test('a signed callback for an unknown call is a 404', async () => {
      const reply = await callback({ CallSid: 'CA' + '0'.repeat(32), CallStatus: 'completed' });
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ error: true, code: 404 });
    });
  });
});

/** A second server whose provider settings are wrong in the given way. */
async function startMisconfigured(env: Record<string, string>) {
  const t = await startTestServer({ SCMS_PUBLIC_URL: 'http://127.0.0.1:9', ...env });
  const seeded = await seedCommunity(t, 'misc', 'Sea Grape Village');
  const manager = await t.signIn(seeded.fixture.manager.email);
  const call = () =>
    postJson(
      t.url,
      '/api/scms/call-resident',
      { h_id: seeded.houses.phoned, concerns: concernList(seeded, 2) },
      manager.authStore.token,
    );
  const calls = async () =>
    (await t.admin.collection('calls').getFullList()).map((c) => ({ status: c.status, error: c.error as string }));
  const pending = async () =>
    (await t.admin.collection('houses').getOne(seeded.houses.phoned)).pending_call_concerns_ids;
  return { t, call, calls, pending };
}

describe('when the provider refuses or cannot be reached', () => {
  let standin: TelephonyStandin;
  beforeAll(async () => {
    standin = await startTelephonyStandin({ accountSid: SID, authToken: TOKEN });
  });
  afterAll(async () => {
    await standin?.stop();
  });

  test("a refused call is marked failed with the provider's message and answers 502", async () => {
    const s = await startMisconfigured({
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: 'a-wrong-token',
      TWILIO_FROM_NUMBER: FROM,
      TWILIO_API_BASE: standin.url,
    });
    try {
      const reply = await s.call();
      expect(reply.status).toBe(502);
      expect(reply.json).toMatchObject({ error: true, code: 502 });
      expect(reply.json?.message).toContain('Authenticate');
      expect(await s.calls()).toEqual([{ status: 'failed', error: 'Provider error 20003: Authenticate' }]);
      expect(await s.pending()).toBe('');
      expect(standin.calls).toHaveLength(0);
    } finally {
      await s.t.stop();
    }
  });

  test('an unreachable provider gives 502 and a failed call', async () => {
    const s = await startMisconfigured({
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM_NUMBER: FROM,
      TWILIO_API_BASE: `http://127.0.0.1:${await freePort()}`,
    });
    try {
      const reply = await s.call();
      expect(reply.status).toBe(502);
      expect(reply.json).toMatchObject({ error: true, code: 502 });
      const calls = await s.calls();
      expect(calls).toHaveLength(1);
      expect(calls[0]!.status).toBe('failed');
      expect(calls[0]!.error).toMatch(/^Provider unreachable/);
      expect(await s.pending()).toBe('');
    } finally {
      await s.t.stop();
    }
  });

  test('missing provider settings give 503 and write nothing', async () => {
    const s = await startMisconfigured({ TWILIO_ACCOUNT_SID: '', TWILIO_AUTH_TOKEN: '', TWILIO_FROM_NUMBER: '' });
    try {
      const reply = await s.call();
      expect(reply.status).toBe(503);
      expect(reply.json).toMatchObject({ error: true, code: 503 });
      expect(reply.json?.message).toContain('TWILIO_ACCOUNT_SID');
      expect(await s.calls()).toEqual([]);
      expect(await s.pending()).toBe('');
    } finally {
      await s.t.stop();
    }
  });
});
