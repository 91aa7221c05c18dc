/**
 * The Add Home / Update Home form's values: defaults, pre-fill from a home
 * (all its residents and phones), which fields show (docs/product.md#the-home-form), and the
 * changes queueSaveHome takes (HomeChanges).
 */
import type { PhoneType } from '../../api/records.ts';
import type { HomeChanges, HouseWithPeople } from '../../data/resources/homes.ts';
import type { PhoneValues, ResidentValues, UpdateHouseValues } from '../../domain/schemas.ts';
import { parsePbDate } from '../../domain/pbDate.ts';
import { DEFAULT_STATE, STATE_VALUES } from '../../domain/states.ts';
import { checkEndValue, checkStartValue } from './checkDates.ts';

/** Both forms share one set of values; the Add form simply has no house-check section. */
export type HomeFormValues = UpdateHouseValues;
export type HomeFormMode = 'add' | 'update';

export const PHONE_TYPES: readonly PhoneType[] = ['cell', 'home', 'business'];

/** Owner, member number and security code show only when both names have text. */
export function showsResidentDetails(firstName: string | undefined, lastName: string | undefined): boolean {
  return Boolean(firstName?.trim() && lastName?.trim());
}

/** Phone type and primary show only when a phone number is entered. */
export function showsPhoneDetails(phoneNumber: string | undefined): boolean {
  return Boolean(phoneNumber?.trim());
}

/** Member number and security code belong to the home; they show once a resident has both names. */
export function showsMemberFields(
  residents: ReadonlyArray<Pick<ResidentValues, 'first_name' | 'last_name'>> | undefined,
): boolean {
  return (residents ?? []).some((r) => showsResidentDetails(r.first_name, r.last_name));
}

export const emptyResident = (): ResidentValues => ({ id: '', first_name: '', last_name: '', owner: false });

/** A new phone row; the first phone of a home is the one to call. */
/** Under the phone row's 'Do not call' box. */
export const DO_NOT_CALL_HINT = 'The resident asked not to be called on this number: calls pass over it.';

export const emptyPhone = (primary: boolean): PhoneValues => ({
  id: '',
  phone_number: '',
  type: 'cell',
  primary,
  do_not_call: false,
});

export function addDefaults(): HomeFormValues {
  return {
    address: '',
    apt: '',
    city: '',
    state: DEFAULT_STATE,
    zip: '',
    note: '',
    member_number: '',
    security_code: '',
    residents: [emptyResident()],
    phones: [emptyPhone(true)],
    house_check: false,
    house_check_start_date: null,
    house_check_end_date: null,
    house_check_note: '',
  };
}

/** The stored state as one of the choices ('AK' from elsewhere becomes 'Ak'); '' when unknown. */
function stateChoice(state: string): string {
  return STATE_VALUES.find((value) => value.toUpperCase() === state.toUpperCase()) ?? '';
}

/** An empty row stands ready when the home has no resident or phone yet, as on the Add form. */
export function updateDefaults({ house, residents, phones }: HouseWithPeople): HomeFormValues {
  return {
    address: house.address ?? '',
    apt: house.apt ?? '',
    city: house.city ?? '',
    state: stateChoice(house.state ?? ''),
    zip: house.zip ?? '',
    note: house.note ?? '',
    member_number: house.member_number ?? '',
    security_code: house.security_code ?? '',
    residents:
      residents.length > 0
        ? residents.map((r) => ({
            id: r.id,
            first_name: r.first_name ?? '',
            last_name: r.last_name ?? '',
            owner: r.owner ?? false,
          }))
        : [emptyResident()],
    phones:
      phones.length > 0
        ? phones.map((p) => ({
            id: p.id,
            phone_number: p.phone_number ?? '',
            type: p.type || 'cell',
            primary: p.primary ?? false,
            do_not_call: p.do_not_call ?? false,
          }))
        : [emptyPhone(true)],
    house_check: house.house_check ?? false,
    house_check_start_date: parsePbDate(house.house_check_start_date),
    house_check_end_date: parsePbDate(house.house_check_end_date),
    house_check_note: house.house_check_note ?? '',
  };
}

/** Ids of the saved rows the form started with and no longer has. */
function removedIds(initial: ReadonlyArray<{ id: string }>, current: ReadonlyArray<{ id: string }>): string[] {
  const kept = new Set(current.map((row) => row.id));
  return initial.map((row) => row.id).filter((id) => id && !kept.has(id));
}

/** The fields of `current` whose value differs from `initial`'s (all of them without `initial`). */
function changedFields<T extends object>(current: T, initial: T | undefined): Partial<T> {
  if (!initial) return { ...current };
  return Object.fromEntries(
    Object.entries(current).filter(([field, value]) => value !== (initial as Record<string, unknown>)[field]),
  ) as Partial<T>;
}

/** A saved row with only its changed fields (null when none changed); a new row whole. */
function rowChange<T extends { id: string }>(
  row: T,
  initialRows: readonly T[] | undefined,
  wire: (row: T) => Record<string, unknown>,
): ({ id?: string } & Record<string, unknown>) | null {
  if (!row.id) return wire(row);
  const before = initialRows?.find((other) => other.id === row.id);
  const changed = changedFields(wire(row), before && wire(before));
  return Object.keys(changed).length > 0 ? { id: row.id, ...changed } : null;
}

const residentWire = ({ first_name, last_name, owner }: ResidentValues) => ({ first_name, last_name, owner });
const phoneWire = ({ phone_number, primary, type, do_not_call }: PhoneValues) => ({
  phone_number,
  primary,
  type,
  do_not_call,
});

/**
 * What queueSaveHome sends (docs/product.md#the-home-form): the house fields, plus the house
 * check on update (start of day / end of day); the resident and phone rows
 * (queueSaveHome skips new ones without both names or a number), and on
 * update the saved ones the user removed. On update with `initial` (the
 * values the form opened with) only what the person changed goes: the
 * changed house fields, the saved rows with their changed fields, the new
 * rows; a saved row emptied of its names or number is left as it is, as
 * the form's rules say.
 */
export function toHomeChanges(values: HomeFormValues, mode: HomeFormMode, initial?: HomeFormValues): HomeChanges {
  const houseWire = (v: HomeFormValues): HomeChanges['house'] => ({
    address: v.address,
    apt: v.apt,
    city: v.city,
    state: v.state,
    zip: v.zip,
    note: v.note,
    member_number: v.member_number,
    security_code: v.security_code,
    ...(mode === 'update'
      ? {
          house_check: v.house_check,
          house_check_start_date: checkStartValue(v.house_check_start_date),
          house_check_end_date: checkEndValue(v.house_check_end_date),
          house_check_note: v.house_check_note,
        }
      : {}),
  });
  const since = mode === 'update' ? initial : undefined;
  const residents = values.residents
    .filter((r) => !r.id || showsResidentDetails(r.first_name, r.last_name))
    .map((r) => rowChange(r, since?.residents, residentWire))
    .filter((r) => r !== null);
  const phones = values.phones
    .filter((p) => !p.id || showsPhoneDetails(p.phone_number))
    .map((p) => rowChange(p, since?.phones, phoneWire))
    .filter((p) => p !== null);
  return {
    house: changedFields(houseWire(values), since && houseWire(since)),
    residents,
    phones,
    removed:
      mode === 'update' && initial
        ? {
            residents: removedIds(initial.residents, values.residents),
            phones: removedIds(initial.phones, values.phones),
          }
        : undefined,
  };
}
