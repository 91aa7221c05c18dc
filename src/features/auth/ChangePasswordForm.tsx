/**
 * The password change form, shared by the first sign-in with a temporary
 * password (ChangePasswordPage) and 'Change password' in the signed-in
 * layout. Online only; offline it says why it cannot be sent.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { changeOwnPassword, type ChangeOutcome } from '../../data/auth.ts';
import { useBrowserOnline } from '../../data/online.ts';
import { changePasswordSchema, type ChangePasswordValues } from '../../domain/loginSchema.ts';
import { TextInput } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { changePasswordFailure, PASSWORD_OFFLINE_REASON } from './passwords.ts';

export function ChangePasswordForm({
  temporary = false,
  onChanged,
}: {
  temporary?: boolean;
  onChanged: (outcome: ChangeOutcome) => void;
}) {
  const online = useBrowserOnline();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { oldPassword: '', password: '', passwordConfirm: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      onChanged(await changeOwnPassword(values));
    } catch (error) {
      setFailure(changePasswordFailure(error));
    }
  });

  const errors = formState.errors;
  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
      {!online && (
        <p role="status" className="rounded bg-amber-100 px-3 py-2 text-sm text-amber-950">
          {PASSWORD_OFFLINE_REASON}
        </p>
      )}
      {failure && (
        <p role="alert" className="rounded bg-red-100 px-3 py-2 text-red-800">
          {failure}
        </p>
      )}
      <TextInput
        label={temporary ? 'Temporary password' : 'Current password'}
        type="password"
        autoComplete="current-password"
        error={errors.oldPassword?.message}
        {...register('oldPassword')}
      />
      <TextInput
        label="New password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextInput
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.passwordConfirm?.message}
        {...register('passwordConfirm')}
      />
      <button
        type="submit"
        disabled={formState.isSubmitting || !online}
        className="flex w-full items-center justify-center gap-2 rounded bg-black py-2 font-medium text-white disabled:opacity-60"
      >
        {formState.isSubmitting && <Spinner size={18} label="Changing password" />}
        Change password
      </button>
    </form>
  );
}
