/**
 * A home's History from the mirror: the server-written changes of the home,
 * its residents and its phones, read by the `house` index (its cost follows
 * one home, not the community). Its own module, so it loads with the
 * History sheet, not with the Homes screen.
 */
import type { HomeChangeRecord } from '../../api/records.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';

/** Every history row of a home (in no order); undefined while reading. */
export function useHomeHistory(houseId: string): HomeChangeRecord[] | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['home_changes'], () => db.home_changes.where('house').equals(houseId).toArray(), [
    houseId,
  ]);
}
