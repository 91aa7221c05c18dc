/**
 * The rules of making a photo small on the device (src/domain/photoSize.ts)
 * and what src/data/shrinkPhoto.ts does with a photo the browser cannot
 * decode (no createImageBitmap here in Node, like HEIC in Chromium). The
 * decoding and encoding themselves run in Chromium: tests/e2e/photos-shrink.test.ts.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { shrinkPhoto } from '../../src/data/shrinkPhoto.ts';
import {
  fitWithin,
  JPEG_QUALITIES,
  jpegName,
  keepsAsIs,
  MAX_EDGE_PX,
  MAX_UPLOAD_BYTES,
  mayCarryMetadata,
  nextQuality,
  PHOTO_UNREADABLE,
  TARGET_BYTES,
  undecodable,
} from '../../src/domain/photoSize.ts';

const ascii = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));

describe('the size of a prepared photo', () => {
  test('the long edge is brought to 2000 px, keeping the proportions', () => {
    expect(fitWithin({ width: 4000, height: 3000 })).toEqual({ width: 2000, height: 1500 });
    expect(fitWithin({ width: 3000, height: 4000 })).toEqual({ width: 1500, height: 2000 });
    // A 200 MP sensor (16320 × 12240).
    expect(fitWithin({ width: 16320, height: 12240 })).toEqual({ width: 2000, height: 1500 });
    expect(fitWithin({ width: 9000, height: 3 })).toEqual({ width: 2000, height: 1 });
  });
  test('never upscaled', () => {
    expect(fitWithin({ width: 2000, height: 1000 })).toEqual({ width: 2000, height: 1000 });
    expect(fitWithin({ width: 640, height: 480 })).toEqual({ width: 640, height: 480 });
    expect(MAX_EDGE_PX).toBe(2000);
  });
});

describe('the JPEG quality', () => {
  test('the first is kept when the photo is under the target; else the next lower one is tried, down to the last', () => {
    expect(nextQuality(JPEG_QUALITIES[0], TARGET_BYTES)).toBeNull();
    expect(nextQuality(0.8, TARGET_BYTES + 1)).toBe(0.7);
    expect(nextQuality(0.7, 3 * TARGET_BYTES)).toBe(0.6);
    expect(nextQuality(0.6, 3 * TARGET_BYTES)).toBe(0.5);
    expect(nextQuality(0.5, 3 * TARGET_BYTES)).toBeNull();
    expect(TARGET_BYTES).toBe(1024 * 1024);
  });
});

describe('what is sent as it is', () => {
  const size = { width: 800, height: 600 };
  test('a small PNG or GIF without metadata', () => {
    expect(keepsAsIs({ type: 'image/png', size: 40_000 }, size, false)).toBe(true);
    expect(keepsAsIs({ type: 'image/gif', size: 40_000 }, size, false)).toBe(true);
  });
  test('never a camera format, a large file, a large image or one with metadata', () => {
    expect(keepsAsIs({ type: 'image/jpeg', size: 40_000 }, size, false)).toBe(false);
    expect(keepsAsIs({ type: 'image/webp', size: 40_000 }, size, false)).toBe(false);
    expect(keepsAsIs({ type: 'image/heic', size: 40_000 }, size, false)).toBe(false);
    expect(keepsAsIs({ type: 'image/png', size: TARGET_BYTES + 1 }, size, false)).toBe(false);
    expect(keepsAsIs({ type: 'image/png', size: 40_000 }, { width: 2001, height: 10 }, false)).toBe(false);
    expect(keepsAsIs({ type: 'image/png', size: 40_000 }, size, true)).toBe(false);
  });
  test('metadata is found by its markers: an Exif chunk, XMP, text chunks', () => {
    expect(mayCarryMetadata(ascii('\x89PNG....IHDR....IDAT....IEND'))).toBe(false);
    expect(mayCarryMetadata(ascii('\x89PNG....IHDR....eXIf....IDAT'))).toBe(true);
    expect(mayCarryMetadata(ascii('GIF89a...XMP DataXMP<x:xmpmeta>'))).toBe(true);
    expect(mayCarryMetadata(ascii('\x89PNG..iTXtXML:com.adobe.xmp'))).toBe(true);
    // A marker's first letter alone is no match.
    expect(mayCarryMetadata(ascii('eXI iTX zTX XM'))).toBe(false);
  });
  test('a photo the browser cannot read goes as it is while the server takes it', () => {
    expect(undecodable(MAX_UPLOAD_BYTES)).toBe('keep');
    expect(undecodable(MAX_UPLOAD_BYTES + 1)).toBe('refuse');
  });
  test('the prepared file is named after the original, as a JPEG', () => {
    expect(jpegName('IMG_0001.HEIC')).toBe('IMG_0001.jpg');
    expect(jpegName('gate.photo.png')).toBe('gate.photo.jpg');
    expect(jpegName('scan')).toBe('scan.jpg');
    expect(jpegName('.jpeg')).toBe('photo.jpg');
  });
});

describe('shrinkPhoto with a photo the browser cannot decode', () => {
  afterEach(() => vi.unstubAllGlobals());
  const heic = (bytes: number) => new File([new Uint8Array(bytes)], 'IMG_0001.HEIC', { type: 'image/heic' });

  test('within 10 MB it is sent as it is; past that it is refused with a clear message', async () => {
    vi.stubGlobal('createImageBitmap', () => Promise.reject(new DOMException('cannot decode', 'InvalidStateError')));
    const small = heic(2_000_000);
    await expect(shrinkPhoto(small)).resolves.toEqual({ ok: true, file: small, shrunk: false });
    await expect(shrinkPhoto(heic(MAX_UPLOAD_BYTES + 1))).resolves.toEqual({ ok: false, message: PHOTO_UNREADABLE });
    expect(PHOTO_UNREADABLE).toMatch(/^This photo cannot be read on this device and is larger than the 10 MB/);
  });
  test('the same without createImageBitmap at all', async () => {
    vi.stubGlobal('createImageBitmap', undefined);
    const small = heic(10);
    await expect(shrinkPhoto(small)).resolves.toMatchObject({ ok: true, file: small });
  });
});
