/**
 * src/data/sync/ is the sync machinery, which the screens never import: this
 * engine, the pulls (pull.ts, the id ranges of ranges.ts), realtime
 * (realtime.ts), the reconciliation that finds deletions (reconcile.ts), the
 * outbox (outbox.ts) and its replay (replay.ts: lanes.ts, upload.ts, the
 * lease of lease.ts, the conflicts of conflicts.ts), the session it watches
 * (session.ts), the Background Sync tag (syncTag.ts). The screens see its
 * state through src/data/hooks.ts.
 *
 * The window's sync engine for one signed-in user: first and incremental
 * pulls, realtime, periodic id reconciliation, and the outbox replay on
 * every occasion a browser gives (start, `online`, `visibilitychange`, a
 * timer, each new write). Background Sync is registered too, so the service
 * worker replays when the page is gone; browsers without it rely on the
 * window's triggers.
 *
 * It also watches the session: PocketBase answers a void token's reads as a
 * guest's (empty lists, no error), so a sync could look fine while nothing
 * can be sent. Each sync first renews the token; a refusal (or any 401)
 * sets `authRequired`, which stops replays, pulls and reconciliation (an
 * empty guest list would otherwise look like every record was deleted) until
 * the user signs in again. A network error is never taken for an expiry.
 */
import type PocketBase from 'pocketbase';
import { MIRRORED_COLLECTIONS, type CollectionName } from '../../api/records.ts';
import { userDatabase, type ScmsDatabase } from '../mirror/db.ts';
import { outboxIsEmpty } from '../mirror/mirror.ts';
import { onOutboxWrite } from './outbox.ts';
import { collectionsToLoad, pullAll, type LoadProgress, type PullContext } from './pull.ts';
import { isHistory, type HistoryCollection } from './ranges.ts';
import { subscribeRealtime } from './realtime.ts';
import { releaseLease } from './lease.ts';
import type { ReplayOutcome, ReplayResult, SendingProgress } from './replay.ts';
import { refreshSession, type SessionCheck } from './session.ts';
import { SYNC_TAG } from './syncTag.ts';

export { SYNC_TAG };
const REPLAY_INTERVAL_MS = 30_000;
/** Another replayer holds the lease (a closing tab, the worker): look again soon rather than at the next timer. */
const BUSY_RETRY_MS = 5_000;
const RECONCILE_INTERVAL_MS = 5 * 60_000;
/** A load's progress reaches the screens at most this often... */
const PROGRESS_EVERY_MS = 250;
/** ...and its end within this: the ends of the small collections, which come close together, are drawn once. */
const LOAD_END_WITHIN_MS = 30;
/** A live connection that could not be made is tried again after a pause that doubles up to a minute. */
const REALTIME_RETRY_FIRST_MS = 2_000;
const REALTIME_RETRY_MAX_MS = 60_000;

export interface EngineStatus {
  /** The browser says it is online and the last request reached the server. */
  online: boolean;
  syncing: boolean;
  /** The server refused the session (expired or revoked): queued work waits for the next sign-in. */
  authRequired: boolean;
  lastError: string | null;
  /**
   * Loads under way, by collection: a first load, or older reports. Until
   * the engine has looked at the mirror every collection counts as loading,
   * so a screen never says "0 homes" for a mirror that is still filling.
   * Absent or empty: nothing is loading.
   */
  loading?: Partial<Record<CollectionName, LoadProgress>>;
  /** An entry with photos on its way: which of the queue, and how far its bytes are. */
  sending?: SendingProgress | null;
}

const ASSUMED_LOADING: NonNullable<EngineStatus['loading']> = Object.fromEntries(
  MIRRORED_COLLECTIONS.map((c) => [c, { loaded: 0, total: null }]),
);

export class SyncEngine {
  readonly db: ScmsDatabase;
  private status: EngineStatus = {
    online: true,
    syncing: false,
    authRequired: false,
    lastError: null,
    loading: ASSUMED_LOADING,
  };
  private listeners = new Set<() => void>();
  private cleanups: Array<() => void> = [];
  private unsubscribeRealtime: (() => Promise<void>) | null = null;
  /** The pause before the next attempt at the live connection; 0 after one succeeded. */
  private realtimeRetryMs = 0;
  /** Calls off the attempt waiting, if any (on stop). */
  private cancelRealtimeRetry: () => void = () => undefined;
  private replaying: Promise<ReplayOutcome | null> | null = null;
  private replayAgain = false;
  /** Older-report loads under way (their progress outlives a pull's end). */
  private rangeLoads = 0;
  private pulling: Promise<void> | null = null;
  /** Progress not announced yet, and the timer that announces it (onProgress). */
  private readonly progressDue = new Map<CollectionName, LoadProgress | null>();
  private progressTimer: number | undefined;
  /** When the timer fires (performance.now()). */
  private progressAt = Infinity;
  /** A pull was asked for while one ran: its queries may have gone out before the change that asked. */
  private pullAgain = false;
  private checkingSession: Promise<SessionCheck> | null = null;
  private stopped = false;
  private readonly owner = `window-${Math.random().toString(36).slice(2)}`;

