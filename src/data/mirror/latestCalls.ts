/**
 * The newest call of each home, kept beside the calls in the mirror
 * (table `latest_calls`, one row per home that was ever called). The Homes
 * cards say how the latest call went; reading every call the community
 * ever placed for that (a year of daily calls, each with its script) at
 * every open of Homes and at every status callback of a running call would
 * make the screen's cost grow with the history. The rows are kept in step
 * inside the same transactions that write the calls (mirror.ts).
 */
import type { CallRecord } from '../../api/records.ts';
import { newestCallByHouse } from '../../domain/callOutcome.ts';
import type { MirrorRow, ScmsDatabase } from './db.ts';

/**
 * What a card says of a home's newest call: whether it runs and how it
 * ended (not its script, which 'Call history' reads from the calls). Keyed
 * by the home (`id`), so the search index keeps it beside the home's
 * residents and phones.
 */
export interface LatestCallRow extends Pick<
  CallRecord,
  'created' | 'status' | 'progress' | 'outcome' | 'acknowledged'
> {
  /** The home's id. */
  id: string;
  /** The call's id. */
  call: string;
}

type CallRow = MirrorRow<'calls'>;

/** The rows for a set of calls: the newest of each home among them. */
export function latestCallRows(calls: readonly CallRow[]): LatestCallRow[] {
  return [...newestCallByHouse(calls)].map(([house, call]) => ({
    id: house,
    call: call.id,
    created: call.created,
    status: call.status,
    progress: call.progress,
    outcome: call.outcome,
    acknowledged: call.acknowledged,
  }));
}

/**
 * After calls were written: a home's row moves to a written call that is
 * at least as new, and follows its own call's update. Runs inside the
 * caller's transaction, which must include `latest_calls`.
 */
export async function keepLatestCallsAfterWrite(db: ScmsDatabase, written: readonly CallRow[]): Promise<void> {
  const candidates = latestCallRows(written);
  if (candidates.length === 0) return;
  const current = await db.latest_calls.bulkGet(candidates.map((row) => row.id));
  const changed = candidates.filter((candidate, i) => {
    const seen = current[i];
    return !seen || seen.call === candidate.call || candidate.created >= seen.created;
  });
  if (changed.length > 0) await db.latest_calls.bulkPut(changed);
}

/**
 * After calls were removed: the homes whose newest call went get the next
 * newest, or no row. Runs inside the caller's transaction, which must
 * include `calls` and `latest_calls`.
 */
export async function keepLatestCallsAfterRemoval(db: ScmsDatabase, removedIds: readonly string[]): Promise<void> {
  if (removedIds.length === 0) return;
  // One query per call, not anyOf (a cursor, which the first load's pages do not serve: pagedTable.ts).
  const affected = (
    await Promise.all(removedIds.map((id) => db.latest_calls.where('call').equals(id).primaryKeys()))
  ).flat();
  for (const house of affected) {
    const [newest] = latestCallRows(await db.calls.where('house').equals(house).toArray());
    if (newest) await db.latest_calls.put(newest);
    else await db.latest_calls.delete(house);
  }
}
