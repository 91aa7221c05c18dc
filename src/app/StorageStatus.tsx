/**
 * The sync panel's storage line: whether the browser keeps this device's
 * data (the mirror and the changes not yet sent), and the space used and
 * left. After the browser refused to keep it, how to change that is said
 * once on the device (src/data/mirror/storageKeep.ts).
 */
import { useEffect, useState } from 'react';
import {
  rememberStorageHintShown,
  storageHintShown,
  useStorageKept,
  useStorageSpace,
} from '../data/mirror/storageKeep.ts';
import { STORAGE_HINT, storageKeptLine, storageSpaceLine } from './storageText.ts';

/** `refresh`: read the space again when it changes (the panel's pending count, say). */
export function StorageStatus({ refresh }: { refresh?: unknown }) {
  const kept = useStorageKept();
  const space = useStorageSpace(refresh);
  // Decided when the panel opens, so the hint stays while it is open and never comes back after.
  const [hintDue] = useState(() => !storageHintShown());
  const showHint = kept === false && hintDue;
  useEffect(() => {
    if (showHint) rememberStorageHintShown();
  }, [showHint]);
  const keptLine = storageKeptLine(kept);
  if (!keptLine && !space) return null;
  return (
    <div className="mt-2 border-t border-gray-200 pt-2" data-testid="storage-status">
      {keptLine && <p className={kept ? 'text-gray-600' : 'text-amber-800'}>{keptLine}</p>}
      {space && <p className="mt-1 text-gray-600">{storageSpaceLine(space.usage, space.quota)}</p>}
      {showHint && <p className="mt-1 rounded bg-amber-50 p-2 text-amber-900">{STORAGE_HINT}</p>}
    </div>
  );
}
