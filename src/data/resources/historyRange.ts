/**
 * A screen of a period (the reports list, the daily report, the dashboard,
 * a past day's rounds) makes sure the mirror holds that period of the
 * histories it shows (src/data/sync/ranges.ts). The first sync brings the
 * recent part; an older period is pulled on demand (the screen shows a
 * spinner meanwhile) and kept, so it works offline afterwards. Offline with
 * a period the mirror lacks, the screen shows what the mirror has and says
 * that the rest needs a connection (ui/RangeNote.tsx).
 */
import { useEffect, useState } from 'react';
import { useSyncEngine } from '../DataProvider.tsx';
import { useOnline } from '../hooks.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';
import { historyRanges } from '../sync/pull.ts';
import { historySpan, missingRanges, TOUR_HISTORY, type HistoryCollection } from '../sync/ranges.ts';

export type RangeState = 'ready' | 'loading' | 'offline' | 'failed';

/** What the screens show of the histories: the reports list its reports; the daily report and the dashboard reports and rounds; a past day on the Tours screen its rounds. */
export const SHOWS_REPORTS: readonly HistoryCollection[] = ['reports'];
export const SHOWS_REPORTS_AND_ROUNDS: readonly HistoryCollection[] = ['reports', ...TOUR_HISTORY];
export const SHOWS_ROUNDS: readonly HistoryCollection[] = TOUR_HISTORY;

export function useHistoryRange(
  from: Date,
  to: Date,
  collections: readonly HistoryCollection[],
): { state: RangeState; retry: () => void } {
  const engine = useSyncEngine();
  const online = useOnline();
  const names = collections.join(',');
  const held = useMirrorQuery(
    engine.db,
    ['syncState'],
    () => Promise.all(names.split(',').map((name) => historyRanges(engine.db, name as HistoryCollection))),
    [names],
  );
  const [failed, setFailed] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const fromMs = from.getTime();
  const toMs = to.getTime();
  const key = `${names}:${fromMs}-${toMs}`;
  // A history the first sync has not recorded yet is that sync's to fill.
  const uncovered =
    held?.some(
      (ranges, i) =>
        ranges.length > 0 && missingRanges(ranges, historySpan(collections[i]!, { from: fromMs, to: toMs })).length > 0,
    ) ?? false;

  useEffect(() => {
    if (!uncovered || !online) return;
    let cancelled = false;
    // Done shows by itself: the pull records the range and `held` changes.
    engine.loadHistoryRange(names.split(',') as HistoryCollection[], new Date(fromMs), new Date(toMs)).catch(() => {
      if (!cancelled) setFailed(key);
    });
    return () => {
      cancelled = true;
    };
  }, [engine, uncovered, online, key, names, fromMs, toMs, attempt]);

  const retry = () => {
    setFailed(null);
    setAttempt((n) => n + 1);
  };
  if (!uncovered) return { state: 'ready', retry };
  if (!online) return { state: 'offline', retry };
  return { state: failed === key ? 'failed' : 'loading', retry };
}
