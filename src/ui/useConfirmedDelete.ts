import { useState } from 'react';

/**
 * The state of a "Delete …?" confirmation: which item is asked about, the
 * busy flag while the delete runs, and the confirm handler. Either way the
 * question is answered and closes: a failure is told by the action's toast.
 */
export function useConfirmedDelete<T>(remove: (item: T) => Promise<unknown>) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  async function confirmDelete() {
    if (deleting === null) return;
    setBusy(true);
    await remove(deleting);
    setBusy(false);
    setDeleting(null);
  }
  return { deleting, askDelete: setDeleting, cancelDelete: () => setDeleting(null), busy, confirmDelete };
}
