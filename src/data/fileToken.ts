/**
 * File tokens for protected files. Every file field is protected:
 * PocketBase serves a photo or house image only with `?token=` holding a
 * short-lived file token (POST /api/files/token) of a user of the record's
 * community. One token serves every image on screen: it is fetched when the
 * first image needs it, renewed a minute before it expires while any image
 * is still shown, and dropped when the signed-in user changes.
 *
 * Offline (or with a session the server no longer accepts) there is no
 * token: images ask without one and the service worker answers from the
 * signed-in user's image cache, which is keyed without the token.
 */
import { useSyncExternalStore } from 'react';
import PocketBase, { ClientResponseError, getTokenPayload } from 'pocketbase';
import { pb as appClient } from '../api/client.ts';

export interface FileTokenState {
  /** The current file token, or null when none could be had (offline, session refused). */
  token: string | null;
  /** False only while the first token is on its way: an image waits rather than ask without one and be refused. */
  settled: boolean;
}

/** Renewed this long before it expires, so an image that starts loading just before expiry still gets in. */
const RENEW_BEFORE_MS = 60_000;
/**
 * After a failed fetch (offline, server down, a weak signal), tried again
 * while images are shown (and at once on 'online') after a pause that
 * doubles from the first to the last: a request lost on a weak signal that
 * the browser still calls online would otherwise leave the images without a
 * token, showing the stand-in drawing, for the whole longer pause.
 */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 30_000;
/** Never renew more often than this, whatever lifetime the server gives its tokens. */
const MIN_RENEW_MS = 5_000;

const INITIAL: FileTokenState = { token: null, settled: false };

export class FileTokenSource {
  private state: FileTokenState = INITIAL;
  /** Milliseconds since the epoch when the token stops being accepted. */
  private expiresAt = 0;
  /** The user the token (or the request on its way) belongs to. */
  private owner: string | null = null;
  private fetching: Promise<void> | null = null;
  /** The pause before the next try after a failed fetch; 0 after one succeeded. */
  private retryMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();
  private stopAuthWatch: (() => void) | null = null;

  constructor(private readonly pb: PocketBase) {}

  /** For useSyncExternalStore: the first listener starts the fetching, the last one stops it. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  };

  getSnapshot = (): FileTokenState => this.state;

  private start(): void {
    this.stopAuthWatch = this.pb.authStore.onChange(() => {
      // A token names its user: another user (or none) must not show with it.
      // A refreshed session of the same user keeps it.
      const user = this.pb.authStore.record?.id ?? null;
      if (user === this.owner) return;
      this.owner = user;
      this.set(INITIAL, 0);
      // After a request still on its way for the previous user, which is then thrown away.
      void Promise.resolve(this.fetching).then(this.renewIfDue);
    });
    window.addEventListener('online', this.renewIfDue);
    // Timers sleep with a hidden tab (or a locked phone): check on return.
    document.addEventListener('visibilitychange', this.renewIfDue);
    this.renewIfDue();
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.stopAuthWatch?.();
    this.stopAuthWatch = null;
    window.removeEventListener('online', this.renewIfDue);
    document.removeEventListener('visibilitychange', this.renewIfDue);
  }

  private readonly renewIfDue = (): void => {
    if (this.listeners.size === 0) return;
    if (this.state.token && this.expiresAt - Date.now() > RENEW_BEFORE_MS)
      this.schedule(this.expiresAt - RENEW_BEFORE_MS - Date.now());
    else void this.renew();
  };

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.renewIfDue, Math.max(MIN_RENEW_MS, delayMs));
  }

  private renew(): Promise<void> {
    this.fetching ??= this.fetchToken().finally(() => {
      this.fetching = null;
    });
    return this.fetching;
  }

  private async fetchToken(): Promise<void> {
    const user = this.pb.authStore.record?.id ?? null;
    this.owner = user;
    if (!user || !this.pb.authStore.token) {
      this.set({ token: null, settled: true }, 0);
      return;
    }
    try {
      const token = await this.pb.files.getToken({ requestKey: null });
      // The user signed out or changed while the token was on its way.
      if (this.owner !== user) return;
      const exp = Number(getTokenPayload(token).exp) * 1000;
      this.set({ token, settled: true }, Number.isFinite(exp) ? exp : Date.now() + RENEW_BEFORE_MS + MIN_RENEW_MS);
      this.retryMs = 0;
      this.schedule(this.expiresAt - RENEW_BEFORE_MS - Date.now());
    } catch (error) {
      if (!(error instanceof ClientResponseError)) throw error;
      if (this.owner !== user) return;
      // Offline, or a session the server refuses (the engine shows that): a
      // token that is still good is kept, an expired one is of no use.
      const keep = this.state.token && this.expiresAt > Date.now() ? this.state.token : null;
      this.set({ token: keep, settled: true }, keep ? this.expiresAt : 0);
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2 || RETRY_FIRST_MS);
      this.schedule(this.retryMs);
    }
  }

  private set(state: FileTokenState, expiresAt: number): void {
    this.expiresAt = expiresAt;
    if (state.token === this.state.token && state.settled === this.state.settled) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}

const sources = new WeakMap<PocketBase, FileTokenSource>();

export function fileTokenSourceOf(pb: PocketBase): FileTokenSource {
  let source = sources.get(pb);
  if (!source) {
    source = new FileTokenSource(pb);
    sources.set(pb, source);
  }
  return source;
}

/** The file token every image on screen shares (see the top of this file). */
export function useFileToken(pb: PocketBase = appClient): FileTokenState {
  const source = fileTokenSourceOf(pb);
  return useSyncExternalStore(source.subscribe, source.getSnapshot);
}

/** Where the server serves files (`${fileBaseUrl()}/api/files/…`): the API's base URL, without a trailing slash. */
export function fileBaseUrl(): string {
  return appClient.baseURL.replace(/\/+$/, '');
}

/**
 * A protected file's URL with the token, or the URL alone when there is no
 * token (offline: the service worker's cache answers it without one).
 */
export function withFileToken(url: string, token: string | null): string {
  if (!token) return url;
  return `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

/** A report photo's URL (without the token), or its thumbnail's: the report cards and the daily activity report's PDF. */
export function reportPhotoUrl(reportId: string, name: string, thumb?: string): string {
  const url = `${fileBaseUrl()}/api/files/reports/${encodeURIComponent(reportId)}/${encodeURIComponent(name)}`;
  return thumb ? `${url}?thumb=${thumb}` : url;
}
