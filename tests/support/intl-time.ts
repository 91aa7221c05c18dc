/**
 * A moment's local date and clock by Intl (Node's full time-zone data): the
 * independent answer the domain's own zone table (src/domain/quietHours.ts,
 * zonedTime.ts) is checked against, over the summer-time changes.
 */

/** 'YYYY-MM-DD HH:MM' of `ms` in `zone`, by Intl. */
export function intlWall(zone: string, ms: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}
