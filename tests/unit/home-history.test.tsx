// @vitest-environment jsdom
/**
 * A home's History sheet: the words of each change (the form's labels, the
 * values as people read them), the grouping per save (one person, one
 * second) newest first, and the sheet over a real (fake-indexeddb) mirror,
 * reading only its own home.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { HomeChangeRecord } from '../../src/api/records.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { HomeHistorySheet } from '../../src/features/homes/HomeHistorySheet.tsx';
import { changeLine, historyGroups, lineText } from '../../src/features/homes/homeHistory.ts';
import { houseRecord } from '../support/records.ts';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

let n = 0;
function row(values: Partial<HomeChangeRecord>): HomeChangeRecord {
  n++;
  return {
    id: `chg${String(n).padStart(12, '0')}`,
    created: '2026-03-04 10:00:00.100Z',
    updated: '2026-03-04 10:00:00.100Z',
    community: 'c1',
    house: 'h1',
    collection_name: 'houses',
    record_id: 'h1',
    action: 'update',
    field: '',
    from_value: null,
    to_value: null,
    record_label: '12 Palm Way',
    changed_by: 'u1',
    changed_by_name: 'Maria Lopez',
    ...values,
  };
}

const words = (values: Partial<HomeChangeRecord>) => lineText(changeLine(row(values)));

describe('the words of a change', () => {
  test("the home's fields, by the form's labels", () => {
    expect(words({ field: 'note', from_value: 'A-text', to_value: 'B-text' })).toBe("Note: 'A-text' → 'B-text'");
    expect(words({ field: 'security_code', from_value: '1234', to_value: '5678' })).toBe('Security code: 1234 → 5678');
    expect(words({ field: 'member_number', from_value: '', to_value: 'M-77' })).toBe('Member number: (none) → M-77');
    expect(words({ field: 'apt', from_value: 'B', to_value: '' })).toBe('Apt.: B → (none)');
    expect(words({ field: 'house_check', from_value: false, to_value: true })).toBe('House check: No → Yes');
    expect(words({ field: 'house_check_note', from_value: '', to_value: 'Porch light' })).toBe(
      "House check note: (none) → 'Porch light'",
    );
    expect(words({ field: 'state', from_value: 'FL', to_value: 'Ak' })).toBe('State: FL → AK');
    const start = pbDate(new Date(2026, 2, 9)); // local midnight, as the form saves it
    expect(words({ field: 'house_check_start_date', from_value: '', to_value: start })).toBe(
      'House check start date: (none) → Mar 9, 2026',
    );
  });

  test('the photo in a word', () => {
    expect(words({ field: 'image', from_value: '', to_value: 'front_abc.png' })).toBe('Photo added');
    expect(words({ field: 'image', from_value: 'front_abc.png', to_value: 'back_def.png' })).toBe('Photo changed');
    expect(words({ field: 'image', from_value: 'front_abc.png', to_value: '' })).toBe('Photo removed');
  });

  test('residents and phones: added, removed, and their fields', () => {
    expect(
      words({
        collection_name: 'residents',
        record_id: 'r1',
        action: 'create',
        to_value: { first_name: 'Yolanda', last_name: 'Vasquez', owner: true },
        record_label: 'Yolanda Vasquez',
      }),
    ).toBe('Added resident Yolanda Vasquez');
    expect(
      words({
        collection_name: 'phones',
        record_id: 'p1',
        action: 'delete',
        from_value: { phone_number: '+15615550142', type: 'home', primary: true },
        record_label: '+15615550142',
      }),
    ).toBe('Removed phone (561) 555-0142');
    expect(
      words({
        collection_name: 'residents',
        record_id: 'r1',
        field: 'first_name',
        from_value: 'Yolanda',
        to_value: 'Yoli',
        record_label: 'Yoli Vasquez',
      }),
    ).toBe('Resident Yoli Vasquez – first name: Yolanda → Yoli');
    expect(
      words({
        collection_name: 'phones',
        record_id: 'p1',
        field: 'type',
        from_value: 'home',
        to_value: 'cell',
        record_label: '+15615550142',
      }),
    ).toBe('Phone (561) 555-0142 – type: Home → Cell');
    expect(
      words({
        collection_name: 'phones',
        record_id: 'p1',
        field: 'phone_number',
        from_value: '+15615550142',
        to_value: '+15615550143',
        record_label: '+15615550143',
      }),
    ).toBe('Phone (561) 555-0143 – phone number: (561) 555-0142 → (561) 555-0143');
    expect(
      words({
        collection_name: 'houses',
        action: 'create',
        to_value: { address: '6 New Way', apt: 'B', city: 'Tequesta', state: 'FL', zip: '33469' },
      }),
    ).toBe('Added home 6 New Way, B');
  });
});

describe('saves', () => {
  test('grouped by person and moment, newest first; a save in the form order', () => {
    const rows = [
      row({ field: 'note', from_value: 'a', to_value: 'b', created: '2026-03-04 10:00:00.100Z' }),
      row({
        collection_name: 'phones',
        record_id: 'p1',
        action: 'create',
        to_value: { phone_number: '+15615550142' },
        created: '2026-03-04 10:00:00.300Z',
      }),
      row({ field: 'city', from_value: 'Jupiter', to_value: 'Tequesta', created: '2026-03-04 10:00:00.200Z' }),
      // The same second, another person: another save.
      row({
        field: 'zip',
        from_value: '1',
        to_value: '2',
        changed_by: 'u2',
        changed_by_name: 'Sam Ortiz',
        created: '2026-03-04 10:00:00.900Z',
      }),
      // A later save of the first person.
      row({ field: 'security_code', from_value: '1', to_value: '2', created: '2026-03-05 08:00:00.000Z' }),
    ];
    const groups = historyGroups(rows);
    expect(groups.map((g) => [g.byName, g.at, g.lines.map(lineText)])).toEqual([
      ['Maria Lopez', '2026-03-05 08:00:00.000Z', ['Security code: 1 → 2']],
      ['Sam Ortiz', '2026-03-04 10:00:00.900Z', ['Zip: 1 → 2']],
      [
        'Maria Lopez',
        '2026-03-04 10:00:00.300Z',
        ['City: Jupiter → Tequesta', "Note: 'a' → 'b'", 'Added phone (561) 555-0142'],
      ],
    ]);
  });
  test("a save whose rows straddle a second's boundary is one save; the same person's next save seconds later is another", () => {
    const rows = [
      row({ field: 'note', from_value: 'a', to_value: 'b', created: '2026-03-04 10:00:00.950Z' }),
      row({ field: 'city', from_value: 'Jupiter', to_value: 'Tequesta', created: '2026-03-04 10:00:01.050Z' }),
      row({ field: 'zip', from_value: '1', to_value: '2', created: '2026-03-04 10:00:04.000Z' }),
    ];
    expect(historyGroups(rows).map((g) => [g.at, g.lines.map(lineText)])).toEqual([
      ['2026-03-04 10:00:04.000Z', ['Zip: 1 → 2']],
      ['2026-03-04 10:00:01.050Z', ['City: Jupiter → Tequesta', "Note: 'a' → 'b'"]],
    ]);
  });
});

describe('the sheet', () => {
  let db: ScmsDatabase;
  let dbCount = 0;
  const status = { online: false, syncing: false, authRequired: false, lastError: null };

  beforeEach(() => {
    db = new ScmsDatabase(`history-test-${++dbCount}`);
    engine.current = { db, subscribe: () => () => undefined, getStatus: () => status };
  });
  afterEach(() => {
    cleanup();
    db.close();
  });

  const home = { house: houseRecord(), residents: [], phones: [] };

  test("lists the home's changes from the mirror, newest first, with who and when; long values whole", async () => {
    const longNote = `Gate code 4411. ${'The side gate sticks; lift it before pushing. '.repeat(40)}End.`;
    await db.home_changes.bulkPut([
      row({ field: 'note', from_value: 'A-text', to_value: longNote, created: pbDate(new Date(Date.now() - 60_000)) }),
      row({
        collection_name: 'residents',
        record_id: 'r1',
        action: 'create',
        to_value: { first_name: 'Yolanda', last_name: 'Vasquez', owner: false },
        record_label: 'Yolanda Vasquez',
        changed_by: 'u2',
        changed_by_name: 'Sam Ortiz',
        created: '2025-01-02 15:30:00.000Z',
      }),
      // Another home's change: not on this sheet.
      row({ house: 'h2', record_id: 'h2', field: 'zip', from_value: '1', to_value: '2' }),
    ]);
    render(<HomeHistorySheet home={home} onClose={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Changes' });
    const groups = within(list)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === list);
    expect(groups).toHaveLength(2);
    expect(groups[0]!.textContent).toContain('Maria Lopez');
    expect(groups[0]!.textContent).toContain('1 minute ago');
    expect(groups[0]!.textContent).toContain(`Note: 'A-text' → '${longNote}'`);
    expect(groups[1]!.textContent).toContain('Sam Ortiz');
    expect(groups[1]!.textContent).toContain('Jan 2, 2025');
    expect(groups[1]!.textContent).toContain('Added resident Yolanda Vasquez');
    expect(list.textContent).not.toContain('Zip');
    // A long note wraps: nothing clips or truncates it.
    const note = within(groups[0]!).getByLabelText(/^Note:/);
    expect(note.className).toMatch(/break-words/);
    expect(note.className).not.toMatch(/truncate|line-clamp|overflow-hidden/);
  });

  test('follows the mirror: a change that arrives shows; none says so', async () => {
    render(<HomeHistorySheet home={home} onClose={() => undefined} />);
    expect(await screen.findByText('No changes recorded yet.')).toBeTruthy();
    await db.home_changes.put(row({ field: 'security_code', from_value: '1234', to_value: '5678' }));
    await waitFor(() => expect(screen.getByLabelText('Security code: 1234 → 5678')).toBeTruthy());
  });

  test('says that changes not yet sent come later', async () => {
    render(
      <HomeHistorySheet
        home={{ ...home, house: { ...home.house, _pending: 1 } as typeof home.house }}
        onClose={() => undefined}
      />,
    );
    expect(await screen.findByText(/appear here once the server has them/)).toBeTruthy();
  });
});
