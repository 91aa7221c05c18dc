// @vitest-environment jsdom
/**
 * The password change form's rules (8–24 characters, confirmation, a new
 * password that differs) and the words for the server's refusals.
 */
import { ClientResponseError } from 'pocketbase';
import { describe, expect, it } from 'vitest';
import { changePasswordSchema } from '../../src/domain/loginSchema.ts';
import { changePasswordFailure } from '../../src/features/auth/passwords.ts';
import { OFFLINE_SETTING_PASSWORD } from '../../src/ui/offlineWords.ts';

const messages = (values: Record<string, string>) => {
  const result = changePasswordSchema.safeParse(values);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('changePasswordSchema', () => {
  it('accepts 8 and 24 characters, typed twice, different from the current one', () => {
    expect(messages({ oldPassword: 'temporary-123', password: 'a'.repeat(8), passwordConfirm: 'a'.repeat(8) })).toEqual(
      {},
    );
    expect(
      messages({ oldPassword: 'temporary-123', password: 'b'.repeat(24), passwordConfirm: 'b'.repeat(24) }),
    ).toEqual({});
  });
  it.each([
    [
      '7 characters',
      { oldPassword: 'x', password: 'a'.repeat(7), passwordConfirm: 'a'.repeat(7) },
      { password: 'Password must be between 8 and 24 characters' },
    ],
    [
      '25 characters',
      { oldPassword: 'x', password: 'a'.repeat(25), passwordConfirm: 'a'.repeat(25) },
      { password: 'Password must be between 8 and 24 characters' },
    ],
    [
      'a different confirmation',
      { oldPassword: 'x', password: 'new-password-1', passwordConfirm: 'new-password-2' },
      { passwordConfirm: 'Passwords do not match' },
    ],
    [
      'no current password',
      { oldPassword: '', password: 'new-password-1', passwordConfirm: 'new-password-1' },
      { oldPassword: 'Enter your current password' },
    ],
    [
      'the current password again',
      { oldPassword: 'same-password', password: 'same-password', passwordConfirm: 'same-password' },
      { password: 'Choose a password different from the current one' },
    ],
  ])('refuses %s', (_name, values, expected) => {
    expect(messages(values)).toEqual(expected);
  });
});

const refusal = (status: number, data: Record<string, unknown> = {}) =>
  new ClientResponseError({ url: '/', status, response: { status, message: 'Failed to update record.', data } });

describe('changePasswordFailure', () => {
  it('says which part was wrong', () => {
    expect(
      changePasswordFailure(
        refusal(400, {
          oldPassword: { code: 'validation_invalid_old_password', message: 'Missing or invalid old password.' },
        }),
      ),
    ).toBe('The current password is not correct.');
    expect(
      changePasswordFailure(
        refusal(400, { passwordConfirm: { code: 'validation_values_mismatch', message: "Values don't match." } }),
      ),
    ).toBe('Passwords do not match');
    expect(
      changePasswordFailure(
        refusal(400, {
          password: { code: 'validation_length_out_of_range', message: 'Password must be between 8 and 24 characters' },
        }),
      ),
    ).toBe('password: Password must be between 8 and 24 characters.');
  });
  it('offline, says a connection is needed', () => {
    expect(changePasswordFailure(new ClientResponseError(new TypeError('Failed to fetch')))).toBe(
      OFFLINE_SETTING_PASSWORD,
    );
  });
  it('other refusals use the common builder', () => {
    expect(changePasswordFailure(refusal(403))).toBe('Failed to update record.');
  });
});
