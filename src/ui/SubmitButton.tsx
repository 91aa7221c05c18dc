import type { ReactNode } from 'react';
import { Spinner } from './Spinner.tsx';

const variants = {
  /** Full width, black; fades while it cannot be pressed. */
  full: 'flex w-full items-center justify-center gap-2 rounded bg-black py-2 font-medium text-white disabled:opacity-60',
  /** Full width, black; grey until it can be pressed (a sheet waiting for an answer). */
  'full-grey':
    'flex w-full items-center justify-center gap-2 rounded bg-black py-2 font-medium text-white disabled:bg-gray-400 disabled:text-gray-900',
  /** Fills the rest of a row beside Cancel, a little taller. */
  fill: 'flex flex-1 items-center justify-center gap-2 rounded bg-black py-2.5 font-medium text-white disabled:opacity-60',
} as const;

/**
 * A form's submit button: pressed once, it shows a spinner named `busyLabel`
 * ('Saving') and cannot be pressed again until the submit ends; `disabled`
 * adds the form's own reasons (offline, nothing chosen yet).
 */
export function SubmitButton({
  busy,
  busyLabel = 'Saving',
  disabled = false,
  variant = 'full',
  children,
}: {
  busy: boolean;
  busyLabel?: string;
  disabled?: boolean;
  variant?: keyof typeof variants;
  children: ReactNode;
}) {
  return (
    <button type="submit" disabled={busy || disabled} className={variants[variant]}>
      {busy && <Spinner size={18} label={busyLabel} />}
      {children}
    </button>
  );
}
