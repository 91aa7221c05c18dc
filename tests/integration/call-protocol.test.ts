/**
 * Protocol fidelity of the call routes, checked against Twilio's official
 * Node library (`twilio`, pinned dev dependency) rather than against our own
 * reading of the docs:
 * - placing a call sends what `client.calls.create` sends for the same call
 *   (both pointed at a local server that records the request): one
 *   StatusCallbackEvent parameter per event, same auth, same path;
 * - callbacks signed by the library's getExpectedTwilioSignature are
 *   accepted, over the configured URL with and without the default port, as
 *   its validateRequest accepts them; the stand-in's signatures pass the
 *   library's validateRequest;
 * - TwiML over Twilio's 4,000-character limit is refused before dialling;
 * - with real Twilio credentials and a public URL Twilio cannot reach, the
 *   server refuses to call (and `npm start` refuses to start).
 */
import { spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, projectRoot } from '../../scripts/pocketbase/server.ts';
import { twilioSignature } from '../../scripts/standins/twilio-signature.ts';
import { createCommunity, startTestServer, type TestServer } from '../support/pocketbase.ts';
import { scriptProcess } from '../support/script-process.ts';

const SID = 'AC' + '0f1e2d3c4b5a6978'.repeat(2);
const TOKEN = 'call-protocol-auth-token';
const FROM = '+15615550100';
const PUBLIC_URL = 'https://patrol.example.com';
const STATUS_URL = `${PUBLIC_URL}/api/scms/call-status`;

interface Recorded {
  method: string;
  path: string;
  contentType: string;
  authorization: string;
  /** The form as [name, value] pairs, in the order sent. */
  form: Array<[string, string]>;
  sid: string;
}

