/**
 * A local stand-in for the slice of Twilio's Programmable Voice REST API the
 * app uses: create an outbound call (POST .../Calls.json), read it back, and
 * receive signed status callbacks as the call progresses. It speaks the real
 * wire format (form bodies, basic auth, Twilio's error JSON and codes,
 * X-Twilio-Signature) so the PocketBase side is the code that talks to Twilio.
 * It does not fetch `Url` TwiML nor place any call. What happens at a number
 * is chosen by the number dialled (telephony/resource.ts STANDIN_NUMBERS,
 * README "Telephony stand-in"): answered by a person, voicemail (async
 * answering-machine detection), busy, no answer, invalid, a person who
 * presses 1 at the <Gather>, busy once then answered. A live call's TwiML can
 * be replaced (POST .../Calls/{sid}.json) and text messages sent
 * (POST .../Messages.json).
 *
 * This file is the routes; the parts are in telephony/: resource.ts (the
 * Call resource, its checks and JSON), callbacks.ts (the status steps and
 * signed callbacks), http.ts (plumbing), cli.ts (run it on its own).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createCallbackScheduler } from './telephony/callbacks.ts';
import { basicAuthUser, listen, notFound, readBody, sendError, sendJson } from './telephony/http.ts';
import {
  callResource,
  createCall,
  createMessage,
  lifecycle,
  messageResource,
  scenarioFor,
  type FinalCallStatus,
  type StandinCall,
  type StandinMessage,
} from './telephony/resource.ts';

export type {
  CallStatus,
  FinalCallStatus,
  StandinCall,
  StandinCallback,
  StandinMessage,
  StatusCallbackEvent,
} from './telephony/resource.ts';
export { STANDIN_NUMBERS } from './telephony/resource.ts';

export interface TelephonyStandinOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  accountSid: string;
  authToken: string;
  /** Time between two status changes of a call. */
  stepDelayMs?: number;
  /** Every call ends so, whatever the number; unset: chosen by the number dialled. */
  finalStatus?: FinalCallStatus;
}

export interface TelephonyStandin {
  url: string;
  calls: StandinCall[];
  /** Text messages sent, in order. */
  messages: StandinMessage[];
  /** Calls read back (GET), by sid, in order: how a lost final status is recovered. */
  lookups: string[];
  stop(): Promise<void>;
}

const LIST_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/;
const ONE_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/;
const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

export async function startTelephonyStandin(options: TelephonyStandinOptions): Promise<TelephonyStandin> {
  const { accountSid, authToken } = options;
  const calls: StandinCall[] = [];
  const messages: StandinMessage[] = [];
  const lookups: string[] = [];
  // Calls so far to each number: "busy once, then answers" needs it.
  const dials = new Map<string, number>();
  const scheduler = createCallbackScheduler({ accountSid, authToken, stepDelayMs: options.stepDelayMs ?? 1500 });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://standin').pathname;
    const list = LIST_PATH.exec(path);
    const one = ONE_PATH.exec(path);
    // Only sending is modelled: other methods on Messages.json are unknown here.
    const message = req.method === 'POST' ? MESSAGES_PATH.exec(path) : null;
    const pathAccount = list?.[1] ?? one?.[1] ?? message?.[1];
    if (pathAccount === undefined) return notFound(res, path);

    const auth = basicAuthUser(req);
    if (!auth || auth.user !== accountSid || auth.password !== authToken) {
      return sendError(
        res,
        { status: 401, code: 20003, message: 'Authenticate' },
        { 'WWW-Authenticate': 'Basic realm="Twilio API"' },
      );
    }
    if (pathAccount !== accountSid) return notFound(res, path);

    // Only what the app uses: create a call or a message, read or update one call.
    const allowed = list || message ? ['POST'] : ['GET', 'POST'];
    if (!allowed.includes(req.method ?? '')) {
      res.setHeader('Allow', allowed.join(', '));
      return sendError(res, { status: 405, code: 20004, message: 'Method not allowed' });
    }

    const existing = one ? calls.find((c) => c.sid === one[2]) : undefined;
    if (one && !existing) return notFound(res, path);
    if (existing && req.method === 'GET') {
      lookups.push(existing.sid);
      return sendJson(res, 200, callResource(existing, accountSid));
    }

    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      return sendError(res, {
        status: 400,
        code: 21200,
        message: 'Request body must be application/x-www-form-urlencoded',
      });
    }
    const body = await readBody(req);
    if (body === null) return sendError(res, { status: 413, code: 21200, message: 'Request body too large' });
    const form = new URLSearchParams(body);

    if (existing) {
      // Update a live call: new TwiML plays from now on (e.g. the message
      // after a machine's beep). An ended call cannot be changed (21220).
      const twiml = form.get('Twiml');
      if (!twiml) return sendError(res, { status: 400, code: 21205, message: 'Twiml parameter is required.' });
      if (['completed', 'busy', 'no-answer', 'failed', 'canceled'].includes(existing.status)) {
        return sendError(res, { status: 400, code: 21220, message: 'Call is not in-progress. Cannot redirect.' });
      }
      existing.updates.push(twiml);
      return sendJson(res, 200, callResource(existing, accountSid));
    }

    if (message) {
      const sent = createMessage(form);
      if (!('sid' in sent)) return sendError(res, sent);
      messages.push(sent);
      // "Speaks" it: where a person running `npm start` sees it.
      console.log(`telephony stand-in: text to ${sent.to}: ${sent.body}`);
      return sendJson(res, 201, messageResource(sent, accountSid));
    }

    const call = createCall(form);
    if (!('sid' in call)) return sendError(res, call);
    calls.push(call);
    const dial = (dials.get(call.to) ?? 0) + 1;
    dials.set(call.to, dial);
    sendJson(res, 201, callResource(call, accountSid));
    if (options.finalStatus) scheduler.advance(call, lifecycle(options.finalStatus));
    else {
      const scenario = scenarioFor(call.to, dial);
      scheduler.advance(call, lifecycle(scenario.final), scenario);
    }
  }

  const server = await listen(options.port ?? 0, options.host ?? '127.0.0.1', handle);
  let stopping: Promise<void> | null = null;
  return {
    url: server.url,
    calls,
    messages,
    lookups,
    stop() {
      if (!stopping) {
        scheduler.stop();
        stopping = server.close();
      }
      return stopping;
    },
  };
}
