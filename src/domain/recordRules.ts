/**
 * The rules of docs/product.md#validation-limits for records as they
 * travel to the server: built from the forms' own schemas (schemas.ts), so a
 * value the forms refuse is refused by the server too. Compiled into the
 * PocketBase hooks (pb_hooks/lib/generated/record_rules.js, see
 * scripts/pocketbase/hook-libs.ts); pb_hooks/lib/validation.js applies it.
 *
 * checkWrite reads a request body as sent, because PocketBase converts it
 * before any record hook sees it (123 becomes "123", a list its last item,
 * 'yes' a boolean, an unreadable date an empty one).
 */
import { z } from 'zod';
import { SCAN_METHODS } from './checkpointCode.ts';
import { EVERYTHING_OK_VALUES, ONLY_HOUSE_CHECKS } from './houseCheckAnswer.ts';
import { PASSWORD_LIMITS } from './loginSchema.ts';
import { REPORT_TYPE_VALUES, WEATHER_VALUES } from './reportTypes.ts';
import { isLoggedAtAllowed, positionSchema } from './whereAndWhen.ts';
import {
  callSettingsSchema,
  concernSchema,
  emailSchema,
  houseCheckWindowIssues,
  houseFields,
  LIMITS,
  phoneNumberSchema,
  phoneSchema,
  reportSchema,
  residentSchema,
  updateHouseSchema,
  updateUserSchema,
} from './schemas.ts';
import { checkpointSchema, endReasonSchema, roundFitsIssues, TOUR_LIMITS, tourShape } from './tourSchemas.ts';
import { ALERT_EVENT_KINDS, ALERT_KINDS, safetySettingsSchema } from './safetySchemas.ts';

/**
 * How a field travels: its JSON type, and how form-data strings map onto it.
 * A secret (a password) is text that is never read back from a record. An
 * object (a JSON field: a report's position) is an object or null, in
 * form-data its JSON text. A number is a JSON number, in form-data its
 * decimal text. A list of ids (a tour's checkpoints) is a JSON array of
 * texts, in form-data one text per id.
 */
export type FieldKind = 'text' | 'bool' | 'date' | 'ref' | 'refs' | 'file' | 'secret' | 'object' | 'number';

export interface FieldError {
  code: string;
  message: string;
}
export type FieldErrors = Record<string, FieldError>;

// ---- dates on the wire -------------------------------------------------------
// PocketBase's own form ('2026-11-22 00:00:00.000Z'), RFC 3339, or a bare day.
const WIRE_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
/** No record of this app is older or later than this (an incident in 9999 is a typo). */
export const DATE_BOUNDS = { from: Date.UTC(2000, 0, 1), to: Date.UTC(2100, 0, 1) };

