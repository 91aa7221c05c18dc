/**
 * The photos of the report being written. Each picked photo is made small
 * on the device (src/data/shrinkPhoto.ts) as soon as it is picked; until
 * then it shows as 'Preparing photo…'. The form's submit waits for `ready()`
 * so a report never leaves with a photo half prepared, and stops when a
 * photo was turned away meanwhile (its reason shows in the picker).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { shrinkPhoto } from '../../data/shrinkPhoto.ts';
import { pickPhotos } from './photos.ts';

export interface Attachment {
  key: number;
  /** What will be queued; undefined while the photo is being prepared. */
  file?: File;
  /** An object URL of `file` for the thumbnail; revoked when the photo is removed. */
  url?: string;
}

export interface Attachments {
  items: readonly Attachment[];
  /** Why picked photos were not added; null when all were. */
  message: string | null;
  /** How many photos are still being prepared. */
  preparing: number;
  add: (files: readonly File[]) => void;
  remove: (key: number) => void;
  /** Forgets every photo (after the report was queued). */
  clear: () => void;
  /** The prepared files, in order, once every photo is ready; null when one was turned away while waiting. */
  ready: () => Promise<File[] | null>;
}

export function useAttachments(): Attachments {
  const [items, setItems] = useState<readonly Attachment[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  // The list itself lives here too, so the prepared files are known the moment they are, not a render later.
  const list = useRef<readonly Attachment[]>([]);
  const jobs = useRef(new Map<number, Promise<void>>());
  const nextKey = useRef(0);
  const refusals = useRef(0);

  const update = useCallback((next: readonly Attachment[]) => {
    list.current = next;
    setItems(next);
  }, []);

  const add = useCallback(
    (files: readonly File[]) => {
      const { accepted, message } = pickPhotos(list.current.length, files);
      setMessage(message);
      const added = accepted.map((file) => ({ key: ++nextKey.current, file }));
      update([...list.current, ...added.map(({ key }) => ({ key }))]);
      for (const { key, file } of added) {
        const job = shrinkPhoto(file).then((prepared) => {
          jobs.current.delete(key);
          // Removed while it was being prepared.
          if (!list.current.some((a) => a.key === key)) return;
          if (prepared.ok) {
            const ready = { key, file: prepared.file, url: URL.createObjectURL(prepared.file) };
            update(list.current.map((a) => (a.key === key ? ready : a)));
          } else {
            refusals.current += 1;
            setMessage(prepared.message);
            update(list.current.filter((a) => a.key !== key));
          }
        });
        jobs.current.set(key, job);
      }
    },
    [update],
  );

  const remove = useCallback(
    (key: number) => {
      const gone = list.current.find((a) => a.key === key);
      if (gone?.url) URL.revokeObjectURL(gone.url);
      setMessage(null);
      update(list.current.filter((a) => a.key !== key));
    },
    [update],
  );

  const clear = useCallback(() => {
    list.current.forEach((a) => a.url && URL.revokeObjectURL(a.url));
    setMessage(null);
    update([]);
  }, [update]);

  const ready = useCallback(async () => {
    const refusedBefore = refusals.current;
    while (jobs.current.size > 0) await Promise.all(jobs.current.values());
    if (refusals.current !== refusedBefore) return null;
    return list.current.flatMap((a) => (a.file ? [a.file] : []));
  }, []);

  // Thumbnails' object URLs are released when the form goes.
  useEffect(() => () => list.current.forEach((a) => a.url && URL.revokeObjectURL(a.url)), []);

  const preparing = items.filter((a) => !a.file).length;
  return useMemo(
    () => ({ items, message, preparing, add, remove, clear, ready }),
    [items, message, preparing, add, remove, clear, ready],
  );
}
