/**
 * The filter of a catch-up pull: the records of a collection changed after
 * a cursor (the newest `updated`, then `id`, the device holds). The device
 * builds it (src/data/sync/pull.ts) and the server recognises it
 * (pb_hooks/pull_cursor.pb.js, compiled from this file), so the two agree
 * on one text.
 *
 * Why the server needs to know it: PocketBase answers a filtered list that
 * comes back empty after a random wait of up to 500 ms once one address
 * had three such answers from a collection within three seconds (a guard
 * against timing probes of the list rules). A catch-up pull asks every
 * collection, and most have nothing new: without the hook, a pull after a
 * write, a reconnect or a return to the app waited up to half a second for
 * nothing, and every officer behind one address (a proxy, a carrier's NAT)
 * shared the count. This filter compares only `updated` and `id`, which
 * probe nothing a list rule hides, in the collections below.
 */

/** The template, for the SDK's `pb.filter(template, { u, id })`. `updated >= u` on its own lets the server range-scan its (community, updated) index; the rest only breaks ties. */
export const CURSOR_FILTER = 'updated >= {:u} && (updated > {:u} || id > {:id})';

/** A value as the SDK writes a string parameter (in double quotes), with no quote or backslash inside (dates and ids have none). */
const VALUE = '"([^"\\\\]*)"';

const CURSOR_FILTER_TEXT = new RegExp(
  `^${CURSOR_FILTER.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace('{:u}', VALUE)
    .replace('{:u}', '"\\1"')
    .replace('{:id}', VALUE)}$`,
);

/**
 * The collections whose list rule is their own `community` field, which
 * leads the index a pull walks: an empty answer there costs the same
 * whatever other communities did. Residents and phones are scoped through
 * their home, and their pull walks the `updated` index of every community
 * (pb_hooks/query_planner.pb.js): how long an empty answer takes would tell
 * how much other communities changed since a time the asker picks, so
 * theirs keep PocketBase's wait.
 */
export const ANSWERED_AT_ONCE: readonly string[] = [
  'communities',
  'users',
  'concerns',
  'houses',
  'calls',
  'call_attempts',
  'call_settings',
  'home_changes',
  'checkpoints',
  'tours',
  'tour_walks',
  'checkpoint_scans',
  'safety_settings',
  'duty_shifts',
  'alerts',
  'alert_events',
  'reports',
];

/** Whether a list request's filter is a catch-up pull's, and nothing else. */
export function isCursorFilter(filter: string | null | undefined): boolean {
  return typeof filter === 'string' && CURSOR_FILTER_TEXT.test(filter);
}

/*
 * The changes route (pb_hooks/lib/changes.js; the device's side in
 * src/data/sync/changes.ts): one request answers a catch-up pull of every
 * collection of ANSWERED_AT_ONCE, each from its own cursor, instead of one
 * request per collection. Its request is checked here, once, for both.
 */

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
