/**
 * One set of rules: a value a form refuses is refused by
 * the server with the same message, and a value a form accepts is accepted.
 * The server side here is the generated hook library itself
 * (pb_hooks/lib/generated/record_rules.js, as goja loads it: a bare
 * CommonJS context), built from src/domain/recordRules.ts before the test.
 * Also: the wrongly typed values that only the wire can carry are refused,
 * never converted, and the house-check window and defaults of a create.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { buildHookLibs } from '../../scripts/pocketbase/hook-libs.ts';
import {
  checkWrite as checkWriteSource,
  type FieldErrors,
  type WriteBody,
  type WriteOptions,
} from '../../src/domain/recordRules.ts';
import {
  addHouseSchema,
  addUserSchema,
  concernSchema,
  END_BEFORE_START,
  loginSchema,
  phoneSchema,
  reportSchema,
  residentSchema,
  updateHouseSchema,
  updateUserSchema,
} from '../../src/domain/schemas.ts';
import { PASSWORD_LIMITS } from '../../src/domain/loginSchema.ts';
import { loadHookLib } from '../support/hook-lib.ts';
import { field, loadSchema } from '../support/migration-schema.ts';

type CheckWrite = (collection: string, body: WriteBody, options: WriteOptions) => FieldErrors;
let generated: CheckWrite;

beforeAll(async () => {
  await buildHookLibs();
  generated = loadHookLib<{ checkWrite: CheckWrite }>('generated/record_rules.js').checkWrite;
});

/** The form's first message for `field` ({} paths joined by '.'), or undefined when the form accepts it. */
function formMessage(schema: z.ZodType, values: unknown, field: string): string | undefined {
  const result = schema.safeParse(values);
  return result.success ? undefined : result.error.issues.find((issue) => issue.path.join('.') === field)?.message;
}

const text = (length: number) => 'a'.repeat(length);
const ID = 'abcdefghijklmno';

