/**
 * A report's photos: thumbnails (the server's 400x300 thumb), the full
 * picture in a dialog on tap. Photos are protected files: every URL carries
 * the file token all images on screen share (none offline, where the service
 * worker's cache answers). Photos of a report still in the outbox have
 * placeholder names ('pending-N'; the Blobs wait in the outbox) and show a
 * "waiting to upload" tile instead.
 */
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useState } from 'react';
import { reportPhotoUrl, useFileToken, withFileToken } from '../../data/fileToken.ts';

export function isPendingPhoto(name: string): boolean {
  return /^pending-\d+$/.test(name);
}

export function ReportPhotos({ reportId, photos }: { reportId: string; photos: readonly string[] }) {
  if (photos.length === 0) return null;
  return <PhotoList reportId={reportId} photos={photos} />;
}

function PhotoList({ reportId, photos }: { reportId: string; photos: readonly string[] }) {
  const [shown, setShown] = useState<number | null>(null);
  const file = useFileToken();
  // Until the first token is here, no URL: without one the server would refuse.
  const src = (name: string, thumb?: string) =>
    file.settled ? withFileToken(reportPhotoUrl(reportId, name, thumb), file.token) : undefined;
  const shownName = shown === null ? undefined : photos[shown];
  return (
    <>
      <ul className="mt-3 flex flex-wrap gap-2" aria-label="Photos">
        {photos.map((name, index) => (
          <li key={name}>
            {isPendingPhoto(name) ? (
              <div className="flex h-[75px] w-[100px] items-center justify-center rounded border border-dashed border-gray-400 bg-gray-100 p-1 text-center text-xs text-gray-700">
                Photo waiting to upload
              </div>
            ) : (
              <button
                type="button"
                onClick={() => setShown(index)}
                className="block overflow-hidden rounded border border-gray-200"
                aria-label={`Open photo ${index + 1}`}
              >
                <img
                  src={src(name, '400x300')}
                  alt=""
                  loading="lazy"
                  className="h-[75px] w-[100px] object-cover print:h-[150px] print:w-[200px]"
                />
              </button>
            )}
          </li>
        ))}
      </ul>
      <Dialog open={shownName !== undefined} onClose={() => setShown(null)} className="relative z-50">
        <DialogBackdrop className="fixed inset-0 bg-scrim/80" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="relative max-h-full max-w-full">
            <DialogTitle className="sr-only">Photo {(shown ?? 0) + 1}</DialogTitle>
            {shownName && (
              <img
                src={src(shownName)}
                alt={`Report photo ${(shown ?? 0) + 1}`}
                className="max-h-[85vh] max-w-full rounded object-contain"
              />
            )}
            <button
              type="button"
              onClick={() => setShown(null)}
              className="absolute top-2 right-2 rounded bg-white/90 px-3 py-1 text-sm font-medium"
            >
              Close
            </button>
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}
