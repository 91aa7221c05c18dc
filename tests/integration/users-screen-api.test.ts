// @vitest-environment jsdom
/**
 * The users screen against a real PocketBase: a director adds a user and is
 * shown the server's one-time password (it signs in; the mirror does not
 * keep it), edits and deletes users, and reads the server's refusals.
 * The screen runs in jsdom on the app's own PocketBase client and mirror.
 */
import '../support/browser-globals.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PocketBase, { BaseAuthStore } from 'pocketbase';
import { createElement as h } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { pb } from '../../src/api/client.ts';
import { DataProvider } from '../../src/data/DataProvider.tsx';
import { userDatabase } from '../../src/data/mirror/db.ts';
import { UsersPage } from '../../src/features/users/UsersPage.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';
import type { CommunityFixture, TestServer } from '../support/pocketbase.ts';
import { TEMPORARY_PASSWORD_SHAPE } from '../../src/domain/temporaryPassword.ts';

let t: TestServer;
let a: CommunityFixture;
let TEST_PASSWORD: string;
/**
 * Clients of the test itself keep their session in memory: under jsdom the
 * SDK's default store is local storage, which the screen's own client uses,
 * and a second sign-in there would sign the screen in as someone else.
 */
let admin: PocketBase;
const memoryClient = () => new PocketBase(t.url, new BaseAuthStore());

beforeAll(async () => {
  // The server helper builds the hook libraries with esbuild, which checks
  // that TextEncoder's output is a Uint8Array; under jsdom the global
  // Uint8Array is jsdom's, so Node's is put back while the server starts.
  const jsdomUint8Array = globalThis.Uint8Array;
  globalThis.Uint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
  try {
    const support = await import('../support/pocketbase.ts');
    TEST_PASSWORD = support.TEST_PASSWORD;
    t = await support.startTestServer();
    admin = memoryClient();
    await admin.collection('_superusers').authWithPassword(support.SUPERUSER.email, support.SUPERUSER.password);
    a = await support.createCommunity(admin, 'grove', 'Palm Grove Estates');
  } finally {
    globalThis.Uint8Array = jsdomUint8Array;
  }
  pb.baseURL = t.url;
  await pb.collection('users').authWithPassword(a.director.email, TEST_PASSWORD);
});
afterEach(cleanup);
afterAll(async () => {
  pb.authStore.clear();
  await t?.stop();
});

/** Renders the screen and waits until the first pull has brought the staff; returns how many there are. */
async function renderScreen(): Promise<number> {
  render(
    h(
      ToastProvider,
      null,
      h(MemoryRouter, null, h(DataProvider, { pb, userId: a.director.id, children: h(UsersPage) })),
    ),
  );
  await screen.findByRole('heading', { name: 'GROVE, Regular' }, { timeout: 15_000 });
  const count = screen.getByText(/^\d+ user\(s\)$/).textContent ?? '';
  return Number.parseInt(count, 10);
}

const field = (name: string) => screen.getByLabelText(name);

