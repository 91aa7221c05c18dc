/**
 * A local stand-in for the slice of Twilio's Programmable Voice REST API the
 * app uses: create an outbound call (POST .../Calls.json), read it back, and
 * receive signed status callbacks as the call progresses. It speaks the real
 * wire format (form bodies, basic auth, Twilio's error JSON and codes,
 * X-Twilio-Signature) so the PocketBase side is the code that talks to Twilio.
 * It does not fetch `Url` TwiML nor place any call.
 *
 * This file is the routes; the parts are in telephony/: resource.ts (the
 * Call resource, its checks and JSON), callbacks.ts (the status steps and
 * signed callbacks), http.ts (plumbing), cli.ts (run it on its own).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createCallbackScheduler } from './telephony/callbacks.ts';
import { basicAuthUser, listen, notFound, readBody, sendError, sendJson } from './telephony/http.ts';
import { callResource, createCall, lifecycle, type FinalCallStatus, type StandinCall } from './telephony/resource.ts';

export type { CallStatus, FinalCallStatus, StandinCall, StandinCallback, StatusCallbackEvent } from './telephony/resource.ts';

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

const LIST_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/;
const ONE_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/;

export async function startTelephonyStandin(options: TelephonyStandinOptions): Promise<TelephonyStandin> {
  const { accountSid, authToken } = options;
  const finalStatus = options.finalStatus ?? 'completed';
  const calls: StandinCall[] = [];
  const scheduler = createCallbackScheduler({ accountSid, authToken, stepDelayMs: options.stepDelayMs ?? 1500 });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://standin').pathname;
    const list = LIST_PATH.exec(path);
    const one = ONE_PATH.exec(path);
    const pathAccount = list?.[1] ?? one?.[1];
    if (pathAccount === undefined) return notFound(res, path);

    const auth = basicAuthUser(req);
    if (!auth || auth.user !== accountSid || auth.password !== authToken) {
      return sendError(res, { status: 401, code: 20003, message: 'Authenticate' }, { 'WWW-Authenticate': 'Basic realm="Twilio API"' });
    }
    if (pathAccount !== accountSid) return notFound(res, path);

    // Only what the app uses: create via the list, read one call.
    const allowed = list ? 'POST' : 'GET';
    if (req.method !== allowed) {
      res.setHeader('Allow', allowed);
      return sendError(res, { status: 405, code: 20004, message: 'Method not allowed' });
    }

    if (one) {
      const call = calls.find((c) => c.sid === one[2]);
      return call ? sendJson(res, 200, callResource(call, accountSid)) : notFound(res, path);
    }

    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      return sendError(res, { status: 400, code: 21200, message: 'Request body must be application/x-www-form-urlencoded' });
    }
    const body = await readBody(req);
    if (body === null) return sendError(res, { status: 413, code: 21200, message: 'Request body too large' });
    const call = createCall(new URLSearchParams(body));
    if (!('sid' in call)) return sendError(res, call);
    calls.push(call);
    sendJson(res, 201, callResource(call, accountSid));
    scheduler.advance(call, lifecycle(finalStatus));
  }

  const server = await listen(options.port ?? 0, options.host ?? '127.0.0.1', handle);
  let stopping: Promise<void> | null = null;
  return {
    url: server.url,
    calls,
    stop() {
      if (!stopping) {
        scheduler.stop();
        stopping = server.close();
      }
      return stopping;
    },
  };
}