/** A date as sent to PocketBase; null when it is not a real date in a form PocketBase reads. */
export function parseWireDate(value: string): Date | null {
  const m = WIRE_DATE.exec(value);
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => Number(part ?? 0));
  // Date.UTC rolls 31 February over into March: a real date reads back the same.
  const utc = new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second));
  if (
    utc.getUTCFullYear() !== year ||
    utc.getUTCMonth() !== month! - 1 ||
    utc.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return null;
  const date = new Date(m[4] === undefined ? `${value.slice(0, 10)}T00:00:00Z` : value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : date;
}

const NOT_A_DATE = 'Must be a date (YYYY-MM-DD HH:MM:SS.sssZ)';
const wireDate = z
  .string()
  .refine((value) => value === '' || parseWireDate(value) !== null, NOT_A_DATE)
  .refine((value) => {
    const date = value === '' ? null : parseWireDate(value);
    return !date || (date.getTime() >= DATE_BOUNDS.from && date.getTime() < DATE_BOUNDS.to);
  }, 'Must be a date between 2000 and 2099');

/**
 * An incident happened, so it is not in the future: the form offers no day
 * after today, and 24 hours of leeway cover every time zone's "today".
 */
export function isIncidentTimeAllowed(at: Date, now: Date = new Date()): boolean {
  return at.getTime() < now.getTime() + 24 * 60 * 60 * 1000;
}
const incidentTime = wireDate
  .refine((value) => value !== '', 'An incident date is required')
  .refine((value) => {
    const date = parseWireDate(value);
    return !date || isIncidentTimeAllowed(date);
  }, 'Incident time must not be in the future');

/** A time the device's clock gave: never made up in the future (the skew of whereAndWhen.ts allowed). */
const deviceTime = (label: string) =>
  wireDate.refine((value) => {
    const date = value === '' ? null : parseWireDate(value);
    return !date || isLoggedAtAllowed(date);
  }, `${label} must not be in the future`);

/** When the device made the report: optional (older app versions send none). */
const loggedAt = deviceTime('Logged time');

// ---- the collections ----------------------------------------------------------
interface CollectionRules {
  /** Every field a client may write, by how it travels. */
  kinds: Record<string, FieldKind>;
  /** Each field's own rule, on its wire value. */
  fields: Record<string, z.ZodType>;
  /** Rules that join fields, on the whole record; the fields of each group answer together. */
  record?: { groups: string[][]; check: (values: Record<string, unknown>, ctx: z.RefinementCtx) => void };
  /**
   * Fields sent only by their own name: a modifier (`type+`) would change
   * one past the rules that join fields, which read the plain names.
   */
  plain?: string[];
}

/** The rule joining `started_at` and `ended_at` (a walk, a shift): an end is never before its start. */
function endsAfterStart(message: string): NonNullable<CollectionRules['record']> {
  return {
    groups: [['started_at', 'ended_at']],
    check: (values, ctx) => {
      const started = typeof values.started_at === 'string' ? parseWireDate(values.started_at) : null;
      const ended = typeof values.ended_at === 'string' ? parseWireDate(values.ended_at) : null;
      if (started && ended && ended.getTime() < started.getTime())
        ctx.addIssue({ code: 'custom', path: ['ended_at'], message });
    },
  };
}

const required = (schema: z.ZodString, message: string) => schema.refine((value) => value.trim() !== '', message);
/** A choice that may be left empty, refused with the form's own message otherwise. */
const orEmpty = (schema: z.ZodType) =>
  z.string().superRefine((value, ctx) => {
    const result = value === '' ? null : schema.safeParse(value);
    if (result && !result.success)
      ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? 'Invalid value' });
  });
const relation = z.string().max(LIMITS.report.id, 'Invalid id');
const requiredRelation = (message: string) => relation.refine((value) => value !== '', message);
const requiredDate = (schema: z.ZodType<string>, message: string) => schema.refine((value) => value !== '', message);
const secret = z.string();

/** A house's state: the forms' choice; '' only on create, where the hook makes it FL (docs/product.md#validation-limits). */
const HOUSE_TEXT = ['address', 'apt', 'city', 'state', 'zip', 'note', 'member_number', 'security_code'] as const;

