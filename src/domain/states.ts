/**
 * The State choice, in the order the form lists it. Alaska's value is 'Ak'
 * (mixed case) on the wire; people see 'AK'.
 */
export const STATE_VALUES = [
  'AL',
  'Ak',
  'AZ',
  'AR',
  'AS',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'GU',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'MP',
  'OH',
  'OK',
  'OR',
  'PA',
  'PR',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'TT',
  'UT',
  'VT',
  'VA',
  'VI',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;

export type StateValue = (typeof STATE_VALUES)[number];

export const DEFAULT_STATE: StateValue = 'FL';

export function stateLabel(value: string): string {
  return value.toUpperCase();
}
