/**
 * Temporary passwords: the one a director is shown for a new user or a
 * reset. Until the user chooses their own the server refuses everything
 * but the change, and after the configured hours the password stops
 * working. The app (Users screen, login page) and the server's hooks
 * (compiled to pb_hooks/lib/generated/temporary_password.js) read the same
 * rule and the same words from here.
 */
import { parsePbDate, pbDate } from './pbDate.ts';
import { PASSWORD_LENGTH_MESSAGE, PASSWORD_LIMITS } from './passwordRules.ts';

/**
 * The characters of a temporary password: lowercase letters (no shift key on
 * a phone) and digits, without those read or typed for one another: 0 o, 1 l i.
 */
export const TEMPORARY_PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Groups of characters joined by dashes, read out one group at a time: 'kp7m-x4rd-9tce-hw2a'. */
export const TEMPORARY_PASSWORD_GROUPS = 4;
export const TEMPORARY_PASSWORD_GROUP_LENGTH = 4;
const GROUP_SEPARATOR = '-';

/** `length` characters, each drawn uniformly and independently from `alphabet` (the server's $security.randomStringWithAlphabet). */
/** What a temporary password looks like: 'w9a2-rh2s-b2sx-u7ts' (groups of the alphabet, joined by dashes). */
export const TEMPORARY_PASSWORD_SHAPE = new RegExp(
  `^[${TEMPORARY_PASSWORD_ALPHABET}]{${TEMPORARY_PASSWORD_GROUP_LENGTH}}(-[${TEMPORARY_PASSWORD_ALPHABET}]{${TEMPORARY_PASSWORD_GROUP_LENGTH}}){${TEMPORARY_PASSWORD_GROUPS - 1}}$`,
);

export type RandomCharacters = (length: number, alphabet: string) => string;

/**
 * A new temporary password: 16 characters of the alphabet above in 4 groups
 * of 4 (19 characters with the dashes, inside the passwords' 8–24; about 79 bits).
 * A source that gives anything else throws: no weak password is handed out.
 */
export function newTemporaryPassword(random: RandomCharacters): string {
  const count = TEMPORARY_PASSWORD_GROUPS * TEMPORARY_PASSWORD_GROUP_LENGTH;
  const drawn = String(random(count, TEMPORARY_PASSWORD_ALPHABET));
  if (drawn.length !== count || [...drawn].some((c) => !TEMPORARY_PASSWORD_ALPHABET.includes(c)))
    throw new Error('The random source gave characters outside the temporary password alphabet.');
  const groups: string[] = [];
  for (let i = 0; i < count; i += TEMPORARY_PASSWORD_GROUP_LENGTH)
    groups.push(drawn.slice(i, i + TEMPORARY_PASSWORD_GROUP_LENGTH));
  return groups.join(GROUP_SEPARATOR);
}

/** A temporary password's groups, for showing them apart; any other text is one group. */
export function temporaryPasswordGroups(password: string): string[] {
  return password.split(GROUP_SEPARATOR);
}

/** One field's refusal, in PocketBase's shape. */
export interface FieldRefusal {
  code: string;
  message: string;
}

/**
 * What is wrong with the body of a first password of one's own (the
 * first-password route: `password` and `passwordConfirm`, nothing else), by
 * field; null when nothing is. Whether it equals the temporary one is the
 * server's own check.
 */
export function firstPasswordRefusal(body: Record<string, unknown>): Record<string, FieldRefusal> | null {
  const refusals: Record<string, FieldRefusal> = {};
  for (const key of Object.keys(body)) {
    if (key !== 'password' && key !== 'passwordConfirm')
      refusals[key] = { code: 'validation_unknown_field', message: 'Only the new password can be sent here.' };
  }
  const { password, passwordConfirm } = body;
  if (typeof password !== 'string' || password === '')
    refusals.password = { code: 'validation_required', message: 'Cannot be blank.' };
  else if (password.length < PASSWORD_LIMITS.min || password.length > PASSWORD_LIMITS.max)
    refusals.password = { code: 'validation_length_out_of_range', message: `${PASSWORD_LENGTH_MESSAGE}.` };
  if (typeof passwordConfirm !== 'string' || passwordConfirm !== password)
    refusals.passwordConfirm = { code: 'validation_values_mismatch', message: 'Passwords do not match.' };
  return Object.keys(refusals).length > 0 ? refusals : null;
}

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