// Valid form values and valid wire records; each row changes one field.
const houseForm = {
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
const houseUpdateForm = {
  ...houseForm,
  house_check: false,
  house_check_start_date: null,
  house_check_end_date: null,
  house_check_note: '',
};
const houseWire = { address: '12 Ocean Drive', apt: '', city: 'Palm Beach', state: 'FL', zip: '33480', community: ID };
const residentForm = { id: '', first_name: 'Ann', last_name: 'Lee', owner: false };
const phoneForm = { id: '', phone_number: '+15615550100', type: 'cell', primary: true };
const userForm = { first_name: 'Ada', last_name: 'Lovelace', type: 'regular', email: 'ada@example.com' };
const concernForm = { name: 'Open garage', hint: 'Garage door left open', say: 'Your garage door is open.' };
const reportForm = {
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

const wire: Record<string, Record<string, unknown>> = {
  houses: houseWire,
  residents: { first_name: 'Ann', last_name: 'Lee', owner: false, house: ID },
  phones: { phone_number: '+15615550100', type: 'cell', primary: true, house: ID },
  users: {
    email: 'ada@example.com',
    password: 'patrol-pass-1',
    passwordConfirm: 'patrol-pass-1',
    first_name: 'Ada',
    last_name: 'Lovelace',
    type: 'regular',
    community: ID,
  },
  concerns: { ...concernForm, added_by: ID, community: ID },
  reports: {
    narative: 'Car hit the gate.',
    type: 'accident',
    weather: 'clear',
    incident_time: '2025-01-15 13:45:00.000Z',
    community: ID,
    created_by: ID,
  },
};

interface SharedRule {
  collection: string;
  field: string;
  value: unknown;
  /** The form that shows this field, its values with the bad one, and the field's path there. */
  form: [z.ZodType, unknown, string];
}

const house = (field: string, value: unknown): SharedRule => ({
  collection: 'houses',
  field,
  value,
  form: [addHouseSchema, { ...houseForm, [field]: value }, field],
});
const shared: SharedRule[] = [
  house('address', '   '),
  house('address', ''),
  house('address', text(101)),
  house('apt', text(101)),
  house('city', ' '),
  house('city', text(101)),
  house('zip', ''),
  house('zip', text(101)),
  house('note', text(4501)),
  house('member_number', text(15)),
  house('security_code', text(9)),
  house('state', 'XX'),
  house('state', 'fl'),
  {
    collection: 'houses',
    field: 'house_check_note',
    value: text(4501),
    form: [updateHouseSchema, { ...houseUpdateForm, house_check_note: text(4501) }, 'house_check_note'],
  },
  ...['first_name', 'last_name'].map((field): SharedRule => ({
    collection: 'residents',
    field,
    value: text(31),
    form: [residentSchema, { ...residentForm, [field]: text(31) }, field],
  })),
  ...['+12', 'abc', '+1561555010', '+999999999999', '5615550100', '+1 561 555 0100 ext 4'].map((value): SharedRule => ({
    collection: 'phones',
    field: 'phone_number',
    value,
    form: [phoneSchema, { ...phoneForm, phone_number: value }, 'phone_number'],
  })),
  { collection: 'phones', field: 'type', value: 'fax', form: [phoneSchema, { ...phoneForm, type: 'fax' }, 'type'] },
  ...(['first_name', 'last_name'] as const).flatMap((field) =>
    ['', '  ', text(31)].map((value): SharedRule => ({
      collection: 'users',
      field,
      value,
      form: [updateUserSchema, { ...userForm, [field]: value }, field],
    })),
  ),
  ...['', 'not-an-email', 'a@b', 'two@@example.com'].map((value): SharedRule => ({
    collection: 'users',
    field: 'email',
    value,
    form: [addUserSchema, { ...userForm, email: value }, 'email'],
  })),
  ...[text(7), text(25), ''].map((value): SharedRule => ({
    collection: 'users',
    field: 'password',
    value,
    form: [loginSchema, { email: 'ada@example.com', password: value }, 'password'],
  })),
  ...(['name', 'hint', 'say'] as const).flatMap((field) => {
    const max = { name: 100, hint: 200, say: 350 }[field];
    return ['', '   ', text(max + 1)].map((value): SharedRule => ({
      collection: 'concerns',
      field,
      value,
      form: [concernSchema, { ...concernForm, [field]: value }, field],
    }));
  }),
  ...['', '   ', text(4501)].map((value): SharedRule => ({
    collection: 'reports',
    field: 'narative',
    value,
    form: [reportSchema, { ...reportForm, narative: value }, 'narative'],
  })),
  {
    collection: 'reports',
    field: 'ai_generated_narative',
    value: text(4501),
    form: [reportSchema, { ...reportForm, ai_generated_narative: text(4501) }, 'ai_generated_narative'],
  },
  ...['nope', 'Accident', 'vehicle_tailgate'].map((value): SharedRule => ({
    collection: 'reports',
    field: 'type',
    value,
    form: [reportSchema, { ...reportForm, type: value }, 'type'],
  })),
  ...['hail', ''].map((value): SharedRule => ({
    collection: 'reports',
    field: 'weather',
    value,
    form: [reportSchema, { ...reportForm, weather: value }, 'weather'],
  })),
  {
    collection: 'reports',
    field: 'house',
    value: text(18),
    form: [reportSchema, { ...reportForm, house: text(18) }, 'house'],
  },
];

const shown = (value: unknown) =>
  typeof value === 'string' && value.length > 30 ? `<${value.length} characters>` : JSON.stringify(value);

describe('a value the form refuses, the server refuses with the same message', () => {
  test.each(shared.map((rule) => [`${rule.collection}.${rule.field} = ${shown(rule.value)}`, rule] as const))(
    '%s',
    (_, rule) => {
      const [schema, values, path] = rule.form;
      const message = formMessage(schema, values, path);
      expect(message, 'the form refuses it').toBeDefined();
      const body = { json: { ...wire[rule.collection], [rule.field]: rule.value } };
      for (const check of [generated, checkWriteSource]) {
        expect(check(rule.collection, body, { create: true })[rule.field]).toEqual({
          code: 'validation_invalid_value',
          message,
        });
        // An update sending only this field is refused the same way.
        expect(
          check(rule.collection, { json: { [rule.field]: rule.value } }, { create: false })[rule.field]?.message,
        ).toBe(message);
      }
    },
  );
});

test('what the forms accept, the server accepts (each collection, both sides)', () => {
  expect(formMessage(addHouseSchema, houseForm, 'address')).toBeUndefined();
  for (const [collection, body] of Object.entries(wire)) {
    expect(generated(collection, { json: body }, { create: true }), collection).toEqual({});
    expect(checkWriteSource(collection, { json: body }, { create: true }), collection).toEqual({});
  }
  // Phone numbers of other countries, as the country selector makes them.
  for (const number of ['+442079460958', '+33142685300', '+61293744000']) {
    expect(formMessage(phoneSchema, { ...phoneForm, phone_number: number }, 'phone_number')).toBeUndefined();
    expect(generated('phones', { json: { ...wire.phones, phone_number: number } }, { create: true })).toEqual({});
  }
});

test("the users' password field has the forms' limits too (it also guards PocketBase's reset e-mail confirmation)", () => {
  const password = field(loadSchema(), 'users', 'password');
  expect({ min: password.min, max: password.max }).toEqual(PASSWORD_LIMITS);
});

describe('the house-check window: the form and the server', () => {
  const day = (d: number) => new Date(2026, 11, d);
  const wireDay = (d: number, end = false) =>
    `2026-12-${String(d).padStart(2, '0')} ${end ? '23:59:59.999' : '00:00:00.000'}Z`;
  const cases: Array<[string, Date | null, Date | null, Record<string, string>]> = [
    [
      'on with no dates',
      null,
      null,
      { house_check_start_date: 'Field required', house_check_end_date: 'Field required' },
    ],
    ['on with only a start date', day(3), null, { house_check_end_date: 'Field required' }],
    ['on with only an end date', null, day(3), { house_check_start_date: 'Field required' }],
    ['ending before it starts', day(10), day(3), { house_check_end_date: END_BEFORE_START }],
    ['a good window', day(3), day(10), {}],
  ];
  test.each(cases)('%s', (_, start, end, expected) => {
    const form = { ...houseUpdateForm, house_check: true, house_check_start_date: start, house_check_end_date: end };
    const formErrors = Object.fromEntries(
      ['house_check_start_date', 'house_check_end_date'].flatMap((field) => {
        const message = formMessage(updateHouseSchema, form, field);
        return message ? [[field, message]] : [];
      }),
    );
    expect(formErrors).toEqual(expected);
    const body = {
      json: {
        ...houseWire,
        house_check: true,
        house_check_start_date: start ? wireDay(start.getDate()) : '',
        house_check_end_date: end ? wireDay(end.getDate(), true) : '',
      },
    };
    const server = generated('houses', body, { create: true });
    expect(Object.fromEntries(Object.entries(server).map(([field, error]) => [field, error.message]))).toEqual(
      expected,
    );
  });

  test('an update answers only when it touches the window: an old record never blocks a house check', () => {
    const old = {
      ...houseWire,
      house_check: true,
      house_check_start_date: '',
      house_check_end_date: '',
      house_check_last_date: '',
      house_check_note: '',
      note: '',
      member_number: '',
      security_code: '',
      pending_call_concerns_ids: '',
    };
    expect(
      generated(
        'houses',
        { json: { house_check_last_date: '2026-12-01 10:00:00.000Z' } },
        { create: false, existing: old },
      ),
    ).toEqual({});
    expect(
      generated('houses', { json: { house_check_end_date: wireDay(5, true) } }, { create: false, existing: old }),
    ).toEqual({ house_check_start_date: { code: 'validation_invalid_value', message: 'Field required' } });
    expect(
      generated(
        'houses',
        { json: { house_check_start_date: wireDay(9) } },
        { create: false, existing: { ...old, house_check_end_date: wireDay(5, true) } },
      ),
    ).toEqual({ house_check_end_date: { code: 'validation_invalid_value', message: END_BEFORE_START } });
  });
});

describe('what only the wire can carry is refused, never converted', () => {
  const typeCases: Array<[string, string, unknown]> = [
    ['houses', 'address', 123],
    ['houses', 'address', ['1 A St', '2 B St']],
    ['houses', 'address', null],
    ['houses', 'zip', { zip: '1' }],
    ['houses', 'house_check', 'yes'],
    ['houses', 'house_check', 'true'],
    ['houses', 'house_check', 1],
    ['houses', 'house_check', [true]],
    ['houses', 'house_check_start_date', 20261201],
    ['houses', 'community', 42],
    ['residents', 'owner', 'no'],
    ['phones', 'primary', 0],
    ['phones', 'phone_number', 15615550100],
    ['reports', 'injury', 'false'],
    ['reports', 'incident_time', ['2025-01-01']],
    ['users', 'password', 12345678],
    ['users', 'verified', 'yes'],
  ];
  test.each(typeCases)('%s.%s = %j', (collection, field, value) => {
    expect(generated(collection, { json: { [field]: value } }, { create: false })[field]?.code).toBe(
      'validation_invalid_type',
    );
  });

  test.each([
    ['abc'],
    ['2026-13-01 00:00:00.000Z'],
    ['2026-02-30'],
    ['2026-12-01 24:00:00.000Z'],
    ['9999-01-01 00:00:00.000Z'],
    ['1999-12-31 23:59:59.000Z'],
    ['01/12/2026'],
    ['2026-12-01T10:00:00+25:00'],
  ])('house_check_last_date %j is not a date the app can hold', (value) => {
    expect(
      generated('houses', { json: { house_check_last_date: value } }, { create: false }).house_check_last_date?.code,
    ).toBe('validation_invalid_value');
  });

  test('an incident time in the future (beyond a day) or in 9999 is refused; today and the past are not', () => {
    const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ');
    const check = (value: string) =>
      generated('reports', { json: { incident_time: value } }, { create: false }).incident_time?.message;
    expect(check(at(Date.now() + 2 * 86_400_000))).toBe('Incident time must not be in the future');
    expect(check('9999-12-31 00:00:00.000Z')).toBeDefined();
    expect(check(at(Date.now() + 3_600_000))).toBeUndefined();
    expect(check('2026-01-05')).toBeUndefined();
  });

  test('form-data: booleans only as "true"/"false", one value per field; a photo upload passes', () => {
    const body = (form: Record<string, unknown>) => ({
      json: {},
      form: { ...wire.reports, injury: 'false', ems_pbso: 'true', ...form },
    });
    expect(generated('reports', body({}), { create: true })).toEqual({});
    expect(generated('reports', body({ injury: 'yes' }), { create: true }).injury?.code).toBe(
      'validation_invalid_type',
    );
    expect(generated('reports', body({ narative: ['one', 'two'] }), { create: true }).narative?.code).toBe(
      'validation_invalid_type',
    );
    expect(generated('reports', { json: { injury: 'yes' }, form: {} }, { create: false }).injury?.code).toBe(
      'validation_invalid_type',
    );
  });

  test('a create is checked with what it leaves out: a resident needs both names', () => {
    expect(generated('residents', { json: { first_name: 'Ann', house: ID } }, { create: true })).toEqual({
      last_name: { code: 'validation_invalid_value', message: 'Last name must not be empty' },
    });
    // A house without a state is in Florida (the hook fills it in).
    expect(generated('houses', { json: { ...houseWire, state: '' } }, { create: true })).toEqual({});
  });
});
