/**
 * What a list shows while its records are still arriving (the first sync,
 * older reports): 'Loading homes… 2,000 of 5,000', instead of an empty list
 * or a count of 0 that is not true yet.
 */
import { Spinner } from './Spinner.tsx';

export interface SyncProgressValue {
  loaded: number;
  /** Null until the server said how many there are. */
  total: number | null;
}

// One formatter for every count: toLocaleString('en-US') builds a new one at each call (a
// fifth of a millisecond), and a first sync redraws these counts all along.
const counts = new Intl.NumberFormat('en-US');
const count = (n: number) => counts.format(n);

export function syncProgressText(noun: string, { loaded, total }: SyncProgressValue): string {
  return total === null ? `Loading ${noun}…` : `Loading ${noun}… ${count(Math.min(loaded, total))} of ${count(total)}`;
}

export function SyncProgress({ noun, progress }: { noun: string; progress: SyncProgressValue }) {
  const text = syncProgressText(noun, progress);
  return (
    <div className="flex flex-col items-center gap-3 py-12">
      <Spinner label={`Loading ${noun}`} />
      <p role="status" className="text-sm text-gray-700">
        {text}
      </p>
      {progress.total !== null && progress.total > 0 && (
        // The text says the same to a screen reader.
        <progress
          aria-hidden="true"
          className="h-2 w-64 max-w-full accent-black"
          value={Math.min(progress.loaded, progress.total)}
          max={progress.total}
        />
      )}
    </div>
  );
}

/**
 * The one-line form, above a list that already shows what has arrived (the
 * top of the Homes list during a first sync): the count says it is not all.
 */
export function SyncProgressLine({
  noun,
  progress,
  className,
}: {
  noun: string;
  progress: SyncProgressValue;
  className?: string;
}) {
  return (
    <p className={`flex items-center gap-2 ${className ?? ''}`}>
      <Spinner size={16} label={`Loading ${noun}`} />
      <span role="status">{syncProgressText(noun, progress)}</span>
    </p>
  );
}
