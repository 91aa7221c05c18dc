/// The word tables of the offline narrative editor (offline_editor.js):
/// which abbreviations it expands and the words its rules look at.
///
/// Loaded by PocketBase's goja VM with require(): plain ES2015, CommonJS, no
/// Node APIs.

'use strict';

/**
 * Abbreviations expanded as whole words, case-insensitively. The expansion's
 * first letter follows the first letter of the abbreviation ("Veh" ->
 * "Vehicle"), and sentence case capitalises it at the start of a sentence.
 * A dot written after an abbreviation is dropped when it is only the
 * abbreviation's dot: always before a word or number for prefix-like ones
 * ("approx. 3", "Ofc. Smith", "Apt. B4", "lic. plt. ABC-123"), and for the
 * others before a number or a lowercase word that does not usually start a
 * sentence ("the veh. was parked"); otherwise it ends the sentence ("spoke to
 * res. he said" -> "spoke to resident. He said"). Possessives work ("mgr's"
 * -> "manager's").
 *
 * Context rules (the abbreviation is left as written when they do not hold):
 * - st, dr: street suffixes only, i.e. after a number or after a capitalised
 *   word that does not merely start the sentence ("12 Palm dr", "Main st"),
 *   and not when a capitalised word follows ("Port St. Lucie", "Dr. Jones").
 *   They are always written capitalised ("Street", "Drive").
 * - rd, ave, blvd: always expanded; capitalised in the same street context
 *   ("Military rd" -> "Military Road", "down the rd" -> "down the road").
 * - sec: not next to a number ("30 sec" stays: seconds; "sec 4" stays).
 * - susp: only before a word it clearly describes (person, vehicle, activity,
 *   package, male, female, ...); "the susp fled" stays (suspect?).
 * - w/, w/o, b/c: also when glued to the next word ("w/res" -> "with resident").
 *
 * "reqd" is deliberately absent: it means "required" to some writers and
 * "requested" to others, and guessing would change a fact.
 */
const ABBREVIATIONS = Object.freeze({
  approx: 'approximately',
  appt: 'appointment',
  apt: 'apartment',
  ave: 'avenue',
  'b/c': 'because',
  bldg: 'building',
  blvd: 'boulevard',
  dept: 'department',
  dr: 'Drive',
  govt: 'government',
  info: 'information',
  lic: 'license',
  mgr: 'manager',
  msg: 'message',
  nbr: 'neighbor',
  ofc: 'officer',
  ofcr: 'officer',
  pkg: 'package',
  pkgs: 'packages',
  plt: 'plate',
  ppl: 'people',
  rcvd: 'received',
  rd: 'road',
  res: 'resident',
  sec: 'security',
  st: 'Street',
  susp: 'suspicious',
  thru: 'through',
  veh: 'vehicle',
  vehs: 'vehicles',
  'w/': 'with',
  'w/o': 'without',
});

// Street-type abbreviations: capitalised after a number or a proper noun.
const STREET_WORDS = { st: true, dr: true, rd: true, ave: true, blvd: true };
// Only expanded in that street context.
const STREET_ONLY = { st: true, dr: true };
// Abbreviations that precede what they describe ("approx. 3", "Ofc. Smith",
// "Apt. B4", "lic. plt. ABC-123"): a dot after them never ends a sentence.
const PREFIX_WORDS = { approx: true, ofc: true, ofcr: true, apt: true, bldg: true, lic: true, plt: true };
// Words "susp" may describe.
const SUSP_NOUNS = {
  person: true,
  persons: true,
  people: true,
  ppl: true,
  individual: true,
  individuals: true,
  male: true,
  males: true,
  female: true,
  females: true,
  subject: true,
  subjects: true,
  veh: true,
  vehs: true,
  vehicle: true,
  vehicles: true,
  car: true,
  cars: true,
  truck: true,
  van: true,
  activity: true,
  activities: true,
  behavior: true,
  behaviour: true,
  package: true,
  packages: true,
  pkg: true,
  pkgs: true,
  bag: true,
  item: true,
  items: true,
  circumstances: true,
  noise: true,
  odor: true,
  odour: true,
  smell: true,
  call: true,
};

// A dot after an abbreviation, followed by one of these lowercase words, is
// read as a sentence end ("spoke to res. he said"); before other lowercase
// words it is only the abbreviation's dot ("the veh. was parked").
const SENTENCE_STARTERS = {};
[
  'the',
  'a',
  'an',
  'he',
  'she',
  'they',
  'we',
  'i',
  'it',
  'you',
  'this',
  'that',
  'these',
  'those',
  'there',
  'then',
  'his',
  'her',
  'their',
  'my',
  'our',
  'upon',
  'after',
  'when',
  'while',
  'no',
  'all',
  'both',
  'later',
  'once',
  'writer',
].forEach((w) => {
  SENTENCE_STARTERS[w] = true;
});

// Acronyms kept in capitals when an ALL-CAPS narrative is lowered.
const ACRONYMS = {};
[
  'EMS',
  'EMT',
  'PBSO',
  'HOA',
  'POA',
  'PD',
  'FD',
  'FHP',
  'FBI',
  'DEA',
  'ID',
  'DL',
  'DOB',
  'ETA',
  'OK',
  'TV',
  'GPS',
  'ATM',
  'CCTV',
  'DVR',
  'SUV',
  'VIN',
  'BOLO',
  'DUI',
  'DWI',
  'CPR',
  'AED',
  'ER',
  'ICU',
  'LEO',
  'USPS',
  'UPS',
  'DHL',
  'FPL',
  'ADT',
  'USA',
  'AM',
  'PM',
  'HVAC',
  'SOP',
  'LLC',
  'ATV',
  'RV',
  'DOA',
  'FYI',
  'ASAP',
  'FL',
].forEach((a) => {
  ACRONYMS[a] = true;
});

// A "." after these words (or after any single letter: initials, "a.m.")
// does not end a sentence, so the next word is not capitalised.
const NON_TERMINAL = {};
[
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'sgt',
  'lt',
  'capt',
  'cpl',
  'det',
  'dep',
  'ofc',
  'ofcr',
  'jr',
  'sr',
  'no',
  'vs',
  'etc',
  'approx',
  'inc',
  'ltd',
  'co',
  'mt',
  'ft',
].forEach((w) => {
  NON_TERMINAL[w] = true;
});

// Words whose letters are ignored when deciding whether a text is shouted:
// abbreviations and their expansions change case through editing itself.
const IGNORED_FOR_CAPS = {};
Object.keys(ABBREVIATIONS).forEach((k) => {
  k.split(/[^a-z]+/).forEach((w) => {
    if (w) IGNORED_FOR_CAPS[w] = true;
  });
  ABBREVIATIONS[k]
    .toLowerCase()
    .split(/[^a-z]+/)
    .forEach((w) => {
      if (w) IGNORED_FOR_CAPS[w] = true;
    });
});

module.exports = {
  ABBREVIATIONS,
  STREET_WORDS,
  STREET_ONLY,
  PREFIX_WORDS,
  SUSP_NOUNS,
  SENTENCE_STARTERS,
  ACRONYMS,
  NON_TERMINAL,
  IGNORED_FOR_CAPS,
};
