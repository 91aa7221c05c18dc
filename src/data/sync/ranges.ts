/**
 * Sets of time ranges (epoch ms, inclusive), kept sorted and merged: which
 * parts of a history the mirror holds in full. A history is a collection
 * that grows without bound (reports, the tours' walks and scans): a first
 * load brings its recent part, older parts are loaded when a screen asks
 * for them (load.ts, ensureHistoryRange).
 */
import type PocketBase from 'pocketbase';
import { startOfMonth, subMonths } from 'date-fns';
import type { CollectionName } from '../../api/records.ts';
import { pbDate } from '../../domain/pbDate.ts';

/**
 * The histories and the time each is loaded by, as the records API's
 * filters name it: a report's incident time; a walk's round start; a
 * scan's walk's round start, so the scans of a walk come with it, whenever
 * they were made. The route made for loads scopes them the same way
 * (pocketbase/pb_hooks/lib/first_load_pack.js).
 */
export const HISTORY_TIME = {
  reports: 'incident_time',
  tour_walks: 'round_start',
  checkpoint_scans: 'walk.round_start',
} as const satisfies Partial<Record<CollectionName, string>>;

export type HistoryCollection = keyof typeof HISTORY_TIME;

export const isHistory = (collection: CollectionName): collection is HistoryCollection => collection in HISTORY_TIME;

/** The rounds' history: walks and their scans, loaded by the same ranges. */
export const TOUR_HISTORY: readonly HistoryCollection[] = ['tour_walks', 'checkpoint_scans'];

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Rounds a first load brings: eight days back from now, a week of past
 * days in any zone the app offers and the night before. Two months of
 * rounds were as many records as the homes' residents and phones together,
 * and tripled a first sync (docs/performance.md).
 */
export const FIRST_LOAD_ROUND_DAYS = 8;

/** What a first load of a history brings: reports from the start of the previous month, rounds from FIRST_LOAD_ROUND_DAYS back; both to "forever" (newer records come through the cursor). */
export function firstLoadRange(collection: HistoryCollection, now: Date): TimeRange {
  const from =
    collection === 'reports'
      ? startOfMonth(subMonths(now, 1)).getTime()
      : now.getTime() - FIRST_LOAD_ROUND_DAYS * DAY_MS;
  return { from, to: Number.MAX_SAFE_INTEGER };
}

/**
 * The span of a history a screen's period [from, to] needs: the period
 * itself for reports; a day more each side for rounds, whose day is the
 * community's (a zone away from the device's) and whose night runs past
 * midnight.
 */
export function historySpan(collection: HistoryCollection, period: TimeRange): TimeRange {
  if (collection === 'reports') return period;
  return { from: period.from - DAY_MS, to: period.to + DAY_MS };
}

export interface TimeRange {
  from: number;
  to: number;
}

export function addRange(ranges: readonly TimeRange[], range: TimeRange): TimeRange[] {
  const all = [...ranges, range].sort((a, b) => a.from - b.from);
  const merged: TimeRange[] = [];
  for (const r of all) {
    const last = merged[merged.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else merged.push({ ...r });
  }
  return merged;
}

/** The parts of `wanted` that no range covers. */
export function missingRanges(ranges: readonly TimeRange[], wanted: TimeRange): TimeRange[] {
  const missing: TimeRange[] = [];
  let from = wanted.from;
  for (const r of [...ranges].sort((a, b) => a.from - b.from)) {
    if (r.to < from) continue;
    if (r.from > wanted.to) break;
    if (r.from > from) missing.push({ from, to: r.from - 1 });
    from = Math.max(from, r.to + 1);
    if (from > wanted.to) return missing;
  }
  if (from <= wanted.to) missing.push({ from, to: wanted.to });
  return missing;
}

export function covers(ranges: readonly TimeRange[], wanted: TimeRange): boolean {
  return missingRanges(ranges, wanted).length === 0;
}

/** The latest date the server's date form holds: the open end of a range ("from this month on"). */
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A range as the server's filters read it: its ends in the server's date form (an open end closed at LATEST). */
export function rangeBounds(range: TimeRange): { from: string; to: string } {
  return { from: pbDate(new Date(range.from)), to: pbDate(new Date(Math.min(range.to, LATEST))) };
}

/** The records API filter of a history's records within a range of its time. */
export function historyFilter(pb: PocketBase, collection: HistoryCollection, range: TimeRange): string {
  const time = HISTORY_TIME[collection];
  return pb.filter(`${time} >= {:from} && ${time} <= {:to}`, rangeBounds(range));
}
