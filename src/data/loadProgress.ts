/**
 * The progress of a load the screens wait for: the first sync of a
 * collection, or older reports pulled on demand. Read from the sync
 * engine's status, so it updates as the pages arrive.
 */
import { useSyncExternalStore } from 'react';
import type { CollectionName } from '../api/records.ts';
import { useSyncEngine } from './DataProvider.tsx';
import type { LoadProgress } from './sync/pull.ts';

export type { LoadProgress };

/** The load under way for a collection; null when none (the mirror's list is complete). */
export function useLoadProgress(collection: CollectionName): LoadProgress | null {
  const engine = useSyncEngine();
  const status = useSyncExternalStore(engine.subscribe, engine.getStatus);
  return status.loading?.[collection] ?? null;
}
