import { useState, useSyncExternalStore } from 'react';
import { applyUpdate, isUpdateWaiting, onUpdateWaiting } from '../sw-register.ts';

const subscribe = (notify: () => void) => onUpdateWaiting(notify);

/**
 * "New version available — Reload" (docs/product.md#navigation): a banner, not a dialog, so
 * an officer in the middle of a report finishes first. Announced politely
 * by screen readers; it never takes the focus.
 */
export function UpdatePrompt() {
  const waiting = useSyncExternalStore(subscribe, isUpdateWaiting, () => false);
  const [reloading, setReloading] = useState(false);
  if (!waiting) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-0 bottom-0 z-50 m-3 flex items-center justify-between gap-4 rounded-lg bg-gray-900 px-4 py-3 text-white shadow-lg sm:inset-x-auto sm:right-0"
    >
      <span>New version available</span>
      <button
        type="button"
        disabled={reloading}
        className="rounded bg-white px-3 py-1 font-medium text-gray-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-white focus-visible:ring-offset-2 focus-visible:ring-offset-gray-900 disabled:opacity-60"
        onClick={() => {
          setReloading(true);
          void applyUpdate();
        }}
      >
        {reloading ? 'Reloading…' : 'Reload'}
      </button>
    </div>
  );
}
