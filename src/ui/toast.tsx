/**
 * Toasts (docs/product.md#messages): one at a time, dismissed after 5 s, swipe right
 * (50 px) to dismiss, F8 moves focus to the notification area. Titles are
 * 'Success', 'Fail' or 'Failure'; failures use the destructive style.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
  type PointerEvent,
} from 'react';
import { createPortal } from 'react-dom';

export const TOAST_DURATION_MS = 5_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

interface ToastState extends ToastInput {
  id: number;
  /** The modal on top when it was raised (null: the page); moved to the one beneath when that one closes. */
  origin: number | null;
  /** When its modal closed: a modal opening right after (the action's result, such as a new password) takes it. */
  releasedAt?: number;
}

/** How soon after a toast's modal closed a modal that opens counts as that action's result. */
const RESULT_GRACE_MS = 1_000;

/** An open modal: a sheet or dialog whose `element` hosts toasts, or (null) one that shows none: a question, the menu. */
interface Host {
  id: number;
  element: HTMLElement | null;
}

type ShowToast = (toast: ToastInput) => void;

interface ToastContextValue {
  show: ShowToast;
  addHost: (element: HTMLElement | null) => () => void;
}

const ToastContext = createContext<ToastContextValue | null>(null);

export function useToast(): ShowToast {
  const context = useContext(ToastContext);
  if (!context) throw new Error('useToast needs a ToastProvider above it');
  return context.show;
}

/**
 * An open modal (sheet, dialog) makes everything outside it inert, toasts
 * included; while open it hosts the toast area, so a toast raised from
 * inside it is announced and can be dismissed. Returns the callback ref for
 * the element inside the modal that holds the area, in the flow of the
 * modal (under its title): floating over a sheet, a toast hid either its
 * title (at the top) or its buttons (at the bottom). A callback ref: on a
 * second opening Headless UI mounts the panel a render after `open` turns
 * true, so a ref read in an effect was still empty and the toast landed,
 * inert, outside the dialog.
 *
 * A toast says what happened where it happened: it shows in the modal (or
 * page) it was raised in, and when that closes, in the one beneath. It
 * never moves into a modal opened after it, and a question (a confirmation
 * such as 'Delete user?', `showsToasts: false`) shows none at all: a result seen
 * inside a question reads as if the question were already answered. The
 * result of the question's own action shows once it has closed (in the
 * modal that opens with the result, such as a new temporary password, when
 * one opens at once).
 */
export function useToastHost(open: boolean, { showsToasts = true } = {}): (panel: HTMLElement | null) => void {
  const context = useContext(ToastContext);
  const [panel, setPanel] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!open || !context || (!panel && showsToasts)) return;
    return context.addHost(showsToasts ? panel : null);
  }, [open, context, panel, showsToasts]);
  return setPanel;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastState | null>(null);
  const [hosts, setHosts] = useState<Host[]>([]);
  const counter = useRef(0);
  const hostCounter = useRef(0);
  const hostsNow = useRef<Host[]>([]);
  const viewport = useRef<HTMLElement>(null);

  // Limit 1: a new toast replaces the one on screen.
  const show = useCallback<ShowToast>(
    (input) => setToast({ ...input, id: ++counter.current, origin: hostsNow.current.at(-1)?.id ?? null }),
    [],
  );
  const dismiss = useCallback(() => setToast(null), []);

  const toastId = toast?.id;
  useEffect(() => {
    if (toastId === undefined) return;
    const timer = window.setTimeout(dismiss, TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [toastId, dismiss]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault();
        viewport.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const addHost = useCallback((element: HTMLElement | null) => {
    const host: Host = { id: ++hostCounter.current, element };
    hostsNow.current = [...hostsNow.current, host];
    setHosts((current) => [...current, host]);
    if (element)
      setToast((current) =>
        current?.releasedAt !== undefined && Date.now() - current.releasedAt < RESULT_GRACE_MS
          ? { ...current, origin: host.id, releasedAt: undefined }
          : current,
      );
    return () => {
      hostsNow.current = hostsNow.current.filter((h) => h !== host);
      setHosts((current) => current.filter((h) => h !== host));
      // The modal a toast was raised in closed: it belongs to the one beneath now.
      const beneath = hostsNow.current.at(-1)?.id ?? null;
      setToast((current) =>
        current?.origin === host.id ? { ...current, origin: beneath, releasedAt: Date.now() } : current,
      );
    };
  }, []);
  const [value] = useState<ToastContextValue>(() => ({ show, addHost }));

  const top = hosts.at(-1) ?? null;
  const host = top?.element ?? null;
  // Under a modal that shows none, nothing shows; elsewhere the toast of this place.
  const shown = toast && (!top || host) && (top?.id ?? null) === toast.origin ? toast : null;
  // A notification is for the screen: it has no place on a printed report.
  // Over a page it floats at the bottom (right on wide screens): the top bar,
  // the page's heading and its main buttons (Add Home, Create Report) are at
  // the top. Inside a modal it takes its place in the modal's flow instead.
  const area = (
    <section
      ref={viewport}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className={`pointer-events-none flex flex-col gap-2 outline-none print:hidden ${
        host
          ? 'py-2 empty:py-0'
          : 'fixed right-0 bottom-0 z-[100] w-full max-w-sm p-4 pb-[max(1rem,env(safe-area-inset-bottom))]'
      }`}
    >
      {shown && <ToastItem key={shown.id} toast={shown} onDismiss={dismiss} />}
    </section>
  );
  return (
    <ToastContext.Provider value={value}>
      {children}
      {host ? createPortal(area, host) : area}
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: ToastState; onDismiss: () => void }) {
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);
  const destructive = toast.variant === 'destructive';
  const onPointerDown = (event: PointerEvent) => {
    start.current = event.clientX;
  };
  const onPointerMove = (event: PointerEvent) => {
    if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
  };
  const onPointerUp = () => {
    if (offset >= TOAST_SWIPE_THRESHOLD_PX) onDismiss();
    start.current = null;
    setOffset(0);
  };
  return (
    <div
      role={destructive ? 'alert' : 'status'}
      aria-live={destructive ? 'assertive' : 'polite'}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      style={{ transform: `translateX(${offset}px)` }}
      className={`pointer-events-auto flex items-start justify-between gap-3 rounded-md border p-4 shadow-lg ${
        destructive ? 'border-red-700 bg-red-700 text-white' : 'border-gray-200 bg-white text-gray-900'
      }`}
    >
      <div>
        <p className="text-sm font-semibold">{toast.title}</p>
        {toast.description && <p className="mt-1 text-sm opacity-90">{toast.description}</p>}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Close"
        className="rounded px-1 text-lg leading-none opacity-80 hover:opacity-100"
      >
        ×
      </button>
    </div>
  );
}
