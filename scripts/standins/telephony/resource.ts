/**
 * The Twilio Call resource as the stand-in models it: the call record, the
 * checks Twilio makes on a create (with its error codes), the JSON it
 * answers with, and which statuses a call goes through and reports. Pure:
 * no HTTP, no timers (telephony/http.ts, telephony/callbacks.ts).
 */
import { randomBytes } from 'node:crypto';

export const API_VERSION = '2010-04-01';
const E164 = /^\+[1-9]\d{1,14}$/;
const MAX_TWIML_CHARS = 4000;

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
  /** MachineDetection as requested ('Enable', 'DetectMessageEnd'), or null. */
  machineDetection: string | null;
  asyncAmd: boolean;
  asyncAmdStatusCallback: string | null;
  /** AMD's verdict once known (human, machine_end_beep, ...). */
  answeredBy: string | null;
  /** TwiML sent later by POST .../Calls/{sid}.json (e.g. the message for a machine). */
  updates: string[];
  /** Requests the stand-in made besides status callbacks: AMD results and <Gather> actions. */
  webhooks: Array<{ kind: 'amd' | 'gather'; url: string; params: Record<string, string>; httpStatus: number | null }>;
}

/** An error as Twilio reports it: HTTP status, Twilio error code, message. */
export interface TwilioError {
  status: number;
  code: number;
  message: string;
}

