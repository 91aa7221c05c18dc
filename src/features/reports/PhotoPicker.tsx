/**
 * Photos for a new report: the phone's camera or gallery, up to 5, shown as
 * thumbnails with a remove button each. Each is made small on the device
 * first (useAttachments.ts), shown meanwhile as 'Preparing photo…'. They
 * travel with the report through the outbox as Blobs, so attaching works
 * offline.
 */
import { useId } from 'react';
import { Spinner } from '../../ui/Spinner.tsx';
import { MAX_PHOTOS } from './photos.ts';
import type { Attachments } from './useAttachments.ts';

export function PhotoPicker({ photos }: { photos: Attachments }) {
  const id = useId();
  const { items, message, preparing } = photos;
  const full = items.length >= MAX_PHOTOS;

  return (
    <div>
      <div className="flex items-center justify-between gap-3">
        <span className="text-sm font-medium" id={`${id}-label`}>
          Photos{' '}
          <span className="font-normal text-gray-600">
            ({items.length}/{MAX_PHOTOS})
          </span>
        </span>
        <label
          className={`shrink-0 rounded border border-gray-300 px-3 py-1.5 text-sm font-medium ${full ? 'cursor-not-allowed opacity-50' : 'cursor-pointer hover:bg-gray-100 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-black'}`}
        >
          Add photos
          <input
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            className="sr-only"
            disabled={full}
            onChange={(event) => {
              photos.add([...(event.target.files ?? [])]);
              // The same file may be picked again after a removal.
              event.target.value = '';
            }}
          />
        </label>
      </div>
      <p className="mt-1 text-sm text-gray-600" aria-live="polite">
        {preparing > 0 ? (preparing === 1 ? 'Preparing photo…' : `Preparing ${preparing} photos…`) : ''}
      </p>
      {message && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {message}
        </p>
      )}
      {items.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2" aria-labelledby={`${id}-label`}>
          {items.map((attachment, index) => (
            <li key={attachment.key} className="relative">
              {attachment.url ? (
                <img
                  src={attachment.url}
                  alt={`Photo ${index + 1}`}
                  className="h-20 w-20 rounded border border-gray-200 object-cover"
                />
              ) : (
                <div className="flex h-20 w-20 items-center justify-center rounded border border-dashed border-gray-300 bg-gray-50">
                  <Spinner size={24} label={`Preparing photo ${index + 1}`} />
                </div>
              )}
              <button
                type="button"
                onClick={() => photos.remove(attachment.key)}
                aria-label={`Remove photo ${index + 1}`}
                className="absolute -top-2 -right-2 flex size-6 items-center justify-center rounded-full bg-black text-sm leading-none text-white"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
