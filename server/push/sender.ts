/**
 * The push sender: delivers the `notifications` records the hooks make
 * (pocketbase/pb_hooks/lib/push.js) to their users' browsers, beside
 * PocketBase (scripts/start.ts), signed in as superuser (notifications have
 * no API rule: nobody else reads them).
 *
 * It hears of new notifications through PocketBase's realtime and also
 * looks every `pollMs` (30 s), since realtime misses what is created while
 * it reconnects (a PocketBase restart) and the sender may have been down.
 *
 * Delivery, at least once, shown once:
 * - 'pending' → 'sending' (attempts + 1) before anything is sent, so a crash
 *   mid-delivery leaves a trace; then 'sent' (sent_at) once one of the
 *   user's subscriptions accepted (2xx), 'failed' (error) when none did,
 *   'no_subscription' when the user has none left.
 * - A 'failed' one is tried again by later polls, a 'sending' one once it
 *   is 2 minutes old (its sender died), every 'sending' one at start-up (the
 *   previous process crashed or was stopped mid-delivery), up to 5 attempts.
 * - A repeat is harmless: each message carries the same RFC 8030 Topic (a
 *   hash of the id), so the push service replaces a copy it still holds,
 *   and the service worker shows it with tag = id, so a phone that got both
 *   shows one.
 * - A subscription the push service answers 404 or 410 is deleted.
 * One sender per server: it claims records without a lock.
 */
import { EventSource } from 'eventsource';
import PocketBase, { ClientResponseError, type RecordModel } from 'pocketbase';
import { sendPush, topicFor, type PushOutcome } from './deliver.ts';
import { pushEndpointProblem } from './hosts.ts';
import type { VapidKeys } from './vapid.ts';

// PocketBase's realtime is Server-Sent Events; Node 20 has no EventSource of its own.
if (!('EventSource' in globalThis)) {
  (globalThis as unknown as { EventSource: typeof EventSource }).EventSource = EventSource;
}

