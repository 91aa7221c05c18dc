/**
 * Photos attached to a new report: at most 5, images only. Each is made
 * small on the device before the report is queued (src/data/shrinkPhoto.ts),
 * so a camera's photo of any size is accepted; only one the browser cannot
 * read and the server would refuse (over 10 MB) is turned away, by
 * shrinkPhoto. Checked here so a queued report is not parked later for a
 * photo the server refuses.
 */
export const MAX_PHOTOS = 5;
const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif'];

export const TOO_MANY_PHOTOS = `You can attach up to ${MAX_PHOTOS} photos.`;
export const WRONG_PHOTO_TYPE = 'Only JPEG, PNG, WebP, GIF or HEIC photos can be attached.';

export interface PhotoPick<T> {
  /** The picked files that fit, in order. */
  accepted: T[];
  /** Why some of the picked files were not added; null when all were. */
  message: string | null;
}

/** Which of the picked files can join the `attached` ones, keeping the limits. */
export function pickPhotos<T extends Pick<File, 'type'>>(attached: number, picked: readonly T[]): PhotoPick<T> {
  const accepted: T[] = [];
  const messages = new Set<string>();
  for (const file of picked) {
    // Some phones leave the type empty (HEIC); the server checks the content then.
    if (file.type && !ACCEPTED_TYPES.includes(file.type)) messages.add(WRONG_PHOTO_TYPE);
    else if (attached + accepted.length >= MAX_PHOTOS) messages.add(TOO_MANY_PHOTOS);
    else accepted.push(file);
  }
  return { accepted, message: messages.size > 0 ? [...messages].join(' ') : null };
}
