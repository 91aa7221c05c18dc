// @vitest-environment jsdom
/**
 * The password form after signing in with a temporary password asks for the
 * new password only (the session proves the temporary one) and sends it to
 * the server's first-password route; the voluntary change still asks for the
 * current password and sends PocketBase's own change. The network is a stub
 * of fetch that records what the app sends.
 */
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pb } from '../../src/api/client.ts';
import type { ChangeOutcome } from '../../src/data/auth.ts';
import { ChangePasswordForm } from '../../src/features/auth/ChangePasswordForm.tsx';

const USER = {
  id: 'user00000000001',
  email: 'sam@palmgrove.example',
  collectionId: '_pb_users_auth_',
  collectionName: 'users',
};

interface Sent {
  path: string;
  method: string;
  body: unknown;
}
let sent: Sent[] = [];
/** The answer of the password request (the sign-in after it always succeeds). */
let passwordAnswer: { status: number; body?: unknown } = { status: 204 };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  sent = [];
  passwordAnswer = { status: 204 };
  pb.authStore.save('token-of-the-temporary-password', { ...USER, must_change_password: true });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
      sent.push({ path: url.pathname, method: init?.method ?? 'GET', body });
      if (url.pathname.endsWith('/auth-with-password'))
        return json(200, { token: 'token-of-the-new-password', record: { ...USER, must_change_password: false } });
      if (passwordAnswer.status === 204) return new Response(null, { status: 204 });
      return json(passwordAnswer.status, passwordAnswer.body);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  pb.authStore.clear();
});

const labels = () => Array.from(document.querySelectorAll('label'), (label) => label.textContent?.trim());
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

async function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await userEvent.clear(screen.getByLabelText(label));
    await userEvent.type(screen.getByLabelText(label), value);
  }
  await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('after a temporary password', () => {
  it('asks for the new password and its confirmation only, and sends them to the first-password route', async () => {
    const changed = vi.fn<(outcome: ChangeOutcome) => void>();
    render(<ChangePasswordForm temporary onChanged={changed} />);
    expect(labels()).toEqual(['New password', 'Confirm new password']);
    expect(screen.queryByLabelText('Temporary password')).toBeNull();
    expect(screen.queryByLabelText('Current password')).toBeNull();

    await fill({ 'New password': 'sams-own-pass-1', 'Confirm new password': 'sams-own-pass-1' });
    await vi.waitFor(() => expect(changed).toHaveBeenCalledWith('changed'));
    expect(sent).toEqual([
      {
        path: `/api/scms/users/${USER.id}/first-password`,
        method: 'POST',
        body: { password: 'sams-own-pass-1', passwordConfirm: 'sams-own-pass-1' },
      },
      {
        path: '/api/collections/users/auth-with-password',
        method: 'POST',
        body: expect.objectContaining({ identity: USER.email, password: 'sams-own-pass-1' }) as unknown,
      },
    ]);
    expect(pb.authStore.token).toBe('token-of-the-new-password');
  });

  it("checks the form's rules before sending anything", async () => {
    const changed = vi.fn<(outcome: ChangeOutcome) => void>();
    render(<ChangePasswordForm temporary onChanged={changed} />);
    await fill({ 'New password': 'short', 'Confirm new password': 'shorter' });
    await screen.findByText('Password must be between 8 and 24 characters');
    expect(alerts()).toContain('Passwords do not match');
    await fill({ 'New password': 'x'.repeat(25), 'Confirm new password': 'x'.repeat(25) });
    await screen.findByText('Password must be between 8 and 24 characters');
    expect(sent).toEqual([]);
    expect(changed).not.toHaveBeenCalled();
  });

  it("shows the server's refusal and stays", async () => {
    passwordAnswer = {
      status: 400,
      body: {
        error: true,
        code: 400,
        message: 'Failed to change the password.',
        data: {
          password: {
            code: 'validation_same_password',
            message: 'Choose a password different from the current one.',
          },
        },
      },
    };
    const changed = vi.fn<(outcome: ChangeOutcome) => void>();
    render(<ChangePasswordForm temporary onChanged={changed} />);
    await fill({ 'New password': 'kp7m-x4rd-9tce-hw2a', 'Confirm new password': 'kp7m-x4rd-9tce-hw2a' });
    await screen.findByText('password: Choose a password different from the current one.');
    expect(sent).toHaveLength(1);
    expect(changed).not.toHaveBeenCalled();
    expect(pb.authStore.token).toBe('token-of-the-temporary-password');
  });
});

describe('a voluntary change', () => {
  it("still asks for the current password and sends PocketBase's own change with it", async () => {
    pb.authStore.save('token-of-an-own-password', { ...USER, must_change_password: false });
    const changed = vi.fn<(outcome: ChangeOutcome) => void>();
    render(<ChangePasswordForm onChanged={changed} />);
    expect(labels()).toEqual(['Current password', 'New password', 'Confirm new password']);

    await fill({ 'New password': 'sams-new-pass-2', 'Confirm new password': 'sams-new-pass-2' });
    await screen.findByText('Enter your current password');
    expect(sent).toEqual([]);

    await fill({ 'Current password': 'sams-own-pass-1' });
    await vi.waitFor(() => expect(changed).toHaveBeenCalledWith('changed'));
    expect(sent[0]).toEqual({
      path: `/api/collections/users/records/${USER.id}`,
      method: 'PATCH',
      body: { oldPassword: 'sams-own-pass-1', password: 'sams-new-pass-2', passwordConfirm: 'sams-new-pass-2' },
    });
  });
});
