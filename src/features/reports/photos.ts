/**
 * Photos attached to a new report: at most 5, images the server accepts,
 * each at most 10 MB (the reports collection's photos field). Checked here
 * so a queued report is not parked later for a photo the server refuses.
 */
export const MAX_PHOTOS = 5;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif'];

export const TOO_MANY_PHOTOS = `You can attach up to ${MAX_PHOTOS} photos.`;
export const WRONG_PHOTO_TYPE = 'Only JPEG, PNG, WebP, GIF or HEIC photos can be attached.';
export const PHOTO_TOO_LARGE = 'A photo must not exceed 10 MB.';

export interface PhotoPick<T> {
  /** The picked files that fit, in order. */
  accepted: T[];
  /** Why some of the picked files were not added; null when all were. */
  message: string | null;
}

/** Which of the picked files can join the `attached` ones, keeping the limits. */
export function pickPhotos<T extends Pick<File, 'type' | 'size'>>(
  attached: number,
  picked: readonly T[],
): PhotoPick<T> {
  const accepted: T[] = [];
  const messages = new Set<string>();
  for (const file of picked) {
    // Some phones leave the type empty (HEIC); the server checks the content then.
    if (file.type && !ACCEPTED_TYPES.includes(file.type)) messages.add(WRONG_PHOTO_TYPE);
    else if (file.size > MAX_PHOTO_BYTES) messages.add(PHOTO_TOO_LARGE);
    else if (attached + accepted.length >= MAX_PHOTOS) messages.add(TOO_MANY_PHOTOS);
    else accepted.push(file);
  }
  return { accepted, message: messages.size > 0 ? [...messages].join(' ') : null };
}
