/**
 * Officer safety (docs/product.md#on-duty-and-alerts): the community's
 * safety settings as directors edit them, and the limits the server checks
 * on shifts, alerts and their events (recordRules.ts builds on these).
 */
import { z } from 'zod';
import { phoneNumberSchema, wholeNumber } from './schemas.ts';

export const SAFETY_LIMITS = {
  /** A shift still open after this many hours is ended by the server. */
  shiftLimitHours: { min: 1, max: 24, default: 14 },
  /** The lone-worker check: every N minutes of a shift; 0 is off. */
  checkMinutes: { min: 15, max: 240 },
  /** How long an 'Are you OK?' waits for its answer. */
  checkGraceMinutes: { min: 1, max: 60, default: 5 },
} as const;

/** The seconds Panic counts down before it sends, with 'Cancel' on screen. */
export const PANIC_COUNTDOWN_SECONDS = 5;

export const ALERT_KINDS = ['panic', 'missed_check_in'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** A step on an alert: someone is on the way, the officer is safe, a director or manager resolved it. */
export const ALERT_EVENT_KINDS = ['responding', 'safe', 'resolved'] as const;
export type AlertEventKind = (typeof ALERT_EVENT_KINDS)[number];

export const SHIFT_END_KINDS = ['officer', 'limit', 'new_shift'] as const;

/** A community's safety settings; the server checks the same (recordRules.ts). */
export const safetySettingsSchema = z.object({
  emergency_number: phoneNumberSchema,
  shift_limit_hours: wholeNumber('Shift limit', SAFETY_LIMITS.shiftLimitHours),
  check_minutes: z
    .number('Check-in every must be a number')
    .int('Check-in every must be a whole number')
    .refine(
      (value) => value === 0 || (value >= SAFETY_LIMITS.checkMinutes.min && value <= SAFETY_LIMITS.checkMinutes.max),
      `Check-in every must be 0 (off) or from ${SAFETY_LIMITS.checkMinutes.min} to ${SAFETY_LIMITS.checkMinutes.max} minutes`,
    ),
  check_grace_minutes: wholeNumber('Answer within', SAFETY_LIMITS.checkGraceMinutes),
});
export type SafetySettingsValues = z.infer<typeof safetySettingsSchema>;

/** A community that saved none: no emergency number, 14-hour shifts, no lone-worker check. */
export const DEFAULT_SAFETY_SETTINGS: SafetySettingsValues = {
  emergency_number: '',
  shift_limit_hours: SAFETY_LIMITS.shiftLimitHours.default,
  check_minutes: 0,
  check_grace_minutes: SAFETY_LIMITS.checkGraceMinutes.default,
};