export interface PushSenderOptions {
  pocketBaseUrl: string;
  superuser: { email: string; password: string };
  /** The keys, or how to read them at each round (a restore may bring back the data folder's own: server/push/vapid.ts). */
  vapid: VapidKeys | (() => VapidKeys);
  /** How often it looks for work besides realtime (default 30 s). */
  pollMs?: number;
  /** VAPID subject (default SCMS_PUSH_SUBJECT, else mailto: and the superuser's e-mail). */
  subject?: string;
  /** SCMS_PUSH_HOSTS's syntax (default that variable): server/push/hosts.ts. */
  allowedHosts?: string;
  /** How long one push service may take to answer (default 30 s). */
  requestTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface PushSender {
  stop(): Promise<void>;
}

const MAX_ATTEMPTS = 5;
/** A 'sending' record this old lost its sender. */
const STALE_SENDING_MS = 2 * 60 * 1000;
/** Records a round takes; a full page asks for another round. */
const PAGE = 100;
/** Notifications delivered at once (each to all of its user's browsers). */
const PARALLEL = 4;
const TTL_SECONDS = 3600;

/** What a round looks at: new ones only (realtime), also retries (a poll), also every 'sending' (start-up). */
type Scope = 'pending' | 'due' | 'startup';
const WIDTH: Record<Scope, number> = { pending: 0, due: 1, startup: 2 };

interface NotificationRecord extends RecordModel {
  user: string;
  kind: string;
  title: string;
  body: string;
  url: string;
  state: string;
  attempts: number;
}

export function startPushSender(options: PushSenderOptions): PushSender {
  const pollMs = options.pollMs ?? 30_000;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const subject = options.subject ?? process.env.SCMS_PUSH_SUBJECT ?? `mailto:${options.superuser.email}`;
  const allowedHosts = options.allowedHosts ?? process.env.SCMS_PUSH_HOSTS;
  const log = options.log ?? ((line: string) => process.stderr.write(`push sender: ${line}\n`));
  const keys = () => (typeof options.vapid === 'function' ? options.vapid() : options.vapid);
  const pb = new PocketBase(options.pocketBaseUrl);
  pb.autoCancellation(false);
  const abort = new AbortController();

  let stopped = false;
  let startupDone = false;
  let wanted: Scope | null = null;
  let running: Promise<void> | null = null;
  let lastProblem = '';
  let subscribed = false;

  const problem = (message: string) => {
    // Once per kind of trouble, not every 30 s while PocketBase is down.
    if (message !== lastProblem) log(message);
    lastProblem = message;
  };

  async function signIn(): Promise<void> {
    if (pb.authStore.isValid) return;
    await pb.collection('_superusers').authWithPassword(options.superuser.email, options.superuser.password);
  }

  /** A call to PocketBase, signing in again once when the token is no longer accepted (a password change, a restore). */
  async function call<T>(request: () => Promise<T>): Promise<T> {
    await signIn();
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof ClientResponseError) || (error.status !== 401 && error.status !== 403)) throw error;
      pb.authStore.clear();
      await signIn();
      return request();
    }
  }

  function listen(): void {
    if (subscribed || stopped) return;
    subscribed = true;
    // Not awaited: while PocketBase is down the SDK keeps reconnecting, and the polls carry on meanwhile.
    pb.collection('notifications')
      .subscribe('*', (event) => {
        if (event.action === 'create' && event.record.state === 'pending') want('pending');
      })
      .catch((error: Error) => {
        subscribed = false;
        if (!stopped) problem(`realtime: ${error.message}`);
      });
    // Each (re)connection, once the subscription above is in: what was created while realtime was away.
    pb.realtime
      .subscribe('PB_CONNECT', () => {
        log('realtime connected: new notifications are sent at once');
        want('pending');
      })
      .catch(() => undefined);
  }

  function want(scope: Scope): void {
    if (stopped) return;
    if (!startupDone && scope !== 'pending') scope = 'startup';
    if (wanted === null || WIDTH[scope] > WIDTH[wanted]) wanted = scope;
    running ??= drain().finally(() => (running = null));
  }

  async function drain(): Promise<void> {
    while (wanted !== null && !stopped) {
      const scope = wanted;
      wanted = null;
      try {
        await round(scope);
        if (scope === 'startup') startupDone = true;
        lastProblem = '';
      } catch (error) {
        problem(`cannot deliver now (${(error as Error).message}); trying again in ${Math.round(pollMs / 1000)} s`);
      }
    }
  }

  function filterFor(scope: Scope): string {
    const parts = ["state = 'pending'"];
    if (scope !== 'pending') parts.push(`(state = 'failed' && attempts < ${MAX_ATTEMPTS})`);
    if (scope === 'startup') parts.push("state = 'sending'");
    if (scope === 'due')
      parts.push(
        pb.filter("(state = 'sending' && updated < {:stale})", { stale: new Date(Date.now() - STALE_SENDING_MS) }),
      );
    return parts.join(' || ');
  }

  async function round(scope: Scope): Promise<void> {
    await signIn();
    listen();
    const page = await call(() =>
      pb.collection('notifications').getList<NotificationRecord>(1, PAGE, {
        filter: filterFor(scope),
        sort: 'created',
        skipTotal: true,
      }),
    );
    const queue = [...page.items];
    let failure: unknown = null;
    const worker = async () => {
      for (let next = queue.shift(); next && !stopped && failure === null; next = queue.shift()) {
        // One failure (PocketBase gone) ends the round, but only once every worker is done:
        // the next round must not find a record this one is still sending.
        await deliver(next).catch((error: unknown) => (failure ??= error));
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    if (failure !== null) throw failure;
    if (page.items.length === PAGE) want('pending');
  }

  async function update(id: string, values: Record<string, unknown>): Promise<void> {
    await call(() => pb.collection('notifications').update(id, values));
  }

  async function deliver(notification: NotificationRecord): Promise<void> {
    if (notification.state === 'sending' && notification.attempts >= MAX_ATTEMPTS) {
      await update(notification.id, { state: 'failed', error: `Given up after ${MAX_ATTEMPTS} attempts.` });
      return;
    }
    const attempts = notification.attempts + 1;
    await update(notification.id, { state: 'sending', attempts });
    const subscriptions = await call(() =>
      pb.collection('push_subscriptions').getFullList({ filter: pb.filter('user = {:u}', { u: notification.user }) }),
    );
    if (subscriptions.length === 0) {
      await update(notification.id, { state: 'no_subscription', error: '' });
      return;
    }
    const vapid = { ...keys(), subject };
    const message = {
      payload: JSON.stringify({
        id: notification.id,
        kind: notification.kind,
        title: notification.title,
        body: notification.body,
        url: notification.url,
      }),
      topic: topicFor(notification.id),
      urgency: notification.kind === 'panic' || notification.kind === 'missed_check_in' ? 'high' : 'normal',
      ttl: TTL_SECONDS,
    } as const;
    const outcomes = await Promise.all(
      subscriptions.map(async (subscription): Promise<PushOutcome> => {
        const endpoint = String(subscription.endpoint);
        const refused = pushEndpointProblem(endpoint, allowedHosts);
        if (refused !== '') return { kind: 'failed', error: `not sent to ${endpoint.slice(0, 80)}: ${refused}` };
        const target = { endpoint, p256dh: String(subscription.p256dh), auth: String(subscription.auth) };
        return sendPush(target, message, vapid, { signal: abort.signal, timeoutMs });
      }),
    );
    // Stopped mid-delivery: it stays 'sending', and the next start sends it again.
    if (outcomes.some((outcome) => outcome.kind === 'aborted')) return;
    const gone = subscriptions.filter((_, i) => outcomes[i]!.kind === 'gone');
    for (const subscription of gone) {
      await call(() => pb.collection('push_subscriptions').delete(subscription.id)).catch((error: unknown) => {
        if (!(error instanceof ClientResponseError && error.status === 404)) throw error;
      });
    }
    const errors = outcomes.flatMap((outcome) => (outcome.kind === 'failed' ? [outcome.error] : []));
    if (outcomes.some((outcome) => outcome.kind === 'accepted')) {
      await update(notification.id, { state: 'sent', sent_at: new Date().toISOString(), error: '' });
    } else if (gone.length === subscriptions.length) {
      await update(notification.id, { state: 'no_subscription', error: 'Every subscription of the user had expired.' });
    } else {
      await update(notification.id, { state: 'failed', error: errors.join('; ').slice(0, 500) });
    }
  }

  want('startup');
  const poll = setInterval(() => want('due'), pollMs);

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(poll);
      abort.abort();
      await running?.catch(() => undefined);
      // Not awaited for long: with PocketBase down the SDK has nothing to tell it.
      await Promise.race([
        pb.realtime.unsubscribe().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 1000)),
      ]);
      pb.cancelAllRequests();
    },
  };
}
