/**
 * A query of the local database that runs again whenever one of the tables
 * it names changes (a write in this window, another tab or the service
 * worker: Dexie's `storagemutated` event covers all three).
 *
 * Why not dexie-react-hooks' useLiveQuery: Dexie's liveQuery keeps every
 * key written to any table since its own query last ran, so a live query
 * over a table that does not change (the calls, the community) keeps the
 * keys of every home, resident and phone of a first sync: about 850,000
 * range nodes and 40 MB of heap at 20,000 homes (heap snapshot of
 * `npm run bench:screens -- --scale 4 --heap-snapshot`). The
 * queries of the screens are small, so following whole tables costs
 * nothing and keeps nothing.
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useState, type DependencyList } from 'react';
import type { ScmsDatabase } from './db.ts';

type TableName =
  | 'communities'
  | 'users'
  | 'houses'
  | 'residents'
  | 'phones'
  | 'concerns'
  | 'reports'
  | 'calls'
  | 'call_attempts'
  | 'call_settings'
  | 'home_changes'
  | 'checkpoints'
  | 'tours'
  | 'tour_walks'
  | 'checkpoint_scans'
  | 'safety_settings'
  | 'duty_shifts'
  | 'alerts'
  | 'alert_events'
  | 'latest_calls'
  | 'outbox'
  | 'syncState';

/** Whether a `storagemutated` event touches one of the tables (Dexie names its parts 'idb://<database>/<table>/<index>', or 'all'). */
export function touchesTables(parts: ObservabilitySet, databaseName: string, tables: readonly TableName[]): boolean {
  const prefixes = tables.map((table) => `idb://${databaseName}/${table}/`);
  return Object.keys(parts).some((part) => part === 'all' || prefixes.some((prefix) => part.startsWith(prefix)));
}

/**
 * Whether a new result says nothing new: the same primitive, or a flat
 * object of the same primitives (a count, the sync badge's counts). A
 * screen is not drawn again for it; a list of records always is (comparing
 * it would cost what drawing it saves).
 */
export function sameResult(previous: unknown, next: unknown): boolean {
  if (Object.is(previous, next)) return true;
  if (typeof previous !== 'object' || typeof next !== 'object' || previous === null || next === null) return false;
  if (Array.isArray(previous) || Array.isArray(next)) return false;
  const keys = Object.keys(previous);
  if (keys.length !== Object.keys(next).length) return false;
  return keys.every((key) => {
    const value = (previous as Record<string, unknown>)[key];
    return (typeof value !== 'object' || value === null) && Object.is(value, (next as Record<string, unknown>)[key]);
  });
}

/**
 * The query's latest result: undefined until the first run ends; then the
 * latest result (the previous one stays while a new run is under way, as
 * with useLiveQuery). A failed query throws into the render (the screen's
 * error boundary shows it). A run whose result says nothing new
 * (sameResult) leaves the screen as it is.
 */
export function useMirrorQuery<T>(
  db: ScmsDatabase,
  tables: readonly TableName[],
  query: () => Promise<T>,
  deps: DependencyList,
): T | undefined {
  const [state, setState] = useState<{ value?: T; error?: unknown }>({});
  useEffect(() => {
    let stopped = false;
    let running = false;
    let again = false;
    const run = async () => {
      // Changes during a run make one more run, not one per change.
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const value = await query();
          if (!stopped)
            setState((previous) =>
              'value' in previous && previous.error === undefined && sameResult(previous.value, value)
                ? previous
                : { value },
            );
        } while (again && !stopped);
      } catch (error) {
        if (!stopped && (error as Error | undefined)?.name !== 'DatabaseClosedError') setState({ error });
      } finally {
        running = false;
      }
    };
    const onMutated = (parts: ObservabilitySet) => {
      if (touchesTables(parts, db.name, tables)) void run();
    };
    Dexie.on.storagemutated.subscribe(onMutated);
    void run();
    return () => {
      stopped = true;
      Dexie.on.storagemutated.unsubscribe(onMutated);
    };
    // The caller's deps say when the query itself changes; the tables are fixed per call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [db, ...deps]);
  if (state.error !== undefined) throw state.error;
  return state.value;
}
