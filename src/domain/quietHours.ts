/**
 * Quiet hours of a community's calls: no call is placed in them
 * unless the caller says so, and no retry starts in them. Pure and free of
 * imports, Intl and browser or Node APIs: the server's call route runs the
 * same code (scripts/pocketbase/hook-libs.ts compiles it into
 * pb_hooks/lib/generated/quiet_hours.js), and goja has no Intl to convert
 * time zones with. So the zones are a fixed list with their offsets and the
 * United States' daylight-saving rule (since 2007: from the second Sunday of
 * March, 2:00, to the first Sunday of November, 2:00), checked against Intl in
 * tests/unit/quiet-hours.test.ts.
 */

export interface CallSettings {
  retries: number;
  retryMinutes: number;
  textFallback: boolean;
  /** 'HH:MM', local time. */
  quietStart: string;
  quietEnd: string;
  timeZone: string;
}

export const DEFAULT_CALL_SETTINGS: CallSettings = {
  retries: 2,
  retryMinutes: 5,
  textFallback: false,
  quietStart: '21:00',
  quietEnd: '08:00',
  timeZone: 'America/New_York',
};

/** Standard offset from UTC in minutes, and whether US daylight saving applies. */
const ZONES: Record<string, { offset: number; usDst: boolean }> = {
  'America/New_York': { offset: -300, usDst: true },
  'America/Chicago': { offset: -360, usDst: true },
  'America/Denver': { offset: -420, usDst: true },
  'America/Phoenix': { offset: -420, usDst: false },
  'America/Los_Angeles': { offset: -480, usDst: true },
  'America/Anchorage': { offset: -540, usDst: true },
  'Pacific/Honolulu': { offset: -600, usDst: false },
  'America/Puerto_Rico': { offset: -240, usDst: false },
  UTC: { offset: 0, usDst: false },
};

export const TIME_ZONES: readonly string[] = Object.keys(ZONES);

export function isKnownTimeZone(zone: string): boolean {
  return Object.prototype.hasOwnProperty.call(ZONES, zone);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** UTC ms of the n-th Sunday (1-based) of `month` (0-based) of `year`, at 00:00 UTC. */
function nthSunday(year: number, month: number, n: number): number {
  const first = Date.UTC(year, month, 1);
  const weekday = new Date(first).getUTCDay();
  return first + (((7 - weekday) % 7) + 7 * (n - 1)) * 24 * HOUR;
}

/** The zone's offset from UTC in minutes at the instant `utcMs`. */
export function offsetAt(zone: string, utcMs: number): number {
  const z = ZONES[zone] ?? ZONES[DEFAULT_CALL_SETTINGS.timeZone]!;
  if (!z.usDst) return z.offset;
  const year = new Date(utcMs).getUTCFullYear();
  // 2:00 local standard time, and 2:00 local daylight time (= 1:00 standard).
  const starts = nthSunday(year, 2, 2) + 2 * HOUR - z.offset * MINUTE;
  const ends = nthSunday(year, 10, 1) + 1 * HOUR - z.offset * MINUTE;
  return utcMs >= starts && utcMs < ends ? z.offset + 60 : z.offset;
}

/** Minutes since local midnight of `utcMs` in `zone`. */
export function localMinutes(zone: string, utcMs: number): number {
  const local = utcMs + offsetAt(zone, utcMs) * MINUTE;
  return Math.floor((((local % (24 * HOUR)) + 24 * HOUR) % (24 * HOUR)) / MINUTE);
}

/** 'HH:MM' of minutes since midnight. */
export function clockText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}`;
}

/** Minutes since midnight of an 'HH:MM' clock time; -1 when it is not one. */
export function parseClock(text: string): number {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : -1;
}

/** Whether local minute `t` is in quiet hours [start, end), which may span midnight; equal ends mean none. */
export function inQuietHours(settings: Pick<CallSettings, 'quietStart' | 'quietEnd'>, t: number): boolean {
  const start = parseClock(settings.quietStart);
  const end = parseClock(settings.quietEnd);
  if (start < 0 || end < 0 || start === end) return false;
  return start < end ? t >= start && t < end : t >= start || t < end;
}

/** The quiet hours a question names: the resident's time now, and the window it falls in. */
export interface QuietMoment {
  localTime: string;
  quietStart: string;
  quietEnd: string;
}

/**
 * What the call sheet asks before calling in quiet hours, saying why it
 * asks; the server's 409 says the same.
 */
export function quietHoursQuestion({ localTime, quietStart, quietEnd }: QuietMoment): string {
  return `It is ${localTime} for the resident, within the community's quiet hours (${quietStart}–${quietEnd}). Call anyway?`;
}

export interface QuietHoursCheck {
  quiet: boolean;
  /** The resident's local time, 'HH:MM'. */
  localTime: string;
  /** When quiet hours end (UTC ms); equals `utcMs` when not quiet. */
  endsAt: number;
}

/** Whether `utcMs` falls in the community's quiet hours, the resident's local time, and when they end. */
export function quietHoursAt(
  settings: Pick<CallSettings, 'quietStart' | 'quietEnd' | 'timeZone'>,
  utcMs: number,
): QuietHoursCheck {
  const t = localMinutes(settings.timeZone, utcMs);
  const localTime = clockText(t);
  if (!inQuietHours(settings, t)) return { quiet: false, localTime, endsAt: utcMs };
  const end = parseClock(settings.quietEnd);
  const wait = (end - t + 24 * 60) % (24 * 60);
  // Start of the end minute; a daylight-saving change in between moves it by
  // an hour, so step until the local clock agrees.
  let endsAt = Math.floor(utcMs / MINUTE) * MINUTE + wait * MINUTE;
  for (let i = 0; i < 2 && localMinutes(settings.timeZone, endsAt) !== end; i++) {
    endsAt += (localMinutes(settings.timeZone, endsAt) > end ? -1 : 1) * HOUR;
  }
  return { quiet: true, localTime, endsAt };
}
