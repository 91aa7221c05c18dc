/** The report screens' hooks over the mirror, the session and the connection. */
import { useEffect, useState } from 'react';
import { pb } from '../../api/client.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { useSyncStatus } from '../../data/hooks.ts';
import { reportRanges } from '../../data/pull.ts';
import { missingRanges } from '../../data/ranges.ts';
import { useMirrorQuery } from '../../data/useMirrorQuery.ts';
import type { SignedInUser } from '../../data/writes.ts';

/** Online-only actions need both the browser and the sync engine to say online. */
export function useOnline(): boolean {
  const { online } = useSyncStatus();
  return online && (typeof navigator === 'undefined' || navigator.onLine);
}

export function useSignedInUser(): SignedInUser | null {
  const record = pb.authStore.record;
  if (!record) return null;
  return { id: record.id, community: String(record.community ?? '') };
}

/** A clock that ticks every minute, so "3 minutes ago" stays true while the list is open. */
export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
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
  const uncovered = ranges !== undefined && ranges.length > 0 && missingRanges(ranges, { from: fromMs, to: toMs }).length > 0;

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
