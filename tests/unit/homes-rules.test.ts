/** The Homes screen's pure rules: note preview, notices, concern limit, date pickers, form values. */
import { describe, expect, test } from 'vitest';
import type { CallRecord, CallStatus, HouseRecord } from '../../src/api/records.ts';
import type { HouseWithPeople } from '../../src/data/resources/homes.ts';
import {
  checkEndValue,
  checkStartValue,
  isEndDayDisabled,
  isStartDayDisabled,
} from '../../src/features/homes/checkDates.ts';
import { parsePbDate } from '../../src/domain/pbDate.ts';
import { initialSelection, MAX_CONCERNS, toggleConcern } from '../../src/features/homes/concernSelection.ts';
import {
  addDefaults,
  showsMemberFields,
  showsPhoneDetails,
  showsResidentDetails,
  toHomeChanges,
  updateDefaults,
} from '../../src/features/homes/homeFormValues.ts';
import { homeImageUrl } from '../../src/features/homes/homeImage.ts';
import { callJobFields, homeNotices, pendingConcernIds } from '../../src/features/homes/homeNotices.ts';
import { isCallJobActive, newestCallByHouse } from '../../src/domain/callOutcome.ts';

/** The homes whose newest call's job has not ended: the card says 'Call in progress...' or when the next try is (cardCallState). */
function housesWithActiveCall(
  calls: ReadonlyArray<Pick<CallRecord, 'house' | 'status' | 'created' | 'progress' | 'outcome' | 'acknowledged'>>,
): Set<string> {
  const newest = [...newestCallByHouse(calls)];
  return new Set(newest.filter(([, call]) => isCallJobActive(callJobFields(call))).map(([house]) => house));
}
import { notePreview, NOTE_PREVIEW_LENGTH } from '../../src/features/homes/notePreview.ts';
import { sortHomes } from '../../src/domain/homeOrder.ts';
import { homeSortKey, splitAddress } from '../../src/domain/homeSortKey.ts';
import { houseRecord } from '../support/records.ts';

const iso = (d: Date) => d.toISOString().replace('T', ' ');

const house = houseRecord;

describe('note preview (30 characters)', () => {
  test('a note of at most 30 characters is shown whole, with no toggle', () => {
    const exactly30 = 'a'.repeat(30);
    expect(notePreview(exactly30, false)).toEqual({ text: exactly30, truncated: false, toggle: null });
    expect(notePreview('Gate code changes monthly', false).toggle).toBeNull();
    expect(notePreview('', false)).toEqual({ text: '', truncated: false, toggle: null });
  });
  test('a longer note is cut at 30 with show more, and shown whole with show less', () => {
    const note = 'Dog in the back yard, ring twice and wait at the gate';
    const short = notePreview(note, false);
    expect(short.text).toBe(note.slice(0, 30));
    expect(short.text).toHaveLength(NOTE_PREVIEW_LENGTH);
    expect(short).toMatchObject({ truncated: true, toggle: 'show more' });
    expect(notePreview(note, true)).toEqual({ text: note, truncated: false, toggle: 'show less' });
    expect(notePreview('b'.repeat(31), false).text).toBe('b'.repeat(30));
  });
  test('characters outside the basic plane count once and are never split', () => {
    const note = '🏠'.repeat(31);
    const preview = notePreview(note, false);
    expect(Array.from(preview.text)).toHaveLength(30);
    expect(preview.text).toBe('🏠'.repeat(30));
    expect(notePreview('🏠'.repeat(30), false).toggle).toBeNull();
  });
});

