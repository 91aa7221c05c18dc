/**
 * Finds records deleted on the server while this device was not listening
 * (realtime delete events only reach a connected client): reads the ids the
 * server has (ids only) and removes local rows it no longer has — never
 * rows that the outbox is still writing.
 */
import type { CollectionName } from '../api/records.ts';
import { removeServerRecords } from './mirror.ts';
import { PAGE_SIZE, pbDate, reportRanges, type PullContext } from './pull.ts';

async function serverIds(ctx: PullContext, collection: CollectionName, filter: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let after = '';
  for (;;) {
    const parts = [filter, after ? ctx.pb.filter('id > {:id}', { id: after }) : ''].filter(Boolean).map((f) => `(${f})`);
    const page = await ctx.pb.collection(collection).getList(1, PAGE_SIZE, {
      filter: parts.join(' && '),
      sort: 'id',
      fields: 'id',
      skipTotal: true,
      requestKey: null,
    });
    for (const item of page.items) ids.add(item.id);
    if (page.items.length < PAGE_SIZE) return ids;
    after = page.items[page.items.length - 1]!.id;
  }
}

/** Reconciles one collection; returns how many local rows were removed. */
export async function reconcileCollection(ctx: PullContext, collection: CollectionName): Promise<number> {
  if (collection !== 'reports') {
    const remote = await serverIds(ctx, collection, '');
    const local = (await ctx.db.mirror(collection).toCollection().primaryKeys()) as string[];
    return removeServerRecords(ctx.db, collection, local.filter((id) => !remote.has(id)));
  }
  // Reports: only within the incident-time ranges the mirror holds in full.
  let removed = 0;
  for (const range of await reportRanges(ctx.db)) {
    const from = pbDate(new Date(range.from));
    const to = pbDate(new Date(Math.min(range.to, 8.64e15)));
    const remote = await serverIds(ctx, 'reports', ctx.pb.filter('incident_time >= {:from} && incident_time <= {:to}', { from, to }));
    const local = (await ctx.db.reports.where('incident_time').between(from, to, true, true).primaryKeys()) as string[];
    removed += await removeServerRecords(ctx.db, 'reports', local.filter((id) => !remote.has(id)));
  }
  return removed;
}

export async function reconcileAll(ctx: PullContext, collections: readonly CollectionName[]): Promise<number> {
  let removed = 0;
  for (const collection of collections) removed += await reconcileCollection(ctx, collection);
  return removed;
}
