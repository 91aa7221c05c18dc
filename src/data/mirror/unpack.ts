/**
 * Writes a first load's pages (loadPages.ts) into the mirror's own rows, a
 * page at a time, in the background: after the loads that store pages are
 * done, one page per transaction, a task apart, so the screens keep the
 * main thread. It writes as a pull does (applyServerRecords: newer wins, the
 * outbox's changes on top, deletions confirmed here stay deleted), reading
 * the tables alone, and the page leaves storage and memory in the same
 * commit. Started when a load that stored pages ends (src/data/sync/load.ts)
 * and when a window opens a database that still has some (loadPageStore.ts):
 * a reload goes on where it stopped.
 */
import type { RecordModel } from 'pocketbase';
import { MIRRORED_COLLECTIONS } from '../../api/records.ts';
import type { ScmsDatabase } from './db.ts';
import { applyServerRecords } from './mirror.ts';

const WAIT_FOR_LOADS_MS = 250;

const running = new WeakMap<ScmsDatabase, Promise<void>>();

const nextTask = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Unpacks every page left (once per database instance at a time); resolves when none is left. */
export function unpackLoadPages(db: ScmsDatabase): Promise<void> {
  let run = running.get(db);
  if (!run) {
    run = unpackAll(db)
      .catch((error: unknown) => {
        // Closed by a log out, or a write failed: the pages stay (and stay readable); the next start goes on.
        if ((error as Error | undefined)?.name !== 'DatabaseClosedError') console.warn('Unpacking stopped', error);
      })
      .finally(() => running.delete(db));
    running.set(db, run);
  }
  return run;
}

async function unpackAll(db: ScmsDatabase): Promise<void> {
  // Opening reads the pages left by an earlier session (a reload mid-way); a wiped database stays closed.
  if (db.hasBeenClosed()) return;
  await db.open();
  const overlay = db.pages;
  if (!overlay) return;
  for (;;) {
    if (!db.isOpen()) return;
    // The loads' own page writes go first: the phone has everything once they are stored.
    if (overlay.activeLoads > 0) {
      await nextTask(WAIT_FOR_LOADS_MS);
      continue;
    }
    // Parents first, as a pull writes them.
    const collection = overlay.collectionsLeft(MIRRORED_COLLECTIONS)[0];
    if (!collection) return;
    const table = db.mirror(collection);
    // The calls go in one transaction: the newest call of each home (worked out from all their pages)
    // then moves to its table at once, never older for a moment.
    const keys = collection === 'calls' ? overlay.pagesOf(collection) : overlay.pagesOf(collection).slice(0, 1);
    await db.transaction('rw', [db.load_pages, table, db.outbox, db.syncState, db.latest_calls], async (tx) => {
      overlay.markRaw(tx.idbtrans);
      // The pages' records are taken once this transaction holds its tables: a write that committed
      // while it waited (a reconciliation's deletion of a paged record) has taken its records out of
      // the pages by then. Taken before, they would be written back as rows.
      await db.load_pages.count();
      for (const key of keys) {
        const records = overlay.alive(collection, key) as unknown as RecordModel[];
        // No row of the table among the page's ids (the usual case: the pages of a collection cover
        // ranges of ids, and the table holds few in any of them): nothing newer to keep, no lookup of each.
        const ids = records.map((record) => record.id).sort();
        const tableIds =
          ids.length > 0
            ? await table
                .where(':id')
                .between(ids[0]!, ids[ids.length - 1]!, true, true)
                .primaryKeys()
            : [];
        const mine = new Set(ids);
        const held = tableIds.some((id) => mine.has(id));
        await applyServerRecords(db, collection, records, { announced: false, firstLoad: !held });
        await db.load_pages.delete(key);
      }
      // The mirror as its readers see it is the same before and after (the pages' records become rows):
      // Dexie is not to announce the write, or the search index and the screens would read it all again.
      // Dexie collects a transaction's changed keys on it and announces them at the commit.
      delete (tx.idbtrans as IDBTransaction & { mutatedParts?: unknown }).mutatedParts;
      tx.on('complete', () => {
        for (const key of keys) overlay.removePage(collection, key);
        if (collection === 'calls') overlay.removeDerived('latest_calls');
      });
    });
    await nextTask();
  }
}
