/**
 * Temporary passwords: the one a director is shown for a new user or a
 * reset. Until the user chooses their own the server refuses everything
 * but the change, and after the configured hours the password stops
 * working. The app (Users screen, login page) and the server's hooks
 * (compiled to pb_hooks/lib/generated/temporary_password.js) read the same
 * rule and the same words from here.
 */
import { parsePbDate, pbDate } from './pbDate.ts';

/** How long a temporary password works when SCMS_TEMPORARY_PASSWORD_HOURS is not set. */
export const DEFAULT_TEMPORARY_PASSWORD_HOURS = 72;
const MAX_TEMPORARY_PASSWORD_HOURS = 720;

/** The sign-in refusal of an expired temporary password (with its field code, which the login page reads). */
export const TEMPORARY_PASSWORD_EXPIRED = 'This temporary password has expired. Ask a director for a new one.';
export const TEMPORARY_PASSWORD_EXPIRED_CODE = 'temporary_password_expired';
/** The server's answer to anything else a session on a temporary password asks for. */
export const PASSWORD_CHANGE_REQUIRED = 'Choose a password of your own first.';

/** 'own': nothing to change; 'temporary': must be changed, still works; 'expired': no longer works. */
export type TemporaryPasswordState = 'own' | 'temporary' | 'expired';

/**
 * The state of a user's password from the server's two fields. A flag
 * without an expiry (set by a superuser by hand) does not expire.
 */
export function temporaryPasswordState(
  mustChangePassword: boolean | undefined,
  expires: string | null | undefined,
  now: number,
): TemporaryPasswordState {
  if (mustChangePassword !== true) return 'own';
  const end = parsePbDate(expires);
  return end !== null && end.getTime() <= now ? 'expired' : 'temporary';
}

/** When a temporary password given now stops working, in PocketBase's date format. */
export function temporaryPasswordExpiry(now: number, hours: number): string {
  return pbDate(new Date(now + hours * 3600 * 1000));
}

/** SCMS_TEMPORARY_PASSWORD_HOURS as hours; a value that is not a whole number from 1 to 720 throws, saying so. */
export function temporaryPasswordHours(configured: string | undefined): number {
  if (configured === undefined || configured.trim() === '') return DEFAULT_TEMPORARY_PASSWORD_HOURS;
  const hours = Number(configured);
  if (!/^\s*\d+\s*$/.test(configured) || hours < 1 || hours > MAX_TEMPORARY_PASSWORD_HOURS)
    throw new Error(
      `SCMS_TEMPORARY_PASSWORD_HOURS must be a whole number of hours from 1 to ${MAX_TEMPORARY_PASSWORD_HOURS}.`,
    );
  return hours;
}
