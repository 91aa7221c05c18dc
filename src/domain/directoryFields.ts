/**
 * The homes directory's own fields, per collection: what people type into
 * the home form, so what several people may edit at once. A write of them
 * carries its base (src/data/sync/conflicts.ts) and the server keeps their
 * history (pocketbase/pb_hooks/lib/home_history.js lists the same fields,
 * and the image: its own copy, so the hook loads with nothing built first;
 * tests/unit/home-history-schema.test.ts holds the two lists together).
 * Labels are the form's words, for the conflict and history sheets.
 */
export type DirectoryCollection = 'houses' | 'residents' | 'phones';

export const DIRECTORY_FIELDS: Record<DirectoryCollection, readonly string[]> = {
  houses: [
    'address',
    'apt',
    'city',
    'state',
    'zip',
    'note',
    'member_number',
    'security_code',
    'house_check',
    'house_check_start_date',
    'house_check_end_date',
    'house_check_note',
  ],
  residents: ['first_name', 'last_name', 'owner'],
  phones: ['phone_number', 'type', 'primary', 'do_not_call'],
};

/** The form's label of each field, in the form's order. */
export const DIRECTORY_LABELS: Record<string, string> = {
  address: 'Address',
  apt: 'Apt.',
  city: 'City',
  state: 'State',
  zip: 'Zip',
  note: 'Note',
  member_number: 'Member number',
  security_code: 'Security code',
  house_check: 'House check',
  house_check_start_date: 'House check start date',
  house_check_end_date: 'House check end date',
  house_check_note: 'House check note',
  image: 'Photo',
  first_name: 'First name',
  last_name: 'Last name',
  owner: 'Owner',
  phone_number: 'Phone number',
  type: 'Type',
  primary: 'Primary',
  do_not_call: 'Do not call',
};

/** The form's label of a field ('security_code' → 'Security code'). */
export function fieldLabel(field: string): string {
  return DIRECTORY_LABELS[field] ?? field.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** Fields whose value is free text: a conflict on one can be settled by editing a merged value. */
export const FREE_TEXT_FIELDS: ReadonlySet<string> = new Set([
  'address',
  'apt',
  'city',
  'zip',
  'note',
  'member_number',
  'security_code',
  'house_check_note',
  'first_name',
  'last_name',
]);

export function isDirectoryCollection(collection: string): collection is DirectoryCollection {
  return collection in DIRECTORY_FIELDS;
}
