import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { twilioSignature } from './twilio-signature.ts';

// A local stand-in for the slice of Twilio's Programmable Voice REST API the
// app uses: create an outbound call (POST .../Calls.json), read it back, and
// receive signed status callbacks as the call progresses. It speaks the real
// wire format (form bodies, basic auth, Twilio's error JSON and codes,
// X-Twilio-Signature) so the PocketBase side is the code that talks to Twilio.
// It does not fetch `Url` TwiML nor place any call.

const API = '/2010-04-01';
const MORE_INFO = 'https://www.twilio.com/docs/errors/';
const E164 = /^\+[1-9]\d{1,14}$/;
const MAX_BODY_BYTES = 64 * 1024;
const MAX_TWIML_CHARS = 4000;
// Twilio gives up on a webhook after 15 s.
const CALLBACK_TIMEOUT_MS = 15_000;
const MAX_CALLBACK_RETRIES = 2;

export type FinalCallStatus = 'completed' | 'busy' | 'no-answer' | 'failed';
export type CallStatus = 'queued' | 'initiated' | 'ringing' | 'in-progress' | FinalCallStatus;
export type StatusCallbackEvent = 'initiated' | 'ringing' | 'answered' | 'completed';

export interface StandinCallback {
  callStatus: CallStatus;
  sequenceNumber: number;
  /** HTTP status of the last attempt; null when it never got a response. */
  httpStatus: number | null;
  attempts: number;
}

export interface StandinCall {
  sid: string;
  to: string;
  from: string;
  twiml: string | null;
  url: string | null;
  statusCallback: string | null;
  statusCallbackMethod: 'POST' | 'GET';
  /** As requested; null when StatusCallbackEvent was absent. */
  statusCallbackEvents: StatusCallbackEvent[] | null;
  /** Current status, as GET .../Calls/{sid}.json reports it. */
  status: CallStatus;
  /** Statuses a callback was sent for, in order. */
  statuses: CallStatus[];
  callbacks: StandinCallback[];
  dateCreated: Date;
  dateUpdated: Date;
  startTime: Date | null;
  endTime: Date | null;
  duration: number | null;
}

export interface TelephonyStandinOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  accountSid: string;
  authToken: string;
  /** Time between two status changes of a call. */
  stepDelayMs?: number;
  finalStatus?: FinalCallStatus;
}

export interface TelephonyStandin {
  url: string;
  calls: StandinCall[];
  stop(): Promise<void>;
}

type Form = URLSearchParams;

/** Twilio's date format (RFC 2822), e.g. "Tue, 31 Aug 2010 20:36:28 +0000". */
function rfc2822(d: Date): string {
  return d.toUTCString().replace(/GMT$/, '+0000');
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { code, message, more_info: `${MORE_INFO}${code}`, status });
}

function notFound(res: ServerResponse, path: string): void {
  sendError(res, 404, 20404, `The requested resource ${path} was not found`);
}

/** Reads the body; null when it is larger than MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function basicAuthUser(req: IncomingMessage): { user: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** A root <Response> element, optionally after an XML declaration. Not a
 *  full XML parser: enough to catch plain text or a wrong root. */
function looksLikeTwiml(twiml: string): boolean {
  const body = twiml.trim().replace(/^<\?xml[^>]*\?>\s*/, '');
  return /^<Response\s*\/>$/.test(body) || /^<Response(\s[^>]*)?>[\s\S]*<\/Response>$/.test(body);
}

/** The Call resource JSON, shaped like Twilio's. */
function callResource(call: StandinCall, accountSid: string): Record<string, unknown> {
  const uri = `${API}/Accounts/${accountSid}/Calls/${call.sid}`;
  const sub = (name: string): string => `${uri}/${name}.json`;
  return {
    account_sid: accountSid,
    annotation: null,
    answered_by: null,
    api_version: '2010-04-01',
    caller_name: null,
    date_created: rfc2822(call.dateCreated),
    date_updated: rfc2822(call.dateUpdated),
    direction: 'outbound-api',
    duration: call.duration === null ? null : String(call.duration),
    end_time: call.endTime ? rfc2822(call.endTime) : null,
    forwarded_from: null,
    from: call.from,
    from_formatted: call.from,
    group_sid: null,
    parent_call_sid: null,
    phone_number_sid: null,
    price: null,
    price_unit: 'USD',
    queue_time: '0',
    sid: call.sid,
    start_time: call.startTime ? rfc2822(call.startTime) : null,
    status: call.status,
    subresource_uris: {
      events: sub('Events'),
      notifications: sub('Notifications'),
      recordings: sub('Recordings'),
      streams: sub('Streams'),
      payments: sub('Payments'),
      siprec: sub('Siprec'),
      transcriptions: sub('Transcriptions'),
      user_defined_messages: sub('UserDefinedMessages'),
      user_defined_message_subscriptions: sub('UserDefinedMessageSubscriptions'),
    },
    to: call.to,
    to_formatted: call.to,
    trunk_sid: null,
    uri: `${uri}.json`,
  };
}

/** Statuses a call goes through after "queued"; only a completed call is
 *  ever answered (in-progress). */
