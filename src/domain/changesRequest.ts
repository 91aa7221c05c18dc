/**
 * The request of the changes route (pocketbase/pb_hooks/lib/changes.js; the
 * device's side in src/data/sync/changes.ts): one request answers a
 * catch-up pull of every collection of ANSWERED_AT_ONCE
 * (src/domain/pullFilter.ts), each from its own cursor, instead of one
 * request per collection. Written and read here, once, for both: the device
 * builds the query with changesQuery, and the server (compiled into
 * pb_hooks/lib/generated/changes_request.js) reads it with readChangesQuery.
 */
import { ANSWERED_AT_ONCE } from './pullFilter.ts';

/** Most records in one answer of the changes route, all collections together (about 2 MB of JSON before compression at the largest); the rest come in the next. */
export const CHANGES_PER_ANSWER = 2_000;

/** A collection's cursor: the newest `updated` and, among that instant's records, the last id the device holds; both empty for "from the start". */
export interface PullCursor {
  updated: string;
  id: string;
}

/** The changes route's request. `limit`: most records in the answer (CHANGES_PER_ANSWER when left out). */
export interface ChangesRequest {
  cursors: Record<string, PullCursor>;
  limit?: number;
}

/** PocketBase's stored date form, the only one a cursor holds (src/domain/pbDate.ts). */
const PB_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const RECORD_ID = /^[a-z0-9]{1,15}$/;
/** Seventeen cursors take about 1.3 kB. */
const MAX_CURSORS_TEXT = 4_096;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A name from a request, quoted and cut short, for an error message. */
const quoted = (name: string) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

function cursorProblem(name: string, cursor: unknown): string | null {
  const shape = `The cursor of ${name} must be {"updated", "id"}: a date in the server's form and a record id, or both empty.`;
  if (!isPlainObject(cursor) || Object.keys(cursor).length !== 2) return shape;
  const { updated, id } = cursor;
  if (typeof updated !== 'string' || typeof id !== 'string') return shape;
  if (updated === '' && id === '') return null;
  return PB_DATE.test(updated) && RECORD_ID.test(id) ? null : shape;
}

/** The query of a changes request: `cursors` as JSON, and `limit` when given. */
export function changesQuery(request: ChangesRequest): Record<string, string> {
  const query: Record<string, string> = { cursors: JSON.stringify(request.cursors) };
  if (request.limit !== undefined) query.limit = String(request.limit);
  return query;
}

/**
 * A changes request read from its query (name → text), or what is wrong
 * with it: the server answers 400 with that message.
 */
export function readChangesQuery(query: Record<string, string>): { request: ChangesRequest } | { problem: string } {
  for (const key of Object.keys(query)) {
    if (key !== 'cursors' && key !== 'limit')
      return { problem: `Unknown parameter ${quoted(key)}: the route takes cursors and limit.` };
  }
  const request: ChangesRequest = { cursors: {} };
  const limitText = query.limit;
  if (limitText !== undefined) {
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > CHANGES_PER_ANSWER) {
      return { problem: `limit must be a whole number from 1 to ${CHANGES_PER_ANSWER}.` };
    }
    request.limit = limit;
  }
  const cursorsShape = 'cursors must be a JSON object: a collection name to its cursor.';
  const text = query.cursors ?? '';
  if (text.length > MAX_CURSORS_TEXT) return { problem: `cursors must be at most ${MAX_CURSORS_TEXT} characters.` };
  let cursors: unknown;
  try {
    cursors = JSON.parse(text);
  } catch {
    return { problem: cursorsShape };
  }
  if (!isPlainObject(cursors)) return { problem: cursorsShape };
  const names = Object.keys(cursors);
  if (names.length === 0) return { problem: 'cursors must name at least one collection.' };
  for (const name of names) {
    if (!ANSWERED_AT_ONCE.includes(name)) {
      return { problem: `cursors names ${quoted(name)}, a collection this route does not serve.` };
    }
    const problem = cursorProblem(name, cursors[name]);
    if (problem) return { problem };
    request.cursors[name] = cursors[name] as PullCursor;
  }
  return { request };
}