/** A stand-in for api.twilio.com that records each request and answers a created call. */
async function startRecorder(): Promise<{ url: string; requests: Recorded[]; stop: () => Promise<void> }> {
  const requests: Recorded[] = [];
  const read = async (req: IncomingMessage) => {
    let body = '';
    for await (const chunk of req) body += (chunk as Buffer).toString('utf8');
    return body;
  };
  const server: Server = createServer((req, res) => {
    void read(req).then((body) => {
      const sid = `CA${String(requests.length).padStart(32, '0')}`;
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        contentType: (req.headers['content-type'] ?? '').split(';')[0]!.trim(),
        authorization: req.headers.authorization ?? '',
        form: [...new URLSearchParams(body)],
        sid,
      });
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ sid, account_sid: SID, status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A community with one house (a primary phone) and concerns saying `says`. */
async function seed(t: TestServer, slug: string, says: string[]) {
  const fixture = await createCommunity(t.admin, slug, 'Palm Grove Estates');
  const concerns: Array<{ id: string; name: string }> = [];
  for (const [i, say] of says.entries()) {
    concerns.push(
      await t.admin.collection('concerns').create<{ id: string; name: string }>({
        name: `Concern ${i}`,
        hint: 'Hint',
        say,
        added_by: fixture.director.id,
        community: fixture.community.id,
      }),
    );
  }
  const house = await t.admin
    .collection('houses')
    .create({ address: '1 Ocean Dr', city: 'Jupiter', state: 'FL', zip: '33458', community: fixture.community.id });
  await t.admin
    .collection('phones')
    .create({ phone_number: '+15615550122', primary: true, type: 'cell', house: house.id });
  const manager = await t.signIn(fixture.manager.email);
  const director = await t.signIn(fixture.director.email);
  // No retries and the text fallback on: one unanswered attempt sends the text.
  await director.collection('call_settings').create({
    community: fixture.community.id,
    retries: 0,
    retry_minutes: 5,
    text_fallback: true,
    quiet_start: '00:00',
    quiet_end: '00:00',
    time_zone: 'UTC',
  });
  const call = (count = 1, skip = 0) =>
    fetch(`${t.url}/api/scms/call-resident`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: manager.authStore.token },
      body: JSON.stringify({
        h_id: house.id,
        concerns: concerns.slice(skip, skip + count).map((c) => ({ id: c.id, name: c.name, selected: true })),
      }),
    });
  return { house: house.id, call };
}

const sorted = (pairs: Array<[string, string]>) =>
  [...pairs].sort((a, b) => (a[0] + '\u0000' + a[1] < b[0] + '\u0000' + b[1] ? -1 : 1));

describe('against the official twilio library', () => {
  let t: TestServer;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  let seeded: Awaited<ReturnType<typeof seed>>;

  beforeAll(async () => {
    recorder = await startRecorder();
    t = await startTestServer({
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM_NUMBER: FROM,
      TWILIO_API_BASE: recorder.url,
      SCMS_PUBLIC_URL: PUBLIC_URL,
    });
    // Three concerns of 350 characters that each need escaping in XML
    // (" → &quot;): 6,418 characters of TwiML, over Twilio's 4,000.
    seeded = await seed(t, 'proto', ['Your garage door is open.', '"'.repeat(350), '"'.repeat(350), '"'.repeat(350)]);
  });
  afterAll(async () => {
    await t?.stop();
    await recorder?.stop();
  });

  test('placing a call sends what client.calls.create sends for the same call', async () => {
    const reply = await seeded.call(1);
    expect(reply.status, await reply.clone().text()).toBe(200);
    expect(recorder.requests).toHaveLength(1);
    const app = recorder.requests[0]!;
    const twiml = new URLSearchParams(app.form).get('Twiml') ?? '';
    expect(twiml).toContain('Your garage door is open.');

    const client = twilio(SID, TOKEN);
    client.api.baseUrl = recorder.url;
    const created = await client.calls.create({
      to: '+15615550122',
      from: FROM,
      twiml,
      statusCallback: STATUS_URL,
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      statusCallbackMethod: 'POST',
      machineDetection: 'DetectMessageEnd',
      asyncAmd: 'true',
      asyncAmdStatusCallback: `${PUBLIC_URL}/api/scms/call-status/amd`,
      asyncAmdStatusCallbackMethod: 'POST',
    });
    expect(created.sid).toBe(recorder.requests[1]!.sid);
    const library = recorder.requests[1]!;

    expect(app.method).toBe(library.method);
    expect(app.path).toBe(library.path);
    expect(app.contentType).toBe(library.contentType);
    expect(app.authorization).toBe(library.authorization);
    expect(sorted(app.form)).toEqual(sorted(library.form));
    // What went wrong once: one parameter per event.
    expect(app.form.filter(([name]) => name === 'StatusCallbackEvent').map(([, v]) => v)).toEqual([
      'initiated',
      'ringing',
      'answered',
      'completed',
    ]);
  });

  test('callbacks signed by the library are accepted, with and without the default port; forged ones are not', async () => {
    const sid = recorder.requests[0]!.sid;
    const post = (params: Record<string, string>, signature: string) =>
      fetch(`${t.url}/api/scms/call-status`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
        body: new URLSearchParams(params).toString(),
      });
    const ringing = {
      AccountSid: SID,
      CallSid: sid,
      CallStatus: 'ringing',
      Called: '+15615550122',
      Caller: FROM,
      Direction: 'outbound-api',
    };
    const withPort = `${PUBLIC_URL}:443/api/scms/call-status`;
    const signedWithPort = twilio.getExpectedTwilioSignature(TOKEN, withPort, ringing);
    // The library itself accepts either form for the URL we configured.
    expect(twilio.validateRequest(TOKEN, signedWithPort, STATUS_URL, ringing)).toBe(true);

    const bad: Array<[string, Record<string, string>, string]> = [
      ['other token', ringing, twilio.getExpectedTwilioSignature('another-token', STATUS_URL, ringing)],
      [
        'other port',
        ringing,
        twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC_URL}:8443/api/scms/call-status`, ringing),
      ],
      [
        'http, not https',
        ringing,
        twilio.getExpectedTwilioSignature(TOKEN, 'http://patrol.example.com/api/scms/call-status', ringing),
      ],
      [
        'other params',
        { ...ringing, CallStatus: 'completed' },
        twilio.getExpectedTwilioSignature(TOKEN, STATUS_URL, ringing),
      ],
      ['empty', ringing, ''],
    ];
    for (const [label, params, signature] of bad) {
      expect(twilio.validateRequest(TOKEN, signature, STATUS_URL, params), label).toBe(false);
      expect((await post(params, signature)).status, label).toBe(403);
    }
    const call = () => t.admin.collection('calls').getFirstListItem(`provider_call_id = "${sid}"`);
    expect((await call()).status).toBe('queued');

    expect((await post(ringing, signedWithPort)).status).toBe(200);
    expect((await call()).status).toBe('ringing');
    const completed = { ...ringing, CallStatus: 'completed', CallDuration: '9' };
    expect((await post(completed, twilio.getExpectedTwilioSignature(TOKEN, STATUS_URL, completed))).status).toBe(200);
    expect((await call()).status).toBe('completed');
  });

  test("the machine's message, the key press and the text fallback: the same requests as the library's, on callbacks it signed", async () => {
    const client = twilio(SID, TOKEN);
    client.api.baseUrl = recorder.url;
    const signedPost = async (path: string, params: Record<string, string>) => {
      const res = await fetch(`${t.url}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC_URL}${path}`, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      return { status: res.status, text: await res.text() };
    };
    const compare = (app: Recorded, library: Recorded) => {
      expect([app.method, app.path, app.contentType, app.authorization]).toEqual([
        library.method,
        library.path,
        library.contentType,
        library.authorization,
      ]);
      expect(sorted(app.form)).toEqual(sorted(library.form));
    };

    const first = recorder.requests.length;
    const reply = await seeded.call(1);
    expect(reply.status).toBe(200);
    const callId = ((await reply.json()) as { call_id: string }).call_id;
    const sid = recorder.requests[first]!.sid;
    const script = new URLSearchParams(recorder.requests[first]!.form)
      .get('Twiml')!
      .match(/^<Response><Say voice="alice">([^<]*)<\/Say>/)![1]!;

    // A machine's greeting ended: the app replaces the call's TwiML.
    expect(
      (
        await signedPost('/api/scms/call-status/amd', {
          AccountSid: SID,
          CallSid: sid,
          AnsweredBy: 'machine_end_beep',
          MachineDetectionDuration: '3100',
        })
      ).status,
    ).toBe(204);
    const update = recorder.requests[first + 1]!;
    await client.calls(sid).update({ twiml: `<Response><Say voice="alice">${script}</Say></Response>` });
    compare(update, recorder.requests[first + 2]!);

    // The resident pressed 1 (on a machine's call only in a test): thanks, and acknowledged.
    const pressed = await signedPost('/api/scms/call-status/gather', {
      AccountSid: SID,
      CallSid: sid,
      Digits: '1',
      CallStatus: 'in-progress',
    });
    expect(pressed).toEqual({
      status: 200,
      text: '<Response><Say voice="alice">Thank you. Your confirmation was received. Good bye.</Say></Response>',
    });

    // No answer, no retries left, no other phone: the script goes out as a text.
    expect(
      (await signedPost('/api/scms/call-status', { AccountSid: SID, CallSid: sid, CallStatus: 'no-answer' })).status,
    ).toBe(200);
    const text = recorder.requests[first + 3]!;
    const body = new URLSearchParams(text.form).get('Body')!;
    await client.messages.create({ to: '+15615550122', from: FROM, body });
    compare(text, recorder.requests[first + 4]!);
    expect(recorder.requests).toHaveLength(first + 5);
    const job = await t.admin.collection('calls').getOne(callId);
    expect(job).toMatchObject({
      progress: 'done',
      outcome: 'no_answer',
      acknowledged: true,
      text_sent: true,
      script: body,
    });
  });

  test("the stand-in's signatures pass the library's validateRequest", () => {
    const params = { CallSid: 'CA1', CallStatus: 'in-progress', Note: 'é 中 😀 & = +', Empty: '' };
    for (const url of [STATUS_URL, 'http://127.0.0.1:8090/api/scms/call-status?x=1&y=%20']) {
      expect(twilio.validateRequest(TOKEN, twilioSignature(TOKEN, url, params), url, params)).toBe(true);
    }
  });

  test('TwiML over 4,000 characters is refused before anything is written or dialled', async () => {
    const callsBefore = (await t.admin.collection('calls').getList(1, 1)).totalItems;
    const dialled = recorder.requests.length;
    const reply = await seeded.call(3, 1);
    const body = (await reply.json()) as { code: number; message: string; data?: Record<string, { code: string }> };
    expect(reply.status).toBe(400);
    // 6,418 characters for the script alone, more with the press-1 prompt.
    expect(body.message).toMatch(
      /^The message is too long to call: \d+ characters for the telephony provider, which accepts at most 4000\. Select fewer concerns or shorten what they say\.$/,
    );
    expect(Number(/(\d+) characters/.exec(body.message)![1])).toBeGreaterThan(6418);
    expect(body.data?.concerns?.code).toBe('validation_call_too_long');
    expect(recorder.requests).toHaveLength(dialled);
    expect((await t.admin.collection('calls').getList(1, 1)).totalItems).toBe(callsBefore);
    expect((await t.admin.collection('houses').getOne(seeded.house)).pending_call_concerns_ids).toBe('');
  });
});

describe('real Twilio credentials with a public URL Twilio cannot reach', () => {
  test('the call route refuses to dial (503) and writes nothing', async () => {
    // No TWILIO_API_BASE: Twilio's own API. The refusal comes before any request.
    const t = await startTestServer({
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM_NUMBER: FROM,
      TWILIO_API_BASE: '',
      SCMS_PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
    });
    try {
      const seeded = await seed(t, 'private', ['Your garage door is open.']);
      const reply = await seeded.call(1);
      const body = (await reply.json()) as { message: string };
      expect(reply.status).toBe(503);
      expect(body.message).toMatch(
        /^Calling residents is not set up on this server: SCMS_PUBLIC_URL is http:\/\/127\.0\.0\.1:\d+, an address Twilio cannot reach/,
      );
      expect((await t.admin.collection('calls').getList(1, 1)).totalItems).toBe(0);
      // Its callback route does not take anything either.
      const cb = await fetch(`${t.url}/api/scms/call-status`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'CallSid=CA1&CallStatus=completed',
      });
      expect(cb.status).toBe(503);
    } finally {
      await t.stop();
    }
  });

  test('npm start refuses to start, saying why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scms-public-url-'));
    try {
      const result = spawnSync(...scriptProcess('scripts/start.ts'), {
        cwd: projectRoot,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          SCMS_SKIP_BUILD: '1',
          SCMS_DATA_DIR: join(dir, 'pb_data'),
          TWILIO_ACCOUNT_SID: SID,
          TWILIO_AUTH_TOKEN: TOKEN,
          TWILIO_API_BASE: '',
          SCMS_PUBLIC_URL: '',
          HOST: '',
          PORT: '',
        },
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        'npm start failed: SCMS_PUBLIC_URL is http://127.0.0.1:8090, an address Twilio cannot reach',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
