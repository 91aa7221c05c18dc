/**
 * Live queries for the screens: they read the local mirror only (never the
 * server), so every list works offline and updates as soon as a pull, a
 * realtime event or a local write changes the mirror.
 */
import { startTransition, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { CallSettingsRecord, CollectionName, ConcernRecord, UserRecord } from '../api/records.ts';
import type { AddUserValues, CallSettingsValues, ConcernValues } from '../domain/schemas.ts';
import { useSignedInStaff, type Staff } from './auth.ts';
import type { RecordChoice } from './sync/conflicts.ts';
import type { OutboxEntry } from './mirror/db.ts';
import type { EngineStatus } from './sync/engine.ts';
import { useSyncEngine } from './DataProvider.tsx';
import { useBrowserOnline } from './online.ts';
import {
  cancelCallRetries,
  createConcern,
  createUser,
  deleteConcern,
  deleteUser,
  discardOutboxEntry,
  resolveOutboxConflict,
  placeCall,
  requestAiAssist,
  resetUserPassword,
  saveCallSettings,
  updateConcern,
  updateUser,
  type UserUpdate,
} from './onlineActions.ts';
import { pendingFile } from './sync/outbox.ts';
import { LAST_SYNC_KEY, reportRanges } from './sync/pull.ts';
import { missingRanges } from './sync/ranges.ts';
import { searchReports, type HouseWithPeople, type ReportQuery, type ReportWithLinks } from './queries.ts';
import { searchIndexOf, type IndexedList, type MirrorSearchIndex } from './mirror/searchIndex.ts';
import { useMirrorQuery } from './mirror/useMirrorQuery.ts';

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
export function useSearchIndex(list: IndexedList): { index: MirrorSearchIndex; version: number } {
  const { db } = useSyncEngine();
  const index = searchIndexOf(db);
  const [seen, setSeen] = useState(() => ({ index, list, version: index.version(list) }));
  useEffect(() => {
    const update = () => {
      const version = index.version(list);
      startTransition(() =>
        setSeen((prev) =>
          prev.index === index && prev.list === list && prev.version === version ? prev : { index, list, version },
        ),
      );
    };
    const unsubscribe = index.subscribe(list, update);
    // A change between the render and this subscription would otherwise be missed.
    update();
    return unsubscribe;
  }, [index, list]);
  // Another index (a new user) or list: its own version at once, never the previous one's.
  return { index, version: seen.index === index && seen.list === list ? seen.version : index.version(list) };
}

/** Homes with their residents and phones in address order, filtered by the list search; undefined while loading. */
export function useHouses(search = ''): HouseWithPeople[] | undefined {
  const { index, version } = useSearchIndex('homes');
  return useMemo(() => (version < 0 ? undefined : index.homes.search(search)), [index, version, search]);
}

export function useConcerns(search = ''): ConcernRecord[] | undefined {
  const { index, version } = useSearchIndex('concerns');
  return useMemo(() => (version < 0 ? undefined : index.concerns.search(search)), [index, version, search]);
}

export function useUsers(search = ''): UserRecord[] | undefined {
  const { index, version } = useSearchIndex('users');
  return useMemo(() => (version < 0 ? undefined : index.users.search(search)), [index, version, search]);
}

export function useReports(query: ReportQuery): ReportWithLinks[] | undefined {
  const { index, version } = useSearchIndex('reports');
  const { from, to, types, sort, search, withIssues } = query;
  // Dates and lists are compared by value, so a new array each render does not search again.
  const fromMs = from.getTime();
  const toMs = to.getTime();
  const typeList = (types ?? []).join(',');
  return useMemo(
    () =>
      version < 0
        ? undefined
        : searchReports(index, {
            from: new Date(fromMs),
            to: new Date(toMs),
            types: typeList ? typeList.split(',') : [],
            sort,
            search,
            withIssues,
          }),
    [index, version, fromMs, toMs, typeList, sort, search, withIssues],
  );
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
    ['outbox', 'syncState'],
    async () => ({
      pending: await engine.db.outbox.where('status').equals('pending').count(),
      failed: await engine.db.outbox.where('status').equals('failed').count(),
      conflicts: await engine.db.outbox.where('status').equals('conflict').count(),
      lastSyncAt: ((await engine.db.syncState.get(LAST_SYNC_KEY))?.value as number | undefined) ?? null,
    }),
    [],
  );
  return {
    ...status,
    pending: counts?.pending ?? 0,
    failed: counts?.failed ?? 0,
    conflicts: counts?.conflicts ?? 0,
    lastSyncAt: counts?.lastSyncAt ?? null,
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

/** The online-only actions (onlineActions.ts) on the signed-in user's mirror. */
export function useOnlineActions() {
  const { db } = useSyncEngine();
  return useMemo(
    () => ({
      createUser: (director: Staff, values: AddUserValues, password: string) =>
        createUser(db, director, values, password),
      updateUser: (user: UserRecord, values: UserUpdate) => updateUser(db, user, values),
      resetUserPassword,
      deleteUser: (user: UserRecord) => deleteUser(db, user),
      createConcern: (director: Staff, values: ConcernValues) => createConcern(db, director, values),
      updateConcern: (director: Staff, concern: ConcernRecord, values: ConcernValues) =>
        updateConcern(db, director, concern, values),
      deleteConcern: (concern: ConcernRecord) => deleteConcern(db, concern),
      saveCallSettings: (director: Staff, values: CallSettingsValues, saved: CallSettingsRecord | null) =>
        saveCallSettings(db, director, values, saved),
      placeCall,
      cancelCallRetries: (houseId: string) => cancelCallRetries(db, houseId),
      requestAiAssist,
      discardOutboxEntry: (seq: number) => discardOutboxEntry(db, seq),
      resolveOutboxConflict: (seq: number, choices: readonly RecordChoice[]) => resolveOutboxConflict(db, seq, choices),
    }),
    [db],
  );
}

export type RangeState = 'ready' | 'loading' | 'offline' | 'failed';

/**
 * Makes sure the mirror holds the reports of [from, to]. The first sync
 * brings the current and the previous month; an older range is pulled on
 * demand (the list shows a spinner meanwhile) and is kept, so it works
 * offline afterwards. Offline with an uncovered range, the list shows what
 * the mirror has and says that older reports need a connection.
 */
export function useReportRange(from: Date, to: Date): { state: RangeState; retry: () => void } {
  const engine = useSyncEngine();
  const online = useOnline();
  const ranges = useMirrorQuery(engine.db, ['syncState'], () => reportRanges(engine.db), []);
  const [failed, setFailed] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const fromMs = from.getTime();
  const toMs = to.getTime();
  const key = `${fromMs}-${toMs}`;
  // Before the first sync has recorded any range, that sync is what fills the list.
  const uncovered =
    ranges !== undefined && ranges.length > 0 && missingRanges(ranges, { from: fromMs, to: toMs }).length > 0;

  useEffect(() => {
    if (!uncovered || !online) return;
    let cancelled = false;
    // Done shows by itself: the pull records the range and `ranges` changes.
    engine.loadReportRange(new Date(fromMs), new Date(toMs)).catch(() => {
      if (!cancelled) setFailed(key);
    });
    return () => {
      cancelled = true;
    };
  }, [engine, uncovered, online, key, fromMs, toMs, attempt]);

  const retry = () => {
    setFailed(null);
    setAttempt((n) => n + 1);
  };
  if (!uncovered) return { state: 'ready', retry };
  if (!online) return { state: 'offline', retry };
  return { state: failed === key ? 'failed' : 'loading', retry };
}
