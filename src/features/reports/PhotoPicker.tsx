/**
 * Photos for a new report: the phone's camera or gallery, up to 5, shown as
 * thumbnails with a remove button each. They travel with the report through
 * the outbox as Blobs, so attaching works offline.
 */
import { useId, useState } from 'react';
import { MAX_PHOTOS, pickPhotos } from './photos.ts';

export interface Attachment {
  file: File;
  /** An object URL for the thumbnail; revoked when the photo is removed. */
  url: string;
}

export function PhotoPicker({
  value,
  onChange,
}: {
  value: readonly Attachment[];
  onChange: (next: Attachment[]) => void;
}) {
  const id = useId();
  const [message, setMessage] = useState<string | null>(null);

  const pick = (files: FileList | null) => {
    const { accepted, message } = pickPhotos(value.length, [...(files ?? [])]);
    setMessage(message);
    onChange([...value, ...accepted.map((file) => ({ file, url: URL.createObjectURL(file) }))]);
  };

  const remove = (index: number) => {
    const gone = value[index];
    if (gone) URL.revokeObjectURL(gone.url);
    setMessage(null);
    onChange(value.filter((_, i) => i !== index));
  };

  return (
    <div>
      <div className="flex items-center justify-between">
        <span className="text-sm font-medium" id={`${id}-label`}>
          Photos{' '}
          <span className="font-normal text-gray-600">
            ({value.length}/{MAX_PHOTOS})
          </span>
        </span>
        <label
          className={`rounded border border-gray-300 px-3 py-1.5 text-sm font-medium ${value.length >= MAX_PHOTOS ? 'cursor-not-allowed opacity-50' : 'cursor-pointer hover:bg-gray-100 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-black'}`}
        >
          Add photos
          <input
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            className="sr-only"
            disabled={value.length >= MAX_PHOTOS}
            onChange={(event) => {
              pick(event.target.files);
              // The same file may be picked again after a removal.
              event.target.value = '';
            }}
          />
        </label>
      </div>
      {message && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {message}
        </p>
      )}
      {value.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2" aria-labelledby={`${id}-label`}>
          {value.map((attachment, index) => (
            <li key={attachment.url} className="relative">
              <img
                src={attachment.url}
                alt={`Photo ${index + 1}`}
                className="h-20 w-20 rounded border border-gray-200 object-cover"
              />
              <button
                type="button"
                onClick={() => remove(index)}
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
