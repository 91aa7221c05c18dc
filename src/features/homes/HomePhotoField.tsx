/**
 * The home form's Image field. Update Home shows the home's photo with
 * Replace image and Remove image (a bare file input would show
 * 'Choose File' even when the home had a photo); a picked photo shows at
 * once, before it is saved, with the same two buttons. A picked photo is
 * made small on the device as soon as it is picked (src/data/shrinkPhoto.ts).
 */
import { useRef, useState, type ReactNode } from 'react';
import { shrinkPhoto, type PreparedPhoto } from '../../data/shrinkPhoto.ts';
import { BlobImage } from '../../ui/BlobImage.tsx';
import { FieldError } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';

/** What saving does to the home's photo. */
export type PhotoChoice =
  | { kind: 'keep' }
  | { kind: 'new'; picked: File; prepared: Promise<PreparedPhoto>; ready: boolean }
  | { kind: 'remove' };

export const KEEP_PHOTO: PhotoChoice = { kind: 'keep' };

/** The file to send (`null`: take the photo away; `undefined`: leave it), or false when the picked one was turned away. */
export async function photoToSave(choice: PhotoChoice): Promise<File | null | undefined | false> {
  if (choice.kind === 'keep') return undefined;
  if (choice.kind === 'remove') return null;
  const prepared = await choice.prepared;
  return prepared.ok ? prepared.file : false;
}

/** The photo's size in the form, the saved one (given by the caller) and a picked one alike. */
export const PHOTO_PREVIEW_CLASS = 'h-32 w-44 rounded-md bg-gray-200 object-cover';
const BUTTON_CLASS =
  'inline-flex min-h-11 cursor-pointer items-center rounded border border-gray-300 bg-white px-3 text-sm font-medium hover:bg-gray-100';

export function HomePhotoField({
  choice,
  onChoice,
  current,
}: {
  choice: PhotoChoice;
  onChoice: (choice: PhotoChoice) => void;
  /** The saved photo as the card shows it; absent when the home has none (and on Add Home). */
  current?: ReactNode;
}) {
  const [message, setMessage] = useState<string | null>(null);
  /** The latest pick: an earlier one that finishes after it changes nothing. */
  const latest = useRef<Promise<PreparedPhoto> | null>(null);
  /** A button's choice: a photo still being prepared no longer counts. */
  const choose = (next: PhotoChoice) => {
    latest.current = null;
    onChoice(next);
  };
  const pick = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // The same file picked again after Remove must fire a change: the input keeps no value.
    input.value = '';
    if (!file) return;
    setMessage(null);
    const prepared = shrinkPhoto(file);
    latest.current = prepared;
    onChoice({ kind: 'new', picked: file, prepared, ready: false });
    void prepared.then((result) => {
      if (latest.current !== prepared) return;
      if (result.ok) return onChoice({ kind: 'new', picked: file, prepared, ready: true });
      setMessage(result.message);
      onChoice(KEEP_PHOTO);
    });
  };

  const shown =
    choice.kind === 'new' ? (
      <BlobImage blob={choice.picked} alt="The new image" width={400} height={300} className={PHOTO_PREVIEW_CLASS} />
    ) : choice.kind === 'keep' ? (
      current
    ) : undefined;
  const picker = (words: string) => (
    <label className={`${BUTTON_CLASS} focus-within:ring-2 focus-within:ring-black`}>
      {words}
      <input
        type="file"
        accept="image/*"
        aria-describedby={message ? 'home-image-error' : undefined}
        onChange={(event) => pick(event.target)}
        className="sr-only"
      />
    </label>
  );

  return (
    <div role="group" aria-labelledby="home-image-label">
      <span id="home-image-label" className="block text-sm font-medium">
        Image
      </span>
      <div className="mt-1 flex flex-wrap items-end gap-3">
        {shown}
        {choice.kind === 'remove' && (
          <p className="text-sm text-gray-700" role="status">
            The image will be removed when you save.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {choice.kind === 'remove' ? (
            <button type="button" className={BUTTON_CLASS} onClick={() => choose(KEEP_PHOTO)}>
              Keep image
            </button>
          ) : shown ? (
            <>
              {picker('Replace image')}
              <button
                type="button"
                className={BUTTON_CLASS}
                // A picked photo is simply dropped; a saved one is taken away on save.
                onClick={() => choose(choice.kind === 'new' && !current ? KEEP_PHOTO : { kind: 'remove' })}
              >
                Remove image
              </button>
            </>
          ) : (
            picker('Add image')
          )}
        </div>
      </div>
      {choice.kind === 'new' && !choice.ready && (
        <p className="mt-1 flex items-center gap-2 text-sm text-gray-600" aria-live="polite">
          <Spinner size={16} label="Preparing image" />
          Preparing image…
        </p>
      )}
      <FieldError id="home-image-error" message={message ?? undefined} />
    </div>
  );
}
