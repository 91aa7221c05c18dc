// @vitest-environment jsdom
/**
 * The Add User and Edit User forms against the shared schemas (docs/product.md#validation-limits),
 * and the failure texts (docs/product.md#users).
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ClientResponseError } from 'pocketbase';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '../../src/api/records.ts';
import { AddUserForm, EditUserForm } from '../../src/features/users/UserForms.tsx';
import { throwawayPassword, userFailureMessage, type UserUpdate } from '../../src/features/users/useUserActions.ts';
import type { AddUserValues } from '../../src/domain/schemas.ts';

afterEach(cleanup);

const stamp = '2026-01-10 08:00:00.000Z';
const user = (type: UserRecord['type']): UserRecord => ({
  id: 'user00000000001',
  created: stamp,
  updated: stamp,
  email: 'bob.stone@palmgrove.example',
  emailVisibility: true,
  verified: true,
  first_name: 'Bob',
  last_name: 'Stone',
  type,
  community: 'community000001',
});

const field = (name: string) => screen.getByLabelText(name);
const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent);

describe('Add User form', () => {
  it('offers only manager and regular', () => {
    render(<AddUserForm onSubmit={vi.fn()} blockedReason={null} />);
    const options = Array.from((field('Type') as HTMLSelectElement).options).filter((o) => !o.disabled);
    expect(options.map((o) => o.value)).toEqual(['manager', 'regular']);
  });

  it('shows the validation messages and sends nothing while invalid', async () => {
    const onSubmit = vi.fn<(values: AddUserValues) => Promise<void>>();
    render(<AddUserForm onSubmit={onSubmit} blockedReason={null} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    // The schema checks the values asynchronously: wait for its messages.
    await waitFor(() =>
      expect(alerts()).toEqual([
        'First name must not be empty',
        'Last name must not be empty',
        'Invalid type',
        'Email must be at least one character long',
      ]),
    );

    await userEvent.type(field('First name'), 'x'.repeat(31));
    await userEvent.type(field('Last name'), 'y'.repeat(31));
    await userEvent.type(field('Email'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(alerts()).toEqual([
      'First name must not exceed 30 characters',
      'Last name must not exceed 30 characters',
      'Invalid type',
      'Not a valid email',
    ]);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends trimmed values at the limits', async () => {
    const onSubmit = vi.fn<(values: AddUserValues) => Promise<void>>().mockResolvedValue();
    render(<AddUserForm onSubmit={onSubmit} blockedReason={null} />);
    await userEvent.type(field('First name'), `${'x'.repeat(30)} `);
    await userEvent.type(field('Last name'), 'Y');
    await userEvent.selectOptions(field('Type'), 'manager');
    await userEvent.type(field('Email'), ' new.officer@palmgrove.example');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(alerts()).toEqual([]);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      first_name: 'x'.repeat(30),
      last_name: 'Y',
      type: 'manager',
      email: 'new.officer@palmgrove.example',
    });
  });

  it('cannot be sent offline, and says why', () => {
    render(<AddUserForm onSubmit={vi.fn()} blockedReason="You are offline — managing users needs a connection." />);
    expect((screen.getByRole('button', { name: 'Add User' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('You are offline — managing users needs a connection.')).toBeTruthy();
  });
});

describe('Edit User form', () => {
  it('edits names and type, without an e-mail field', async () => {
    const onSubmit = vi.fn<(values: UserUpdate) => Promise<void>>().mockResolvedValue();
    render(<EditUserForm user={user('regular')} onSubmit={onSubmit} blockedReason={null} />);
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect((field('First name') as HTMLInputElement).value).toBe('Bob');
    await userEvent.selectOptions(field('Type'), 'manager');
    await userEvent.clear(field('Last name'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(alerts()).toEqual(['Last name must not be empty']);
    await userEvent.type(field('Last name'), 'Stoner');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0]![0]).toEqual({ first_name: 'Bob', last_name: 'Stoner', type: 'manager' });
  });

  it("keeps a director's type out of the form and out of the update", async () => {
    const onSubmit = vi.fn<(values: UserUpdate) => Promise<void>>().mockResolvedValue();
    render(<EditUserForm user={user('director')} onSubmit={onSubmit} blockedReason={null} />);
    expect(screen.queryByLabelText('Type')).toBeNull();
    await userEvent.type(field('First name'), 'by');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0]![0]).toEqual({ first_name: 'Bobby', last_name: 'Stone' });
  });
});

describe('failure texts (docs/product.md#messages)', () => {
  const failure = (status: number, data: Record<string, unknown> = {}, message = 'Server says no.') =>
    new ClientResponseError({
      url: 'http://x/api/collections/users/records',
      status,
      response: { status, message, data },
    });

  it('404 gives the server message', () => {
    expect(userFailureMessage(failure(404, {}, "The requested resource wasn't found."), 'update')).toBe(
      "The requested resource wasn't found.",
    );
  });
  it('400 with password errors gives "Passwords do not match"', () => {
    const error = failure(400, {
      passwordConfirm: { code: 'validation_values_mismatch', message: 'Values don’t match.' },
    });
    expect(userFailureMessage(error, 'create')).toBe('Passwords do not match');
    expect(userFailureMessage(error, 'update')).toBe('Passwords do not match');
  });
  it('a failed delete with 400 gives "Failed to delete user"', () => {
    expect(userFailureMessage(failure(400), 'delete')).toBe('Failed to delete user');
  });
  it('other failures use the common builder', () => {
    expect(
      userFailureMessage(
        failure(400, { email: { code: 'validation_not_unique', message: 'Value must be unique.' } }),
        'create',
      ),
    ).toBe('email: Value must be unique.');
    expect(userFailureMessage(new ClientResponseError(new TypeError('Failed to fetch')), 'create')).toBe(
      'An error occurred',
    );
  });
  it('the throwaway password differs every time and fits the password rules', () => {
    const a = throwawayPassword();
    // The passwords' 8–24, which the server refuses past 24.
    expect(a).toMatch(/^[0-9a-f]{20}$/);
    expect(throwawayPassword()).not.toBe(a);
  });
});
