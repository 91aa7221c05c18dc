/**
 * The stand-in's callback scheduler: moves each call through its statuses
 * one step per `stepDelayMs` and posts Twilio's signed status callbacks,
 * retrying a failed one as Twilio does. Stopping it cancels every pending
 * step and aborts the requests in flight.
 */
import { twilioSignature } from '../twilio-signature.ts';
import { callbackParams, enterStatus, wantsCallback, type CallStatus, type StandinCall, type StandinCallback } from './resource.ts';

// Twilio gives up on a webhook after 15 s.
const CALLBACK_TIMEOUT_MS = 15_000;
const MAX_CALLBACK_RETRIES = 2;

export interface CallbackScheduler {
  /** Starts moving `call` through `steps`. */
  advance(call: StandinCall, steps: CallStatus[]): void;
  stop(): void;
}

export function createCallbackScheduler(options: { accountSid: string; authToken: string; stepDelayMs: number }): CallbackScheduler {
  const { accountSid, authToken, stepDelayMs } = options;
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
    const params = callbackParams(call, status, accountSid);
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
      enterStatus(call, status, rest.length === 0);
      const done = call.statusCallback && wantsCallback(call, status) ? deliver(call, status) : Promise.resolve();
      void done.then(() => advance(call, rest));
    });
  }

  return {
    advance,
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      inFlight.abort();
    },
  };
}