/** Twilio's date format (RFC 2822), e.g. "Tue, 31 Aug 2010 20:36:28 +0000". */
export function rfc2822(d: Date): string {
  return d.toUTCString().replace(/GMT$/, '+0000');
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

const KNOWN_EVENTS: readonly string[] = ['initiated', 'ringing', 'answered', 'completed'];

/** StatusCallbackEvent may repeat (what the SDKs send) or hold a
 *  space-separated list (what TwiML uses); accept both. Unknown words are
 *  ignored. */
function parseEvents(form: URLSearchParams): StatusCallbackEvent[] | null {
  const raw = form.getAll('StatusCallbackEvent');
  if (raw.length === 0) return null;
  const words = raw.flatMap((v) => v.trim().split(/\s+/));
  return words.filter((w): w is StatusCallbackEvent => KNOWN_EVENTS.includes(w));
}

const invalid = (code: number, message: string): TwilioError => ({ status: 400, code, message });

/**
 * A new queued call from the form of POST .../Calls.json, or the error
 * Twilio answers that form with.
 */
export function createCall(form: URLSearchParams, now = new Date()): StandinCall | TwilioError {
  // An empty value counts as absent, as it does for Twilio.
  const param = (name: string): string | null => form.get(name) || null;
  const to = param('To');
  const from = param('From');
  const twiml = param('Twiml');
  const url = param('Url');
  const statusCallback = param('StatusCallback');
  const method = (param('StatusCallbackMethod') ?? 'POST').toUpperCase();

  if (!to) return invalid(21201, "No 'To' number is specified");
  if (!E164.test(to)) return invalid(21211, `The 'To' number ${to} is not a valid phone number.`);
  if (!from) return invalid(21213, "No 'From' number is specified");
  if (!E164.test(from) && !/^client:\w+$/.test(from)) {
    return invalid(
      21212,
      `The 'From' number ${from} is not a valid phone number, shortcode, or alphanumeric sender ID.`,
    );
  }
  if (twiml === null && url === null) return invalid(21205, 'Url parameter is required.');
  if (twiml !== null && url !== null) return invalid(21205, 'Only one of Url or Twiml may be given.');
  if (url !== null && !isHttpUrl(url)) return invalid(21205, `Url is not a valid URL: ${url}`);
  if (twiml !== null && twiml.length > MAX_TWIML_CHARS) {
    return invalid(32018, 'Twiml size exceeded maximum allowed value of 4000 characters');
  }
  if (twiml !== null && !looksLikeTwiml(twiml))
    return invalid(12100, 'Document parse failure: Twiml is not valid TwiML');
  if (statusCallback !== null && !isHttpUrl(statusCallback)) {
    return invalid(21609, `The StatusCallback URL ${statusCallback} is not a valid URL.`);
  }
  if (method !== 'POST' && method !== 'GET') return invalid(21200, 'StatusCallbackMethod must be GET or POST');
  const amd = param('MachineDetection');
  if (amd !== null && amd !== 'Enable' && amd !== 'DetectMessageEnd')
    return invalid(21200, `MachineDetection must be Enable or DetectMessageEnd, not ${amd}`);
  const amdCallback = param('AsyncAmdStatusCallback');
  if (amdCallback !== null && !isHttpUrl(amdCallback))
    return invalid(21200, `AsyncAmdStatusCallback is not a valid URL: ${amdCallback}`);

  return {
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
    machineDetection: param('MachineDetection'),
    asyncAmd: (param('AsyncAmd') ?? '').toLowerCase() === 'true',
    asyncAmdStatusCallback: param('AsyncAmdStatusCallback'),
    answeredBy: null,
    updates: [],
    webhooks: [],
  };
}

/** The Call resource JSON, shaped like Twilio's. */
export function callResource(call: StandinCall, accountSid: string): Record<string, unknown> {
  const uri = `/${API_VERSION}/Accounts/${accountSid}/Calls/${call.sid}`;
  const sub = (name: string): string => `${uri}/${name}.json`;
  return {
    account_sid: accountSid,
    annotation: null,
    answered_by: call.answeredBy,
    api_version: API_VERSION,
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
export function lifecycle(final: FinalCallStatus): CallStatus[] {
  if (final === 'completed') return ['initiated', 'ringing', 'in-progress', 'completed'];
  if (final === 'failed') return ['initiated', 'failed'];
  return ['initiated', 'ringing', final];
}

/** Moves the call to `status` at `now`; a final status ends it. */
export function enterStatus(call: StandinCall, status: CallStatus, final: boolean, now = new Date()): void {
  call.status = status;
  call.dateUpdated = now;
  if (status === 'in-progress') call.startTime = now;
  if (final) {
    call.endTime = now;
    call.duration = call.startTime ? Math.round((now.getTime() - call.startTime.getTime()) / 1000) : 0;
  }
}

/** Whether Twilio would send a callback for `status`. Without
 *  StatusCallbackEvent only the final status is reported. */
export function wantsCallback(call: StandinCall, status: CallStatus): boolean {
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

/** The form of a status callback for `call` now in `status`. */
export function callbackParams(
  call: StandinCall,
  status: CallStatus,
  accountSid: string,
  now = new Date(),
): Record<string, string> {
  const params: Record<string, string> = {
    AccountSid: accountSid,
    ApiVersion: API_VERSION,
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
  // With answering-machine detection, the verdict rides along with the status.
  if (call.machineDetection !== null && call.answeredBy !== null) params.AnsweredBy = call.answeredBy;
  return params;
}

/**
 * What happens at a number, chosen by the number dialled the way Twilio's
 * test numbers work (README, "Telephony stand-in"). Any other number answers
 * as a person who listens and hangs up.
 */
export interface Scenario {
  final: FinalCallStatus;
  /** AMD's verdict for an answered call. */
  answeredBy: 'human' | 'machine_end_beep' | 'fax' | null;
  /** Keys pressed at the <Gather>, or null. */
  digits: string | null;
  /** The final status callback never arrives (Twilio loses one now and then); the call resource still says how it ended. */
  finalCallbackLost?: boolean;
}

export const STANDIN_NUMBERS = {
  answers: '+15615550101',
  voicemail: '+15615550102',
  busy: '+15615550103',
  noAnswer: '+15615550104',
  invalid: '+15615550105',
  pressesOne: '+15615550106',
  busyThenAnswers: '+15615550107',
  finalCallbackLost: '+15615550108',
  fax: '+15615550109',
} as const;

/** The scenario of the `dial`-th call (1-based) to `to`. */
export function scenarioFor(to: string, dial: number): Scenario {
  const answered = (answeredBy: Scenario['answeredBy'], digits: string | null = null): Scenario => ({
    final: 'completed',
    answeredBy,
    digits,
  });
  switch (to) {
    case STANDIN_NUMBERS.voicemail:
      return answered('machine_end_beep');
    case STANDIN_NUMBERS.busy:
      return { final: 'busy', answeredBy: null, digits: null };
    case STANDIN_NUMBERS.noAnswer:
      return { final: 'no-answer', answeredBy: null, digits: null };
    case STANDIN_NUMBERS.invalid:
      return { final: 'failed', answeredBy: null, digits: null };
    case STANDIN_NUMBERS.pressesOne:
      return answered('human', '1');
    case STANDIN_NUMBERS.busyThenAnswers:
      return dial === 1 ? { final: 'busy', answeredBy: null, digits: null } : answered('human');
    case STANDIN_NUMBERS.fax:
      return answered('fax');
    case STANDIN_NUMBERS.finalCallbackLost:
      return { ...answered('human'), finalCallbackLost: true };
    default:
      return answered('human');
  }
}

/** The action URL of the TwiML's <Gather>, or null. */
export function gatherAction(twiml: string | null): string | null {
  const m = /<Gather\b[^>]*\baction="([^"]*)"/.exec(twiml ?? '');
  return m?.[1]
    ? m[1]
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&apos;/g, "'")
    : null;
}

/** A text message sent through POST .../Messages.json. */
export interface StandinMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  dateCreated: Date;
}

// A single message of up to 10 segments; Twilio refuses more (21617).
const MAX_MESSAGE_CHARS = 1600;

/** A sent message from the form of POST .../Messages.json, or Twilio's error. */
export function createMessage(form: URLSearchParams, now = new Date()): StandinMessage | TwilioError {
  const to = form.get('To') || null;
  const from = form.get('From') || null;
  const body = form.get('Body') || null;
  if (!to) return invalid(21604, "A 'To' phone number is required.");
  if (!E164.test(to)) return invalid(21211, `The 'To' number ${to} is not a valid phone number.`);
  if (!from) return invalid(21603, "A 'From' phone number is required.");
  if (!E164.test(from))
    return invalid(
      21212,
      `The 'From' number ${from} is not a valid phone number, shortcode, or alphanumeric sender ID.`,
    );
  if (!body) return invalid(21602, 'Message body is required.');
  if (body.length > MAX_MESSAGE_CHARS)
    return invalid(21617, 'The concatenated message body exceeds the 1600 character limit.');
  return { sid: `SM${randomBytes(16).toString('hex')}`, to, from, body, dateCreated: now };
}

/** The Message resource JSON, shaped like Twilio's (the fields the app may read). */
export function messageResource(message: StandinMessage, accountSid: string): Record<string, unknown> {
  return {
    account_sid: accountSid,
    api_version: API_VERSION,
    body: message.body,
    date_created: rfc2822(message.dateCreated),
    date_sent: null,
    direction: 'outbound-api',
    error_code: null,
    error_message: null,
    from: message.from,
    num_segments: String(Math.max(1, Math.ceil(message.body.length / 153))),
    sid: message.sid,
    status: 'queued',
    to: message.to,
    uri: `/${API_VERSION}/Accounts/${accountSid}/Messages/${message.sid}.json`,
  };
}
