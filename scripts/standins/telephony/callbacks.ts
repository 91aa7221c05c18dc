/**
 * The stand-in's callback scheduler: moves each call through its statuses
 * one step per `stepDelayMs` and posts Twilio's signed status callbacks,
 * retrying a failed one as Twilio does. Stopping it cancels every pending
 * step and aborts the requests in flight.
 */
import { twilioSignature } from '../twilio-signature.ts';
import {
  API_VERSION,
  callbackParams,
  enterStatus,
  gatherAction,
  wantsCallback,
  type CallStatus,
  type Scenario,
  type StandinCall,
  type StandinCallback,
} from './resource.ts';

// Twilio gives up on a webhook after 15 s.
const CALLBACK_TIMEOUT_MS = 15_000;
const MAX_CALLBACK_RETRIES = 2;

export interface CallbackScheduler {
  /** Starts moving `call` through `steps`; once answered, plays `scenario` (AMD verdict, keys pressed). */
  advance(call: StandinCall, steps: CallStatus[], scenario?: Scenario): void;
  stop(): void;
}

export function createCallbackScheduler(options: {
  accountSid: string;
  authToken: string;
  stepDelayMs: number;
}): CallbackScheduler {
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

  /** One signed POST of `params` to `url` (an AMD result, a <Gather> action), once. */
  async function webhook(
    call: StandinCall,
    kind: 'amd' | 'gather',
    url: string,
    params: Record<string, string>,
  ): Promise<void> {
    const entry = { kind, url, params, httpStatus: null as number | null };
    call.webhooks.push(entry);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'User-Agent': 'TwilioProxy/1.1',
          'X-Twilio-Signature': twilioSignature(authToken, url, params),
        },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.any([inFlight.signal, AbortSignal.timeout(CALLBACK_TIMEOUT_MS)]),
      });
      await res.arrayBuffer();
      entry.httpStatus = res.status;
      if (res.status >= 300) console.error(`telephony stand-in: ${call.sid} ${kind} webhook got HTTP ${res.status}`);
    } catch (err) {
      if (!stopped) console.error(`telephony stand-in: ${call.sid} ${kind} webhook failed: ${String(err)}`);
    }
  }

  /** What the answered call does before it ends: AMD's verdict (async AMD
   *  posts it to its own callback), then the keys pressed at the <Gather> of
   *  the TwiML playing by then (a machine's message has none). */
  async function whileAnswered(call: StandinCall, scenario: Scenario | undefined): Promise<void> {
    if (!scenario) return;
    const base = {
      AccountSid: accountSid,
      ApiVersion: API_VERSION,
      CallSid: call.sid,
      Called: call.to,
      Caller: call.from,
      From: call.from,
      To: call.to,
      Direction: 'outbound-api',
    };
    if (call.machineDetection !== null && scenario.answeredBy !== null) {
      call.answeredBy = scenario.answeredBy;
      if (call.asyncAmd && call.asyncAmdStatusCallback) {
        await webhook(call, 'amd', call.asyncAmdStatusCallback, {
          AccountSid: accountSid,
          CallSid: call.sid,
          AnsweredBy: scenario.answeredBy,
          MachineDetectionDuration: '2400',
        });
      }
    }
    const action = gatherAction(call.updates.at(-1) ?? call.twiml);
    if (scenario.digits !== null && action !== null && !stopped) {
      await webhook(call, 'gather', new URL(action, call.statusCallback ?? undefined).href, {
        ...base,
        CallStatus: 'in-progress',
        Digits: scenario.digits,
        FinishedOnKey: '',
      });
    }
  }

  /** Moves the call through its lifecycle one step per stepDelayMs. The next
   *  step is scheduled only after this step's callback is done, so callbacks
   *  can never arrive out of order. */
  function advance(call: StandinCall, steps: CallStatus[], scenario?: Scenario): void {
    const [status, ...rest] = steps;
    if (!status) return;
    later(stepDelayMs, () => {
      enterStatus(call, status, rest.length === 0);
      const lost = rest.length === 0 && scenario?.finalCallbackLost === true;
      const delivered =
        call.statusCallback && wantsCallback(call, status) && !lost ? deliver(call, status) : Promise.resolve();
      const done = status === 'in-progress' ? delivered.then(() => whileAnswered(call, scenario)) : delivered;
      void done.then(() => advance(call, rest, scenario));
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