  constructor(
    private readonly pb: PocketBase,
    readonly userId: string,
  ) {
    this.db = userDatabase(userId);
  }

  start(): void {
    this.stopped = false;
    // A new status object, announced: the screens may have read the old one already.
    this.setStatus({ online: typeof navigator === 'undefined' ? true : navigator.onLine });
    const onOnline = () => {
      this.setStatus({ online: true });
      // Connectivity is back: do not wait out the back-off of attempts made offline.
      void this.checkSession()
        .then(() => this.replay({ retryNow: true }))
        .then(() => this.pull());
    };
    const onOffline = () => this.setStatus({ online: false });
    // A page that goes away mid-replay frees the lease for the next page at once
    // (best effort: the transaction starts before the page is gone).
    const onPageHide = () => void releaseLease(this.db, this.owner);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void this.syncNow();
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('pagehide', onPageHide);
    const replayTimer = window.setInterval(() => void this.replay(), REPLAY_INTERVAL_MS);
    const reconcileTimer = window.setInterval(() => void this.reconcile(), RECONCILE_INTERVAL_MS);
    const offWrite = onOutboxWrite(() => {
      void registerBackgroundSync();
      void this.replay();
    });
    this.cleanups.push(
      () => window.removeEventListener('online', onOnline),
      () => window.removeEventListener('offline', onOffline),
      () => document.removeEventListener('visibilitychange', onVisible),
      () => window.removeEventListener('pagehide', onPageHide),
      () => window.clearInterval(replayTimer),
      () => window.clearInterval(reconcileTimer),
      () => this.cancelRealtimeRetry(),
      () => window.clearTimeout(this.progressTimer),
      offWrite,
    );
    void this.noteFirstLoads();
    void this.syncNow();
    void this.connectRealtime();
  }

  /** Which collections still need their first load (the others stop counting as loading). */
  private async noteFirstLoads(): Promise<void> {
    try {
      const toLoad = new Set(await collectionsToLoad(this.db));
      const loading = Object.fromEntries(
        Object.entries(this.status.loading ?? {}).filter(([c]) => toLoad.has(c as CollectionName)),
      );
      this.setStatus({ loading });
    } catch {
      this.setStatus({ loading: {} });
    }
  }

  /**
   * A load's progress, announced at most every PROGRESS_EVERY_MS, and a
   * load's end within LOAD_END_WITHIN_MS: each announcement re-renders at
   * once (useSyncExternalStore) the screens that read the status, the Homes
   * list among them, which shows the top of the list during a first load.
   * A first sync starts, sizes and ends nineteen loads; announced one by one,
   * their fifty-odd renders made React's share of a first sync's main thread
   * at 5,000 homes 308 ms instead of 170 (docs/performance.md).
   */
  private readonly onProgress = (collection: CollectionName, progress: LoadProgress | null): void => {
    this.progressDue.set(collection, progress);
    const within = progress === null ? LOAD_END_WITHIN_MS : PROGRESS_EVERY_MS;
    const at = performance.now() + within;
    if (at >= this.progressAt) return;
    window.clearTimeout(this.progressTimer);
    this.progressAt = at;
    this.progressTimer = window.setTimeout(() => this.announceProgress(), within);
  };

  private announceProgress(): void {
    window.clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    this.progressAt = Infinity;
    const loading = { ...this.status.loading };
    for (const [collection, progress] of this.progressDue) {
      if (progress) loading[collection] = progress;
      else delete loading[collection];
    }
    this.progressDue.clear();
    this.setStatus({ loading });
  }

  private context(): PullContext {
    return { pb: this.pb, db: this.db, onProgress: this.onProgress };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    await this.unsubscribeRealtime?.();
    this.unsubscribeRealtime = null;
  }

