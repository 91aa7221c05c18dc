/** PocketBase's date format, in UTC: '2026-11-22 06:00:00.000Z'. The app's
 *  filters and writes, the demo seed and the tests all write dates so. */
export function pbDate(date: Date): string {
  return date.toISOString().replace('T', ' ');
}

/** A PocketBase date string ('2026-11-22 06:00:00.000Z') as a Date; null when empty or unreadable. */
export function parsePbDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : date;
}
