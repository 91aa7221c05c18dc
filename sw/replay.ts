/**
 * The worker's side of the outbox: the same replay the window runs
 * (src/data/sync/replay.ts), with the session the window mirrors into IndexedDB
 * (the worker has no local storage).
 */
import { userDatabase } from '../src/data/mirror/db.ts';
import { replayOutbox, type ReplayOutcome, type ReplayResult } from '../src/data/sync/replay.ts';
import { clientFromSavedSession } from '../src/data/sync/session.ts';

export { SYNC_TAG } from '../src/data/sync/syncTag.ts';

/** One replayer id for this worker: the lease keeps it apart from the tabs. */
const OWNER = 'service-worker';

export interface WorkerReplayResult extends ReplayResult {
  /** Whether the browser should try again later (Background Sync retries a rejected event). */
  retry: boolean;
  /** For 'waiting': when the first pending entry's back-off ends (epoch ms). */
  retryAt?: number;
}

/**
 * Outcomes after which the outbox still holds work the worker could send
 * later. 'busy' and 'lost-lease' too: a tab holding the lease may close
 * before it finishes, and a retry that finds an empty outbox costs nothing.
 * 'auth-required' is not: the window replays after the next sign-in.
 */
const RETRY: ReadonlySet<ReplayOutcome> = new Set(['offline', 'waiting', 'busy', 'lost-lease']);

/** The earliest back-off still ahead among the pending entries; undefined when none is ahead. */
async function soonestRetry(pending: { toArray: () => Promise<Array<{ nextAttemptAt: number }>> }) {
  const ahead = (await pending.toArray()).map((entry) => entry.nextAttemptAt).filter((at) => at > Date.now());
  return ahead.length > 0 ? Math.min(...ahead) : undefined;
}

async function replayOnce(retryNow: boolean): Promise<WorkerReplayResult> {
  const session = await clientFromSavedSession();
  if (!session) return { outcome: 'auth-required', delivered: 0, parked: 0, retry: false };
  const db = userDatabase(session.userId);
  const result = await replayOutbox({ pb: session.client, db, owner: OWNER, retryNow });
  // The outbox replays in two lanes (src/data/sync/lanes.ts), each with its own back-off: the soonest of them.
  const retryAt =
    result.outcome === 'waiting' ? await soonestRetry(db.outbox.where('status').equals('pending')) : undefined;
  return { ...result, retry: RETRY.has(result.outcome), retryAt };
}

// Runs one at a time: a sync event and a window's message arriving together
// would otherwise both hold the same owner's lease and send in parallel.
let queue: Promise<unknown> = Promise.resolve();

/** One replay of the outbox (a window's REPLAY message; `retryNow` when connectivity is back). */
export function replayFromWorker(retryNow = false): Promise<WorkerReplayResult> {
  const once = () => replayOnce(retryNow);
  const run = queue.then(once, once);
  queue = run.catch(() => undefined);
  return run;
}

/** How long one sync event keeps trying before it hands back to the browser, whose next try comes minutes later. */
export const SYNC_EVENT_BUDGET_MS = 60_000;
/** Pause before trying again when a tab holds the lease. */
const BUSY_PAUSE_MS = 2_000;

/**
 * The replay of a `sync` event. The browser fires it because the network is
 * back, yet the first entry may still be backing off from an attempt made
 * while offline (a tab tried a second ago), or a closing tab may still hold
 * the lease. Rejecting at once would leave the outbox for the browser's next
 * try, minutes away; short waits are bridged here instead.
 */
export async function replayForSync(now: () => number = Date.now): Promise<WorkerReplayResult> {
  const deadline = now() + SYNC_EVENT_BUDGET_MS;
  let delivered = 0;
  let parked = 0;
  // The browser fires `sync` because connectivity is back: the first round
  // ignores the back-off of an attempt made while offline.
  let retryNow = true;
  for (;;) {
    const result = await replayFromWorker(retryNow);
    retryNow = false;
    delivered += result.delivered;
    parked += result.parked;
    const total = { ...result, delivered, parked };
    // 'offline' although the browser says online: the server is unreachable; the browser retries later.
    if (!result.retry || result.outcome === 'offline') return total;
    const resumeAt = result.outcome === 'waiting' ? (result.retryAt ?? now() + BUSY_PAUSE_MS) : now() + BUSY_PAUSE_MS;
    if (resumeAt > deadline) return total;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, resumeAt - now())));
  }
}
