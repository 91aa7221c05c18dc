/**
 * The validation schemas (docs/product.md#validation-limits), once, for
 * every form (react-hook-form with zodResolver) and every test. The server
 * runs the same rules: recordRules.ts builds the records' rules from these
 * schemas and is compiled into the PocketBase hooks; the schema migration
 * keeps the same limits too (a unit test compares them).
 */
import { isValidPhoneNumber } from 'libphonenumber-js';
import { z } from 'zod';
import { PASSWORD_LIMITS } from './loginSchema.ts';
import { REPORT_TYPE_VALUES, WEATHER_VALUES } from './reportTypes.ts';
import { isKnownTimeZone, TIME_ZONES } from './quietHours.ts';
import { STATE_VALUES } from './states.ts';

export const LIMITS = {
  password: PASSWORD_LIMITS,
  house: {
    address: 100,
    apt: 100,
    city: 100,
    zip: 100,
    note: 4500,
    memberNumber: 14,
    securityCode: 8,
    houseCheckNote: 4500,
  },
  resident: { name: 30 },
  user: { name: 30 },
  concern: { name: 100, hint: 200, say: 350 },
  report: { narrative: 4500, type: 50, weather: 20, id: 17 },
  concernsPerCall: 3,
} as const;

export const notExceed = (label: string, max: number) => `${label} must not exceed ${max} characters`;

// ---- login ------------------------------------------------------------------
export { loginSchema, type LoginValues } from './loginSchema.ts';

// ---- houses -------------------------------------------------------------------
export const optionalText = (label: string, max: number) => z.string().trim().max(max, notExceed(label, max));

/** Phone numbers are stored in E.164 (docs/product.md#decisions); an empty field means no phone. */
export const phoneNumberSchema = z
  .string()
  .trim()
  .refine(
    (value) => value === '' || (/^\+[1-9]\d{1,14}$/.test(value) && isValidPhoneNumber(value)),
    'Invalid phone number',
  );

/** A resident row of the house forms; `id` is '' for one not yet saved. Saved only with both names (docs/product.md#the-home-form). */
export const residentSchema = z.object({
  id: z.string(),
  first_name: optionalText('First name', LIMITS.resident.name),
  last_name: optionalText('Last name', LIMITS.resident.name),
  owner: z.boolean(),
});
export type ResidentValues = z.infer<typeof residentSchema>;

/** A phone row of the house forms; `id` is '' for one not yet saved. Saved only with a number (docs/product.md#the-home-form). */
export const phoneSchema = z.object({
  id: z.string(),
  phone_number: phoneNumberSchema,
  type: z.enum(['cell', 'home', 'business']),
  primary: z.boolean(),
  /** The resident asked not to be called on this number: calls pass over it. */
  do_not_call: z.boolean(),
});
export type PhoneValues = z.infer<typeof phoneSchema>;

export const ONE_PRIMARY_PHONE = 'Only one phone can be primary';

/** The home's number to call is one: a second primary phone (of those with a number) is refused. */
function onePrimaryPhone(phones: PhoneValues[], ctx: z.RefinementCtx): void {
  let seen = false;
  phones.forEach((phone, i) => {
    if (!phone.primary || !phone.phone_number.trim()) return;
    if (seen) ctx.addIssue({ code: 'custom', path: [i, 'primary'], message: ONE_PRIMARY_PHONE });
    seen = true;
  });
}

/** The house fields of both house forms; recordRules.ts checks the stored record with the same ones. */
export const houseFields = {
  address: z
    .string()
    .trim()
    .min(1, 'Address must be longer than a character')
    .max(LIMITS.house.address, notExceed('Address', LIMITS.house.address)),
  apt: optionalText('Apt.', LIMITS.house.apt),
  city: z
    .string()
    .trim()
    .min(1, 'City must be at least 1 character long')
    .max(LIMITS.house.city, notExceed('City', LIMITS.house.city)),
  state: z
    .string()
    .min(2, 'State must be selected')
    .refine((value) => (STATE_VALUES as readonly string[]).includes(value), 'State must be selected'),
  zip: z
    .string()
    .trim()
    .min(1, 'Zip must be at least 1 character long')
    .max(LIMITS.house.zip, notExceed('Zip', LIMITS.house.zip)),
  note: optionalText('Note', LIMITS.house.note),
  member_number: optionalText('Member number', LIMITS.house.memberNumber),
  security_code: optionalText('Security code', LIMITS.house.securityCode),
  residents: z.array(residentSchema),
  phones: z.array(phoneSchema).superRefine(onePrimaryPhone),
};

export const addHouseSchema = z.object(houseFields);
export type AddHouseValues = z.infer<typeof addHouseSchema>;

export const END_BEFORE_START = 'End date must not be before the start date';

/**
 * The house-check window: both dates are required only while the house
 * check is on, and a window never ends before it starts (such a home would
 * never be due). The form and the server (recordRules.ts) share it.
 */
export function houseCheckWindowIssues(on: boolean, start: Date | null, end: Date | null, ctx: z.RefinementCtx): void {
  if (on && !start) ctx.addIssue({ code: 'custom', path: ['house_check_start_date'], message: 'Field required' });
  if (on && !end) ctx.addIssue({ code: 'custom', path: ['house_check_end_date'], message: 'Field required' });
  if (start && end && end < start)
    ctx.addIssue({ code: 'custom', path: ['house_check_end_date'], message: END_BEFORE_START });
}

