/**
 * What 'Forgot password?' opens on the login page (ForgotPassword.tsx loads
 * it on the first tap): PocketBase's reset e-mail when the server can send
 * mail, otherwise the way it works without mail (the director resets the
 * password and hands over a temporary one). What it says after sending
 * never tells whether the address is a user's.
 */
import { useEffect, useState } from 'react';
import { loadAuthOptions, requestPasswordReset } from '../../data/auth.ts';
import { loginSchema } from '../../domain/loginSchema.ts';
import { TextInput } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ForgotPasswordButton } from './ForgotPassword.tsx';
import { ASK_YOUR_DIRECTOR } from './passwords.ts';
import { OFFLINE_RESETTING_PASSWORD } from '../../ui/offlineWords.ts';

type Step =
  | { kind: 'loading' }
  | { kind: 'director' }
  | { kind: 'offline' }
  | { kind: 'email'; sending: boolean; error?: string }
  | { kind: 'sent'; email: string };

export function ForgotPasswordPanel({ typedEmail }: { typedEmail: () => string }) {
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  const [email, setEmail] = useState('');
  // Opened by the tap that loaded this module.
  useEffect(() => void open(), []); // eslint-disable-line react-hooks/exhaustive-deps

  async function open() {
    setStep({ kind: 'loading' });
    const options = await loadAuthOptions();
    if (!options) setStep({ kind: 'offline' });
    else if (options.passwordResetEmail) {
      setEmail(typedEmail().trim());
      setStep({ kind: 'email', sending: false });
    } else setStep({ kind: 'director' });
  }

  async function send() {
    const parsed = loginSchema.shape.email.safeParse(email);
    if (!parsed.success) {
      setStep({ kind: 'email', sending: false, error: parsed.error.issues[0]?.message });
      return;
    }
    setStep({ kind: 'email', sending: true });
    try {
      await requestPasswordReset(parsed.data);
      setStep({ kind: 'sent', email: parsed.data });
    } catch (error) {
      const offline = (error as { status?: number } | null)?.status === 0;
      setStep({
        kind: 'email',
        sending: false,
        error: offline
          ? OFFLINE_RESETTING_PASSWORD
          : 'The reset e-mail could not be sent. Try again later, or ask your director to reset your password.',
      });
    }
  }

  return (
    <div className="mt-4">
      {/* Offline it stays a button: once the connection is back, asking again works. */}
      {step.kind === 'loading' || step.kind === 'offline' ? (
        <ForgotPasswordButton onClick={() => void open()} disabled={step.kind === 'loading'} />
      ) : (
        <h2 className="text-sm font-semibold">Forgot password?</h2>
      )}
      <div aria-live="polite" className="text-sm">
        {step.kind === 'director' && <p className="mt-2 text-gray-700">{ASK_YOUR_DIRECTOR}</p>}
        {step.kind === 'offline' && <p className="mt-2 text-gray-700">{OFFLINE_RESETTING_PASSWORD}</p>}
        {step.kind === 'sent' && (
          <p className="mt-2 text-gray-700">
            If {step.email} belongs to an account, an e-mail with a link to reset the password is on its way. The link
            works once.
          </p>
        )}
      </div>
      {step.kind === 'email' && (
        <div className="mt-2 space-y-3">
          <p className="text-sm text-gray-700">We will send a link to reset your password to this e-mail.</p>
          <TextInput
            label="Email for the reset link"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={step.error}
          />
          <button
            type="button"
            onClick={() => void send()}
            disabled={step.sending}
            className="flex w-full items-center justify-center gap-2 rounded border border-black py-2 font-medium disabled:opacity-60"
          >
            {step.sending && <Spinner size={18} label="Sending" />}
            Send reset link
          </button>
        </div>
      )}
    </div>
  );
}
