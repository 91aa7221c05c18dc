/**
 * Every validation message and limit of docs/product.md#validation-limits (with our
 * corrections): each field at min-1 / min / max / max+1, whitespace-only,
 * oversized input, the select catalogues, phone numbers, and the server's
 * limits in the schema migration.
 */
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { REPORT_TYPE_VALUES, WEATHER_VALUES } from '../../src/domain/reportTypes.ts';
import {
  LIMITS,
  addHouseSchema,
  addUserSchema,
  concernSchema,
  houseCheckSchema,
  loginSchema,
  parseHourMinute,
  phoneNumberSchema,
  reportFilterSchema,
  residentSchema,
  reportSchema,
  updateHouseSchema,
  updateUserSchema,
} from '../../src/domain/schemas.ts';
import { STATE_VALUES } from '../../src/domain/states.ts';
import { field, loadSchema } from '../support/migration-schema.ts';

/** The first message of each failing field ({} when the input is valid), as a form shows them. */
function errors(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  const out: Record<string, string> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

const OVERSIZED = 100_000;
const text = (length: number) => 'a'.repeat(length);

/** Table rows for values that also name the test, shortened so oversized input does not make a 100 kB title. */
const rows = (values: unknown[]) =>
  values.map((value) => ({
    value,
    shown: typeof value === 'string' && value.length > 40 ? `<${value.length} characters>` : value,
  }));

// ---- valid baselines: each case below changes one field of these ------------
const login = { email: 'officer@example.com', password: 'secret123' };
const house = {
  address: '12 Ocean Drive',
  apt: '',
  city: 'Palm Beach',
  state: 'FL',
  zip: '33480',
  note: '',
  member_number: '',
  security_code: '',
  residents: [],
  phones: [],
};
const resident = { id: '', first_name: 'Ann', last_name: 'Lee', owner: false };
const phone = { id: '', phone_number: '+15615550100', type: 'cell', primary: true, do_not_call: false };
const houseUpdate = {
  ...house,
  house_check: false,
  house_check_start_date: null,
  house_check_end_date: null,
  house_check_note: '',
};
const houseCheck = { everything_ok: 'yes', remark: '' };
const user = { first_name: 'Ada', last_name: 'Lovelace', type: 'regular' };
const newUser = { ...user, email: 'ada@example.com' };
const concern = { name: 'Open garage', hint: 'Garage door left open', say: 'Your garage door is open.' };
const report = {
  type: 'accident',
  weather: 'clear',
  incident_date: new Date(2025, 0, 15),
  hour: '13',
  minute: '45',
  narative: 'Car hit the gate.',
  ai_generated_narative: '',
  house: '',
  resident: '',
  injury: false,
  ems_pbso: false,
};
const filter = { from: new Date(2025, 0, 1), to: new Date(2025, 0, 31), types: [], sort: 'newest' };

test.each([
  ['loginSchema', loginSchema, login],
  ['addHouseSchema', addHouseSchema, house],
  ['updateHouseSchema', updateHouseSchema, houseUpdate],
  ['houseCheckSchema', houseCheckSchema, houseCheck],
  ['updateUserSchema', updateUserSchema, user],
  ['addUserSchema', addUserSchema, newUser],
  ['concernSchema', concernSchema, concern],
  ['reportSchema', reportSchema, report],
  ['reportFilterSchema', reportFilterSchema, filter],
] as const)('%s accepts its valid baseline', (_name, schema, baseline) => {
  expect(errors(schema, baseline)).toEqual({});
});

// ---- text lengths -------------------------------------------------------------
interface TextLimit {
  schema: z.ZodType;
  name: string;
  baseline: Record<string, unknown>;
  field: string;
  /** 0 for an optional field. */
  min: number;
  max: number;
  tooShort?: string;
  tooLong: string;
  trims: boolean;
}

const houseTextLimits = (name: string, schema: z.ZodType, baseline: Record<string, unknown>): TextLimit[] => [
  {
    schema,
    name,
    baseline,
    field: 'address',
    min: 1,
    max: LIMITS.house.address,
    tooShort: 'Address must be longer than a character',
    tooLong: 'Address must not exceed 100 characters',
    trims: true,
  },
  {
    schema,
    name,
    baseline,
    field: 'apt',
    min: 0,
    max: LIMITS.house.apt,
    tooLong: 'Apt. must not exceed 100 characters',
    trims: true,
  },
  {
    schema,
    name,
    baseline,
    field: 'city',
    min: 1,
    max: LIMITS.house.city,
    tooShort: 'City must be at least 1 character long',
    tooLong: 'City must not exceed 100 characters',
    trims: true,
  },
  // Spelled correctly (docs/product.md#decisions), never 'longk'.
  {
    schema,
    name,
    baseline,
    field: 'zip',
    min: 1,
    max: LIMITS.house.zip,
    tooShort: 'Zip must be at least 1 character long',
    tooLong: 'Zip must not exceed 100 characters',
    trims: true,
  },
  // 4500 on add as well as on update (docs/product.md#decisions), never 256 on add.
  {
    schema,
    name,
    baseline,
    field: 'note',
    min: 0,
    max: LIMITS.house.note,
    tooLong: 'Note must not exceed 4500 characters',
    trims: true,
  },
  {
    schema,
    name,
    baseline,
    field: 'member_number',
    min: 0,
    max: LIMITS.house.memberNumber,
    tooLong: 'Member number must not exceed 14 characters',
    trims: true,
  },
  {
    schema,
    name,
    baseline,
    field: 'security_code',
    min: 0,
    max: LIMITS.house.securityCode,
    tooLong: 'Security code must not exceed 8 characters',
    trims: true,
  },
];

const userTextLimits = (name: string, schema: z.ZodType, baseline: Record<string, unknown>): TextLimit[] => [
  {
    schema,
    name,
    baseline,
    field: 'first_name',
    min: 1,
    max: LIMITS.user.name,
    tooShort: 'First name must not be empty',
    tooLong: 'First name must not exceed 30 characters',
    trims: true,
  },
  {
    schema,
    name,
    baseline,
    field: 'last_name',
    min: 1,
    max: LIMITS.user.name,
    tooShort: 'Last name must not be empty',
    tooLong: 'Last name must not exceed 30 characters',
    trims: true,
  },
];

const textLimits: TextLimit[] = [
  // Passwords are never trimmed: spaces are characters of the password.
  {
    schema: loginSchema,
    name: 'login',
    baseline: login,
    field: 'password',
    min: 8,
    max: 24,
    tooShort: 'Password must be between 8 and 24 characters',
    tooLong: 'Password must be between 8 and 24 characters',
    trims: false,
  },
  ...houseTextLimits('addHouse', addHouseSchema, house),
  ...houseTextLimits('updateHouse', updateHouseSchema, houseUpdate),
  // Each resident row of the house forms.
  {
    schema: residentSchema,
    name: 'resident',
    baseline: resident,
    field: 'first_name',
    min: 0,
    max: LIMITS.resident.name,
    tooLong: 'First name must not exceed 30 characters',
    trims: true,
  },
  {
    schema: residentSchema,
    name: 'resident',
    baseline: resident,
    field: 'last_name',
    min: 0,
    max: LIMITS.resident.name,
    tooLong: 'Last name must not exceed 30 characters',
    trims: true,
  },
  {
    schema: updateHouseSchema,
    name: 'updateHouse',
    baseline: houseUpdate,
    field: 'house_check_note',
    min: 0,
    max: LIMITS.house.houseCheckNote,
    tooLong: 'House check note must not exceed 4500 characters',
    trims: true,
  },
  {
    schema: houseCheckSchema,
    name: 'houseCheck',
    baseline: houseCheck,
    field: 'remark',
    min: 0,
    max: LIMITS.report.narrative,
    tooLong: 'Remark must not exceed 4500 characters',
    trims: true,
  },
  ...userTextLimits('updateUser', updateUserSchema, user),
  ...userTextLimits('addUser', addUserSchema, newUser),
  // One set of concern limits for create and edit.
  {
    schema: concernSchema,
    name: 'concern',
    baseline: concern,
    field: 'name',
    min: 1,
    max: 100,
    tooShort: 'Field must be longer than a character',
    tooLong: 'Field must not exceed 100 characters',
    trims: true,
  },
  {
    schema: concernSchema,
    name: 'concern',
    baseline: concern,
    field: 'hint',
    min: 1,
    max: 200,
    tooShort: 'Field must be longer than a character',
    tooLong: 'Field must not exceed 200 characters',
    trims: true,
  },
  {
    schema: concernSchema,
    name: 'concern',
    baseline: concern,
    field: 'say',
    min: 1,
    max: 350,
    tooShort: 'Field must be longer than a character',
    tooLong: 'Field must not exceed 350 characters',
    trims: true,
  },
  {
    schema: reportSchema,
    name: 'report',
    baseline: report,
    field: 'narative',
    min: 1,
    max: 4500,
    tooShort: 'Missing content',
    tooLong: 'Narrative must not exceed 4500 characters',
    trims: true,
  },
  {
    schema: reportSchema,
    name: 'report',
    baseline: report,
    field: 'ai_generated_narative',
    min: 0,
    max: 4500,
    tooLong: 'AI narrative must not exceed 4500 characters',
    trims: false,
  },
  // Ids: empty means none chosen; PocketBase ids are 15 characters, the form allows 17.
  {
    schema: reportSchema,
    name: 'report',
    baseline: report,
    field: 'house',
    min: 0,
    max: 17,
    tooLong: 'Invalid house',
    trims: false,
  },
  {
    schema: reportSchema,
    name: 'report',
    baseline: report,
    field: 'resident',
    min: 0,
    max: 17,
    tooLong: 'Invalid resident',
    trims: false,
  },
];

interface LengthCase {
  title: string;
  schema: z.ZodType;
  input: Record<string, unknown>;
  expected: Record<string, string>;
}

const lengthCases: LengthCase[] = textLimits.flatMap((l) => {
  const at = (value: string) => ({ ...l.baseline, [l.field]: value });
  const title = (what: string) => `${l.name}.${l.field} ${what}`;
  const cases: LengthCase[] = [
    { title: title(`min (${l.min}) passes`), schema: l.schema, input: at(text(l.min)), expected: {} },
    { title: title(`max (${l.max}) passes`), schema: l.schema, input: at(text(l.max)), expected: {} },
    {
      title: title(`max+1 (${l.max + 1}) fails`),
      schema: l.schema,
      input: at(text(l.max + 1)),
      expected: { [l.field]: l.tooLong },
    },
    {
      title: title(`${OVERSIZED} characters fail with the max message`),
      schema: l.schema,
      input: at(text(OVERSIZED)),
      expected: { [l.field]: l.tooLong },
    },
  ];
  if (l.min > 0 && l.tooShort) {
    cases.push({
      title: title(`min-1 (${l.min - 1}) fails`),
      schema: l.schema,
      input: at(text(l.min - 1)),
      expected: { [l.field]: l.tooShort },
    });
  }
  if (l.trims) {
    // Trimming happens before the length checks: padding does not count...
    cases.push({
      title: title('max padded with spaces passes'),
      schema: l.schema,
      input: at(`  ${text(l.max)}  `),
      expected: {},
    });
    // ...and whitespace alone is empty.
    cases.push({
      title: title('whitespace only'),
      schema: l.schema,
      input: at(' \t\n '),
      expected: l.tooShort ? { [l.field]: l.tooShort } : {},
    });
  }
  return cases;
});

// '%s' rather than '$title': vitest would quote and cut a $-interpolated title.
test.each(lengthCases.map((c) => [c.title, c] as const))('%s', (_title, { schema, input, expected }) => {
  expect(errors(schema, input)).toEqual(expected);
});

test.each([
  ['addHouse', 'address', addHouseSchema, house],
  ['concern', 'say', concernSchema, concern],
  ['report', 'narative', reportSchema, report],
  ['updateUser', 'first_name', updateUserSchema, user],
] as const)('%s hands on the trimmed %s', (_name, key, schema, baseline) => {
  const parsed = schema.parse({ ...baseline, [key]: '  kept  ' }) as Record<string, unknown>;
  expect(parsed[key]).toBe('kept');
});

// ---- e-mail ---------------------------------------------------------------------
describe('e-mail', () => {
  test.each([
    ['empty', '', 'Not a valid email'],
    ['whitespace only', '   ', 'Not a valid email'],
    ['no @', 'officer.example.com', 'Not a valid email'],
    ['no domain', 'officer@', 'Not a valid email'],
    ['no top-level domain', 'officer@example', 'Not a valid email'],
    ['oversized without @', text(OVERSIZED), 'Not a valid email'],
  ])('login: %s fails', (_what, email, message) => {
    expect(errors(loginSchema, { ...login, email })).toEqual({ email: message });
  });

  test.each([
    ['empty', '', 'Email must be at least one character long'],
    ['whitespace only', ' \t ', 'Email must be at least one character long'],
    ['no @', 'ada.example.com', 'Not a valid email'],
    ['two @', 'ada@@example.com', 'Not a valid email'],
    ['no top-level domain', 'ada@example', 'Not a valid email'],
    ['oversized without @', text(OVERSIZED), 'Not a valid email'],
  ])('add user: %s fails', (_what, email, message) => {
    expect(errors(addUserSchema, { ...newUser, email })).toEqual({ email: message });
  });

  test('surrounding spaces are trimmed away', () => {
    expect(loginSchema.parse({ ...login, email: ' officer@example.com ' }).email).toBe('officer@example.com');
    expect(addUserSchema.parse({ ...newUser, email: ' ada@example.com ' }).email).toBe('ada@example.com');
  });

  test('update user has no e-mail field', () => {
    expect(Object.keys(updateUserSchema.shape)).not.toContain('email');
  });
});

// ---- house selects, phone, house check --------------------------------------------
describe('house', () => {
  test.each([...STATE_VALUES])('state %s passes', (state) => {
    expect(errors(addHouseSchema, { ...house, state })).toEqual({});
    expect(errors(updateHouseSchema, { ...houseUpdate, state })).toEqual({});
  });

  test('Alaska is spelt Ak on the wire', () => {
    expect(STATE_VALUES).toContain('Ak');
  });

  test.each(rows(['AK', '', 'F', 'fl', 'XX', 'Florida', text(OVERSIZED)]))('state $shown fails', ({ value: state }) => {
    expect(errors(addHouseSchema, { ...house, state })).toEqual({ state: 'State must be selected' });
    expect(errors(updateHouseSchema, { ...houseUpdate, state })).toEqual({ state: 'State must be selected' });
  });

  test.each(['cell', 'home', 'business'])('phone type %s passes', (type) => {
    expect(errors(addHouseSchema, { ...house, phones: [{ ...phone, type }] })).toEqual({});
  });

  test.each(['', 'mobile', 'Cell'])('phone type %j fails', (type) => {
    expect(Object.keys(errors(addHouseSchema, { ...house, phones: [{ ...phone, type }] }))).toEqual(['phones.0.type']);
  });

  test('residents and phones: each row is checked, with its place in the message path', () => {
    const residents = [resident, { ...resident, last_name: text(31) }];
    expect(errors(updateHouseSchema, { ...houseUpdate, residents })).toEqual({
      'residents.1.last_name': 'Last name must not exceed 30 characters',
    });
    expect(
      errors(addHouseSchema, { ...house, phones: [phone, { ...phone, phone_number: '561', primary: false }] }),
    ).toEqual({ 'phones.1.phone_number': 'Invalid phone number' });
  });

  test('only one phone can be primary (phones without a number do not count)', () => {
    const second = { ...phone, phone_number: '+15615550101' };
    expect(errors(addHouseSchema, { ...house, phones: [phone, second] })).toEqual({
      'phones.1.primary': 'Only one phone can be primary',
    });
    expect(errors(updateHouseSchema, { ...houseUpdate, phones: [phone, { ...second, primary: false }] })).toEqual({});
    expect(errors(addHouseSchema, { ...house, phones: [phone, { ...second, phone_number: '' }] })).toEqual({});
  });

  test.each([
    ['on with both dates', true, new Date(2025, 0, 1), new Date(2025, 0, 7), {}],
    ['off without dates', false, null, null, {}],
    ['off with one date', false, new Date(2025, 0, 1), null, {}],
    ['on without a start', true, null, new Date(2025, 0, 7), { house_check_start_date: 'Field required' }],
    ['on without an end', true, new Date(2025, 0, 1), null, { house_check_end_date: 'Field required' }],
    [
      'on without dates',
      true,
      null,
      null,
      { house_check_start_date: 'Field required', house_check_end_date: 'Field required' },
    ],
  ])('house check %s', (_what, house_check, house_check_start_date, house_check_end_date, expected) => {
    expect(
      errors(updateHouseSchema, { ...houseUpdate, house_check, house_check_start_date, house_check_end_date }),
    ).toEqual(expected);
  });

  test('house check dates are reported together with other field errors', () => {
    expect(errors(updateHouseSchema, { ...houseUpdate, address: '', house_check: true })).toEqual({
      address: 'Address must be longer than a character',
      house_check_start_date: 'Field required',
      house_check_end_date: 'Field required',
    });
  });

  test('house_check is a required boolean on update', () => {
    expect(Object.keys(errors(updateHouseSchema, { ...houseUpdate, house_check: undefined }))).toEqual(['house_check']);
  });
});

describe('phone numbers', () => {
  test.each([
    ['US E.164', '+15615550100'],
    ['another US E.164', '+12125551234'],
    ['E.164 with surrounding spaces', ' +15615550100 '],
    ['empty (no phone)', ''],
    ['whitespace only (no phone)', '   '],
  ])('%s passes', (_what, phone) => {
    expect(phoneNumberSchema.safeParse(phone).success).toBe(true);
    expect(
      errors(addHouseSchema, {
        ...house,
        phones: [{ id: '', phone_number: phone, type: 'cell', primary: true, do_not_call: false }],
      }),
    ).toEqual({});
  });

  test('the stored value is trimmed', () => {
    expect(phoneNumberSchema.parse(' +15615550100 ')).toBe('+15615550100');
  });

  test.each([
    ['national format', '(561) 555-0100'],
    ['national digits', '5615550100'],
    ['dashes', '561-555-0100'],
    ['spaced international', '+1 561 555 0100'],
    ['letters', '+1561555ABCD'],
    ['a word', 'phone'],
    ['too short', '+1561555010'],
    ['far too short', '+1'],
    ['too long', '+156155501001234'],
    ['leading zero country code', '+05615550100'],
    ['a plus alone', '+'],
    ['oversized', `+1${'5'.repeat(OVERSIZED)}`],
  ])('%s fails', (_what, phone) => {
    expect(errors(phoneNumberSchema, phone)).toEqual({ '': 'Invalid phone number' });
    expect(
      errors(addHouseSchema, {
        ...house,
        phones: [{ id: '', phone_number: phone, type: 'cell', primary: true, do_not_call: false }],
      }),
    ).toEqual({ 'phones.0.phone_number': 'Invalid phone number' });
  });

  test('every number the client accepts matches the server pattern', () => {
    const pattern = new RegExp(field(loadSchema(), 'phones', 'phone_number').pattern ?? '(?!)');
    for (const phone of ['+15615550100', '+12125551234', ' +15615550100 ']) {
      expect(pattern.test(phoneNumberSchema.parse(phone))).toBe(true);
    }
  });
});

describe('house check form', () => {
  test.each(['yes', 'no'])('everything_ok %s passes', (everything_ok) => {
    expect(errors(houseCheckSchema, { ...houseCheck, everything_ok })).toEqual({});
  });

  test.each(['', 'YES', 'maybe', undefined, null, true])('everything_ok %j fails with Required', (everything_ok) => {
    expect(errors(houseCheckSchema, { ...houseCheck, everything_ok })).toEqual({ everything_ok: 'Required' });
  });
});

// ---- users ------------------------------------------------------------------------
describe('user type', () => {
  test.each([
    ['updateUser', updateUserSchema, user],
    ['addUser', addUserSchema, newUser],
  ] as const)('%s: manager and regular pass', (_name, schema, baseline) => {
    for (const type of ['manager', 'regular']) expect(errors(schema, { ...baseline, type })).toEqual({});
  });

  // A director is never selectable (docs/product.md#validation-limits).
  test.each(['director', '', 'admin', 'Manager'])('%j fails with Invalid type', (type) => {
    expect(errors(updateUserSchema, { ...user, type })).toEqual({ type: 'Invalid type' });
    expect(errors(addUserSchema, { ...newUser, type })).toEqual({ type: 'Invalid type' });
  });
});

// ---- reports ----------------------------------------------------------------------
describe('report', () => {
  test.each([...REPORT_TYPE_VALUES])('type %s passes', (type) => {
    expect(errors(reportSchema, { ...report, type })).toEqual({});
  });

  // 'vehicle_tailgate' is the label's spelling, not the wire value.
  test.each(rows(['', 'Accident', 'vehicle_tailgate', 'bogus', text(OVERSIZED)]))(
    'type $shown fails',
    ({ value: type }) => {
      expect(errors(reportSchema, { ...report, type })).toEqual({ type: 'Invalid choice' });
    },
  );

  test.each([...WEATHER_VALUES])('weather %s passes', (weather) => {
    expect(errors(reportSchema, { ...report, weather })).toEqual({});
  });

  test.each(['', 'snowy', 'Clear'])('weather %j fails', (weather) => {
    expect(errors(reportSchema, { ...report, weather })).toEqual({ weather: 'Invalid choice' });
  });

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['an invalid date', new Date('not a date')],
    ['a date string', '2025-01-15'],
  ])('incident date %s fails', (_what, incident_date) => {
    expect(errors(reportSchema, { ...report, incident_date })).toEqual({
      incident_date: 'An incident date is required',
    });
  });

  test.each(['0', '00', '7', '09', '12', '23'])('hour %j passes', (hour) => {
    expect(errors(reportSchema, { ...report, hour })).toEqual({});
  });

  test.each(rows(['', ' ', '24', '99', '-1', '1.5', 'ab', '1e1', '0x1', '100', text(OVERSIZED)]))(
    'hour $shown fails',
    ({ value: hour }) => {
      expect(errors(reportSchema, { ...report, hour })).toEqual({ hour: 'Incorrect hour and/or minute' });
    },
  );

  test.each(['0', '00', '5', '30', '59'])('minute %j passes', (minute) => {
    expect(errors(reportSchema, { ...report, minute })).toEqual({});
  });

  test.each(rows(['', '60', '99', '-1', '1.5', 'xx', '100', text(OVERSIZED)]))(
    'minute $shown fails',
    ({ value: minute }) => {
      expect(errors(reportSchema, { ...report, minute })).toEqual({ minute: 'Incorrect hour and/or minute' });
    },
  );

  test.each(['injury', 'ems_pbso'])('%s takes both booleans', (key) => {
    expect(errors(reportSchema, { ...report, [key]: true })).toEqual({});
    expect(Object.keys(errors(reportSchema, { ...report, [key]: 'yes' }))).toEqual([key]);
  });

  test('a 15-character PocketBase id passes for house and resident', () => {
    expect(errors(reportSchema, { ...report, house: 'abcdefghij12345', resident: 'zyxwvutsrq54321' })).toEqual({});
  });
});

