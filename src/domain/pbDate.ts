/** PocketBase's date format, in UTC: '2026-11-22 06:00:00.000Z'. The app's
 *  filters and writes, the demo seed and the tests all write dates so. */
export function pbDate(date: Date): string {
  return date.toISOString().replace('T', ' ');
}
