/**
 * New phones' first syncs, as the server sees them, for bench:load: the
 * requests a first sync makes (src/data/sync/pull.ts, load.ts and
 * topOfHomes.ts: the top of the Homes list, then each collection's head and
 * its id ranges side by side, six requests at a time), compressed answers
 * accepted as a browser does, without a phone's writes (the bench runs on
 * the server's two cores: an IndexedDB here would take their time). The
 * bytes a first sync costs are bench:sync's, measured in Chromium.
 */
import PocketBase from 'pocketbase';
import type { CollectionName } from '../../src/api/records.ts';
import { FIRST_LOAD_PAGE_SIZE, FIRST_LOAD_PAGED, timeQuery } from '../../src/data/sync/firstLoadPages.ts';
import { idRanges } from '../../src/data/sync/load.ts';
import { PAGE_SIZE, PULL_CONCURRENCY, PULL_ORDER, RequestSlots } from '../../src/data/sync/pull.ts';
import { firstLoadRange, historyFilter, isHistory } from '../../src/data/sync/ranges.ts';
import { TOP_OF_HOMES } from '../../src/data/sync/topOfHomes.ts';

export interface FirstSyncFigures {
  ms: number;
  requests: number;
  failed: number;
  /** Status of each failed request (0: no answer). */
  failures: number[];
}

/** Where the large collections are read from: the route made for loads, or the records API (a server without it). */
export type FirstSyncSource = 'route' | 'records-api';

/** One phone's first sync against `url` with the officer's token. */
export async function firstSync(
  url: string,
  token: string,
  source: FirstSyncSource = 'route',
  now = new Date(),
): Promise<FirstSyncFigures> {
  const slots = new RequestSlots(PULL_CONCURRENCY);
  const figures: FirstSyncFigures = { ms: 0, requests: 0, failed: 0, failures: [] };
  const get = (path: string, query: Record<string, string | number>) =>
    slots.run(async () => {
      const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      figures.requests++;
      try {
        const response = await fetch(`${url}${path}?${search}`, { headers: { Authorization: token } });
        const text = await response.text();
        if (response.ok) return JSON.parse(text) as Record<string, unknown>;
        figures.failures.push(response.status);
      } catch {
        figures.failures.push(0);
      }
      figures.failed++;
      return null;
    });
  // A history's first load: its recent part (ranges.ts).
  const filters = new PocketBase(url);
  const routeScope = (collection: CollectionName) =>
    isHistory(collection) ? timeQuery([firstLoadRange(collection, now)]) : {};

  const loadRecordsApi = async (collection: string) => {
    for (let page = 1; ; page++) {
      const body = await get(`/api/collections/${collection}/records`, { page, perPage: PAGE_SIZE, skipTotal: 1 });
      if (!body || (body.items as unknown[]).length < PAGE_SIZE) return;
    }
  };
  /** As load.ts reads a collection from a server without the route: its head sorted by the records API, id ranges of 500. */
  const loadRecordsApiRanges = async (collection: CollectionName) => {
    const scope: { filter?: string } = isHistory(collection)
      ? { filter: historyFilter(filters, collection, firstLoadRange(collection, now)) }
      : {};
    const head = await get(`/api/collections/${collection}/records`, {
      page: 1,
      perPage: 1,
      sort: '-updated,-id',
      fields: 'id,updated',
      ...scope,
    });
    const total = (head?.totalItems as number | undefined) ?? 0;
    if (total === 0) return;
    await Promise.all(
      idRanges(total, PAGE_SIZE).map(async (range) => {
        let after = range.from;
        for (;;) {
          const lower = after !== range.from ? `id > '${after}'` : range.from ? `id >= '${after}'` : '';
          const ids = [lower, `id < '${range.to}'`, scope.filter ?? ''].filter(Boolean).map((f) => `(${f})`);
          const page = await get(`/api/collections/${collection}/records`, {
            page: 1,
            perPage: PAGE_SIZE,
            sort: 'id',
            skipTotal: 1,
            filter: ids.join(' && '),
          });
          const items = (page?.items as Array<{ id: string }> | undefined) ?? [];
          if (items.length < PAGE_SIZE) return;
          after = items[items.length - 1]!.id;
        }
      }),
    );
  };
  const loadRoute = async (collection: CollectionName) => {
    const scope = routeScope(collection);
    const head = await get(`/api/scms/first-load/${collection}`, { head: 1, ...scope });
    const total = (head?.total as number | undefined) ?? 0;
    if (total === 0) return;
    await Promise.all(
      idRanges(total, FIRST_LOAD_PAGE_SIZE).map(async (range) => {
        let after = '';
        for (;;) {
          const query: Record<string, string | number> = { limit: FIRST_LOAD_PAGE_SIZE, to: range.to, ...scope };
          if (range.from) query.from = range.from;
          if (after) query.after = after;
          const page = await get(`/api/scms/first-load/${collection}`, query);
          if (!page || (page.rows as unknown[]).length < FIRST_LOAD_PAGE_SIZE) return;
          after = page.last as string;
        }
      }),
    );
  };

  const started = performance.now();
  await get('/api/collections/houses/records', { page: 1, perPage: TOP_OF_HOMES, sort: 'sort_key,id', skipTotal: 1 });
  await Promise.all(
    PULL_ORDER.map((collection) =>
      !FIRST_LOAD_PAGED.has(collection)
        ? loadRecordsApi(collection)
        : source === 'route'
          ? loadRoute(collection)
          : loadRecordsApiRanges(collection),
    ),
  );
  figures.ms = performance.now() - started;
  return figures;
}
