// @vitest-environment jsdom
/**
 * The concerns screen on a real local mirror (fake-indexeddb) and the app's
 * PocketBase client pointed at a port where nothing listens: what each role
 * sees, the count, the search, the spoken script, and the no-user flow.
 */
import '../support/browser-globals.ts';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pb } from '../../src/api/client.ts';
import type { ConcernRecord, UserType } from '../../src/api/records.ts';
import { DataProvider } from '../../src/data/DataProvider.tsx';
import { userDatabase } from '../../src/data/mirror/db.ts';
import { ConcernsPage } from '../../src/features/concerns/ConcernsPage.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';

const COMMUNITY = 'community000001';
const stamp = '2026-01-10 08:00:00.000Z';

const concern = (id: string, name: string, hint: string, say: string): ConcernRecord => ({
  id,
  created: stamp,
  updated: stamp,
  name,
  hint,
  say,
  added_by: 'director0000001',
  community: COMMUNITY,
});
const CONCERNS = [
  concern(
    'concern00000001',
    'Open garage door',
    'Garage open after dark',
    '<p>Your garage door was found open tonight.</p><p>Please close it.</p>',
  ),
  concern(
    'concern00000002',
    'Package at the door',
    'Parcel left outside',
    'A package is waiting at your front door &amp; may get wet.',
  ),
];

beforeAll(() => {
  // Nothing listens on port 9: the engine's requests fail at once.
  pb.baseURL = 'http://127.0.0.1:9';
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  pb.authStore.clear();
});

let run = 0;
async function renderAs(type: UserType) {
  const id = `${type.slice(0, 7).padEnd(7, '0')}${String(++run).padStart(8, '0')}`;
  const db = userDatabase(id);
  await db.communities.put({
    id: COMMUNITY,
    created: stamp,
    updated: stamp,
    name: 'Palm Grove Estates',
    address: '1 Palm Way',
  });
  await db.concerns.bulkPut(CONCERNS);
  pb.authStore.save('test-token', {
    id,
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    type,
    community: COMMUNITY,
    first_name: 'Pat',
    last_name: 'Doe',
  });
  render(
    <ToastProvider>
      <MemoryRouter>
        <DataProvider pb={pb} userId={id}>
          <ConcernsPage />
        </DataProvider>
      </MemoryRouter>
    </ToastProvider>,
  );
  await screen.findByText('2 concern(s)');
}

describe('concerns screen', () => {
  it.each(['manager', 'regular'] as const)('a %s sees the concerns but no management controls', async (type) => {
    await renderAs(type);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Open garage door',
      'Package at the door',
    ]);
    expect(screen.queryByRole('button', { name: 'Add Concern' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^(Edit|Delete) / })).toBeNull();
  });

  it('a director sees Add Concern, Edit and Delete', async () => {
    await renderAs('director');
    expect(screen.getByRole('button', { name: 'Add Concern' })).toBeTruthy();
    for (const c of CONCERNS) {
      expect(screen.getByRole('button', { name: `Edit ${c.name}` })).toBeTruthy();
      expect(screen.getByRole('button', { name: `Delete ${c.name}` })).toBeTruthy();
    }
  });

  it('each card shows the hint and the whole spoken script, tags stripped', async () => {
    await renderAs('regular');
    const card = screen.getByRole('heading', { name: 'Open garage door' }).closest<HTMLElement>('[role="listitem"]')!;
    expect(within(card).getByText('Garage open after dark')).toBeTruthy();
    expect(
      within(card).getByText(
        'Hello. This is Palm Grove Estates security team. Your garage door was found open tonight. Please close it. Thank you. Good bye.',
      ),
    ).toBeTruthy();
    expect(card.textContent).not.toContain('<p>');
    const other = screen
      .getByRole('heading', { name: 'Package at the door' })
      .closest<HTMLElement>('[role="listitem"]')!;
    expect(other.textContent).toContain('A package is waiting at your front door & may get wet.');
  });

  it('search narrows by name only', async () => {
    await renderAs('regular');
    const search = screen.getByRole('searchbox', { name: 'Search concerns' });
    expect(search.getAttribute('placeholder')).toBe('Search concerns...');
    await userEvent.type(search, 'door GARAGE');
    await screen.findByText('1 concern(s)');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Open garage door');
    await userEvent.clear(search);
    await userEvent.type(search, 'parcel'); // in a hint, not a name
    await screen.findByText('0 concern(s)');
    expect(screen.getByText('No concerns found')).toBeTruthy();
  });

  it('offline, a director sees the controls disabled with the reason', async () => {
    await renderAs('director');
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      window.dispatchEvent(new Event('offline'));
      expect(await screen.findByText('You are offline — managing concerns needs a connection.')).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Add Concern' }) as HTMLButtonElement).disabled).toBe(true);
      expect((screen.getByRole('button', { name: 'Delete Open garage door' }) as HTMLButtonElement).disabled).toBe(
        true,
      );
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });
});

describe('no user id (docs/product.md#concerns)', () => {
  it('warns, waits 2 seconds, clears the session and goes to /', () => {
    vi.useFakeTimers();
    // A saved session whose record has lost its id.
    pb.authStore.save('test-token', {
      collectionId: '_pb_users_auth_',
      collectionName: 'users',
      type: 'director',
    } as never);
    render(
      <ToastProvider>
        <MemoryRouter initialEntries={['/concerns']}>
          <Routes>
            <Route path="/" element={<p>Login screen</p>} />
            <Route path="/concerns" element={<ConcernsPage />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>,
    );
    expect(screen.getByText('Warning: No user found. Logging out...')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1_999));
    expect(pb.authStore.token).toBe('test-token');
    expect(screen.queryByText('Login screen')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(pb.authStore.token).toBe('');
    expect(screen.getByText('Login screen')).toBeTruthy();
  });
});
