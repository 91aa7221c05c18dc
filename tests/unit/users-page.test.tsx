// @vitest-environment jsdom
/**
 * The users screen on a real local mirror (fake-indexeddb) and the app's
 * PocketBase client pointed at a port where nothing listens: what each role
 * sees, the count, the search, and the offline state of the controls.
 */
import '../support/browser-globals.ts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pb } from '../../src/api/client.ts';
import type { UserRecord, UserType } from '../../src/api/records.ts';
import { DataProvider } from '../../src/data/DataProvider.tsx';
import { userDatabase } from '../../src/data/mirror/db.ts';
import { UserCard } from '../../src/features/users/UserCard.tsx';
import { UsersPage } from '../../src/features/users/UsersPage.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';

const COMMUNITY = 'community000001';
const stamp = '2026-01-10 08:00:00.000Z';

function staff(id: string, first: string, last: string, type: UserType): UserRecord {
  const email = `${first}.${last}@palmgrove.example`.toLowerCase();
  return {
    id,
    created: stamp,
    updated: stamp,
    email,
    emailVisibility: true,
    verified: true,
    first_name: first,
    last_name: last,
    type,
    community: COMMUNITY,
  };
}

const ann = staff('director0000001', 'Ann', 'Lee', 'director');
const bob = staff('manager00000001', 'Bob', 'Stone', 'manager');
const cy = staff('regular00000001', 'Cy', 'Ortiz', 'regular');
const STAFF = [ann, bob, cy];

beforeAll(() => {
  // Nothing listens on port 9: the engine's requests fail at once.
  pb.baseURL = 'http://127.0.0.1:9';
});

afterEach(() => {
  cleanup();
  pb.authStore.clear();
});

let run = 0;
/** Signs `who` in (a fresh mirror per render, so tests do not share one) and renders the screen. */
async function renderAs(who: UserRecord) {
  const me = { ...who, id: `${who.id.slice(0, 12)}${String(++run).padStart(3, '0')}` };
  const db = userDatabase(me.id);
  await db.users.bulkPut(STAFF.map((u) => (u.id === who.id ? me : u)));
  pb.authStore.save('test-token', { ...me, collectionId: '_pb_users_auth_', collectionName: 'users' });
  render(
    <ToastProvider>
      <MemoryRouter>
        <DataProvider pb={pb} userId={me.id}>
          <UsersPage />
        </DataProvider>
      </MemoryRouter>
    </ToastProvider>,
  );
  await screen.findByText('3 user(s)');
  return me;
}

describe('a user card', () => {
  it('its icon buttons say on hover what they do, or why they are off', () => {
    const controls = {
      disabled: false,
      blockedReason: null,
      onEdit: () => {},
      onDelete: () => {},
      onResetPassword: () => {},
    };
    render(<UserCard user={bob} isSelf={false} controls={controls} />);
    expect(screen.getByRole('button', { name: 'Edit Stone, Bob' }).title).toBe('Edit');
    expect(screen.getByRole('button', { name: 'Reset password of Stone, Bob' }).title).toBe('Reset password');
    expect(screen.getByRole('button', { name: 'Delete Stone, Bob' }).title).toBe('Delete');
    cleanup();
    render(
      <UserCard user={bob} isSelf={false} controls={{ ...controls, disabled: true, blockedReason: 'Offline.' }} />,
    );
    expect(screen.getByRole('button', { name: 'Edit Stone, Bob' }).title).toBe('Offline.');
  });
});

describe('users screen', () => {
  it.each([bob, cy])('a $type sees the staff but no management controls', async (who) => {
    await renderAs(who);
    const cards = screen.getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Lee, Ann',
      'Ortiz, Cy',
      'Stone, Bob',
    ]);
    expect(within(cards[0]!).getByText('ann.lee@palmgrove.example')).toBeTruthy();
    expect(cards[0]!.textContent).toContain('Director');
    expect(cards[0]!.querySelector('img')?.getAttribute('src')).toBe('/default-avatar.svg');
    expect(screen.queryByRole('button', { name: 'Add User' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^(Edit|Delete) / })).toBeNull();
  });

  it('a director sees Add User, edit on every card and delete on every card but their own', async () => {
    await renderAs(ann);
    expect(screen.getByRole('button', { name: 'Add User' })).toBeTruthy();
    for (const name of ['Lee, Ann', 'Ortiz, Cy', 'Stone, Bob'])
      expect(screen.getByRole('button', { name: `Edit ${name}` })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Ortiz, Cy' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Stone, Bob' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Lee, Ann' })).toBeNull();
    expect(
      screen.getByRole('heading', { name: 'Lee, Ann' }).closest<HTMLElement>('[role="listitem"]')?.textContent,
    ).toContain('You');
  });

  it('search narrows by name, e-mail or type, every word matching', async () => {
    await renderAs(cy);
    const search = screen.getByRole('searchbox', { name: 'Search users' });
    expect(search.getAttribute('placeholder')).toBe('Search users...');
    await userEvent.type(search, 'MANAGER');
    await screen.findByText('1 user(s)');
    expect(screen.getByRole('heading', { name: 'Stone, Bob' })).toBeTruthy();
    await userEvent.clear(search);
    await userEvent.type(search, 'palmgrove lee');
    await screen.findByText('1 user(s)');
    expect(screen.getByRole('heading', { name: 'Lee, Ann' })).toBeTruthy();
    await userEvent.type(search, ' nobody');
    await screen.findByText('0 user(s)');
    expect(screen.getByText('No user found')).toBeTruthy();
  });

  it('offline, a director sees the controls disabled with the reason', async () => {
    await renderAs(ann);
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      window.dispatchEvent(new Event('offline'));
      expect(await screen.findByText('You are offline — managing users needs a connection.')).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Add User' }) as HTMLButtonElement).disabled).toBe(true);
      expect((screen.getByRole('button', { name: 'Edit Stone, Bob' }) as HTMLButtonElement).disabled).toBe(true);
      expect((screen.getByRole('button', { name: 'Delete Stone, Bob' }) as HTMLButtonElement).disabled).toBe(true);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });

  it('a new row in the mirror shows at once', async () => {
    const me = await renderAs(cy);
    await userDatabase(me.id).users.put(staff('regular00000002', 'Dee', 'Adams', 'regular'));
    await screen.findByText('4 user(s)');
    expect(screen.getAllByRole('heading', { level: 2 })[0]!.textContent).toBe('Adams, Dee');
  });
});
