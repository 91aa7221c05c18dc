import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router-dom';
import { findServerEarly, signIn, useSignedInRecord } from '../../data/auth.ts';
import { loginSchema, type LoginValues } from '../../domain/loginSchema.ts';
import { TEMPORARY_PASSWORD_EXPIRED, TEMPORARY_PASSWORD_EXPIRED_CODE } from '../../domain/temporaryPassword.ts';
import { fieldErrorCode } from '../../api/errorMessage.ts';
import { TextInput } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/SubmitButton.tsx';
import { ForgotPassword } from './ForgotPassword.tsx';

interface DemoAccount {
  email: string;
  password: string;
}

/** The server refused the sign-in because the (right) temporary password has expired. */
function expiredTemporaryPassword(error: unknown): boolean {
  return fieldErrorCode(error, 'password') === TEMPORARY_PASSWORD_EXPIRED_CODE;
}

/**
 * Login page (docs/product.md#login): success goes to /homes, failure shows 'Error
 * authenticating'. `onSigningIn` runs as soon as someone starts filling the
 * form (its first input), and again as it is sent: App fetches and readies
 * the signed-in screens' code while the password is typed, not after.
 */
export function LoginPage({ onSigningIn }: { onSigningIn?: () => void }) {
  const navigate = useNavigate();
  const signedIn = useSignedInRecord() !== null;
  const [failed, setFailed] = useState(false);
  /** Why, when the server said more than that the sign-in failed (an expired temporary password). */
  const [reason, setReason] = useState<string | null>(null);
  const [demo, setDemo] = useState<DemoAccount | null>(null);
  const { register, handleSubmit, formState, getValues } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });

  useEffect(() => {
    // The demo hint exists only while the server runs in demo mode (docs/product.md#login).
    fetch('/api/scms/demo')
      .then((response) => (response.ok ? (response.json() as Promise<DemoAccount>) : null))
      .then(setDemo)
      .catch(() => setDemo(null));
  }, []);

  if (signedIn) return <Navigate to="/homes" replace />;

  const submit = handleSubmit(async ({ email, password }) => {
    setFailed(false);
    setReason(null);
    onSigningIn?.();
    try {
      await signIn(email, password);
      navigate('/homes', { replace: true });
    } catch (error) {
      setFailed(true);
      setReason(expiredTemporaryPassword(error) ? TEMPORARY_PASSWORD_EXPIRED : null);
    }
  });

  return (
    <div className="min-h-screen bg-gray-50">
      <header className="scheme-light bg-black px-6 py-4 text-xl font-bold text-white">SCMS</header>
      <main className="mx-auto mt-12 max-w-sm rounded-lg bg-white p-6 shadow">
        <h1 className="mb-4 text-lg font-semibold">Log in to manage your community</h1>
        {failed && (
          <p role="alert" className="mb-4 rounded bg-red-100 px-3 py-2 text-red-800">
            Error authenticating
            {reason && <span className="mt-1 block text-sm">{reason}</span>}
          </p>
        )}
        <form onSubmit={(event) => void submit(event)} onInput={onSigningIn} className="space-y-4" noValidate>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            error={formState.errors.email?.message}
            {...register('email', {
              onBlur: (event: { target: { value: string } }) => findServerEarly(event.target.value),
            })}
          />
          <TextInput
            label="Password"
            type="password"
            autoComplete="current-password"
            error={formState.errors.password?.message}
            {...register('password')}
          />
          <SubmitButton busy={formState.isSubmitting} busyLabel="Logging in">
            Login
          </SubmitButton>
        </form>
        <ForgotPassword typedEmail={() => getValues('email')} />
        {demo && (
          <p className="mt-6 text-sm text-gray-600">
            Demo account: {demo.email} and {demo.password}
          </p>
        )}
      </main>
    </div>
  );
}
