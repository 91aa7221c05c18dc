/**
 * Days and clock times as they are in a community's time zone (its call
 * settings' time zone, DEFAULT_CALL_SETTINGS' when none are saved), whatever
 * the clock of the machine running the code: the demo seed writes an
 * incident's 'approx 2123 hrs' and a house check's day so. Pure and free of
 * Intl, like quietHours.ts whose zone table it uses.
 */
import { clockText, localMinutes, offsetAt } from './quietHours.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** UTC ms of the wall-clock moment `wallMs` (a UTC-based count of the zone's local time) in `zone`. */
function fromWall(zone: string, wallMs: number): number {
  const guess = wallMs - offsetAt(zone, wallMs) * MINUTE;
  return wallMs - offsetAt(zone, guess) * MINUTE;
}

/** The zone's wall clock at `utcMs`, as a UTC-based count (read it with getUTC*). */
function wall(zone: string, utcMs: number): Date {
  return new Date(utcMs + offsetAt(zone, utcMs) * MINUTE);
}

/** 'HH:MM' in `zone` at `utcMs`. */
export function zonedClock(zone: string, utcMs: number): string {
  return clockText(localMinutes(zone, utcMs));
}

/** UTC ms of 00:00, in `zone`, of the day `days` after the one holding `utcMs` (0: that day). */
export function zonedDayStart(zone: string, utcMs: number, days = 0): number {
  return zonedWallTime(zone, utcMs, days * (DAY / MINUTE));
}

/**
 * UTC ms of the wall-clock minute `minutes` (past 24 h: the days after) of
 * the day, in `zone`, holding `utcMs`. A time the clock skips (02:30 the
 * night summer time starts) comes out as the hour before; one it shows
 * twice (01:30 the night it ends) as the first.
 */
export function zonedWallTime(zone: string, utcMs: number, minutes: number): number {
  const local = wall(zone, utcMs).getTime();
  return fromWall(zone, Math.floor(local / DAY) * DAY + minutes * MINUTE);
}

/** UTC ms of 00:00, in `zone`, of the first day of the month `months` after the one holding `utcMs` (0: that month). */
export function zonedMonthStart(zone: string, utcMs: number, months = 0): number {
  const local = wall(zone, utcMs);
  return fromWall(zone, Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + months, 1));
}