describe('parseHourMinute', () => {
  test.each([
    ['0', '0', { hour: 0, minute: 0 }],
    ['23', '59', { hour: 23, minute: 59 }],
    ['09', '05', { hour: 9, minute: 5 }],
    [' 7 ', ' 30 ', { hour: 7, minute: 30 }],
  ])('(%j, %j) parses', (hour, minute, expected) => {
    expect(parseHourMinute(hour, minute)).toEqual(expected);
  });

  test.each([
    ['24', '0'],
    ['0', '60'],
    ['-1', '0'],
    ['0', '-1'],
    ['1.5', '0'],
    ['0', '1.5'],
    ['', '0'],
    ['0', ''],
    ['', ''],
    ['a', '0'],
    ['0', 'b'],
    ['1e1', '0'],
    ['Infinity', '0'],
    ['100', '0'],
  ])('(%j, %j) is null', (hour, minute) => {
    expect(parseHourMinute(hour, minute)).toBeNull();
  });
});

// ---- report filter ------------------------------------------------------------------
describe('report filter', () => {
  test.each([
    ['without From', { from: null }, { from: 'Dates must be selected' }],
    ['without To', { to: null }, { to: 'Dates must be selected' }],
    ['without either', { from: null, to: null }, { from: 'Dates must be selected', to: 'Dates must be selected' }],
    ['with From undefined', { from: undefined }, { from: 'Dates must be selected' }],
    ['with an invalid To', { to: new Date('nope') }, { to: 'Dates must be selected' }],
  ])('%s fails', (_what, change, expected) => {
    expect(errors(reportFilterSchema, { ...filter, ...change })).toEqual(expected);
  });

  test('every report type may be filtered on', () => {
    expect(errors(reportFilterSchema, { ...filter, types: [...REPORT_TYPE_VALUES] })).toEqual({});
  });

  test('an unknown type fails', () => {
    expect(Object.keys(errors(reportFilterSchema, { ...filter, types: ['accident', 'bogus'] }))).toEqual(['types.1']);
  });

  test.each(['newest', 'oldest'])('sort %s passes', (sort) => {
    expect(errors(reportFilterSchema, { ...filter, sort })).toEqual({});
  });

  test('an unknown sort fails', () => {
    expect(Object.keys(errors(reportFilterSchema, { ...filter, sort: 'random' }))).toEqual(['sort']);
  });
});