export const RECORD_RULES: Record<string, CollectionRules> = {
  houses: {
    kinds: {
      id: 'ref',
      address: 'text',
      apt: 'text',
      city: 'text',
      state: 'text',
      zip: 'text',
      note: 'text',
      member_number: 'text',
      security_code: 'text',
      pending_call_concerns_ids: 'text',
      house_check: 'bool',
      house_check_start_date: 'date',
      house_check_end_date: 'date',
      house_check_last_date: 'date',
      house_check_note: 'text',
      community: 'ref',
      image: 'file',
    },
    fields: {
      ...Object.fromEntries(HOUSE_TEXT.map((name) => [name, houseFields[name]])),
      pending_call_concerns_ids: z.string(),
      house_check: z.boolean(),
      house_check_start_date: wireDate,
      house_check_end_date: wireDate,
      house_check_last_date: wireDate,
      house_check_note: updateHouseSchema.shape.house_check_note,
      community: relation,
    },
    record: {
      groups: [['house_check', 'house_check_start_date', 'house_check_end_date']],
      check: (values, ctx) => {
        const date = (value: unknown) => (typeof value === 'string' && value !== '' ? parseWireDate(value) : null);
        houseCheckWindowIssues(
          values.house_check === true,
          date(values.house_check_start_date),
          date(values.house_check_end_date),
          ctx,
        );
      },
    },
  },
  residents: {
    kinds: { id: 'ref', first_name: 'text', last_name: 'text', owner: 'bool', house: 'ref' },
    // A resident is saved only with both names (the forms skip a row without them).
    fields: {
      first_name: required(residentSchema.shape.first_name, 'First name must not be empty'),
      last_name: required(residentSchema.shape.last_name, 'Last name must not be empty'),
      owner: residentSchema.shape.owner,
      house: relation,
    },
  },
  phones: {
    kinds: { id: 'ref', phone_number: 'text', primary: 'bool', type: 'text', house: 'ref', do_not_call: 'bool' },
    // A phone is saved only with a number (docs/product.md#the-home-form).
    // The type is optional (docs/product.md#validation-limits): '' is no type.
    // do_not_call: the resident asked not to be called on this number.
    fields: {
      phone_number: required(phoneNumberSchema, 'Invalid phone number'),
      primary: phoneSchema.shape.primary,
      type: orEmpty(phoneSchema.shape.type),
      house: relation,
      do_not_call: z.boolean(),
    },
  },
  concerns: {
    kinds: { id: 'ref', name: 'text', hint: 'text', say: 'text', added_by: 'ref', community: 'ref' },
    fields: { ...concernSchema.shape, added_by: relation, community: relation },
  },
  reports: {
    kinds: {
      id: 'ref',
      narative: 'text',
      ai_generated_narative: 'text',
      type: 'text',
      weather: 'text',
      incident_time: 'date',
      phone_number: 'text',
      injury: 'bool',
      ems_pbso: 'bool',
      photos: 'file',
      community: 'ref',
      house: 'ref',
      resident: 'ref',
      created_by: 'ref',
      position: 'object',
      logged_at: 'date',
      everything_ok: 'text',
    },
    fields: {
      narative: reportSchema.shape.narative,
      ai_generated_narative: reportSchema.shape.ai_generated_narative,
      type: z.enum(REPORT_TYPE_VALUES, 'Invalid choice'),
      weather: z.enum(WEATHER_VALUES, 'Invalid choice'),
      incident_time: incidentTime,
      phone_number: phoneNumberSchema,
      injury: reportSchema.shape.injury,
      ems_pbso: reportSchema.shape.ems_pbso,
      community: relation,
      house: reportSchema.shape.house,
      resident: reportSchema.shape.resident,
      created_by: relation,
      position: positionSchema,
      logged_at: loggedAt,
      // A house check's answer to 'Is everything ok?' (houseCheckAnswer.ts); '' on other reports, and
      // on a house check sent without it, whose answer pb_hooks/reports.pb.js derives from the narrative.
      everything_ok: orEmpty(z.enum(EVERYTHING_OK_VALUES, 'Must be yes or no')),
    },
    record: {
      groups: [['type', 'everything_ok']],
      check: (values, ctx) => {
        if (values.type !== 'house_check' && values.everything_ok !== '' && values.everything_ok !== undefined)
          ctx.addIssue({ code: 'custom', path: ['everything_ok'], message: ONLY_HOUSE_CHECKS });
      },
    },
    plain: ['type', 'everything_ok'],
  },
  call_settings: {
    kinds: {
      id: 'ref',
      community: 'ref',
      retries: 'number',
      retry_minutes: 'number',
      text_fallback: 'bool',
      quiet_start: 'text',
      quiet_end: 'text',
      time_zone: 'text',
    },
    fields: { ...callSettingsSchema.shape, community: relation },
  },
  checkpoints: {
    kinds: {
      id: 'ref',
      community: 'ref',
      name: 'text',
      position: 'object',
      radius: 'number',
      instructions: 'text',
      question: 'text',
      created_by: 'ref',
    },
    // token and short_code are not the client's to send: the server makes them (pb_hooks/lib/tours.js).
    fields: { ...checkpointSchema.shape, community: relation, created_by: relation },
  },
  tours: {
    kinds: {
      id: 'ref',
      community: 'ref',
      name: 'text',
      checkpoints: 'refs',
      start: 'text',
      end: 'text',
      every_minutes: 'number',
      round_minutes: 'number',
      ordered: 'bool',
      active: 'bool',
      created_by: 'ref',
    },
    fields: { ...tourShape.shape, community: relation, created_by: relation },
    record: {
      groups: [['every_minutes', 'round_minutes']],
      check: (values, ctx) => roundFitsIssues(values.every_minutes, values.round_minutes, ctx),
    },
  },
  tour_walks: {
    kinds: {
      id: 'ref',
      community: 'ref',
      tour: 'ref',
      officer: 'ref',
      round_start: 'date',
      started_at: 'date',
      ended_at: 'date',
      end_reason: 'text',
    },
    fields: {
      community: relation,
      tour: requiredRelation('A walk must name its tour'),
      officer: relation,
      round_start: requiredDate(wireDate, 'A walk must name its round'),
      started_at: requiredDate(deviceTime('Start time'), 'A walk must say when it started'),
      ended_at: deviceTime('End time'),
      end_reason: endReasonSchema,
    },
    record: endsAfterStart('A walk cannot end before it started'),
  },
  checkpoint_scans: {
    kinds: {
      id: 'ref',
      community: 'ref',
      walk: 'ref',
      checkpoint: 'ref',
      officer: 'ref',
      scanned_at: 'date',
      method: 'text',
      position: 'object',
      answer: 'text',
      note: 'text',
      // What the camera read or the officer typed: checked against the checkpoint, never stored (pb_hooks/lib/tours.js).
      code: 'text',
    },
    fields: {
      community: relation,
      walk: requiredRelation('A scan must name its walk'),
      checkpoint: requiredRelation('A scan must name its checkpoint'),
      officer: relation,
      scanned_at: requiredDate(deviceTime('Scan time'), 'A scan must say when it was made'),
      method: z.enum(SCAN_METHODS, 'Must be camera, code or nfc'),
      position: positionSchema,
      answer: orEmpty(z.enum(['yes', 'no'], 'Must be yes or no')),
      note: z.string().max(TOUR_LIMITS.scanNote, `Note must not exceed ${TOUR_LIMITS.scanNote} characters`),
      code: z.string().max(200, 'Not a checkpoint code'),
    },
  },
  duty_shifts: {
    kinds: {
      id: 'ref',
      community: 'ref',
      officer: 'ref',
      started_at: 'date',
      ended_at: 'date',
      start_position: 'object',
      end_position: 'object',
      checked_at: 'date',
    },
    fields: {
      community: relation,
      officer: relation,
      checked_at: deviceTime('Check-in time'),
      started_at: requiredDate(deviceTime('Start time'), 'A shift must say when it started'),
      ended_at: deviceTime('End time'),
      start_position: positionSchema,
      end_position: positionSchema,
    },
    record: endsAfterStart('A shift cannot end before it started'),
  },
  alerts: {
    kinds: {
      id: 'ref',
      community: 'ref',
      officer: 'ref',
      kind: 'text',
      raised_at: 'date',
      position: 'object',
      shift: 'ref',
    },
    fields: {
      community: relation,
      officer: relation,
      kind: z.enum(ALERT_KINDS, 'Must be panic or missed_check_in'),
      raised_at: requiredDate(deviceTime('Alert time'), 'An alert must say when it was raised'),
      position: positionSchema,
      shift: relation,
    },
  },
  alert_events: {
    kinds: { id: 'ref', community: 'ref', alert: 'ref', by: 'ref', kind: 'text', at: 'date' },
    fields: {
      community: relation,
      alert: requiredRelation('An alert step must name its alert'),
      by: relation,
      kind: z.enum(ALERT_EVENT_KINDS, 'Must be responding, safe or resolved'),
      at: requiredDate(deviceTime('Time'), 'An alert step must say when it was taken'),
    },
  },
  safety_settings: {
    kinds: {
      id: 'ref',
      community: 'ref',
      emergency_number: 'text',
      shift_limit_hours: 'number',
      check_minutes: 'number',
      check_grace_minutes: 'number',
    },
    fields: { ...safetySettingsSchema.shape, community: relation },
  },
  users: {
    kinds: {
      id: 'ref',
      email: 'text',
      emailVisibility: 'bool',
      verified: 'bool',
      password: 'secret',
      passwordConfirm: 'secret',
      oldPassword: 'secret',
      first_name: 'text',
      last_name: 'text',
      type: 'text',
      community: 'ref',
    },
    fields: {
      email: emailSchema,
      emailVisibility: z.boolean(),
      verified: z.boolean(),
      // 8 to 24 characters, for every password a user is given or chooses.
      password: z
        .string()
        .min(PASSWORD_LIMITS.min, 'Password must be between 8 and 24 characters')
        .max(PASSWORD_LIMITS.max, 'Password must be between 8 and 24 characters'),
      passwordConfirm: secret,
      oldPassword: secret,
      first_name: updateUserSchema.shape.first_name,
      last_name: updateUserSchema.shape.last_name,
      // Which types a director may give is the API rules' business (a director's own record is a director).
      type: z.enum(['director', 'manager', 'regular'], 'Invalid type'),
      community: relation,
    },
  },
};

