import { describe, expect, test } from 'vitest';
import { composeScript, plainText } from '../../src/domain/callScript.ts';
import { currentMonthRange, dayRange } from '../../src/domain/dateRange.ts';
import { isHouseCheckDue } from '../../src/domain/houseCheck.ts';
import { REPORT_TYPES, reportTypeLabel } from '../../src/domain/reportTypes.ts';
import { matchesSearch, searchList, searchWords } from '../../src/domain/search.ts';
import { STATE_VALUES } from '../../src/domain/states.ts';

describe('search', () => {
  const homes = [
    { address: '12 Palm Way', city: 'Jupiter', zip: '33458' },
    { address: '7 Ocean Dr', city: 'Tequesta', zip: '33469' },
  ];
  const fields = (h: (typeof homes)[number]) => [h.address, h.city, h.zip];

  test('every word must appear in some field, case-insensitively', () => {
    expect(searchList(homes, 'palm JUPITER', fields)).toEqual([homes[0]]);
    expect(searchList(homes, 'palm tequesta', fields)).toEqual([]);
    expect(searchList(homes, '334', fields)).toEqual(homes);
  });
  test('an empty query keeps everything', () => {
    expect(searchList(homes, '   ', fields)).toEqual(homes);
    expect(searchWords('  a  b ')).toEqual(['a', 'b']);
  });
  test('empty and missing fields never match', () => {
    expect(matchesSearch(['x'], [null, undefined, ''])).toBe(false);
  });
});

describe('date ranges', () => {
  test('the current month runs from day 1 00:00 to the last day 23:59:59.999', () => {
    const { from, to } = currentMonthRange(new Date(2026, 1, 14, 10, 30));
    expect(from).toEqual(new Date(2026, 1, 1, 0, 0, 0, 0));
    expect(to).toEqual(new Date(2026, 1, 28, 23, 59, 59, 999));
  });
  test('a filter range takes From at 00:00 and To at the end of its day', () => {
    const { from, to } = dayRange(new Date(2026, 9, 3, 15), new Date(2026, 9, 5, 1));
    expect(from).toEqual(new Date(2026, 9, 3));
    expect(to).toEqual(new Date(2026, 9, 5, 23, 59, 59, 999));
  });
});

describe('house check due (docs/product.md#house-checks)', () => {
  const now = new Date(2026, 10, 22, 12);
  const iso = (d: Date) => d.toISOString().replace('T', ' ');
  const base = {
    house_check: true,
    house_check_start_date: iso(new Date(2026, 10, 20)),
    house_check_end_date: iso(new Date(2026, 10, 25, 23, 59, 59, 999)),
    house_check_last_date: '',
  };
  test('due when on, today in the window and not yet checked in it', () => {
    expect(isHouseCheckDue(base, now)).toBe(true);
  });
  test('not due when off, outside the window, or checked in the window', () => {
    expect(isHouseCheckDue({ ...base, house_check: false }, now)).toBe(false);
    expect(isHouseCheckDue(base, new Date(2026, 10, 26, 0, 0, 1))).toBe(false);
    expect(isHouseCheckDue(base, new Date(2026, 10, 19, 23))).toBe(false);
    expect(isHouseCheckDue({ ...base, house_check_last_date: iso(new Date(2026, 10, 21, 9)) }, now)).toBe(false);
  });
  test('a check before the window does not count', () => {
    expect(isHouseCheckDue({ ...base, house_check_last_date: iso(new Date(2026, 10, 10)) }, now)).toBe(true);
  });
  test('missing dates mean not due', () => {
    expect(isHouseCheckDue({ ...base, house_check_end_date: '' }, now)).toBe(false);
  });
});

describe('catalogues', () => {
  test('14 report types with their original spelling', () => {
    expect(REPORT_TYPES).toHaveLength(14);
    expect(reportTypeLabel('vehicle_tailgaite')).toBe('Vehicle tailgate');
  });
  test('57 states with Alaska spelt Ak', () => {
    expect(STATE_VALUES).toHaveLength(57);
    expect(STATE_VALUES).toContain('Ak');
    expect(STATE_VALUES).not.toContain('AK');
  });
});

describe('call script (docs/product.md#calls-to-residents)', () => {
  test('intro with the community name, each concern without markup, outro', () => {
    expect(
      composeScript('Palm Grove', [
        '<p>The gate is open.</p>',
        '<p>Water&nbsp;leak &amp; flooding</p><p>Call us.</p>',
        '<p></p>',
      ]),
    ).toBe(
      'Hello. This is Palm Grove security team. The gate is open. Water leak & flooding Call us. Thank you. Good bye.',
    );
  });
  test('plain text strips paragraph tags for display and editing', () => {
    expect(plainText('<p>Package at the door</p>')).toBe('Package at the door');
  });
});
