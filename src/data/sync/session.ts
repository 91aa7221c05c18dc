/**
 * The signed-in session, kept where every context of the app can read it:
 * the window's PocketBase client keeps it in local storage, but the service
 * worker has no local storage, so it is mirrored into IndexedDB. The worker
 * replays the outbox with it (and saves a refreshed token back). The
 * server the session belongs to goes with it (src/api/baseUrl.ts): with
 * several servers behind one proxy, the worker's replays must reach the
 * one the user signed in on.
 */
import Dexie, { type Table } from 'dexie';
import { ClientResponseError, type AuthRecord } from 'pocketbase';
import type PocketBase from 'pocketbase';
import { apiBaseUrl, keptServerPath, validServerPath } from '../../api/baseUrl.ts';
import { pb as appClient } from '../../api/client.ts';
import { takeFreshToken } from '../../api/freshTokens.ts';

interface SessionRow {
  key: 'current';
  token: string;
  record: AuthRecord;
  /** The server path ('' or `/c/<community>`); absent in sessions saved by earlier versions (one server). */
  server?: string;
}

class SessionDatabase extends Dexie {
  session!: Table<SessionRow, string>;
  constructor() {
    super('scms-session');
    this.version(1).stores({ session: 'key' });
  }
}

let database: SessionDatabase | undefined;
function sessionDb(): SessionDatabase {
  database ??= new SessionDatabase();
  return database;
}

/** Saves the session and the server it is on (the window's, by default). */
export async function saveSession(token: string, record: AuthRecord, server = keptServerPath()): Promise<void> {
  await sessionDb().session.put({ key: 'current', token, record, server });
}

export async function clearSession(): Promise<void> {
  await sessionDb().session.delete('current');
}

export async function loadSession(): Promise<{ token: string; record: AuthRecord; server: string } | undefined> {
  const row = await sessionDb().session.get('current');
  return row ? { token: row.token, record: row.record, server: validServerPath(row.server) ?? '' } : undefined;
}

/** Keeps the IndexedDB copy in step with a client's auth store (the window's). */
export function mirrorSessionOf(pb: PocketBase): () => void {
  const save = () =>
    pb.authStore.token && pb.authStore.record ? saveSession(pb.authStore.token, pb.authStore.record) : clearSession();
  void save();
  return pb.authStore.onChange(() => void save());
}

/** The token last read from IndexedDB into the client; a token the client gets besides it (a refresh) is saved back. */
let restoredToken: string | undefined;
/** The server of the session last read: a refreshed token is saved back with it. */
let restoredServer = '';

/**
 * The app's one client (src/api/client.ts) signed in with the saved session,
 * for a context without local storage (the service worker, where the SDK
 * keeps the session in memory only); undefined, and signed out, when there
 * is none (Log out, or another user signed in since). Read afresh each time:
 * the window may have signed someone else in meanwhile.
 */
export async function clientFromSavedSession(): Promise<{ client: PocketBase; userId: string } | undefined> {
  const saved = await loadSession();
  if (restoredToken === undefined) {
    appClient.authStore.onChange(() => {
      const { token, record } = appClient.authStore;
      if (token && record && token !== restoredToken) void saveSession(token, record, restoredServer);
    });
  }
  restoredToken = saved?.token ?? '';
  restoredServer = saved?.server ?? '';
  if (!saved?.record?.id) {
    appClient.authStore.clear();
    return undefined;
  }
  // (Node's tests have no location: they point the client at their server themselves.)
  const origin = globalThis.location?.origin;
  if (origin) appClient.baseURL = apiBaseUrl(origin, saved.server);
  appClient.authStore.save(saved.token, saved.record);
  return { client: appClient, userId: saved.record.id };
}

export type SessionCheck = 'ok' | 'offline' | 'expired';

/** Past this a refresh counts as unanswered (a network that hangs rather than fails). */
const REFRESH_TIMEOUT_MS = 20_000;

/**
 * Asks the server whether the saved token still holds, and renews it. This is
 * the one reliable test: PocketBase 0.40 serves a void token (expired, revoked
 * by a password change, or of a deleted user) as a guest, so list requests
 * come back empty rather than refused, while the refresh answers 401 (403 or
 * 404 from older or proxied servers). A network error or a 5xx says nothing
 * about the session: it counts as 'offline', never as an expiry.
 */
export async function refreshSession(pb: PocketBase): Promise<SessionCheck> {
  const refreshed = pb.authStore.token;
  if (!refreshed) return 'expired';
  // The sign-in a moment ago answered already (src/api/freshTokens.ts).
  if (takeFreshToken(refreshed)) return 'ok';
  try {
    // Sent without the SDK's authRefresh, which saves whatever comes back: a Log out
    // while the answer was on its way (the app checks the session as it opens, and a
    // shared phone is logged out at once) would be undone, and the next person would
    // find the phone signed in. The new token replaces only the session it renews.
    const answer = await pb.send<{ token: string; record: AuthRecord }>('/api/collections/users/auth-refresh', {
      method: 'POST',
      requestKey: null,
      signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS),
    });
    if (pb.authStore.token === refreshed) pb.authStore.save(answer.token, answer.record);
    return 'ok';
  } catch (error) {
    const status = error instanceof ClientResponseError ? error.status : 0;
    return status === 401 || status === 403 || status === 404 ? 'expired' : 'offline';
  }
}