  getStatus = (): EngineStatus => this.status;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Upload progress comes many times a second: the badge changes once per whole percent. */
  private showSending(sending: SendingProgress | null): void {
    const percent = (p: SendingProgress | null | undefined) =>
      p && p.total > 0 ? Math.floor((100 * p.sent) / p.total) : -1;
    const shown = this.status.sending;
    if (sending && shown && shown.entry === sending.entry && percent(shown) === percent(sending)) return;
    this.setStatus({ sending });
  }

  private setStatus(patch: Partial<EngineStatus>): void {
    this.status = { ...this.status, ...patch };
    for (const listener of this.listeners) listener();
  }

  private noteError(error: unknown): void {
    const status = (error as { status?: number } | null)?.status;
    if (status === 0) this.setStatus({ online: false });
    else if (status === 401) this.setStatus({ authRequired: true });
    else this.setStatus({ lastError: error instanceof Error ? error.message : String(error) });
  }

  /**
   * Renews the token, which tells whether the server still accepts it. Runs
   * even while `authRequired` is set: another tab may have signed in again
   * (the SDK shares the token through local storage).
   */
  async checkSession(): Promise<SessionCheck> {
    if (this.stopped) return 'offline';
    this.checkingSession ??= (async () => {
      try {
        const result = await refreshSession(this.pb);
        if (!this.stopped && result !== 'offline' && this.status.authRequired !== (result === 'expired')) {
          this.setStatus({ authRequired: result === 'expired' });
        }
        return result;
      } finally {
        this.checkingSession = null;
      }
    })();
    return this.checkingSession;
  }

  /** Checks the session, sends the outbox, then pulls what changed. */
  async syncNow(): Promise<void> {
    await this.checkSession();
    await this.replay();
    await this.pull();
  }

  async pull(): Promise<void> {
    // Offline by the browser's word, a pull would only fail (after loading its code, on an offline
    // start while the first screen draws); the `online` event pulls when the network is back.
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    if (this.stopped || this.status.authRequired || offline) {
      // No pull is coming: what the mirror has is what the screens show.
      if (Object.keys(this.status.loading ?? {}).length > 0 && !this.pulling) this.setStatus({ loading: {} });
      return;
    }
    // One pull at a time; one asked for meanwhile (a realtime reconnect filling its gap,
    // the network back) runs once more after it, as a replay does: joining the running
    // one would miss a change made after its queries went out, until some later pull.
    if (this.pulling) {
      this.pullAgain = true;
      return this.pulling;
    }
    this.pulling = (async () => {
      this.setStatus({ syncing: true });
      try {
        do {
          this.pullAgain = false;
          await pullAll(this.context());
        } while (this.pullAgain && !this.stopped && !this.status.authRequired);
        this.setStatus({ online: true, lastError: null });
      } catch (error) {
        this.noteError(error);
      } finally {
        this.pulling = null;
        // What a load said before it ended is old news now.
        window.clearTimeout(this.progressTimer);
        this.progressTimer = undefined;
        this.progressAt = Infinity;
        this.progressDue.clear();
        // Every first load has ended (done, or failed: the screens then show what the mirror has); a load of an older part of a history may go on.
        const histories = Object.entries(this.status.loading ?? {}).filter(([collection]) =>
          isHistory(collection as CollectionName),
        );
        this.setStatus({ syncing: false, loading: this.rangeLoads > 0 ? Object.fromEntries(histories) : {} });
      }
    })();
    return this.pulling;
  }

  /**
   * One replay at a time in this window; a write during a replay asks for
   * another round. Resolves to how the last round ended ('busy': another
   * replayer, a tab or the service worker, holds the outbox), or null when
   * no replay ran or it failed.
   */
  async replay(options: { retryNow?: boolean } = {}): Promise<ReplayOutcome | null> {
    if (this.stopped || this.status.authRequired) return null;
    if (this.replaying) {
      this.replayAgain = true;
      return this.replaying;
    }
    this.replaying = (async () => {
      try {
        let retryNow = options.retryNow ?? false;
        let outcome: ReplayOutcome | null = null;
        do {
          this.replayAgain = false;
          // Nothing queued (a new phone, most of the time): neither the replayer's code nor its lease,
          // which stood between a sign-in and its first pull.
          if (await outboxIsEmpty(this.db)) {
            outcome = 'done';
            continue;
          }
          // The replayer's code (batches, uploads, conflicts) loads with the first replay, not with the
          // screens: it is not needed to show the first home (the bundle budget, scripts/bundle-budget.ts).
          const { replayOutbox } = await import('./replay.ts');
          const result = await replayOutbox({
            pb: this.pb,
            db: this.db,
            owner: this.owner,
            retryNow,
            onProgress: (sending) => this.showSending(sending),
          });
          retryNow = false;
          outcome = result.outcome;
          this.applyOutcome(result);
        } while (this.replayAgain && !this.stopped);
        return outcome;
      } catch (error) {
        this.noteError(error);
        return null;
      } finally {
        this.replaying = null;
      }
    })();
    return this.replaying;
  }

