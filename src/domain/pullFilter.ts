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

/** The filter's text as a pattern: built on first use, so that the app (which never asks) does not build or carry it. */
function cursorFilterText(): RegExp {
  return new RegExp(
    `^${CURSOR_FILTER.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace('{:u}', VALUE)
      .replace('{:u}', '"\\1"')
      .replace('{:id}', VALUE)}$`,
  );
}
let cursorFilterPattern: RegExp | null = null;

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
  if (typeof filter !== 'string') return false;
  if (!cursorFilterPattern) cursorFilterPattern = cursorFilterText();
  return cursorFilterPattern.test(filter);
}
