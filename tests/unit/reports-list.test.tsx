// @vitest-environment jsdom
/**
 * The report list on a real local mirror (fake-indexeddb): the current
 * month newest first, the card (narrative selector, N/A, text never HTML,
 * pending marker and photo tiles, created time), search, the filter's
 * states, the missing-dates rule, and older months pulled on demand.
 */
import '../support/browser-globals.ts';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format, startOfMonth, subDays, subMonths } from 'date-fns';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pb } from '../../src/api/client.ts';
import { setSyncState, userDatabase, type ScmsDatabase } from '../../src/data/mirror/db.ts';
import type { EngineStatus } from '../../src/data/sync/engine.ts';
import { historyRangesKey, pbDate } from '../../src/data/sync/pull.ts';
import { ReportsPage } from '../../src/features/reports/ReportsPage.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';

// A stand-in engine: a real mirror, a connection state and the load of an older range the test controls.
const fake = vi.hoisted(() => ({
  db: null as unknown as ScmsDatabase,
  status: { online: true, syncing: false, authRequired: false, lastError: null } as EngineStatus,
  loadReportRange: (async () => undefined) as (from: Date, to: Date) => Promise<void>,
}));
vi.mock('../../src/data/DataProvider.tsx', () => ({
  useSyncEngine: () => ({
    db: fake.db,
    subscribe: () => () => undefined,
    getStatus: () => fake.status,
    loadHistoryRange: (_collections: unknown, from: Date, to: Date) => fake.loadReportRange(from, to),
  }),
}));

const COMMUNITY = 'community000001';
const now = new Date();
const stamp = pbDate(subMonths(now, 6));
let run = 0;

function report(id: string, overrides: Record<string, unknown>) {
  return {
    id,
    created: pbDate(now),
    updated: pbDate(now),
    narative: 'original text',
    ai_generated_narative: '',
    type: 'accident',
    weather: 'clear',
    incident_time: pbDate(now),
    phone_number: '',
    injury: false,
    ems_pbso: false,
    photos: [] as string[],
    community: COMMUNITY,
    house: '',
    resident: '',
    created_by: 'officer00000001',
    ...overrides,
  };
}

// Inside the current month whatever today is: the 1st at noon, created a few minutes apart.
const thisMonth = new Date(now.getFullYear(), now.getMonth(), 1, 12);
const older = new Date(now.getFullYear(), now.getMonth() - 3, 10, 12);

