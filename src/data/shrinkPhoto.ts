/**
 * Makes a photo small on the device before it is queued (report photos, a
 * home's image): decoded by the browser itself (createImageBitmap, with the
 * camera's EXIF orientation applied), drawn at most 2000 px on its long edge
 * and re-encoded as JPEG at a quality that keeps a typical 12 MP photo under
 * 1 MB. The new file holds pixels only: the camera's metadata, its location
 * included, stays behind. The rules (sizes, qualities, what is kept as it
 * is) are src/domain/photoSize.ts.
 *
 * A photo the browser cannot decode (HEIC in Chromium) is sent as it is
 * while it is within the server's 10 MB, and refused with PHOTO_UNREADABLE
 * past that.
 */
import {
  fitWithin,
  JPEG_QUALITIES,
  jpegName,
  keepsAsIs,
  mayCarryMetadata,
  nextQuality,
  PHOTO_UNREADABLE,
  undecodable,
  type Size,
} from '../domain/photoSize.ts';

export type PreparedPhoto =
  | {
      ok: true;
      /** What to queue: the small JPEG, or the original when it is kept as it is. */
      file: File;
      /** False when the original is sent as it is. */
      shrunk: boolean;
    }
  | { ok: false; message: string };

type Canvas = OffscreenCanvas | HTMLCanvasElement;

function makeCanvas({ width, height }: Size): Canvas {
  if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function encodeJpeg(canvas: Canvas, quality: number): Promise<Blob> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type: 'image/jpeg', quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('JPEG encoding failed'))), 'image/jpeg', quality),
  );
}

function asIs(file: File): PreparedPhoto {
  return undecodable(file.size) === 'keep'
    ? { ok: true, file, shrunk: false }
    : { ok: false, message: PHOTO_UNREADABLE };
}

async function decode(file: File): Promise<ImageBitmap | null> {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    // 'from-image': a portrait photo stored sideways with an Orientation tag comes out upright.
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return null;
  }
}

async function drawAndEncode(bitmap: ImageBitmap, name: string, lastModified: number): Promise<File> {
  const size = fitWithin(bitmap);
  const canvas = makeCanvas(size);
  try {
    const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
    if (!context) throw new Error('no 2d canvas');
    // JPEG has no transparency: a transparent PNG's background becomes white, not black.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size.width, size.height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    let quality: number | null = JPEG_QUALITIES[0];
    let blob = await encodeJpeg(canvas, quality);
    while ((quality = nextQuality(quality, blob.size)) !== null) blob = await encodeJpeg(canvas, quality);
    return new File([blob], jpegName(name), { type: 'image/jpeg', lastModified });
  } finally {
    // Let the (phone-sized) pixel buffer go now rather than at the next collection.
    canvas.width = 0;
    canvas.height = 0;
  }
}

export async function shrinkPhoto(file: File): Promise<PreparedPhoto> {
  const bitmap = await decode(file);
  if (!bitmap) return asIs(file);
  try {
    if (keepsAsIs(file, bitmap, false) && !mayCarryMetadata(new Uint8Array(await file.arrayBuffer())))
      return { ok: true, file, shrunk: false };
    return { ok: true, file: await drawAndEncode(bitmap, file.name, file.lastModified), shrunk: true };
  } catch (error) {
    // Out of memory for a huge photo on a small phone, most likely: as if it could not be decoded.
    console.warn('Photo could not be made smaller:', error);
    return asIs(file);
  } finally {
    bitmap.close();
  }
}
