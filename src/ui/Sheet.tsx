/**
 * A bottom sheet (Add Home, Update Home, Select concerns...): a modal
 * dialog sliding from the bottom on phones, centred on wide screens. Its
 * title, close button and any toast stay in view; only the body scrolls (a
 * long form scrolled away the only way to close the sheet).
 */
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useToastHost } from './toast.tsx';

/** A wide screen with a mouse: where a dialog's first field is focused when it opens. */
const DESK = '(min-width: 640px) and (pointer: fine)';
const FIRST_FIELD =
  'input:not([type=hidden]):not([type=file]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';

export function Sheet({
  open,
  onClose,
  title,
  children,
  wide = false,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  const toastSlot = useToastHost(open);
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    // At a desk the first field takes the keys at once (the dialog itself would, otherwise). Not on a
    // touch screen: a focused field raises the keyboard over half the sheet before the person chose it.
    const frame = requestAnimationFrame(() => {
      // No matchMedia (a test's DOM): no desk.
      if (typeof matchMedia !== 'function' || !matchMedia(DESK).matches) return;
      const field = body.current?.querySelector<HTMLElement>(FIRST_FIELD);
      if (field && body.current?.contains(document.activeElement) !== true) field.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [open]);
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-scrim/40" />
      <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-4">
        {/* dvh: the visible height, so the panel's top is not under a phone browser's toolbar. */}
        <DialogPanel
          className={`flex max-h-[92dvh] w-full flex-col rounded-t-2xl bg-white shadow-xl sm:rounded-2xl ${wide ? 'sm:max-w-2xl' : 'sm:max-w-lg'}`}
        >
          <div className="shrink-0 px-5 pt-5">
            <div className="mb-4 flex items-center justify-between gap-3">
              <DialogTitle className="text-lg font-semibold">{title}</DialogTitle>
              <button
                type="button"
                onClick={onClose}
                aria-label="Close"
                className="rounded px-2 text-2xl leading-none text-gray-500 hover:text-gray-900"
              >
                ×
              </button>
            </div>
            <div ref={toastSlot} />
          </div>
          <div ref={body} className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 pb-5">
            {children}
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