beforeEach(async () => {
  fake.db = userDatabase(`listtest${String(++run).padStart(7, '0')}`);
  fake.status = { online: true, syncing: false, authRequired: false, lastError: null };
  fake.loadReportRange = async () => undefined;
  const db = fake.db;
  await db.users.put({
    id: 'officer00000001',
    created: stamp,
    updated: stamp,
    email: 'sam@example.test',
    emailVisibility: true,
    verified: true,
    first_name: 'Sam',
    last_name: 'Lee',
    type: 'regular',
    community: COMMUNITY,
  });
  await db.houses.put({
    id: 'house0000000001',
    created: stamp,
    updated: stamp,
    address: '12 Palm Way',
    apt: '',
    city: 'Jupiter',
    state: 'FL',
    zip: '33458',
    image: '',
    member_number: 'M-77',
    security_code: '',
    note: '',
    pending_call_concerns_ids: '',
    house_check: false,
    house_check_start_date: '',
    house_check_end_date: '',
    house_check_last_date: '',
    house_check_note: '',
    community: COMMUNITY,
  });
  await db.residents.put({
    id: 'resident0000001',
    created: stamp,
    updated: stamp,
    first_name: 'Ana',
    last_name: 'Cruz',
    owner: true,
    house: 'house0000000001',
  });
  await db.reports.bulkPut([
    report('report000000001', {
      type: 'loud_noise',
      incident_time: pbDate(thisMonth),
      created: pbDate(subDays(now, 2)),
      house: 'house0000000001',
      resident: 'resident0000001',
      narative: '<p>Music <b>loud</b> at 2am</p>',
      ai_generated_narative: '<p>Loud music was reported at 02:00.</p>',
      phone_number: '+15615550100',
      injury: true,
      photos: ['gate_abc123.jpg'],
    }),
    {
      ...report('report000000002', {
        type: 'false_alarm',
        incident_time: pbDate(thisMonth),
        created: pbDate(subDays(now, 1)),
        narative: 'Alarm tripped by wind',
        photos: ['pending-0'],
      }),
      _pending: 1 as const,
    },
    report('report000000003', { type: 'youths_fishing', incident_time: pbDate(older), created: pbDate(older) }),
  ]);
  // As after the first sync: the previous month onwards is in the mirror.
  await setSyncState(db, historyRangesKey('reports'), [
    { from: startOfMonth(subMonths(now, 1)).getTime(), to: Number.MAX_SAFE_INTEGER },
  ]);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function renderList() {
  render(
    <ToastProvider>
      <MemoryRouter>
        <ReportsPage />
      </MemoryRouter>
    </ToastProvider>,
  );
  await screen.findByText('2 report(s)');
  return userEvent.setup();
}

const card = (type: string) => screen.getByRole('article', { name: type });

describe('report list', () => {
  it('opens on the current month, newest first, unfiltered', async () => {
    await renderList();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'False alarm',
      'Loud noise',
    ]);
    expect(screen.queryByRole('button', { name: 'Clear filter' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Create Report' }).getAttribute('href')).toBe('/reports/create');
    expect(screen.getByPlaceholderText('Address, type, resident, member number, etc...')).toBeTruthy();
  });

  it('a card shows its facts and the AI narrative by default (the original without one), as text', async () => {
    const user = await renderList();
    const loud = card('Loud noise');
    const fact = (label: string) => within(loud).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(fact('Officer')).toBe('Sam Lee');
    expect(fact('Address')).toBe('12 Palm Way');
    expect(fact('Resident')).toBe('Ana Cruz');
    expect(fact('Phone')).toBe('(561) 555-0100');
    expect(fact('Member #')).toBe('M-77');
    expect(fact('Injury')).toBe('Yes');
    expect(fact('EMS/PBSO')).toBe('No');
    expect(within(loud).getByText('Created 2 days ago')).toBeTruthy();
    // On paper the date and time instead.
    expect(within(loud).getByText(`Created ${format(subDays(now, 2), 'MMM d, yyyy HH:mm')}`).className).toContain(
      'print:inline',
    );
    const narrative = within(loud).getByTestId('narrative');
    expect(narrative.textContent).toBe('Loud music was reported at 02:00.');
    expect(within(loud).getByRole('button', { name: 'Ai assist' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(within(loud).getByRole('button', { name: 'Original' }));
    // The leading <p> and trailing </p> go; any other markup shows as typed, never as HTML.
    expect(narrative.textContent).toBe('Music <b>loud</b> at 2am');
    expect(narrative.querySelector('b')).toBeNull();

    // Written without AI: the card opens on the officer's text, not on 'N/A'.
    const alarm = card('False alarm');
    expect(within(alarm).getByRole('button', { name: 'Original' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(alarm).getByTestId('narrative').textContent).toBe('Alarm tripped by wind');
    await user.click(within(alarm).getByRole('button', { name: 'Ai assist' }));
    expect(within(alarm).getByTestId('narrative').textContent).toBe('N/A');
    expect(within(alarm).getByText('Address', { selector: 'dt' }).nextElementSibling?.textContent).toBe('N/A');
    // The type heads the card and is not repeated among the facts.
    expect(within(alarm).queryByText('Type', { selector: 'dt' })).toBeNull();
  });

  it('marks reports not yet on the server and their photos waiting to upload', async () => {
    await renderList();
    expect(within(card('False alarm')).getByText('Not yet sent')).toBeTruthy();
    expect(within(card('False alarm')).getByText('Photo waiting to upload')).toBeTruthy();
    expect(within(card('Loud noise')).queryByText('Not yet sent')).toBeNull();
    const thumb = within(card('Loud noise')).getByRole('button', { name: 'Open photo 1' }).querySelector('img')!;
    expect(thumb.getAttribute('src')).toBe(
      `${pb.baseURL.replace(/\/+$/, '')}/api/files/reports/report000000001/gate_abc123.jpg?thumb=400x300`,
    );
  });

  it('searches the resident and the type', async () => {
    const user = await renderList();
    const search = screen.getByPlaceholderText('Address, type, resident, member number, etc...');
    await user.type(search, 'cruz');
    expect(await screen.findByText('1 report(s)')).toBeTruthy();
    await user.clear(search);
    await user.type(search, 'alarm');
    await waitFor(() =>
      expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['False alarm']),
    );
    await user.type(search, ' nothing-like-this');
    expect(await screen.findByText('No reports found')).toBeTruthy();
    expect(screen.getByText('0 report(s)')).toBeTruthy();
  });

  it('missing dates: Filter error, Dates must be selected, and the filter is not applied', async () => {
    const load = vi.fn(async () => undefined);
    fake.loadReportRange = load;
    const user = await renderList();
    await user.click(screen.getByRole('button', { name: 'Filter + Sort' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /^From date/ }));
    // Tapping the chosen day again clears it.
    await user.click(within(dialog).getByRole('button', { name: /, selected$/ }));
    expect(within(dialog).getByRole('button', { name: /^From date/ }).textContent).toBe('Pick a date');
    await user.click(within(dialog).getByRole('button', { name: 'Filter' }));

    const title = await screen.findByText('Filter error');
    expect(within(title.closest('[role=alert]')!).getByText('Dates must be selected')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear filter' })).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });

  it('applying a filter shows Clear filter; clearing returns to the current month, newest first', async () => {
    const user = await renderList();
    await user.click(screen.getByRole('button', { name: 'Filter + Sort' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Report types/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Loud noise' }));
    await user.selectOptions(within(dialog).getByLabelText('Sort by'), 'oldest');
    await user.click(within(dialog).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('1 report(s)')).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Loud noise']);

    await user.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(await screen.findByText('2 report(s)')).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'False alarm',
      'Loud noise',
    ]);
    expect(screen.queryByRole('button', { name: 'Clear filter' })).toBeNull();
  });

  async function filterFrom(user: ReturnType<typeof userEvent.setup>, from: Date) {
    await user.click(screen.getByRole('button', { name: 'Filter + Sort' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /^From date/ }));
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Choose the Year' }),
      String(from.getFullYear()),
    );
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Choose the Month' }),
      String(from.getMonth()),
    );
    await user.click(within(dialog).getByRole('button', { name: new RegExp(`^${format(from, 'd MMMM yyyy, EEEE')}`) }));
    await user.click(within(dialog).getByRole('button', { name: 'Filter' }));
  }

  it('an older range is pulled into the mirror with a spinner meanwhile', async () => {
    let finish: () => void = () => undefined;
    const load = vi.fn(
      (_from: Date, _to: Date) =>
        new Promise<void>((resolve) => {
          finish = () =>
            void setSyncState(fake.db, historyRangesKey('reports'), [
              { from: startOfMonth(older).getTime(), to: Number.MAX_SAFE_INTEGER },
            ]).then(resolve);
        }),
    );
    fake.loadReportRange = load;
    const user = await renderList();
    const from = startOfMonth(older);
    await filterFrom(user, from);
    expect(await screen.findByText('Loading older reports…')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0]![0]).toEqual(from);
    expect(await screen.findByText('3 report(s)')).toBeTruthy();
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByText('Loading older reports…')).toBeNull());
  });

  it('offline, an uncovered range shows what the mirror has and says older reports need a connection', async () => {
    const load = vi.fn(async () => undefined);
    fake.loadReportRange = load;
    fake.status = { ...fake.status, online: false };
    const user = await renderList();
    await filterFrom(user, startOfMonth(older));
    expect(
      await screen.findByText('You are offline — older reports need a connection. Showing the reports on this device.'),
    ).toBeTruthy();
    expect(screen.getByText('3 report(s)')).toBeTruthy();
    expect(load).not.toHaveBeenCalled();
  });
});

describe('CSV export', () => {
  it('downloads the shown reports as a CSV file', async () => {
    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:reports';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = await renderList();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(click).toHaveBeenCalledTimes(1);
    const text = await created[0]!.text();
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]!.startsWith('Incident time,Type,Everything ok,Weather,Address')).toBe(true);
    expect(lines.filter(Boolean)).toHaveLength(3);
    expect(text).toContain('Loud music was reported at 02:00.');
  });
});

describe('printing', () => {
  const copies = () =>
    [...document.querySelectorAll('article[aria-labelledby^="print-report-"]')].map((a) =>
      a.getAttribute('aria-labelledby'),
    );
  const jsdomPrint = window.print;
  afterEach(() => {
    window.print = jsdomPrint;
  });

  it('Print puts every listed report on paper, a card’s Print that one alone, and the browser’s own Print the whole list', async () => {
    // What the print dialog would snapshot: the print-only copies in the page when print() is called.
    const printed: Array<Array<string | null>> = [];
    window.print = vi.fn(() => void printed.push(copies()));
    const user = await renderList();
    expect(copies()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(printed).toEqual([['print-report-report000000002-title', 'print-report-report000000001-title']]);
    act(() => void window.dispatchEvent(new Event('afterprint')));
    expect(copies()).toEqual([]);

    await user.click(within(card('Loud noise')).getByRole('button', { name: /^Print Loud noise report/ }));
    expect(printed[1]).toEqual(['print-report-report000000001-title']);
    act(() => void window.dispatchEvent(new Event('afterprint')));

    // The browser's menu or Ctrl+P: no click, only 'beforeprint'.
    act(() => void window.dispatchEvent(new Event('beforeprint')));
    expect(copies()).toEqual(['print-report-report000000002-title', 'print-report-report000000001-title']);
    act(() => void window.dispatchEvent(new Event('afterprint')));
    expect(copies()).toEqual([]);
  });

  it('the printed copy shows the narrative version picked on the card', async () => {
    window.print = vi.fn();
    const user = await renderList();
    await user.click(within(card('Loud noise')).getByRole('button', { name: 'Original' }));
    await user.click(within(card('Loud noise')).getByRole('button', { name: /^Print Loud noise report/ }));
    const copy = document.querySelector('article[aria-labelledby="print-report-report000000001-title"]')!;
    expect(within(copy as HTMLElement).getByTestId('narrative').textContent).toBe('Music <b>loud</b> at 2am');
    expect(copy.textContent).toContain('Narrative (Original)');
  });
});
