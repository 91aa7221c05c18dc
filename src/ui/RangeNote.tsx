/**
 * What a screen says while the reports of its period are being pulled into
 * the mirror (the data layer's range state): a spinner while loading, and
 * offline or after a failure that it shows what the device holds, with
 * 'Try again' after a failure. Each screen gives its own words.
 */
import { Spinner } from './Spinner.tsx';

/** The data layer's RangeState, written out: src/ui does not import src/data. */
export type RangeNoteState = 'ready' | 'loading' | 'offline' | 'failed';

export interface RangeNoteWords {
  loading: string;
  offline: string;
  failed: string;
}

export function RangeNote({
  state,
  onRetry,
  words,
}: {
  state: RangeNoteState;
  onRetry: () => void;
  words: RangeNoteWords;
}) {
  if (state === 'ready') return null;
  if (state === 'loading') {
    return (
      <p className="no-print mt-3 flex items-center gap-2 text-sm text-gray-700">
        <Spinner size={18} label={words.loading.replace(/…$/, '')} /> {words.loading}
      </p>
    );
  }
  return (
    <p role="status" className="no-print mt-3 rounded bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {state === 'offline' ? words.offline : words.failed}
      {state === 'failed' && (
        <button type="button" onClick={onRetry} className="ml-2 underline">
          Try again
        </button>
      )}
    </p>
  );
}
