/**
 * Pulls the community's records into the mirror: the first time in full,
 * then only what changed since the newest `updated` seen. Pages are read
 * by keyset (updated, id) rather than by page number, so records changing
 * while a pull runs are neither skipped nor read twice.
 *
 * Reports are the one collection that grows without bound: the first load
 * takes the current and the previous month; older months are pulled when
 * the list asks for them (ensureReportRange).
 */
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import { startOfMonth, subMonths } from 'date-fns';
import type { CollectionName } from '../api/records.ts';
import { getSyncState, setSyncState, type ScmsDatabase } from './db.ts';
import { applyServerRecords } from './mirror.ts';
import { addRange, missingRanges, type TimeRange } from './ranges.ts';

/** Spec §9: lists are read in batches of 500. */
export const PAGE_SIZE = 500;

export interface Cursor {
  updated: string;
  id: string;
}

export interface PullContext {
  pb: PocketBase;
  db: ScmsDatabase;
  now?: () => Date;
}

/**
 * Collections in pull order: each group is pulled concurrently (the network
 * waits overlap), groups one after another so parents arrive before
 * children and links resolve on screen.
 */
export const PULL_GROUPS: ReadonlyArray<readonly CollectionName[]> = [
  ['communities', 'users', 'concerns', 'houses'],
  ['residents', 'phones', 'calls', 'reports'],
];

const cursorKey = (collection: CollectionName) => `cursor:${collection}`;
export const REPORT_RANGES_KEY = 'reports:ranges';
export const LAST_SYNC_KEY = 'lastSyncAt';

/** PocketBase's date format: '2026-11-22 06:00:00.000Z'. */
export function pbDate(date: Date): string {
  return date.toISOString().replace('T', ' ');
}

/** Reads every record matching `filter` after `cursor`, page by page; returns the new cursor. */
async function readAfter(ctx: PullContext, collection: CollectionName, filter: string, cursor: Cursor | undefined, onPage: (items: RecordModel[]) => Promise<void>): Promise<Cursor | undefined> {
  let last = cursor;
  for (;;) {
    const after = last ? ctx.pb.filter('(updated > {:u} || (updated = {:u} && id > {:id}))', { u: last.updated, id: last.id }) : '';
    const combined = [filter, after].filter(Boolean).map((f) => `(${f})`).join(' && ');
    const page = await ctx.pb.collection(collection).getList(1, PAGE_SIZE, {
      filter: combined,
      sort: 'updated,id',
      skipTotal: true,
      requestKey: null,
    });
    if (page.items.length > 0) {
      await onPage(page.items);
      const tail = page.items[page.items.length - 1]!;
      last = { updated: tail.updated as string, id: tail.id };
    }
    if (page.items.length < PAGE_SIZE) return last;
  }
}

/** First load or incremental pull of one collection; returns how many records arrived. */
export async function pullCollection(ctx: PullContext, collection: CollectionName): Promise<number> {
  const cursor = await getSyncState<Cursor>(ctx.db, cursorKey(collection));
  let filter = '';
  if (collection === 'reports' && !cursor) {
    const from = startOfMonth(subMonths((ctx.now ?? (() => new Date()))(), 1));
    filter = ctx.pb.filter('incident_time >= {:from}', { from: pbDate(from) });
  }
  let count = 0;
  const next = await readAfter(ctx, collection, filter, cursor, async (items) => {
    count += items.length;
    await applyServerRecords(ctx.db, collection, items);
  });
  if (collection === 'reports' && !cursor) {
    const now = (ctx.now ?? (() => new Date()))();
    const from = startOfMonth(subMonths(now, 1));
    // Covered up to "forever": newer reports arrive through the cursor.
    await addReportRange(ctx.db, { from: from.getTime(), to: Number.MAX_SAFE_INTEGER });
  }
  if (next) await setSyncState(ctx.db, cursorKey(collection), next);
  else if (!cursor) await setSyncState(ctx.db, cursorKey(collection), { updated: '', id: '' });
  return count;
}

/** Pulls every collection; returns the number of records per collection. */
export async function pullAll(ctx: PullContext): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const group of PULL_GROUPS) {
    const pulled = await Promise.all(group.map((collection) => pullCollection(ctx, collection)));
    group.forEach((collection, i) => (counts[collection] = pulled[i]!));
  }
  await setSyncState(ctx.db, LAST_SYNC_KEY, Date.now());
  return counts;
}

export async function reportRanges(db: ScmsDatabase): Promise<TimeRange[]> {
  return (await getSyncState<TimeRange[]>(db, REPORT_RANGES_KEY)) ?? [];
}

async function addReportRange(db: ScmsDatabase, range: TimeRange): Promise<void> {
  await setSyncState(db, REPORT_RANGES_KEY, addRange(await reportRanges(db), range));
}

/**
 * Makes sure the mirror holds every report with an incident time in
 * [from, to]; pulls the missing parts from the server. Returns how many
 * reports were pulled (0 when the mirror already covered the range).
 */
export async function ensureReportRange(ctx: PullContext, from: Date, to: Date): Promise<number> {
  const missing = missingRanges(await reportRanges(ctx.db), { from: from.getTime(), to: to.getTime() });
  let count = 0;
  for (const range of missing) {
    const filter = ctx.pb.filter('incident_time >= {:from} && incident_time <= {:to}', {
      from: pbDate(new Date(range.from)),
      to: pbDate(new Date(Math.min(range.to, 8.64e15))),
    });
    await readAfter(ctx, 'reports', filter, undefined, async (items) => {
      count += items.length;
      await applyServerRecords(ctx.db, 'reports', items);
    });
    await addReportRange(ctx.db, range);
  }
  return count;
}
