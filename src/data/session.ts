/**
 * The signed-in session, kept where every context of the app can read it:
 * the window's PocketBase client keeps it in local storage, but the service
 * worker has no local storage, so it is mirrored into IndexedDB. The worker
 * replays the outbox with it (and saves a refreshed token back).
 */
import Dexie, { type Table } from 'dexie';
import PocketBase, { type AuthRecord } from 'pocketbase';

interface SessionRow {
  key: 'current';
  token: string;
  record: AuthRecord;
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

export async function saveSession(token: string, record: AuthRecord): Promise<void> {
  await sessionDb().session.put({ key: 'current', token, record });
}

export async function clearSession(): Promise<void> {
  await sessionDb().session.delete('current');
}

export async function loadSession(): Promise<{ token: string; record: AuthRecord } | undefined> {
  const row = await sessionDb().session.get('current');
  return row ? { token: row.token, record: row.record } : undefined;
}

/** Keeps the IndexedDB copy in step with a client's auth store (the window's). */
export function mirrorSessionOf(pb: PocketBase): () => void {
  const save = () => (pb.authStore.token && pb.authStore.record ? saveSession(pb.authStore.token, pb.authStore.record) : clearSession());
  void save();
  return pb.authStore.onChange(() => void save());
}

/** A client for a context without local storage (the service worker). */
export async function clientFromSavedSession(baseUrl: string): Promise<PocketBase | undefined> {
  const saved = await loadSession();
  if (!saved) return undefined;
  const pb = new PocketBase(baseUrl);
  pb.autoCancellation(false);
  pb.authStore.save(saved.token, saved.record);
  pb.authStore.onChange(() => {
    if (pb.authStore.token && pb.authStore.record) void saveSession(pb.authStore.token, pb.authStore.record);
  });
  return pb;
}