function lifecycle(final: FinalCallStatus): CallStatus[] {
  if (final === 'completed') return ['initiated', 'ringing', 'in-progress', 'completed'];
  if (final === 'failed') return ['initiated', 'failed'];
  return ['initiated', 'ringing', final];
}

/** Whether Twilio would send a callback for `status`. Without
 *  StatusCallbackEvent only the final status is reported. */
function wantsCallback(call: StandinCall, status: CallStatus): boolean {
  const events = call.statusCallbackEvents;
  switch (status) {
    case 'queued':
      return false;
    case 'initiated':
    case 'ringing':
      return events?.includes(status) ?? false;
    case 'in-progress':
      return events?.includes('answered') ?? false;
    default:
      return events === null || events.includes('completed');
  }
}

const KNOWN_EVENTS: readonly string[] = ['initiated', 'ringing', 'answered', 'completed'];

/** StatusCallbackEvent may repeat (what the SDKs send) or hold a
 *  space-separated list (what TwiML uses); accept both. Unknown words are
 *  ignored. */
function parseEvents(form: Form): StatusCallbackEvent[] | null {
  const raw = form.getAll('StatusCallbackEvent');
  if (raw.length === 0) return null;
  const words = raw.flatMap((v) => v.trim().split(/\s+/));
  return words.filter((w): w is StatusCallbackEvent => KNOWN_EVENTS.includes(w));
}

