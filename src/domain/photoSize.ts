/**
 * How a photo is made small on the device before it is queued: the pure
 * rules of src/data/shrinkPhoto.ts (which does the decoding and encoding in
 * the browser). A phone camera's 12–200 MP photo of several MB becomes a
 * JPEG of at most 2000 px on its long edge and, typically, under 1 MB: it
 * reaches the server over a patrol car's weak uplink, and re-encoding drops
 * the camera's metadata (its location included).
 */

/** What the server takes per file (the reports' photos, the houses' image). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The long edge of a prepared photo: enough to read a plate or a face on a desktop screen. */
export const MAX_EDGE_PX = 2000;
/** What a prepared photo aims under; a lower quality is tried while it is larger. */
export const TARGET_BYTES = 1024 * 1024;
/** The JPEG qualities tried in turn: the first gives a typical 12 MP photo well under 1 MB. */
export const JPEG_QUALITIES = [0.8, 0.7, 0.6, 0.5] as const;

export const PHOTO_UNREADABLE =
  'This photo cannot be read on this device and is larger than the 10 MB the server takes. ' +
  'Choose a JPEG or PNG photo instead (on an iPhone: Settings › Camera › Formats › Most Compatible).';

export interface Size {
  width: number;
  height: number;
}

/** The size within `maxEdge` on the long edge, keeping the proportions; never larger than the original. */
export function fitWithin({ width, height }: Size, maxEdge: number = MAX_EDGE_PX): Size {
  const longEdge = Math.max(width, height);
  if (longEdge <= maxEdge) return { width, height };
  const scale = maxEdge / longEdge;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Whether a decoded image is sent as it is: a small PNG or GIF (a screenshot,
 * a drawing) that JPEG would only blur (or stop, for an animation) and that
 * carries no camera metadata. Camera formats (JPEG, HEIC, WebP) are always
 * re-encoded, if only to drop their location.
 */
export function keepsAsIs(file: { type: string; size: number }, size: Size, hasMetadata: boolean): boolean {
  return (
    (file.type === 'image/png' || file.type === 'image/gif') &&
    !hasMetadata &&
    file.size <= TARGET_BYTES &&
    Math.max(size.width, size.height) <= MAX_EDGE_PX
  );
}

/** The next quality to try after an encoding of `bytes` at `quality`; null when this one is kept. */
export function nextQuality(quality: number, bytes: number): number | null {
  if (bytes <= TARGET_BYTES) return null;
  return JPEG_QUALITIES.find((q) => q < quality) ?? null;
}

/** What happens to a photo the browser cannot decode (HEIC in Chromium): sent as it is while the server takes it. */
export function undecodable(bytes: number): 'keep' | 'refuse' {
  return bytes <= MAX_UPLOAD_BYTES ? 'keep' : 'refuse';
}

/** The prepared file's name: the original's with a .jpg extension ('IMG_0001.HEIC' → 'IMG_0001.jpg'). */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '').trim();
  return `${base || 'photo'}.jpg`;
}

const METADATA_MARKERS = ['eXIf', 'iTXt', 'zTXt', 'XMP'].map((marker) => [...marker].map((c) => c.charCodeAt(0)));

/**
 * Whether a PNG's or GIF's bytes may hold metadata worth dropping: an Exif
 * chunk or XMP (where cameras and editors put a location). A chance match
 * in the pixels only costs a re-encoding.
 */
export function mayCarryMetadata(bytes: Uint8Array): boolean {
  return METADATA_MARKERS.some((marker) => {
    outer: for (let i = bytes.indexOf(marker[0]!); i !== -1; i = bytes.indexOf(marker[0]!, i + 1)) {
      for (let k = 1; k < marker.length; k++) if (bytes[i + k] !== marker[k]) continue outer;
      return true;
    }
    return false;
  });
}
