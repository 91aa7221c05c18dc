/**
 * Sets of time ranges (epoch ms, inclusive), kept sorted and merged: which
 * incident-time ranges of reports the mirror holds in full.
 */
import { pbDate } from '../../domain/pbDate.ts';
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
export function incidentBounds(range: TimeRange): { from: string; to: string } {
  return { from: pbDate(new Date(range.from)), to: pbDate(new Date(Math.min(range.to, LATEST))) };
}
