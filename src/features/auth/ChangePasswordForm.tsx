/**
 * The password change form, shared by the first sign-in with a temporary
 * password (ChangePasswordPage) and 'Change password' in the signed-in
 * layout. After a temporary password it asks for the new one only: the
 * session proves the temporary one (the server's first-password route).
 * Online only; offline it says why it cannot be sent.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { changeOwnPassword, chooseFirstPassword, type ChangeOutcome } from '../../data/auth.ts';
import { useBrowserOnline } from '../../data/online.ts';
import {
  changePasswordSchema,
  firstPasswordSchema,
  type ChangePasswordValues,
  type FirstPasswordValues,
} from '../../domain/loginSchema.ts';
import { TextInput } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import { changePasswordFailure } from './passwords.ts';
import { OFFLINE_SETTING_PASSWORD } from '../../ui/offlineWords.ts';

export function ChangePasswordForm({
  temporary = false,
  onChanged,
}: {
  temporary?: boolean;
  onChanged: (outcome: ChangeOutcome) => void;
}) {
  const online = useBrowserOnline();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<ChangePasswordValues | FirstPasswordValues>({
    resolver: zodResolver(temporary ? firstPasswordSchema : changePasswordSchema),
    defaultValues: temporary
      ? { password: '', passwordConfirm: '' }
      : { oldPassword: '', password: '', passwordConfirm: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      // Only the full form's schema keeps oldPassword (zod drops the keys it does not name).
      onChanged(await ('oldPassword' in values ? changeOwnPassword(values) : chooseFirstPassword(values)));
    } catch (error) {
      setFailure(changePasswordFailure(error));
    }
  });

  const errors = formState.errors;
  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
      {!online && (
        <p role="status" className="rounded bg-amber-100 px-3 py-2 text-sm text-amber-950">
          {OFFLINE_SETTING_PASSWORD}
        </p>
      )}
      {failure && (
        <p role="alert" className="rounded bg-red-100 px-3 py-2 text-red-800">
          {failure}
        </p>
      )}
      {!temporary && (
        <TextInput
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={'oldPassword' in errors ? errors.oldPassword?.message : undefined}
          {...register('oldPassword')}
        />
      )}
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
      <SubmitButton busy={formState.isSubmitting} busyLabel="Changing password" disabled={!online}>
        Change password
      </SubmitButton>
    </form>
  );
}
