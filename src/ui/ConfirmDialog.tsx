import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { useToastHost } from './toast.tsx';
import { Spinner } from './Spinner.tsx';

/** A yes/no question before something that cannot be undone (delete, call). */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy = false,
  confirmDisabled = false,
  destructive = false,
  secondaryLabel,
  onSecondary,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  /** The answer cannot be yes (the text says why). */
  confirmDisabled?: boolean;
  destructive?: boolean;
  /** A third answer, between Cancel and the main one (log out: 'Log out anyway' beside 'Send now'). */
  secondaryLabel?: string;
  onSecondary?: () => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  // A question shows no toast (src/ui/toast.tsx): its result shows once it has closed.
  useToastHost(open, { showsToasts: false });
  return (
    <Dialog open={open} onClose={onCancel} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-scrim/40" />
      <div className="fixed inset-0 flex items-end justify-center p-0 sm:items-center sm:p-4">
        <DialogPanel className="w-full rounded-t-2xl bg-white p-5 shadow-xl sm:max-w-md sm:rounded-2xl">
          <DialogTitle className="text-lg font-semibold">{title}</DialogTitle>
          {children && <div className="mt-2 text-sm text-gray-700">{children}</div>}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <button type="button" onClick={onCancel} className="rounded border border-gray-300 px-4 py-2">
              {cancelLabel}
            </button>
            {secondaryLabel && onSecondary && (
              <button
                type="button"
                onClick={onSecondary}
                disabled={busy}
                className="rounded border border-gray-300 px-4 py-2 font-medium disabled:opacity-60"
              >
                {secondaryLabel}
              </button>
            )}
            <button
              type="button"
              onClick={onConfirm}
              disabled={busy || confirmDisabled}
              className={`inline-flex items-center gap-2 rounded px-4 py-2 font-medium text-white disabled:opacity-60 ${destructive ? 'bg-red-700' : 'bg-black'}`}
            >
              {busy && <Spinner size={16} label="Working" />}
              {confirmLabel}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