export const updateHouseSchema = z
  .object({
    ...houseFields,
    house_check: z.boolean(),
    house_check_start_date: z.date().nullable(),
    house_check_end_date: z.date().nullable(),
    house_check_note: optionalText('House check note', LIMITS.house.houseCheckNote),
  })
  .superRefine((values, ctx) =>
    houseCheckWindowIssues(values.house_check, values.house_check_start_date, values.house_check_end_date, ctx),
  );
export type UpdateHouseValues = z.infer<typeof updateHouseSchema>;

// ---- house check --------------------------------------------------------------
export const houseCheckSchema = z.object({
  everything_ok: z.enum(['yes', 'no'], 'Required'),
  remark: optionalText('Remark', LIMITS.report.narrative),
});
export type HouseCheckValues = z.infer<typeof houseCheckSchema>;

// ---- users ----------------------------------------------------------------------
const personName = (label: string) =>
  z.string().trim().min(1, `${label} must not be empty`).max(LIMITS.user.name, notExceed(label, LIMITS.user.name));

/** Directors give only these types (docs/product.md#validation-limits). */
export const SELECTABLE_USER_TYPES = ['manager', 'regular'] as const;

export const updateUserSchema = z.object({
  first_name: personName('First name'),
  last_name: personName('Last name'),
  type: z
    .string()
    .min(1, 'Invalid type')
    .refine((value) => (SELECTABLE_USER_TYPES as readonly string[]).includes(value), 'Invalid type'),
});
export const emailSchema = z
  .string()
  .trim()
  .min(1, 'Email must be at least one character long')
  .pipe(z.email('Not a valid email'));
export const addUserSchema = updateUserSchema.extend({ email: emailSchema });
export type AddUserValues = z.infer<typeof addUserSchema>;
export type UpdateUserValues = z.infer<typeof updateUserSchema>;

// ---- concerns (one set of limits for create and edit) ---------------------------
const concernField = (max: number) =>
  z.string().trim().min(1, 'Field must be longer than a character').max(max, `Field must not exceed ${max} characters`);
export const concernSchema = z.object({
  name: concernField(LIMITS.concern.name),
  hint: concernField(LIMITS.concern.hint),
  say: concernField(LIMITS.concern.say),
});
export type ConcernValues = z.infer<typeof concernSchema>;

// ---- reports --------------------------------------------------------------------
/** Parses an hour and a minute typed as text; null when they are not whole numbers in range. */
export function parseHourMinute(hour: string, minute: string): { hour: number; minute: number } | null {
  if (!/^\d{1,2}$/.test(hour.trim()) || !/^\d{1,2}$/.test(minute.trim())) return null;
  const h = Number(hour);
  const m = Number(minute);
  return h <= 23 && m <= 59 ? { hour: h, minute: m } : null;
}

export const reportSchema = z.object({
  type: z.enum(REPORT_TYPE_VALUES, 'Invalid choice'),
  weather: z.enum(WEATHER_VALUES, 'Invalid choice'),
  incident_date: z.date('An incident date is required'),
  hour: z.string().refine((hour) => parseHourMinute(hour, '0') !== null, 'Incorrect hour and/or minute'),
  minute: z.string().refine((minute) => parseHourMinute('0', minute) !== null, 'Incorrect hour and/or minute'),
  narative: z
    .string()
    .trim()
    .min(1, 'Missing content')
    .max(LIMITS.report.narrative, notExceed('Narrative', LIMITS.report.narrative)),
  ai_generated_narative: z.string().max(LIMITS.report.narrative, notExceed('AI narrative', LIMITS.report.narrative)),
  house: z.string().max(LIMITS.report.id, 'Invalid house'),
  resident: z.string().max(LIMITS.report.id, 'Invalid resident'),
  injury: z.boolean(),
  ems_pbso: z.boolean(),
});
export type ReportValues = z.infer<typeof reportSchema>;

// ---- report filter --------------------------------------------------------------
export const reportFilterSchema = z.object({
  from: z.date('Dates must be selected'),
  to: z.date('Dates must be selected'),
  types: z.array(z.enum(REPORT_TYPE_VALUES)),
  sort: z.enum(['newest', 'oldest']),
});
export type ReportFilterValues = z.infer<typeof reportFilterSchema>;

// ---- call settings ---------------------------------------------------
export const CALL_SETTINGS_LIMITS = { retries: { min: 0, max: 5 }, retryMinutes: { min: 1, max: 120 } } as const;
export const clockTime = (label: string) =>
  z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, `${label} must be a time from 00:00 to 23:59`);
export const wholeNumber = (label: string, { min, max }: { min: number; max: number }) =>
  z
    .number(`${label} must be a number`)
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be from ${min} to ${max}`)
    .max(max, `${label} must be from ${min} to ${max}`);

/** A community's call settings as directors edit them; the server checks the same (recordRules.ts). */
export const callSettingsSchema = z.object({
  retries: wholeNumber('Retries', CALL_SETTINGS_LIMITS.retries),
  retry_minutes: wholeNumber('Minutes between tries', CALL_SETTINGS_LIMITS.retryMinutes),
  text_fallback: z.boolean(),
  quiet_start: clockTime('Quiet hours start'),
  quiet_end: clockTime('Quiet hours end'),
  time_zone: z.string().refine(isKnownTimeZone, `Time zone must be one of ${TIME_ZONES.join(', ')}.`),
});
export type CallSettingsValues = z.infer<typeof callSettingsSchema>;
