/**
 * The Add Home / Update Home form's values: defaults, pre-fill from a home
 * (its first resident and first phone, spec §4), which fields show (spec
 * §2), and the shape queueSaveHome takes.
 */
import type { PhoneType } from '../../api/records.ts';
import type { HouseWithPeople } from '../../data/queries.ts';
import type { HomeForm } from '../../data/writes.ts';
import type { UpdateHouseValues } from '../../domain/schemas.ts';
import { DEFAULT_STATE, STATE_VALUES } from '../../domain/states.ts';
import { checkEndValue, checkStartValue, parsePbDate } from './checkDates.ts';

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
    resident_first_name: '',
    resident_last_name: '',
    resident_owner: false,
    phone_number: '',
    phone_type: 'cell',
    // A home's first phone is the one to call.
    phone_primary: true,
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

export function updateDefaults({ house, residents, phones }: HouseWithPeople): HomeFormValues {
  const resident = residents[0];
  const phone = phones[0];
  return {
    address: house.address ?? '',
    apt: house.apt ?? '',
    city: house.city ?? '',
    state: stateChoice(house.state ?? ''),
    zip: house.zip ?? '',
    note: house.note ?? '',
    member_number: house.member_number ?? '',
    security_code: house.security_code ?? '',
    resident_first_name: resident?.first_name ?? '',
    resident_last_name: resident?.last_name ?? '',
    resident_owner: resident?.owner ?? false,
    phone_number: phone?.phone_number ?? '',
    phone_type: phone?.type || 'cell',
    phone_primary: phone ? phone.primary : true,
    house_check: house.house_check ?? false,
    house_check_start_date: parsePbDate(house.house_check_start_date),
    house_check_end_date: parsePbDate(house.house_check_end_date),
    house_check_note: house.house_check_note ?? '',
  };
}

/**
 * What queueSaveHome sends (spec §7): the house fields, plus the house
 * check on update (start of day / end of day); the resident and phone are
 * skipped there when their names or number are empty.
 */
export function toHomeForm(values: HomeFormValues, mode: HomeFormMode): HomeForm {
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
    resident: { first_name: values.resident_first_name, last_name: values.resident_last_name, owner: values.resident_owner },
    phone: { phone_number: values.phone_number, primary: values.phone_primary, type: values.phone_type },
  };
}
