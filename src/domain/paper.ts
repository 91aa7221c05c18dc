/**
 * The paper a community prints on: US Letter in the countries that use it,
 * A4 everywhere else. A community record has no country, so it is read from
 * what the records do say, most direct first: the community's address
 * ('…, Jupiter, FL 33458', '…, Toronto, ON M5V 2T6', '…, Germany'), then its
 * homes' State (a US state or territory: the field offers nothing else),
 * then the country of its phone numbers. With none of these, the app's
 * defaults (State FL, phone country US) make it Letter.
 */
import { getCountries, parsePhoneNumberFromString } from 'libphonenumber-js';
import { STATE_VALUES } from './states.ts';

export type PaperSize = 'letter' | 'a4';

/**
 * The countries on US Letter: CLDR's paper-size data (BZ CA CL CO CR GT MX
 * NI PA PH PR SV US VE) and the other US territories of the State field.
 */
export const LETTER_COUNTRIES: ReadonlySet<string> = new Set(
  'US CA MX PH PR CL CO CR GT NI PA SV VE BZ AS GU MP VI UM'.split(' '),
);

/** The country the app assumes when nothing says otherwise (the phone input's default country, US). */
export const DEFAULT_COUNTRY = 'US';

export interface CountryHints {
  /** The community's address, free text. */
  address?: string;
  /** Its homes' State values. */
  homeStates?: readonly string[];
  /** Phone numbers in E.164 (residents', calls'). */
  phoneNumbers?: readonly string[];
}

const US_STATES: ReadonlySet<string> = new Set(STATE_VALUES.map((state) => state.toUpperCase()));
const CANADIAN_PROVINCES = new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '));

const normalName = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f.]/g, '')
    .trim()
    .toLowerCase();

/** Country names as people write them at the end of an address, to ISO codes. */
let countryNames: Map<string, string> | undefined;
function countryByName(name: string): string | undefined {
  if (!countryNames) {
    countryNames = new Map([
      ['usa', 'US'],
      ['us', 'US'],
      ['united states of america', 'US'],
      ['america', 'US'],
      ['uk', 'GB'],
      ['great britain', 'GB'],
      ['england', 'GB'],
      ['scotland', 'GB'],
      ['wales', 'GB'],
    ]);
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of getCountries()) {
      const english = names.of(code);
      if (english && !countryNames.has(normalName(english))) countryNames.set(normalName(english), code);
    }
    // 'Atlanta, Georgia' is the US state far more often than the country here.
    countryNames.set('georgia', 'US');
  }
  return countryNames.get(normalName(name));
}

/** The country an address names at its end, if any. */
export function addressCountry(address: string): string | undefined {
  const parts = address
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
  const last = parts.at(-1);
  if (!last) return undefined;
  const named = countryByName(last);
  if (named) return named;
  // 'FL 33458', 'FL 33458-1234', 'FL' ('CA' is California: the State field's values are US ones).
  const us = /^([A-Za-z]{2})(?:\s+\d{5}(?:-\d{4})?)?$/.exec(last);
  if (us && US_STATES.has(us[1]!.toUpperCase())) return 'US';
  // 'ON M5V 2T6'.
  const ca = /^([A-Za-z]{2})\s+[A-Za-z]\d[A-Za-z]\s?\d[A-Za-z]\d$/.exec(last);
  if (ca && CANADIAN_PROVINCES.has(ca[1]!.toUpperCase())) return 'CA';
  return undefined;
}

/** The community's country (ISO 3166 code) from what its records say; undefined when they say nothing. */
export function communityCountry(hints: CountryHints): string | undefined {
  const fromAddress = hints.address ? addressCountry(hints.address) : undefined;
  if (fromAddress) return fromAddress;
  if (hints.homeStates?.some((state) => US_STATES.has(state.toUpperCase()))) return 'US';
  // The country most of the numbers belong to.
  const counts = new Map<string, number>();
  for (const number of hints.phoneNumbers ?? []) {
    const country = parsePhoneNumberFromString(number)?.country;
    if (country) counts.set(country, (counts.get(country) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [country, count] of counts) if (!best || count > counts.get(best)!) best = country;
  return best;
}

/** Letter or A4 for a country (the app's default country when unknown). */
export function paperFor(country: string | undefined): PaperSize {
  return LETTER_COUNTRIES.has((country ?? DEFAULT_COUNTRY).toUpperCase()) ? 'letter' : 'a4';
}
