/**
 * The Add Home / Update Home form's values: defaults, pre-fill from a home
 * (all its residents and phones), which fields show (spec §2), and the
 * shape queueSaveHome takes.
 */
import type { PhoneType } from '../../api/records.ts';
import type { HouseWithPeople } from '../../data/queries.ts';
import type { HomeForm } from '../../data/writes.ts';
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
/** Under the phone row's 'Do not call' box (issue 14). */
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

/**
 * What queueSaveHome sends (spec §7): the house fields, plus the house
 * check on update (start of day / end of day); every resident and phone
 * row (queueSaveHome skips the ones without both names or a number), and on
 * update the saved ones the user removed (`initial`: the values the form
 * opened with).
 */
export function toHomeForm(values: HomeFormValues, mode: HomeFormMode, initial?: HomeFormValues): HomeForm {
  const house: HomeForm['house'] = {
    address: values.address,
    apt: values.apt,
    city: values.city,
    state: values.state,
    zip: values.zip,
    note: values.note,
    member_number: values.member_number,
    security_code: values.security_code,
  };
  if (mode === 'update') {
    house.house_check = values.house_check;
    house.house_check_start_date = checkStartValue(values.house_check_start_date);
    house.house_check_end_date = checkEndValue(values.house_check_end_date);
    house.house_check_note = values.house_check_note;
  }
  return {
    house,
    residents: values.residents.map(({ id, first_name, last_name, owner }) => ({
      ...(id ? { id } : {}),
      first_name,
      last_name,
      owner,
    })),
    phones: values.phones.map(({ id, phone_number, primary, type, do_not_call }) => ({
      ...(id ? { id } : {}),
      phone_number,
      primary,
      type,
      do_not_call,
    })),
    removed:
      mode === 'update' && initial
        ? {
            residents: removedIds(initial.residents, values.residents),
            phones: removedIds(initial.phones, values.phones),
          }
        : undefined,
  };
}