// ---- the server enforces the same limits -----------------------------------------
describe('server limits equal the client limits', () => {
  const schema = loadSchema();
  test.each([
    ['houses', 'address', LIMITS.house.address],
    ['houses', 'apt', LIMITS.house.apt],
    ['houses', 'city', LIMITS.house.city],
    ['houses', 'zip', LIMITS.house.zip],
    ['houses', 'note', LIMITS.house.note],
    ['houses', 'member_number', LIMITS.house.memberNumber],
    ['houses', 'security_code', LIMITS.house.securityCode],
    ['houses', 'house_check_note', LIMITS.house.houseCheckNote],
    ['residents', 'first_name', LIMITS.resident.name],
    ['residents', 'last_name', LIMITS.resident.name],
    ['users', 'first_name', LIMITS.user.name],
    ['users', 'last_name', LIMITS.user.name],
    ['concerns', 'name', LIMITS.concern.name],
    ['concerns', 'hint', LIMITS.concern.hint],
    ['concerns', 'say', LIMITS.concern.say],
    ['reports', 'narative', LIMITS.report.narrative],
    ['reports', 'ai_generated_narative', LIMITS.report.narrative],
  ])('%s.%s max is %i', (collection, name, max) => {
    expect(field(schema, collection, name).max).toBe(max);
  });

  // Fields the client requires are required on the server too, so an empty value fails on both sides.
  test.each([
    ['houses', 'address'],
    ['houses', 'city'],
    ['houses', 'zip'],
    ['users', 'first_name'],
    ['users', 'last_name'],
    ['concerns', 'name'],
    ['concerns', 'hint'],
    ['concerns', 'say'],
    ['reports', 'narative'],
  ])('%s.%s is required with min 1', (collection, name) => {
    expect(field(schema, collection, name)).toMatchObject({ required: true, min: 1 });
  });
});
