/**
 * A resident calling the gate gives a name or a number: the Homes search
 * (and the report form's home box, which uses it) finds a home by its
 * residents' names and its phone numbers in any form, and the Reports
 * search finds a report by the officer who wrote it. One rule
 * (src/domain/search.ts), used by the in-memory index.
 */
import { describe, expect, test } from 'vitest';
import type { PhoneRecord, ResidentRecord, UserRecord } from '../../src/api/records.ts';
import type { HouseWithPeople } from '../../src/data/resources/homes.ts';
import type { ReportWithLinks } from '../../src/data/resources/reports.ts';
import { homeSearchFields, reportSearchFields } from '../../src/data/mirror/searchIndex.ts';
import { SearchList } from '../../src/data/mirror/searchList.ts';
import { matchesSearch, phoneDigits, searchWords } from '../../src/domain/search.ts';
import { houseRecord } from '../support/records.ts';

const stamp = '2026-01-01 00:00:00.000Z';

const resident = (first: string, last: string): ResidentRecord => ({
  id: `r-${first}`,
  created: stamp,
  updated: stamp,
  first_name: first,
  last_name: last,
  owner: true,
  house: 'h1',
});
const phone = (number: string): PhoneRecord => ({
  id: `p-${number}`,
  created: stamp,
  updated: stamp,
  phone_number: number,
  primary: true,
  type: 'cell',
  do_not_call: false,
  house: 'h1',
});

const vasquez: HouseWithPeople = {
  house: houseRecord({ id: 'h1', address: '110 Coral Tree Way', apt: 'Apt 302', member_number: 'PGE-1005' }),
  residents: [resident('Yolanda', 'Vasquez')],
  phones: [phone('+15615550115')],
};
const other: HouseWithPeople = {
  house: houseRecord({ id: 'h2', address: '12 Heron Ct' }),
  residents: [resident('Ann', 'Lee')],
  phones: [phone('+15615550199')],
};

function homes(query: string): string[] {
  const list = new SearchList<HouseWithPeople, string>(
    (h) => h.house.id,
    (a, b) => a.localeCompare(b),
    homeSearchFields,
  );
  for (const home of [vasquez, other]) list.put(home.house.id, home);
  return list.search(query).map((h) => h.house.id);
}

describe('a home by who lives there', () => {
  test.each(['vasquez', 'Yolanda', 'yolanda vasquez', 'VASQUEZ coral'])('the name: %s', (query) => {
    expect(homes(query)).toEqual(['h1']);
  });

  test.each([
    '561 555 0115',
    '(561) 555-0115',
    '561-555-0115',
    '561.555.0115',
    '+1 561 555 0115',
    '5550115',
    '15615550115',
    '0115',
  ])('the number, however it is written: %s', (query) => {
    expect(homes(query)).toEqual(['h1']);
  });

  test('the area code alone finds both; a number of another home finds only that one; a wrong one none', () => {
    expect(homes('(561)')).toEqual(['h1', 'h2']);
    expect(homes('555-0199')).toEqual(['h2']);
    expect(homes('(561) 555-0116')).toEqual([]);
  });

  test('the listed fields still: address, apt, member number', () => {
    expect(homes('coral tree')).toEqual(['h1']);
    expect(homes('pge-1005')).toEqual(['h1']);
    expect(homes('302')).toEqual(['h1']);
  });
});

describe('the rule', () => {
  test('a word of digits and phone punctuation is searched by its digits; anything else as typed', () => {
    expect(searchWords('(561) 555-0115 +1 Apt-3B 1-2 Oak')).toEqual(['561', '5550115', '1', 'apt-3b', '1-2', 'oak']);
    expect(phoneDigits('+1 (561) 555-0115')).toBe('15615550115');
    expect(matchesSearch(searchWords('555-0115'), [phoneDigits('+15615550115')])).toBe(true);
    // A word of letters never matches digits it does not hold.
    expect(matchesSearch(searchWords('five'), [phoneDigits('+15615550115')])).toBe(false);
  });
});

describe('a report by the officer who wrote it', () => {
  const officer = { id: 'u1', first_name: 'Luis', last_name: 'Ortega' } as UserRecord;
  const linked = { report: { id: 'r1', type: 'loud_noise' }, officer } as unknown as ReportWithLinks;
  test.each(['ortega', 'Luis', 'luis ortega noise'])('%s', (query) => {
    expect(matchesSearch(searchWords(query), reportSearchFields(linked))).toBe(true);
  });
  test('another name does not', () => {
    expect(matchesSearch(searchWords('vasquez'), reportSearchFields(linked))).toBe(false);
  });
});