describe('notice area (docs/product.md#home-cards-and-the-desk-table)', () => {
  const now = new Date(2026, 10, 22, 12);
  const quiet = { house: house(), phoneCount: 1, call: 'none' as const, now };
  test('nothing to say hides the area', () => {
    expect(homeNotices(quiet)).toEqual([]);
  });
  test('no phones', () => {
    expect(homeNotices({ ...quiet, phoneCount: 0 })).toEqual(['no-phone']);
  });
  test('a pending call, from the pending concern ids', () => {
    expect(homeNotices({ ...quiet, house: house({ pending_call_concerns_ids: 'c1,c2' }) })).toEqual(['call-pending']);
    expect(pendingConcernIds(house({ pending_call_concerns_ids: ' a , ,b' }))).toEqual(['a', 'b']);
    expect(pendingConcernIds(house())).toEqual([]);
  });
  test('a call in progress; a call waiting for its next try; one that is over says nothing here', () => {
    expect(homeNotices({ ...quiet, call: 'calling' })).toEqual(['call-in-progress']);
    expect(homeNotices({ ...quiet, call: 'waiting' })).toEqual(['call-waiting']);
    expect(homeNotices({ ...quiet, call: 'over' })).toEqual([]);
  });
  test('a due house check, and not one already done in its window', () => {
    const window = {
      house_check: true,
      house_check_start_date: iso(new Date(2026, 10, 20)),
      house_check_end_date: iso(new Date(2026, 10, 25, 23, 59, 59, 999)),
    };
    expect(homeNotices({ ...quiet, house: house(window) })).toEqual(['house-check-due']);
    expect(
      homeNotices({ ...quiet, house: house({ ...window, house_check_last_date: iso(new Date(2026, 10, 21)) }) }),
    ).toEqual([]);
    expect(homeNotices({ ...quiet, house: house({ ...window, house_check: false }) })).toEqual([]);
  });
  test('several at once, in the documented order', () => {
    const due = {
      house_check: true,
      house_check_start_date: iso(new Date(2026, 10, 20)),
      house_check_end_date: iso(new Date(2026, 10, 25)),
    };
    expect(
      homeNotices({
        house: house({ ...due, pending_call_concerns_ids: 'x' }),
        phoneCount: 0,
        call: 'calling',
        now,
      }),
    ).toEqual(['no-phone', 'call-pending', 'call-in-progress', 'house-check-due']);
  });
  test('a call is in progress when the newest call of the home has not ended', () => {
    const calls = [
      { house: 'a', status: 'completed' as const, created: '2026-11-22 10:00:00.000Z' },
      { house: 'a', status: 'ringing' as const, created: '2026-11-22 11:00:00.000Z' },
      { house: 'b', status: 'in-progress' as const, created: '2026-11-22 10:00:00.000Z' },
      { house: 'b', status: 'no-answer' as const, created: '2026-11-22 11:00:00.000Z' },
      { house: 'c', status: 'queued' as const, created: '2026-11-22 09:00:00.000Z' },
      { house: 'd', status: 'failed' as const, created: '2026-11-22 09:00:00.000Z' },
    ];
    expect([...housesWithActiveCall(calls)].sort()).toEqual(['a', 'c']);
    expect(housesWithActiveCall([]).size).toBe(0);
  });
  test('a job is in progress while it dials or waits to dial again, whatever its last status', () => {
    const job = (house: string, progress: 'calling' | 'waiting' | 'done', status: CallStatus) => ({
      house,
      status,
      progress,
      created: '2026-11-22 10:00:00.000Z',
    });
    const calls = [
      job('dialling', 'calling', 'queued'),
      // Busy, the retry is due in five minutes: the job goes on.
      job('waiting', 'waiting', 'busy'),
      // The provider said in-progress last, but the job ended (the final callback came through the poll).
      job('done', 'done', 'in-progress'),
    ];
    expect([...housesWithActiveCall(calls)].sort()).toEqual(['dialling', 'waiting']);
  });
});

describe('concern choice (at most three)', () => {
  test('ticking adds in order, unticking removes', () => {
    let selected: string[] = [];
    for (const id of ['a', 'b', 'c']) selected = toggleConcern(selected, id).selected;
    expect(selected).toEqual(['a', 'b', 'c']);
    expect(toggleConcern(selected, 'b')).toEqual({ selected: ['a', 'c'], limitExceeded: false });
  });
  test('a fourth concern is refused and nothing changes', () => {
    const three = ['a', 'b', 'c'];
    expect(MAX_CONCERNS).toBe(3);
    expect(toggleConcern(three, 'd')).toEqual({ selected: three, limitExceeded: true });
    // Removing one makes room again.
    expect(toggleConcern(['a', 'b'], 'd')).toEqual({ selected: ['a', 'b', 'd'], limitExceeded: false });
  });
  test('the pre-selection is the pending ids that still exist, at most three', () => {
    const known = new Set(['a', 'b', 'c', 'd']);
    expect(initialSelection(['b', 'gone', 'a'], known)).toEqual(['b', 'a']);
    expect(initialSelection(['a', 'b', 'c', 'd'], known)).toEqual(['a', 'b', 'c']);
    expect(initialSelection([], known)).toEqual([]);
  });
});

