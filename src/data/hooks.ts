/**
 * The screens' hooks that belong to no one resource: the mirror's search
 * index (which the resource modules' lists read), the sync state (the badge,
 * the panel, online or not), a queued upload's file, and who may manage.
 * They read the local mirror only (never the server), so they work offline
 * and update as soon as a pull, a realtime event or a local write changes
 * the mirror. Each resource's reads and writes are in src/data/resources/.
 */
import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';
import type { CollectionName } from '../api/records.ts';
import { useSignedInStaff } from './auth.ts';
import { useSyncEngine } from './DataProvider.tsx';
import type { OutboxEntry } from './mirror/db.ts';
import { searchIndexOf, type IndexedList, type MirrorSearchIndex } from './mirror/searchIndex.ts';
import { useMirrorQuery } from './mirror/useMirrorQuery.ts';
import { useBrowserOnline } from './online.ts';
import type { EngineStatus } from './sync/engine.ts';
import { pendingFile } from './sync/outbox.ts';
import { LAST_SYNC_KEY } from './sync/pull.ts';

/** Whether a file field names a queued upload rather than a file on the server (the screens show the Blob then). */
export { isPendingFileName } from './mirror/mirror.ts';

/**
 * The index of the signed-in user's mirror and the version of one of its
 * lists: -1 while it loads, then a new number after every change of it.
 *
 * A change is drawn in a transition, not synchronously (as
 * useSyncExternalStore would): the index announces a change at the end of
 * its own work (loading 5,000 homes with their people), and drawing the
 * screen in that same task made one long task of both, which blocks the
 * page (Lighthouse's Total Blocking Time). A transition renders
 * in a later task and yields to input; a keystroke's own search (a state
 * change of the screen) is still drawn at once.
 */
/** While a first load stores its pages: the shortest time between two drawings of a list's changes... */
const REDRAW_MS = 1000;
/** ...and how often a change held back looks whether the load has ended (then it is drawn at once). */
const LOAD_END_CHECK_MS = 50;

export function useSearchIndex(list: IndexedList): { index: MirrorSearchIndex; version: number } {
  const { db } = useSyncEngine();
  const index = searchIndexOf(db);
  const [seen, setSeen] = useState(() => ({ index, list, version: index.version(list) }));
  useEffect(() => {
    let drawnAt = -Infinity;
    /** The last drawing showed no record: the first ones (the top of the Homes list) are drawn at once. */
    let drawnEmpty = true;
    let later: ReturnType<typeof setTimeout> | undefined;
    const draw = () => {
      later = undefined;
      drawnAt = performance.now();
      const version = index.version(list);
      drawnEmpty = version < 0 || index.size(list) === 0;
      startTransition(() =>
        setSeen((prev) =>
          prev.index === index && prev.list === list && prev.version === version ? prev : { index, list, version },
        ),
      );
    };
    // While a first load stores its pages, a change is drawn at once and the changes that follow within
    // REDRAW_MS together at its end, or as soon as the load ends: the list changes with every page, and
    // each drawing of 20,000 homes costs the list's layout of all of them (docs/performance.md, "Pages
    // first, rows later"). Otherwise (a call's progress on its card) every change is drawn at once.
    const drawOrHold = () => {
      later = undefined;
      const since = performance.now() - drawnAt;
      if (since >= REDRAW_MS || drawnEmpty || !(db.pages?.activeLoads ?? 0)) draw();
      else later = setTimeout(drawOrHold, Math.min(LOAD_END_CHECK_MS, REDRAW_MS - since));
    };
    // A change held back already is drawn with the one pending.
    const update = () => {
      if (later === undefined) drawOrHold();
    };
    const unsubscribe = index.subscribe(list, update);
    // A change between the render and this subscription would otherwise be missed.
    draw();
    return () => {
      clearTimeout(later);
      unsubscribe();
    };
  }, [db, index, list]);
  // Another index (a new user) or list: its own version at once, never the previous one's.
  return { index, version: seen.index === index && seen.list === list ? seen.version : index.version(list) };
}

/** The Blob of a record's queued upload (e.g. a home's photo added offline); undefined when none or while loading. */
export function usePendingFile(collection: CollectionName, id: string, field: string): Blob | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['outbox'], () => pendingFile(db, collection, id, field), [collection, id, field]);
}

export interface SyncStatus {
  online: boolean;
  syncing: boolean;
  authRequired: boolean;
  pending: number;
  failed: number;
  /** Changes someone else overtook, waiting for the person to decide (conflicts.ts). */
  conflicts: number;
  /** An entry with photos on its way (the engine's upload progress). */
  sending?: EngineStatus['sending'];
  lastSyncAt: number | null;
  /** Collections whose first load is still running (EngineStatus.loading). */
  loading?: EngineStatus['loading'];
}

/** For the navigation bar's sync badge. */
export function useSyncStatus(): SyncStatus {
  const engine = useSyncEngine();
  const status = useSyncExternalStore(engine.subscribe, engine.getStatus);
  const counts = useMirrorQuery(
    engine.db,
    ['outbox'],
    async () => ({
      pending: await engine.db.outbox.where('status').equals('pending').count(),
      failed: await engine.db.outbox.where('status').equals('failed').count(),
      conflicts: await engine.db.outbox.where('status').equals('conflict').count(),
    }),
    [],
  );
  // Apart from the counts: a pull writes its cursors to syncState as it goes, and each
  // write runs this query again (one read), not the outbox's three counts.
  const lastSyncAt = useMirrorQuery(
    engine.db,
    ['syncState'],
    async () => ((await engine.db.syncState.get(LAST_SYNC_KEY))?.value as number | undefined) ?? null,
    [],
  );
  return {
    ...status,
    pending: counts?.pending ?? 0,
    failed: counts?.failed ?? 0,
    conflicts: counts?.conflicts ?? 0,
    lastSyncAt: lastSyncAt ?? null,
  };
}

/** The outbox, oldest first, for the sync panel (Retry / Discard of parked entries). */
export function useOutboxEntries(): OutboxEntry[] | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['outbox'], () => db.outbox.orderBy('seq').toArray(), []);
}

/**
 * Whether online-only actions can run: both the sync engine and the browser
 * say online. The engine learns of a dead connection only from a failed
 * request; the browser's own flag is quicker when the device drops off the
 * network. The one answer every signed-in screen asks.
 */
export function useOnline(): boolean {
  const { online } = useSyncStatus();
  const browserOnline = useBrowserOnline();
  return online && browserOnline;
}

export interface Management {
  /** Shows the controls at all. */
  director: boolean;
  /** Enables them. */
  canManage: boolean;
  /** Why they are disabled, for directors; null when they are not. */
  blockedReason: string | null;
}

/**
 * Who may manage users and concerns, and whether they can right now.
 * Only a director (docs/product.md#who-may-do-what) sees the management controls. They write
 * straight to the server (no outbox), so offline the controls stay visible
 * but disabled, with the reason on screen.
 */
export function useManagement(offlineReason: string): Management {
  const connected = useOnline();
  const director = useSignedInStaff()?.type === 'director';
  return { director, canManage: director && connected, blockedReason: director && !connected ? offlineReason : null };
}
