/**
 * The first load's pages from the route made for them
 * (pocketbase/pb_hooks/lib/first_load_pack.js): the same records the
 * records API lists, built by SQLite as one JSON text per page (the field
 * names once, then one array of values per record) and sent compressed.
 * Measured against the records API's pages (docs/performance.md, "A first
 * load made for phones"): a fraction of the server's CPU and of the bytes.
 *
 * A server without the route (an older one, mid-upgrade: it answers with
 * the app's page) or one whose list rule moved on without it (503): the
 * caller reads that collection through the records API instead (pull.ts).
 */
import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import type { CollectionName } from '../../api/records.ts';
import { pageRecords } from '../mirror/loadPages.ts';
import { rangeBounds, type TimeRange } from './ranges.ts';

/** The collections the route serves: the large ones (the small ones are a page of the records API each). */
export const FIRST_LOAD_PAGED: ReadonlySet<CollectionName> = new Set<CollectionName>([
  'houses',
  'residents',
  'phones',
  'calls',
  'call_attempts',
  'home_changes',
  'tour_walks',
  'checkpoint_scans',
  'reports',
]);

/** Records per page: the route's largest (MAX_LIMIT there). */
export const FIRST_LOAD_PAGE_SIZE = 2_000;

export interface FirstLoadPageRequest {
  collection: CollectionName;
  /** Ids from this one on ('' from the first). */
  from: string;
  /** Ids after this one ('' for none): the keyset within a range. */
  after: string;
  /** Ids before this one ('~' for no end). */
  to: string;
  /** A history only (ranges.ts): times within any of these ranges. */
  time?: readonly TimeRange[];
}

interface PageBody {
  fields: string[];
  rows: unknown[][];
  last: string;
}

/** The `time` parameter of the route: the ranges' ends in the server's date form, `from/to`, comma-separated. */
export function timeQuery(time: readonly TimeRange[] | undefined): Record<string, string> {
  if (!time?.length) return {};
  return {
    time: time
      .map((range) => {
        const { from, to } = rangeBounds(range);
        return `${from}/${to}`;
      })
      .join(','),
  };
}

/** How many records a load will bring, and the newest of them (its cursor); null newest when there are none. */
export interface LoadHead {
  total: number;
  newest: { updated: string; id: string } | null;
}

/** The head of a load: one count and one index lookup on the server, where the records API sorts every record. */
export async function readFirstLoadHead(
  pb: PocketBase,
  collection: CollectionName,
  time?: readonly TimeRange[],
): Promise<LoadHead> {
  const body = await pb.send<Partial<LoadHead>>(`/api/scms/first-load/${collection}`, {
    method: 'GET',
    query: { head: 1, ...timeQuery(time) },
    requestKey: null,
  });
  if (typeof body?.total !== 'number' || body.newest === undefined) throw new FirstLoadPagesUnavailable();
  return { total: body.total, newest: body.newest };
}

/**
 * One page: as the route sent it (its JSON text, which a first load stores
 * as it is), and as records shaped like the records API's (with
 * collectionName; the mirror drops collectionId anyway). The SDK sends the
 * request (its auth, its errors); the text is taken on the way.
 */
export async function readFirstLoadPage(
  pb: PocketBase,
  request: FirstLoadPageRequest,
): Promise<{ text: string; records: RecordModel[] }> {
  const query: Record<string, string | number> = {
    limit: FIRST_LOAD_PAGE_SIZE,
    to: request.to,
    ...timeQuery(request.time),
  };
  if (request.from) query.from = request.from;
  if (request.after) query.after = request.after;
  let text = '';
  await pb.send(`/api/scms/first-load/${request.collection}`, {
    method: 'GET',
    query,
    requestKey: null,
    fetch: async (url, config) => {
      const response = await fetch(url, config);
      if (!response.ok) return response;
      text = await response.text();
      return new Response('{}', { status: response.status, headers: { 'content-type': 'application/json' } });
    },
  });
  let body: Partial<PageBody> | null = null;
  try {
    body = JSON.parse(text) as Partial<PageBody>;
  } catch {
    // A server without the route answers its app's index.html (PocketBase serves the app for unknown paths).
  }
  if (!Array.isArray(body?.fields) || !Array.isArray(body.rows)) throw new FirstLoadPagesUnavailable();
  return { text, records: pageRecords(request.collection, body.fields, body.rows) as unknown as RecordModel[] };
}

/** What an answer that is not a page throws. */
class FirstLoadPagesUnavailable extends Error {
  constructor() {
    super('The server has no first-load pages.');
  }
}

/**
 * The server has no such pages for this collection: an older server (its
 * answer is not a page, or a 404), or a list rule the route does not
 * implement (503).
 */
export function firstLoadPagesUnavailable(error: unknown): boolean {
  // The status of the SDK's ClientResponseError, read without importing the SDK here: this module
  // is loaded on its own (pull.ts), and a value import would split the SDK out of the app's chunk.
  const status = (error as { status?: unknown } | null)?.status;
  return error instanceof FirstLoadPagesUnavailable || status === 404 || status === 503;
}