describe('house-check date pickers (docs/product.md#the-home-form)', () => {
  const today = new Date(2026, 10, 22, 15, 30);
  test('start dates earlier than the day after today are disabled', () => {
    expect(isStartDayDisabled(new Date(2026, 10, 21), today)).toBe(true);
    expect(isStartDayDisabled(new Date(2026, 10, 22), today)).toBe(true);
    expect(isStartDayDisabled(new Date(2026, 10, 22, 23, 59), today)).toBe(true);
    expect(isStartDayDisabled(new Date(2026, 10, 23), today)).toBe(false);
    expect(isStartDayDisabled(new Date(2027, 0, 1), today)).toBe(false);
  });
  test('end dates before the day after the start are disabled, and all while there is no start', () => {
    const start = new Date(2026, 11, 1);
    expect(isEndDayDisabled(new Date(2026, 10, 30), start)).toBe(true);
    expect(isEndDayDisabled(new Date(2026, 11, 1, 18), start)).toBe(true);
    expect(isEndDayDisabled(new Date(2026, 11, 2), start)).toBe(false);
    expect(isEndDayDisabled(new Date(2026, 11, 2), null)).toBe(true);
  });
  test('the window is saved from the start of the first day to the end of the last', () => {
    expect(checkStartValue(new Date(2026, 11, 1, 14, 5))).toBe(iso(new Date(2026, 11, 1, 0, 0, 0, 0)));
    expect(checkEndValue(new Date(2026, 11, 3, 9))).toBe(iso(new Date(2026, 11, 3, 23, 59, 59, 999)));
    expect(checkStartValue(null)).toBe('');
    expect(checkEndValue(null)).toBe('');
    expect(parsePbDate('2026-11-22 06:00:00.000Z')?.toISOString()).toBe('2026-11-22T06:00:00.000Z');
    expect(parsePbDate('')).toBeNull();
    expect(parsePbDate('not a date')).toBeNull();
  });
});

