import type { ConcernRecord } from '../../api/records.ts';
import { composeScript } from '../../domain/callScript.ts';

interface Controls {
  disabled: boolean;
  /** Why the buttons are disabled (their tooltip). */
  blockedReason: string | null;
  onEdit: () => void;
  onDelete: () => void;
}

const buttonClass =
  'rounded border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-100 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent';

/** Name, hint and the whole spoken script, as the resident hears it (docs/product.md#concerns). */
export function ConcernCard({
  concern,
  communityName,
  controls,
}: {
  concern: ConcernRecord;
  communityName: string;
  controls: Controls | null;
}) {
  return (
    <div className="flex flex-col rounded-lg bg-white p-4 shadow-sm ring-1 ring-gray-200">
      <h2 className="font-semibold break-words">{concern.name}</h2>
      <p className="mt-1 text-sm text-gray-700 break-words">{concern.hint}</p>
      <figure className="mt-3 flex-1">
        <figcaption className="text-xs font-medium tracking-wide text-gray-700 uppercase">Spoken script</figcaption>
        <blockquote className="mt-1 rounded bg-gray-100 px-3 py-2 text-sm text-gray-900 break-words">
          {composeScript(communityName, [concern.say])}
        </blockquote>
      </figure>
      {controls && (
        <div className="mt-3 flex justify-end gap-2">
          <button
            type="button"
            aria-label={`Edit ${concern.name}`}
            title={controls.blockedReason ?? undefined}
            disabled={controls.disabled}
            onClick={controls.onEdit}
            className={buttonClass}
          >
            Edit
          </button>
          <button
            type="button"
            aria-label={`Delete ${concern.name}`}
            title={controls.blockedReason ?? undefined}
            disabled={controls.disabled}
            onClick={controls.onDelete}
            className={`${buttonClass} text-red-800`}
          >
            Delete
          </button>
        </div>
      )}
    </div>
  );
}