  private applyOutcome({ outcome, delivered }: ReplayResult): void {
    if (outcome === 'busy') {
      const timer = window.setTimeout(() => void this.replay(), BUSY_RETRY_MS);
      this.cleanups.push(() => window.clearTimeout(timer));
    } else if (outcome === 'offline') this.setStatus({ online: false });
    else if (outcome === 'auth-required') this.setStatus({ authRequired: true });
    // An empty outbox says nothing about the server: only a delivery proves it is reachable.
    else if (outcome === 'done' && delivered > 0) this.setStatus({ online: true, authRequired: false });
  }

  /** Also the periodic session check: reconciling with a void token would read empty lists. */
  async reconcile(): Promise<void> {
    if ((await this.checkSession()) !== 'ok') return;
    try {
      // Right after a pull the mirror holds every record the server had, so equal counts mean nothing was deleted.
      await this.pull();
      // Its own module, fetched when it first runs: a screen's first paint does not carry it.
      const { reconcileAll } = await import('./reconcile.ts');
      await reconcileAll({ pb: this.pb, db: this.db }, MIRRORED_COLLECTIONS);
    } catch (error) {
      this.noteError(error);
    }
  }

  /** For a screen of a period (reports, rounds): makes sure the histories' records of [from, to] are in the mirror. */
  async loadHistoryRange(collections: readonly HistoryCollection[], from: Date, to: Date): Promise<void> {
    this.rangeLoads++;
    try {
      // The loads' module, fetched when a load starts (pull.ts).
      const { ensureHistoryRange } = await import('./load.ts');
      await ensureHistoryRange(this.context(), collections, { from: from.getTime(), to: to.getTime() });
    } finally {
      this.rangeLoads--;
    }
  }

  private async connectRealtime(): Promise<void> {
    try {
      this.unsubscribeRealtime = await subscribeRealtime(
        this.pb,
        this.db,
        // Every (re)connect fills the gap with an incremental pull.
        () => void this.syncNow(),
        (error) => this.noteError(error),
      );
      this.realtimeRetryMs = 0;
      if (this.stopped) await this.unsubscribeRealtime();
    } catch (error) {
      // Once subscribed, the SDK reconnects on its own; a first connect that failed
      // (offline, or a weak signal that failed the request while the browser still
      // says it is online) is tried again here.
      this.noteError(error);
      this.retryRealtime();
    }
  }

  /**
   * The next attempt at the live connection: as soon as the browser comes
   * back online, or after a pause that doubles up to a minute. Waiting for
   * `online` alone would never retry a connection that failed while the
   * browser said it was online, nor one whose `online` event came while the
   * failed attempt was still being cleaned up.
   */
  private retryRealtime(): void {
    if (this.stopped) return;
    this.realtimeRetryMs = Math.min(REALTIME_RETRY_MAX_MS, this.realtimeRetryMs * 2 || REALTIME_RETRY_FIRST_MS);
    const retry = () => {
      this.cancelRealtimeRetry();
      if (!this.stopped) void this.connectRealtime();
    };
    window.addEventListener('online', retry);
    const timer = window.setTimeout(retry, this.realtimeRetryMs);
    this.cancelRealtimeRetry = () => {
      window.removeEventListener('online', retry);
      window.clearTimeout(timer);
    };
  }
}

/** Asks the service worker to replay when connectivity returns (Chromium's Background Sync). */
export async function registerBackgroundSync(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  try {
    // `ready` never settles where no worker was registered (the dev server).
    const ready = Promise.race([
      navigator.serviceWorker.ready,
      new Promise<null>((r) => setTimeout(() => r(null), 3_000)),
    ]);
    const registration = (await ready) as
      (ServiceWorkerRegistration & { sync?: { register: (tag: string) => Promise<void> } }) | null;
    if (!registration?.sync) return false;
    await registration.sync.register(SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}
