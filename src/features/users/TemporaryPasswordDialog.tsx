/**
 * The one-time password of a new user (docs/product.md#users) or of
 * a password reset: the server chose it and will never send it again, so
 * the director copies it here and gives it to the colleague, who must
 * choose their own at the next log in.
 */
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { Fragment, useState } from 'react';
import { temporaryPasswordGroups } from '../../domain/temporaryPassword.ts';
import { useToastHost } from '../../ui/toast.tsx';
import { formatDateTime } from '../../ui/format.ts';
import type { CreatedUser } from './useUserActions.ts';

type CopyState = 'idle' | 'copied' | 'unavailable';

export function TemporaryPasswordDialog({ created, onClose }: { created: CreatedUser | null; onClose: () => void }) {
  const [copy, setCopy] = useState<CopyState>('idle');
  const password = created?.temporaryPassword ?? '';

  async function copyPassword() {
    try {
      // The clipboard API exists only on secure origins (https, localhost).
      await navigator.clipboard.writeText(password);
      setCopy('copied');
    } catch {
      setCopy('unavailable');
    }
  }

  function close() {
    setCopy('idle');
    onClose();
  }

  const open = created !== null && password !== '';
  // The 'New user added' toast shows inside this dialog, where it is announced.
  const toastSlot = useToastHost(open);
  return (
    <Dialog open={open} onClose={close} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-scrim/40" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-2xl bg-white p-5 shadow-xl">
          <DialogTitle className="text-lg font-semibold">Temporary password</DialogTitle>
          <div ref={toastSlot} />
          <p className="mt-2 text-sm text-gray-700">Temporary password for {created?.email}:</p>
          {/* Monospace, in its groups, a line break only after a dash: read out and typed one group at a time. */}
          <p
            className="mt-2 rounded border border-gray-300 bg-gray-50 px-3 py-2 text-center font-mono text-xl tracking-wider sm:text-2xl [overflow-wrap:anywhere] select-all"
            data-testid="temporary-password"
          >
            {temporaryPasswordGroups(password).map((group, index) => (
              <Fragment key={index}>
                {index > 0 && (
                  <>
                    -<wbr />
                  </>
                )}
                {group}
              </Fragment>
            ))}
          </p>
          <p className="mt-2 text-sm text-gray-700">Type it as shown: lowercase letters, digits and dashes.</p>
          <p className="mt-2 text-sm text-gray-700">Share it with the user; it is shown only once.</p>
          {created?.expires && (
            <p className="mt-1 text-sm text-gray-700">It works until {formatDateTime(created.expires)}.</p>
          )}
          <p className="mt-1 min-h-5 text-sm text-gray-700" aria-live="polite">
            {copy === 'copied' && 'Copied to the clipboard.'}
            {copy === 'unavailable' && 'Copying is not available here: select the password and copy it.'}
          </p>
          <div className="mt-4 flex justify-end gap-2">
            <button
              type="button"
              onClick={() => void copyPassword()}
              className="rounded border border-gray-300 px-4 py-2 font-medium"
            >
              Copy
            </button>
            <button type="button" onClick={close} className="rounded bg-black px-4 py-2 font-medium text-white">
              Done
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