export const RULED_COLLECTIONS = Object.keys(RECORD_RULES);

// ---- checks ---------------------------------------------------------------------
const TYPE_MESSAGES: Record<FieldKind, string> = {
  text: 'Must be text',
  bool: 'Must be true or false',
  date: 'Must be a date given as text',
  ref: 'Must be an id given as text',
  refs: 'Must be a list of ids given as text',
  file: 'Must be a file',
  secret: 'Must be text',
  object: 'Must be an object or null',
  number: 'Must be a number',
};

const PLAIN_ONLY = 'Must be sent by its own name, without a modifier';

function typeError(kind: FieldKind): FieldError {
  return { code: 'validation_invalid_type', message: TYPE_MESSAGES[kind] };
}

/** `name`, `name+`, `+name`, `name-`, `name:autogenerate` → the field and the modifier. */
function splitModifier(key: string): { field: string; modifier: string } {
  const m = /^(\+?)([A-Za-z0-9_]+)(\+|-|:[A-Za-z]+)?$/.exec(key);
  if (!m) return { field: key, modifier: '' };
  return { field: m[2]!, modifier: m[1]! + (m[3] ?? '') };
}

/** The value as its field's type, or undefined when it has the wrong type. */
function typed(kind: FieldKind, value: unknown, form: boolean): unknown {
  if (form) {
    // Form-data has only strings; a repeated name is a list, which no single field takes.
    if (kind === 'refs') return typeof value === 'string' ? [value] : isTextList(value) ? value : undefined;
    if (typeof value !== 'string') return undefined;
    if (kind === 'bool') return value === 'true' ? true : value === 'false' ? false : undefined;
    // PocketBase reads a JSON field's form value as JSON text.
    if (kind === 'object') return jsonObject(value);
    if (kind === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined;
    return value;
  }
  if (kind === 'number') return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  if (kind === 'refs') return isTextList(value) ? value : undefined;
  if (kind === 'object') return value === null || isPlainObject(value) ? value : undefined;
  if (value === null && (kind === 'date' || kind === 'ref')) return '';
  if (kind === 'bool') return typeof value === 'boolean' ? value : undefined;
  return typeof value === 'string' ? value : undefined;
}

const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const isPlainObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A form value of an object field: JSON text of an object (or null); undefined for anything else. */
function jsonObject(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value === null || isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function firstIssue(result: z.ZodSafeParseResult<unknown>): FieldError | null {
  if (result.success) return null;
  return { code: 'validation_invalid_value', message: result.error.issues[0]?.message ?? 'Invalid value' };
}

/** What a record write sends: JSON values keep their types; form-data (an upload) values are strings. */
export interface WriteBody {
  json: Record<string, unknown>;
  form?: Record<string, unknown>;
}

export interface WriteOptions {
  create: boolean;
  /** An update: the record as saved now (text as text, booleans as booleans), when the writer may see it. */
  existing?: Record<string, unknown> | null;
}

/**
 * One create or update of a record, as sent: every field it sends must have
 * its type (form-data: its string form) and pass its rule; a create must
 * also pass the rules with what it leaves out (a resident without a last
 * name); and the record it would make must pass the rules that join fields
 * (the house-check window), which on an update answer only when the
 * request changes one of their fields, so an old record never blocks a new
 * change. Unknown keys and modifiers (`field+`) are PocketBase's (its API
 * rules answer for modifiers, rules-fields.test.ts); new files are
 * PocketBase's to check, except that a list of saved file names is text.
 */
export function checkWrite(collection: string, body: WriteBody, options: WriteOptions): FieldErrors {
  const rules = RECORD_RULES[collection];
  const errors: FieldErrors = {};
  if (!rules) return errors;
  const sent: Record<string, unknown> = {};
  const parts: Array<[Record<string, unknown>, boolean]> = [
    [body.form ?? {}, true],
    [body.json, false],
  ];
  for (const [values, form] of parts) {
    for (const key of Object.keys(values)) {
      const { field, modifier } = splitModifier(key);
      const kind = rules.kinds[field];
      if (!kind || errors[key]) continue;
      const raw = values[key];
      if (kind === 'file') {
        const names = Array.isArray(raw) ? raw : [raw];
        if (!names.every((name) => typeof name === 'string')) errors[key] = typeError('file');
        continue;
      }
      if (modifier !== '') {
        if (rules.plain?.includes(field)) errors[key] = { code: 'validation_invalid_value', message: PLAIN_ONLY };
        continue;
      }
      const value = typed(kind, raw, form);
      if (value === undefined) {
        errors[key] = typeError(kind);
        continue;
      }
      sent[field] = value;
      // A house sent without a state is in Florida (pb_hooks/houses.pb.js fills it in).
      if (collection === 'houses' && field === 'state' && value === '' && options.create) continue;
      const error = rules.fields[field] ? firstIssue(rules.fields[field].safeParse(value)) : null;
      if (error) errors[key] = error;
    }
  }
  if (Object.keys(errors).length > 0) return errors;

  // A create: what it leaves out is saved empty, which the rules must allow too.
  const base: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(rules.kinds)) {
    if (kind === 'file' || kind === 'secret' || field === 'id') continue;
    base[field] = options.create
      ? kind === 'bool'
        ? false
        : kind === 'object'
          ? null
          : kind === 'refs'
            ? []
            : kind === 'number'
              ? 0
              : ''
      : options.existing?.[field];
    if (!options.create || field in sent || (collection === 'houses' && field === 'state')) continue;
    const error = rules.fields[field] ? firstIssue(rules.fields[field].safeParse(base[field])) : null;
    if (error) errors[field] = error;
  }
  if (Object.keys(errors).length > 0 || !rules.record || (!options.create && !options.existing)) return errors;

  const record = { ...base, ...sent };
  const changed = Object.keys(sent).filter((field) => options.create || sent[field] !== base[field]);
  const result = z.any().superRefine(rules.record.check).safeParse(record);
  for (const issue of result.success ? [] : result.error.issues) {
    const field = String(issue.path[0] ?? '');
    const group = rules.record.groups.find((fields) => fields.includes(field)) ?? [field];
    if (group.some((name) => changed.includes(name)))
      errors[field] ??= { code: 'validation_invalid_value', message: issue.message };
  }
  return errors;
}
