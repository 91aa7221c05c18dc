// @vitest-environment jsdom
/**
 * Create report on a real local mirror (fake-indexeddb): the schema's
 * messages surface in the form, the AI tab appears only once Ai Assist has
 * answered (and is then the shown tab), Ai Assist waits for text and a
 * connection, and a valid report goes through the outbox to /reports.
 */
import '../support/browser-globals.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pb } from '../../src/api/client.ts';
import { userDatabase, type ScmsDatabase } from '../../src/data/mirror/db.ts';
import type { EngineStatus } from '../../src/data/sync/engine.ts';
import { CreateReportPage } from '../../src/features/reports/CreateReportPage.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';

// jsdom has no ResizeObserver; Headless UI's combobox watches its input with one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

// The page reads the mirror through the sync engine; a stand-in engine
// gives it a real database and a connection state the test sets.
const fake = vi.hoisted(() => ({
  db: null as unknown as ScmsDatabase,
  status: { online: true, syncing: false, authRequired: false, lastError: null } as EngineStatus,
}));
vi.mock('../../src/data/DataProvider.tsx', () => ({
  useSyncEngine: () => ({
    db: fake.db,
    subscribe: () => () => undefined,
    getStatus: () => fake.status,
    loadHistoryRange: async () => undefined,
  }),
}));

const USER = 'officer00000001';
const COMMUNITY = 'community000001';
const stamp = '2026-01-10 08:00:00.000Z';
let run = 0;