describe('users screen against the API', () => {
  test('adding a user shows the temporary password the server chose, once', async () => {
    expect(await renderScreen()).toBe(3);
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await userEvent.type(field('First name'), 'Nora');
    await userEvent.type(field('Last name'), 'Reyes');
    await userEvent.selectOptions(field('Type'), 'regular');
    await userEvent.type(field('Email'), 'nora.reyes@scms.test');
    // Every write of a user row into the mirror, whether from the create
    // response or from realtime, to check that none keeps the password.
    const users = userDatabase(a.director.id).users;
    const written: object[] = [];
    const onCreating = (_key: unknown, row: object) => void written.push(row);
    const onUpdating = (changes: object, _key: unknown, row: object) => void written.push({ ...row, ...changes });
    users.hook('creating', onCreating);
    users.hook('updating', onUpdating);
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Add User' })).getByRole('button', { name: 'Add User' }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'Temporary password' }, { timeout: 10_000 });
    expect(dialog.textContent).toContain('Temporary password for nora.reyes@scms.test:');
    expect(dialog.textContent).toContain('Share it with the user; it is shown only once.');
    const password = within(dialog).getByTestId('temporary-password').textContent ?? '';
    expect(password).toMatch(TEMPORARY_PASSWORD_SHAPE);
    // It is the server's password: the new user signs in with it.
    const newcomer = memoryClient();
    await newcomer.collection('users').authWithPassword('nora.reyes@scms.test', password);
    expect(newcomer.authStore.record?.community).toBe(a.community.id);
    expect(newcomer.authStore.record?.type).toBe('regular');

    expect(screen.getByText('New user added')).toBeTruthy();
    // The device keeps no copy of the password.
    users.hook('creating').unsubscribe(onCreating);
    users.hook('updating').unsubscribe(onUpdating);
    expect(
      written.filter((row) => (row as { email?: string }).email === 'nora.reyes@scms.test').length,
    ).toBeGreaterThan(0);
    for (const row of written) expect(row).not.toHaveProperty('temporary_password');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Temporary password' })).toBeNull());
    // The list has the new user from the create response (the search index follows the mirror a moment later).
    expect(await screen.findByText('4 user(s)')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Reyes, Nora' })).toBeTruthy();
  });

  test('an e-mail already in use is refused with the server’s reason', async () => {
    await renderScreen();
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await userEvent.type(field('First name'), 'Copy');
    await userEvent.type(field('Last name'), 'Cat');
    await userEvent.selectOptions(field('Type'), 'manager');
    await userEvent.type(field('Email'), a.manager.email);
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Add User' })).getByRole('button', { name: 'Add User' }),
    );
    const failure = await screen.findByText('Fail', undefined, { timeout: 10_000 });
    // The same words wherever the address is in use (never 'unique', which told of other communities).
    expect(failure.closest('[role=alert]')?.textContent).toBe('Failemail: This e-mail cannot be used.×');
    // The form stays open for a correction.
    expect(screen.getByRole('dialog', { name: 'Add User' })).toBeTruthy();
  });

  test('editing and deleting go to the server and show at once', async () => {
    const victim = await admin.collection('users').create({
      email: 'omar.diaz@scms.test',
      password: TEST_PASSWORD,
      passwordConfirm: TEST_PASSWORD,
      first_name: 'Omar',
      last_name: 'Diaz',
      type: 'regular',
      community: a.community.id,
    });
    await renderScreen();
    await screen.findByRole('heading', { name: 'Diaz, Omar' }, { timeout: 15_000 });

    await userEvent.click(screen.getByRole('button', { name: 'Edit Diaz, Omar' }));
    await userEvent.selectOptions(field('Type'), 'manager');
    await userEvent.clear(field('First name'));
    await userEvent.type(field('First name'), 'Omari');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('User updated', undefined, { timeout: 10_000 });
    expect(
      (await screen.findByRole('heading', { name: 'Diaz, Omari' })).closest<HTMLElement>('[role="listitem"]')
        ?.textContent,
    ).toContain('Manager');
    expect(await admin.collection('users').getOne(victim.id)).toMatchObject({ first_name: 'Omari', type: 'manager' });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Diaz, Omari' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete user?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('User deleted', undefined, { timeout: 10_000 });
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Diaz, Omari' })).toBeNull());
    await expect(admin.collection('users').getOne(victim.id)).rejects.toMatchObject({ status: 404 });
  });

  test('a user who wrote a report cannot be deleted: "Failed to delete user", and the card stays', async () => {
    await admin.collection('reports').create({
      narative: 'Gate checked.',
      type: 'accident',
      weather: 'clear',
      incident_time: new Date().toISOString(),
      community: a.community.id,
      created_by: a.regular.id,
    });
    await renderScreen();
    await userEvent.click(screen.getByRole('button', { name: 'Delete GROVE, Regular' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete user?' })).getByRole('button', { name: 'Delete' }),
    );
    const message = await screen.findByText('Failed to delete user', undefined, { timeout: 10_000 });
    expect(message.closest('[role=alert]')?.textContent).toContain('Fail');
    expect(screen.getByRole('heading', { name: 'GROVE, Regular' })).toBeTruthy();
    expect((await admin.collection('users').getOne(a.regular.id)).id).toBe(a.regular.id);
  });
});
