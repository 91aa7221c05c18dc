/**
 * 'Forgot password?' on the login page: the link, and what it opens
 * (ForgotPasswordPanel.tsx) loaded on the first tap. Most sign-ins never
 * use it, and the login page's code is what a phone loads first.
 */
import { lazy, Suspense, useState } from 'react';

const ForgotPasswordPanel = lazy(() =>
  import('./ForgotPasswordPanel.tsx').then((module) => ({ default: module.ForgotPasswordPanel })),
);

export function ForgotPasswordButton({ onClick, disabled }: { onClick?: () => void; disabled: boolean }) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className="text-sm font-medium text-gray-800 underline underline-offset-2 hover:text-black"
    >
      Forgot password?
    </button>
  );
}

export function ForgotPassword({ typedEmail }: { typedEmail: () => string }) {
  const [opened, setOpened] = useState(false);
  if (!opened)
    return (
      <div className="mt-4">
        <ForgotPasswordButton onClick={() => setOpened(true)} disabled={false} />
      </div>
    );
  return (
    <Suspense
      fallback={
        <div className="mt-4">
          <ForgotPasswordButton disabled />
        </div>
      }
    >
      <ForgotPasswordPanel typedEmail={typedEmail} />
    </Suspense>
  );
}