beforeEach(async () => {
  fake.db = userDatabase(`${USER.slice(0, 7)}${String(++run).padStart(8, '0')}`);
  fake.status = { online: true, syncing: false, authRequired: false, lastError: null };
  pb.authStore.save('test-token', {
    id: USER,
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    type: 'regular',
    community: COMMUNITY,
    first_name: 'Sam',
    last_name: 'Lee',
  });
  await fake.db.houses.put({
    id: 'house0000000001',
    ...{ created: stamp, updated: stamp },
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
  await fake.db.residents.bulkPut([
    {
      id: 'resident0000002',
      created: '2026-01-11 08:00:00.000Z',
      updated: stamp,
      first_name: 'Later',
      last_name: 'One',
      owner: false,
      house: 'house0000000001',
    },
    {
      id: 'resident0000001',
      created: stamp,
      updated: stamp,
      first_name: 'Ana',
      last_name: 'Cruz',
      owner: true,
      house: 'house0000000001',
    },
  ]);
  await fake.db.phones.bulkPut([
    {
      id: 'phone0000000001',
      created: stamp,
      updated: stamp,
      phone_number: '+15615550100',
      primary: false,
      type: 'home',
      house: 'house0000000001',
    },
    {
      id: 'phone0000000002',
      created: '2026-01-12 08:00:00.000Z',
      updated: stamp,
      phone_number: '+15615550199',
      primary: true,
      type: 'cell',
      house: 'house0000000001',
    },
  ]);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  pb.authStore.clear();
});

function renderPage() {
  render(
    <ToastProvider>
      <MemoryRouter initialEntries={['/reports/create']}>
        <Routes>
          <Route path="/reports/create" element={<CreateReportPage />} />
          <Route path="/reports" element={<h1>Report list</h1>} />
        </Routes>
      </MemoryRouter>
    </ToastProvider>,
  );
  return userEvent.setup();
}

describe('create report', () => {
  it('shows the schema messages in the form', async () => {
    const user = renderPage();
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    expect(await screen.findByText('Invalid choice')).toBeTruthy();
    expect(screen.getByText('An incident date is required')).toBeTruthy();
    expect(screen.getByText('Missing content')).toBeTruthy();
    // Hour and minute share one message.
    expect(screen.getAllByText('Incorrect hour and/or minute')).toHaveLength(1);

    await user.type(screen.getByLabelText('Hour'), '24');
    await user.type(screen.getByLabelText('Minute'), '30');
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    expect(await screen.findByText('Incorrect hour and/or minute')).toBeTruthy();
    await user.clear(screen.getByLabelText('Hour'));
    await user.type(screen.getByLabelText('Hour'), '23');
    await waitFor(() => expect(screen.queryByText('Incorrect hour and/or minute')).toBeNull());
    await user.type(screen.getByLabelText('Minute'), '0');
    expect(await screen.findByText('Incorrect hour and/or minute')).toBeTruthy();
    expect(await fake.db.reports.count()).toBe(0);
  });

  it('Now fills today, the hour and the minute', async () => {
    const user = renderPage();
    const before = new Date();
    await user.click(screen.getByRole('button', { name: 'Now' }));
    const hour = Number((screen.getByLabelText('Hour') as HTMLInputElement).value);
    const minute = Number((screen.getByLabelText('Minute') as HTMLInputElement).value);
    expect([before.getHours(), new Date().getHours()]).toContain(hour);
    expect([before.getMinutes(), new Date().getMinutes()]).toContain(minute);
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    expect(screen.getByRole('button', { name: /^Incident date/ }).textContent).toBe(
      `${months[before.getMonth()]} ${before.getDate()}, ${before.getFullYear()}`,
    );
  });

  it('the Ai Generated tab appears only once Ai Assist has answered, and is then shown', async () => {
    const send = vi
      .spyOn(pb, 'send')
      .mockResolvedValue({ data: 'The gate was found open at night.', source: 'offline-editor' });
    const user = renderPage();
    const assist = screen.getByRole('button', { name: 'Ai Assist' });
    expect(screen.queryByRole('tab', { name: 'Ai Generated' })).toBeNull();
    expect((assist as HTMLButtonElement).disabled).toBe(true);

    await user.type(screen.getByLabelText('Original narrative'), 'gate open nite');
    expect((assist as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByRole('tab', { name: 'Ai Generated' })).toBeNull();
    await user.click(assist);

    const aiTab = await screen.findByRole('tab', { name: 'Ai Generated' });
    expect(send).toHaveBeenCalledWith('/api/scms/ai-assist', {
      method: 'POST',
      body: { user_input: 'gate open nite' },
    });
    expect(aiTab.getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('Ai generated narrative') as HTMLTextAreaElement).value).toBe(
      'The gate was found open at night.',
    );
    expect(screen.getByText('Edited by the built-in editor')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Original' }));
    expect(screen.getByRole('tab', { name: 'Original' }).getAttribute('aria-selected')).toBe('true');
  });

  it('an Ai Assist failure shows Fail with the server message and no AI tab', async () => {
    vi.spyOn(pb, 'send').mockRejectedValue({
      status: 502,
      response: { status: 502, message: 'The AI service could not be reached. Please try again later.', data: {} },
    });
    const user = renderPage();
    await user.type(screen.getByLabelText('Original narrative'), 'gate open');
    await user.click(screen.getByRole('button', { name: 'Ai Assist' }));
    const toast = (await screen.findByText('Fail')).closest<HTMLElement>('[role=alert]')!;
    expect(toast.getAttribute('role')).toBe('alert');
    expect(within(toast).getByText('The AI service could not be reached. Please try again later.')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Ai Generated' })).toBeNull();
  });

  it('offline, Ai Assist is disabled with the reason shown', async () => {
    fake.status = { ...fake.status, online: false };
    const user = renderPage();
    await user.type(screen.getByLabelText('Original narrative'), 'gate open');
    expect((screen.getByRole('button', { name: 'Ai Assist' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('You are offline — Ai Assist needs a connection.')).toBeTruthy();
  });

  it('a valid report goes through the outbox with the home, its first resident and primary phone, then opens the list', async () => {
    const user = renderPage();
    await user.selectOptions(screen.getByLabelText('Type'), 'open_garage_door');
    await user.click(screen.getByRole('button', { name: /^Incident date/ }));
    const days = screen.getAllByRole('button').filter((b) => b.closest('td') && !(b as HTMLButtonElement).disabled);
    const day = days[0]!;
    await user.click(day);
    await user.type(screen.getByLabelText('Hour'), '21');
    await user.type(screen.getByLabelText('Minute'), '05');
    await user.type(screen.getByPlaceholderText('Search home...'), 'palm');
    await user.click(await screen.findByRole('option', { name: /12 Palm Way/ }));
    expect((screen.getByPlaceholderText('Search home...') as HTMLInputElement).value).toBe('12 Palm Way');
    // The suggestions are closed (the selects' options are not suggestions).
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'Injury' }));
    await user.type(screen.getByLabelText('Original narrative'), 'Garage open at 21:05.');
    await user.click(screen.getByRole('button', { name: 'Create report' }));

    expect(await screen.findByRole('heading', { name: 'Report list' })).toBeTruthy();
    expect(screen.getByText('Report created successfully')).toBeTruthy();
    const [report] = await fake.db.reports.toArray();
    expect(report).toMatchObject({
      type: 'open_garage_door',
      weather: 'clear',
      narative: 'Garage open at 21:05.',
      ai_generated_narative: '',
      house: 'house0000000001',
      resident: 'resident0000001',
      phone_number: '+15615550199',
      injury: true,
      ems_pbso: false,
      created_by: USER,
      community: COMMUNITY,
      _pending: 1,
    });
    const incident = new Date(report!.incident_time.replace(' ', 'T'));
    expect([incident.getHours(), incident.getMinutes()]).toEqual([21, 5]);
    expect(await fake.db.outbox.count()).toBe(1);
  });

  it('Cancel goes back to the list at once when nothing was typed', async () => {
    const user = renderPage();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Report list' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await fake.db.outbox.count()).toBe(0);
  });

  it('Cancel asks before discarding a typed narrative: Keep editing stays, Discard goes back unsent', async () => {
    const user = renderPage();
    await user.type(screen.getByLabelText('Original narrative'), 'Gate left open');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('dialog', { name: 'Discard this report?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((screen.getByLabelText('Original narrative') as HTMLTextAreaElement).value).toBe('Gate left open');
    expect(screen.queryByRole('heading', { name: 'Report list' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Discard this report?' })).getByRole('button', {
        name: 'Discard',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Report list' })).toBeTruthy();
    expect(await fake.db.outbox.count()).toBe(0);
  });

  it('the chosen home keeps its apt in the box, as the suggestion showed it', async () => {
    await fake.db.houses.update('house0000000001', { address: '110 Coral Tree Way', apt: 'Apt 302' });
    const user = renderPage();
    await user.type(screen.getByPlaceholderText('Search home...'), 'coral');
    await user.click(await screen.findByRole('option', { name: /110 Coral Tree Way, Apt 302/ }));
    expect((screen.getByPlaceholderText('Search home...') as HTMLInputElement).value).toBe(
      '110 Coral Tree Way, Apt 302',
    );
  });

  it('emptying the home box clears the chosen home', async () => {
    const user = renderPage();
    const box = screen.getByPlaceholderText('Search home...') as HTMLInputElement;
    await user.type(box, 'jupiter');
    await user.click(await screen.findByRole('option', { name: /12 Palm Way/ }));
    expect(box.value).toBe('12 Palm Way');
    await user.clear(box);
    await user.selectOptions(screen.getByLabelText('Type'), 'accident');
    await user.click(screen.getByRole('button', { name: 'Now' }));
    await user.type(screen.getByLabelText('Original narrative'), 'No home.');
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    await screen.findByRole('heading', { name: 'Report list' });
    const [report] = await fake.db.reports.toArray();
    expect(report).toMatchObject({ house: '', resident: '', phone_number: '' });
  });
});