export async function startTelephonyStandin(options: TelephonyStandinOptions): Promise<TelephonyStandin> {
  const { accountSid, authToken } = options;
  const host = options.host ?? '127.0.0.1';
  const stepDelayMs = options.stepDelayMs ?? 1500;
  const finalStatus = options.finalStatus ?? 'completed';
  const calls: StandinCall[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const inFlight = new AbortController();
  let stopped = false;

  const later = (ms: number, fn: () => void): void => {
    if (stopped) return;
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  /** One callback request; resolves to the HTTP status, throws on a network
   *  error or timeout. */
  async function postCallback(call: StandinCall, params: Record<string, string>): Promise<number> {
    const target = call.statusCallback ?? '';
    const headers: Record<string, string> = { 'User-Agent': 'TwilioProxy/1.1' };
    const signal = AbortSignal.any([inFlight.signal, AbortSignal.timeout(CALLBACK_TIMEOUT_MS)]);
    let res: Response;
    if (call.statusCallbackMethod === 'GET') {
      // For GET, Twilio puts the params in the query and signs the full URL.
      const u = new URL(target);
      for (const [k, v] of Object.entries(params)) u.searchParams.append(k, v);
      headers['X-Twilio-Signature'] = twilioSignature(authToken, u.href, {});
      res = await fetch(u, { method: 'GET', headers, signal });
    } else {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      headers['X-Twilio-Signature'] = twilioSignature(authToken, target, params);
      res = await fetch(target, { method: 'POST', headers, body: new URLSearchParams(params).toString(), signal });
    }
    await res.arrayBuffer(); // drain, so the connection can be reused
    return res.status;
  }

  /** Delivers one callback, retrying network errors and 5xx at most twice. */
  async function deliver(call: StandinCall, status: CallStatus): Promise<void> {
    const now = new Date();
    const params: Record<string, string> = {
      AccountSid: accountSid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: status,
      CallbackSource: 'call-progress-events',
      Called: call.to,
      Caller: call.from,
      Direction: 'outbound-api',
      From: call.from,
      SequenceNumber: String(call.callbacks.length),
      Timestamp: rfc2822(now),
      To: call.to,
    };
    if (status === 'completed') params.CallDuration = String(call.duration ?? 0);
    const record: StandinCallback = {
      callStatus: status,
      sequenceNumber: call.callbacks.length,
      httpStatus: null,
      attempts: 0,
    };
    call.callbacks.push(record);
    call.statuses.push(status);
    while (!stopped && record.attempts <= MAX_CALLBACK_RETRIES) {
      record.attempts++;
      try {
        record.httpStatus = await postCallback(call, params);
        if (record.httpStatus >= 300) {
          console.error(`telephony stand-in: ${call.sid} ${status} callback got HTTP ${record.httpStatus}`);
        }
        // A 4xx is the receiver's answer (e.g. a rejected signature): retrying
        // would not change it.
        if (record.httpStatus < 500) return;
      } catch (err) {
        if (stopped) return;
        console.error(`telephony stand-in: ${call.sid} ${status} callback failed: ${String(err)}`);
      }
      if (record.attempts <= MAX_CALLBACK_RETRIES) {
        // Short pause before a retry; `later` drops it once stopped.
        await new Promise<void>((resolve) => later(Math.min(stepDelayMs, 1000), resolve));
      }
    }
  }

  /** Moves the call through its lifecycle one step per stepDelayMs. The next
   *  step is scheduled only after this step's callback is done, so callbacks
   *  can never arrive out of order. */
  function advance(call: StandinCall, steps: CallStatus[]): void {
    const [status, ...rest] = steps;
    if (!status) return;
    later(stepDelayMs, () => {
      const now = new Date();
      call.status = status;
      call.dateUpdated = now;
      if (status === 'in-progress') call.startTime = now;
      if (rest.length === 0) {
        call.endTime = now;
        call.duration = call.startTime ? Math.round((now.getTime() - call.startTime.getTime()) / 1000) : 0;
      }
      const done = call.statusCallback && wantsCallback(call, status) ? deliver(call, status) : Promise.resolve();
      void done.then(() => advance(call, rest));
    });
  }

  function createCall(res: ServerResponse, form: Form): void {
    // An empty value counts as absent, as it does for Twilio.
    const param = (name: string): string | null => form.get(name) || null;
    const to = param('To');
    const from = param('From');
    const twiml = param('Twiml');
    const url = param('Url');
    const statusCallback = param('StatusCallback');
    const method = (param('StatusCallbackMethod') ?? 'POST').toUpperCase();

    if (!to) return sendError(res, 400, 21201, "No 'To' number is specified");
    if (!E164.test(to)) return sendError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from) return sendError(res, 400, 21213, "No 'From' number is specified");
    if (!E164.test(from) && !/^client:\w+$/.test(from)) {
      return sendError(res, 400, 21212, `The 'From' number ${from} is not a valid phone number, shortcode, or alphanumeric sender ID.`);
    }
    if (twiml === null && url === null) return sendError(res, 400, 21205, 'Url parameter is required.');
    if (twiml !== null && url !== null) return sendError(res, 400, 21205, 'Only one of Url or Twiml may be given.');
    if (url !== null && !isHttpUrl(url)) return sendError(res, 400, 21205, `Url is not a valid URL: ${url}`);
    if (twiml !== null && twiml.length > MAX_TWIML_CHARS) {
      return sendError(res, 400, 32018, 'Twiml size exceeded maximum allowed value of 4000 characters');
    }
    if (twiml !== null && !looksLikeTwiml(twiml)) return sendError(res, 400, 12100, 'Document parse failure: Twiml is not valid TwiML');
    if (statusCallback !== null && !isHttpUrl(statusCallback)) {
      return sendError(res, 400, 21609, `The StatusCallback URL ${statusCallback} is not a valid URL.`);
    }
    if (method !== 'POST' && method !== 'GET') {
      return sendError(res, 400, 21200, 'StatusCallbackMethod must be GET or POST');
    }

    const now = new Date();
    const call: StandinCall = {
      sid: `CA${randomBytes(16).toString('hex')}`,
      to,
      from,
      twiml,
      url,
      statusCallback,
      statusCallbackMethod: method,
      statusCallbackEvents: parseEvents(form),
      status: 'queued',
      statuses: [],
      callbacks: [],
      dateCreated: now,
      dateUpdated: now,
      startTime: null,
      endTime: null,
      duration: null,
    };
    calls.push(call);
    sendJson(res, 201, callResource(call, accountSid));
    advance(call, lifecycle(finalStatus));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://standin').pathname;
    const list = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(path);
    const one = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/.exec(path);
    const pathAccount = list?.[1] ?? one?.[1];
    if (pathAccount === undefined) return notFound(res, path);

    const auth = basicAuthUser(req);
    if (!auth || auth.user !== accountSid || auth.password !== authToken) {
      return sendJson(
        res,
        401,
        { code: 20003, message: 'Authenticate', more_info: `${MORE_INFO}20003`, status: 401 },
        { 'WWW-Authenticate': 'Basic realm="Twilio API"' },
      );
    }
    if (pathAccount !== accountSid) return notFound(res, path);

    // Only what the app uses: create via the list, read one call.
    const allowed = list ? 'POST' : 'GET';
    if (req.method !== allowed) {
      res.setHeader('Allow', allowed);
      return sendError(res, 405, 20004, 'Method not allowed');
    }

    if (one) {
      const call = calls.find((c) => c.sid === one[2]);
      return call ? sendJson(res, 200, callResource(call, accountSid)) : notFound(res, path);
    }

    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      return sendError(res, 400, 21200, 'Request body must be application/x-www-form-urlencoded');
    }
    const body = await readBody(req);
    if (body === null) return sendError(res, 413, 21200, 'Request body too large');
    return createCall(res, new URLSearchParams(body));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('telephony stand-in: internal error', err);
      if (!res.headersSent) sendError(res, 500, 20500, 'Internal Server Error');
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let stopping: Promise<void> | null = null;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${hostInUrl}:${port}`,
    calls,
    stop() {
      if (!stopping) {
        stopped = true;
        for (const t of timers) clearTimeout(t);
        timers.clear();
        inFlight.abort();
        stopping = new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
      return stopping;
    },
  };
}

async function main(): Promise<void> {
  const accountSid = process.env.TWILIO_ACCOUNT_SID;
  const authToken = process.env.TWILIO_AUTH_TOKEN;
  if (!accountSid || !authToken) {
    console.error('telephony stand-in: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
    process.exit(2);
  }
  const port = Number(process.env.TELEPHONY_STANDIN_PORT ?? 8091);
  const standin = await startTelephonyStandin({ port, accountSid, authToken });
  console.log(`telephony stand-in listening on ${standin.url}`);
  const shutdown = (): void => {
    void standin.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
