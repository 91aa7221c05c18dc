/**
 * A home's 'Call history' from the mirror. Its own module, so it
 * loads with the history sheet, not with the Homes screen.
 */
import type { CallAttemptRecord, CallRecord, ConcernRecord, UserRecord } from '../../api/records.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';

export interface CallHistory {
  /** Newest first. */
  calls: CallRecord[];
  attemptsByCall: ReadonlyMap<string, CallAttemptRecord[]>;
  people: ReadonlyMap<string, UserRecord>;
  concerns: ReadonlyMap<string, ConcernRecord>;
}

/** A home's calls with their attempts, who placed them and their concerns, from the mirror (reads offline). */
export function useCallHistory(houseId: string): CallHistory | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['calls', 'call_attempts', 'users', 'concerns'],
    async () => {
      const [calls, attempts] = await Promise.all([
        db.calls.where('house').equals(houseId).toArray(),
        db.call_attempts.where('house').equals(houseId).toArray(),
      ]);
      calls.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
      const attemptsByCall = new Map<string, CallAttemptRecord[]>();
      for (const attempt of attempts.sort((a, b) => a.sequence - b.sequence)) {
        const list = attemptsByCall.get(attempt.call) ?? [];
        list.push(attempt);
        attemptsByCall.set(attempt.call, list);
      }
      const userIds = [...new Set(calls.flatMap((c) => [c.created_by, c.retries_cancelled_by ?? '']).filter(Boolean))];
      const concernIds = [...new Set(calls.flatMap((c) => c.concerns ?? []))];
      const [users, concerns] = await Promise.all([db.users.bulkGet(userIds), db.concerns.bulkGet(concernIds)]);
      return {
        calls,
        attemptsByCall,
        people: new Map(users.filter((u) => u !== undefined).map((u) => [u.id, u])),
        concerns: new Map(concerns.filter((c) => c !== undefined).map((c) => [c.id, c])),
      };
    },
    [houseId],
  );
}
