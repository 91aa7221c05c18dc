/**
 * Patrol phones are shared between shifts (docs/product.md#log-out): the copy of
 * the community a user's session brought onto the device leaves it when the
 * user logs out, or when another user signs in on it (a session that expired
 * and was not renewed by the same user). Removed: every table of the user's
 * mirror but the outbox (homes with their security codes, residents, phones,
 * reports, concerns, calls, staff, the community, sync cursors), what the
 * session held in memory (memoryViews.ts: the search index, the shift's
 * rounds), and every cached image (Cache Storage `scms-images-*`, one cache
 * per user, filled by the service worker).
 *
 * Kept: the outbox, and only it. It holds what the user wrote and the server
 * has not confirmed, which is never thrown away silently; it is sent after
 * that user's next sign-in. It stays in that user's own database
 * (`scms-<userId>`), which only that user's session opens and replays, so it
 * is never sent with another user's credentials nor shown in their mirror.
 */
import Dexie from 'dexie';
import { closeUserDatabase, databaseName, userDatabase, type ScmsDatabase } from './db.ts';
import { IMAGE_CACHE_PREFIX, imageCacheName } from '../../domain/imageCache.ts';
import { releaseMemoryViews } from './memoryViews.ts';

const KEPT_TABLE = 'outbox';
/** A user's database: `scms-` and a PocketBase id (15 of [a-z0-9]), never scms-session or another app database. */
const USER_DATABASE = /^scms-([a-z0-9]{15})$/;

/** What the user wrote and the server has not confirmed: waiting to be sent, or parked after a refusal. */
export function unsentCount(db: ScmsDatabase): Promise<number> {
  return db.outbox.count();
}

/**
 * Empties every table but the outbox in one transaction, through Dexie, so
 * screens still open (and other tabs' search indexes) read an empty mirror
 * rather than a closed one. Every table the schema has, not a list that a
 * new table could slip past.
 */
export async function clearMirror(db: ScmsDatabase): Promise<void> {
  const tables = db.tables.filter((table) => table.name !== KEPT_TABLE);
  await db.transaction('rw', tables, async () => {
    await Promise.all(tables.map((table) => table.clear()));
  });
  // A first load's pages went with the tables (load_pages is one of them): none is left to read or unpack.
  db.pages?.reset();
}

/**
 * Lets go of a user's database in this page: what it keeps in memory
 * (memoryViews.ts: the search index, the shift's rounds) and its connection, so a request of the stopped
 * engine still under way (a page of a first load) fails instead of writing;
 * then empties it again, to take what such a request wrote between the
 * first clearing and the closing. That last clearing goes around Dexie: a
 * live query of the closed instance that heard of it would throw.
 */
export async function releaseUserDatabase(userId: string): Promise<void> {
  releaseMemoryViews(userDatabase(userId));
  closeUserDatabase(userId);
  await clearStores(databaseName(userId));
}

/** Empties every object store but the outbox of an existing database; a missing one is left missing. */
function clearStores(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let created = false;
    const request = indexedDB.open(name);
    request.onupgradeneeded = () => {
      created = true;
      request.transaction?.abort();
    };
    request.onerror = () => (created ? resolve() : reject(request.error ?? new Error(`could not open ${name}`)));
    request.onsuccess = () => {
      const idb = request.result;
      const stores = [...idb.objectStoreNames].filter((store) => store !== KEPT_TABLE);
      if (stores.length === 0) {
        idb.close();
        resolve();
        return;
      }
      const tx = idb.transaction(stores, 'readwrite');
      for (const store of stores) tx.objectStore(store).clear();
      tx.oncomplete = () => {
        idb.close();
        resolve();
      };
      tx.onabort = () => {
        idb.close();
        reject(tx.error ?? new Error(`clearing ${name} was aborted`));
      };
    };
  });
}

/** Deletes the cached images of every user but `keepUserId` (of every user when none is given). */
export async function deleteImageCaches(keepUserId?: string): Promise<string[]> {
  // No Cache Storage (an insecure origin, a test without one): nothing was cached.
  if (typeof caches === 'undefined') return [];
  // (The shared cache of earlier versions, 'house-images', goes when the worker that replaces them activates: sw.ts.)
  const keep = keepUserId === undefined ? null : imageCacheName(keepUserId);
  const names = (await caches.keys()).filter((name) => name.startsWith(IMAGE_CACHE_PREFIX) && name !== keep);
  await Promise.all(names.map((name) => caches.delete(name)));
  return names;
}

/** The users whose databases are on the device. */
export async function usersOnDevice(): Promise<string[]> {
  const names = await Dexie.getDatabaseNames();
  return names.flatMap((name) => USER_DATABASE.exec(name)?.[1] ?? []);
}

/**
 * A user signed in: the mirrors and images other users left on the device
 * go (their outboxes stay, for their own next sign-in). Returns whose.
 */
export async function removeOtherUsersData(userId: string): Promise<string[]> {
  const others = (await usersOnDevice()).filter((other) => other !== userId);
  for (const other of others) await releaseUserDatabase(other);
  await deleteImageCaches(userId);
  return others;
}