describe('home form values', () => {
  test('owner, member number and security code need both names; phone details need a number', () => {
    expect(showsResidentDetails('Ann', 'Lee')).toBe(true);
    expect(showsResidentDetails('Ann', '')).toBe(false);
    expect(showsResidentDetails('', 'Lee')).toBe(false);
    expect(showsResidentDetails('Ann', '   ')).toBe(false);
    expect(showsPhoneDetails('+15615550100')).toBe(true);
    expect(showsPhoneDetails('')).toBe(false);
    expect(showsPhoneDetails(undefined)).toBe(false);
  });
  test('a new home starts in Florida with an empty resident and a primary cell phone', () => {
    expect(addDefaults()).toMatchObject({
      state: 'FL',
      residents: [{ id: '', first_name: '', last_name: '', owner: false }],
      phones: [{ id: '', phone_number: '', type: 'cell', primary: true }],
      house_check: false,
    });
  });
  test('member number and security code show once any resident has both names', () => {
    expect(showsMemberFields([])).toBe(false);
    expect(
      showsMemberFields([
        { first_name: 'Ann', last_name: '' },
        { first_name: ' ', last_name: 'Lee' },
      ]),
    ).toBe(false);
    expect(
      showsMemberFields([
        { first_name: 'Ann', last_name: '' },
        { first_name: 'Bob', last_name: 'Lee' },
      ]),
    ).toBe(true);
  });
  test('update pre-fills from the home and every resident and phone', () => {
    const home: HouseWithPeople = {
      house: house({
        state: 'AK',
        member_number: 'M1',
        house_check: true,
        house_check_start_date: '2026-12-01 05:00:00.000Z',
        house_check_note: 'Away',
      }),
      residents: [
        { id: 'r1', created: '', updated: '', first_name: 'Ann', last_name: 'Lee', owner: true, house: 'h1' },
        { id: 'r2', created: '', updated: '', first_name: 'Bob', last_name: 'Lee', owner: false, house: 'h1' },
      ],
      phones: [
        { id: 'p1', created: '', updated: '', phone_number: '+15615550100', primary: false, type: '', house: 'h1' },
        {
          id: 'p2',
          created: '',
          updated: '',
          phone_number: '+15615550101',
          primary: true,
          type: 'home',
          house: 'h1',
          do_not_call: true,
        },
      ],
    };
    const values = updateDefaults(home);
    expect(values).toMatchObject({ state: 'Ak', member_number: 'M1', house_check: true, house_check_note: 'Away' });
    expect(values.residents).toEqual([
      { id: 'r1', first_name: 'Ann', last_name: 'Lee', owner: true },
      { id: 'r2', first_name: 'Bob', last_name: 'Lee', owner: false },
    ]);
    expect(values.phones).toEqual([
      // A phone from before do-not-call existed reads as callable.
      { id: 'p1', phone_number: '+15615550100', primary: false, type: 'cell', do_not_call: false },
      { id: 'p2', phone_number: '+15615550101', primary: true, type: 'home', do_not_call: true },
    ]);
    expect(values.house_check_start_date?.toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(values.house_check_end_date).toBeNull();
    // A home with nobody yet gets the empty rows of the Add form.
    expect(updateDefaults({ ...home, residents: [], phones: [] })).toMatchObject({
      residents: [{ id: '' }],
      phones: [{ id: '', primary: true }],
    });
  });
  test('the add form sends no house check; the update form sends the window as start and end of day', () => {
    const values = {
      ...addDefaults(),
      address: '1 A St',
      house_check: true,
      house_check_start_date: new Date(2026, 11, 1, 12),
      house_check_end_date: new Date(2026, 11, 5, 12),
    };
    const added = toHomeChanges(values, 'add');
    expect(added.house).not.toHaveProperty('house_check');
    expect(added.house.address).toBe('1 A St');
    expect(added.removed).toBeUndefined();
    const updated = toHomeChanges(values, 'update');
    expect(updated.house).toMatchObject({
      house_check: true,
      house_check_start_date: iso(new Date(2026, 11, 1)),
      house_check_end_date: iso(new Date(2026, 11, 5, 23, 59, 59, 999)),
    });
    expect(updated.residents).toEqual([{ first_name: '', last_name: '', owner: false }]);
    expect(updated.phones).toEqual([{ phone_number: '', primary: true, type: 'cell', do_not_call: false }]);
  });
  test('update sends only what the person changed: house fields, saved rows with their changed fields, new rows, the saved ones removed', () => {
    const initial = {
      ...addDefaults(),
      address: '1 A St',
      note: 'Gate code on file',
      security_code: '1234',
      residents: [
        { id: 'r1', first_name: 'Ann', last_name: 'Lee', owner: true },
        { id: 'r2', first_name: 'Bob', last_name: 'Lee', owner: false },
        { id: 'r3', first_name: 'Cora', last_name: 'Lee', owner: false },
      ],
      phones: [
        { id: 'p1', phone_number: '+15615550100', primary: true, type: 'cell' as const, do_not_call: false },
        { id: 'p2', phone_number: '+15615550101', primary: false, type: 'home' as const, do_not_call: true },
      ],
    };
    const values = {
      ...initial,
      note: 'Dog in the yard',
      residents: [
        { ...initial.residents[1]!, first_name: 'Bobby' },
        { id: '', first_name: 'Cy', last_name: 'Lee', owner: false },
        // Emptied of a name: the form's rules leave a saved resident as it is.
        { ...initial.residents[2]!, last_name: ' ' },
      ],
      phones: [initial.phones[0]!],
    };
    const form = toHomeChanges(values, 'update', initial);
    expect(form.house).toEqual({ note: 'Dog in the yard' });
    expect(form.residents).toEqual([
      { id: 'r2', first_name: 'Bobby' },
      { first_name: 'Cy', last_name: 'Lee', owner: false },
    ]);
    // p1 is unchanged: nothing to send for it.
    expect(form.phones).toEqual([]);
    expect(form.removed).toEqual({ residents: ['r1'], phones: ['p2'] });
    // Nothing changed: nothing to send.
    const same = toHomeChanges(initial, 'update', initial);
    expect(same.house).toEqual({});
    expect(same.residents).toEqual([]);
    expect(same.phones).toEqual([]);
  });
});

describe('home image', () => {
  test('the 400x300 thumbnail under the files path, or none', () => {
    expect(homeImageUrl('https://x.test/', house({ image: 'front_abc.jpg' }))).toBe(
      'https://x.test/api/files/houses/h1/front_abc.jpg?thumb=400x300',
    );
    expect(homeImageUrl('https://x.test', house())).toBeNull();
    // A queued upload has no file on the server yet.
    expect(homeImageUrl('https://x.test', house({ image: 'pending-0' }))).toBeNull();
  });
});

describe('homes order (street, number, apt; or house check due first)', () => {
  const addresses = (homes: HouseRecord[]) => homes.map((h) => [h.address, h.apt].filter(Boolean).join(' #'));
  const homes = [
    house({ id: 'a', address: '102 Heron Way' }),
    house({ id: 'b', address: '101 Osprey Ln' }),
    house({ id: 'c', address: '101 Banyan Cir', apt: '10' }),
    house({ id: 'd', address: '9 Heron Way' }),
    house({ id: 'e', address: '101 Banyan Cir', apt: '2' }),
    house({ id: 'f', address: '20 banyan cir' }),
    house({ id: 'g', address: 'Clubhouse' }),
  ];

  test('by street name, then house number, then apt, in natural order', () => {
    // As text: '101 Banyan Cir', '101 Osprey Ln', '102 Heron Way', … (the old order).
    expect(addresses(sortHomes(homes, 'address', (h) => h))).toEqual([
      '20 banyan cir',
      '101 Banyan Cir #2',
      '101 Banyan Cir #10',
      'Clubhouse',
      '9 Heron Way',
      '102 Heron Way',
      '101 Osprey Ln',
    ]);
  });

  test('the number is the leading token that starts with a digit', () => {
    expect(splitAddress('101 Banyan Cir')).toEqual({ number: '101', street: 'Banyan Cir' });
    expect(splitAddress('12B, Palm Way')).toEqual({ number: '12B', street: 'Palm Way' });
    expect(splitAddress('Clubhouse')).toEqual({ number: '', street: 'Clubhouse' });
    expect(splitAddress('  7 Seas Ct ')).toEqual({ number: '7', street: 'Seas Ct' });
  });

  test('the sort key the server shares: natural numbers, case and accents aside, a street before its longer names', () => {
    const sorted = (list: Array<{ address: string; apt?: string }>) =>
      [...list]
        .sort((x, y) => (homeSortKey(x) < homeSortKey(y) ? -1 : homeSortKey(x) > homeSortKey(y) ? 1 : 0))
        .map((h) => [h.address, h.apt].filter(Boolean).join(' #'));
    expect(
      sorted([
        { address: '10 Oak Hill' },
        { address: '2 Oak' },
        { address: '10 Oak' },
        { address: '007 Oak' },
        { address: '10 Oak', apt: 'Apt 10' },
        { address: '10 Oak', apt: 'Apt 2' },
        { address: '12B Oak' },
        { address: '12 Oak' },
        { address: '123456789012345 Oak' },
      ]),
    ).toEqual([
      '2 Oak',
      '007 Oak',
      '10 Oak',
      '10 Oak #Apt 2',
      '10 Oak #Apt 10',
      '12 Oak',
      '12B Oak',
      '123456789012345 Oak',
      '10 Oak Hill',
    ]);
    // Case, accents and white space do not matter.
    expect(homeSortKey({ address: '5  Cañón   Way' })).toBe(homeSortKey({ address: '5 canon way' }));
    expect(homeSortKey({ address: '5 Palm Way', apt: null })).toBe(homeSortKey({ address: '5 Palm Way', apt: '' }));
  });

  test('house check due first, each group in address order', () => {
    const now = new Date(2026, 10, 22, 12);
    const due = {
      house_check: true,
      house_check_start_date: iso(new Date(2026, 10, 20)),
      house_check_end_date: iso(new Date(2026, 10, 25)),
    };
    const list = [
      ...homes,
      house({ id: 'x', address: '5 Osprey Ln', ...due }),
      house({ id: 'y', address: '3 Banyan Cir', ...due }),
      // Checked already in this window: not due.
      house({ id: 'z', address: '1 Banyan Cir', ...due, house_check_last_date: iso(new Date(2026, 10, 21)) }),
    ];
    expect(addresses(sortHomes(list, 'house-check-due', (h) => h, now)).slice(0, 4)).toEqual([
      '3 Banyan Cir',
      '5 Osprey Ln',
      '1 Banyan Cir',
      '20 banyan cir',
    ]);
    // The address order ignores the house check.
    expect(addresses(sortHomes(list, 'address', (h) => h, now)).slice(0, 3)).toEqual([
      '1 Banyan Cir',
      '3 Banyan Cir',
      '20 banyan cir',
    ]);
  });

  test('the list is copied, not sorted in place', () => {
    const copy = [...homes];
    sortHomes(homes, 'address', (h) => h);
    expect(homes).toEqual(copy);
  });
});
