/**
 * Camera-like JPEG files for the photo tests and the photo benchmark:
 *
 * - photoJpeg: a JPEG made by Chromium's own encoder from photo-like pixels
 *   (gradients, shapes and sensor-like noise), as large as a phone camera's
 *   (a 4000×3000 at quality 1 with strong noise is over 10 MB);
 * - withExif: the same bytes with an APP1 Exif segment inserted after the
 *   start of image, holding an Orientation tag and GPS tags (a location),
 *   as a phone camera writes them;
 * - jpegInfo: what a JPEG file holds (its size in pixels from the frame
 *   header, and its APP segments), to check what the app queued.
 */
import type { Page } from 'playwright-core';

export interface PhotoOptions {
  width: number;
  height: number;
  /** JPEG quality, 0–1. */
  quality: number;
  /** The noise's amplitude per channel, 0–255: the more, the larger the file. */
  noise: number;
  /** Keep the Blob in the page as `window[keepAs]` and return only its size, instead of the bytes. */
  keepAs?: string;
}

/** The JPEG's bytes (or, with `keepAs`, its size), encoded in the page by Chromium. */
export async function photoJpeg(page: Page, options: PhotoOptions & { keepAs: string }): Promise<number>;
export async function photoJpeg(page: Page, options: PhotoOptions): Promise<Buffer>;
export async function photoJpeg(page: Page, options: PhotoOptions): Promise<Buffer | number> {
  const answer = await page.evaluate(async ({ width, height, quality, noise, keepAs }) => {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d')!;
    // A sky-to-ground gradient, a sun, a few buildings: areas of slow change like a real scene.
    const sky = context.createLinearGradient(0, 0, 0, height);
    sky.addColorStop(0, '#3a6fb0');
    sky.addColorStop(0.55, '#cfe3f5');
    sky.addColorStop(0.56, '#6b7f4a');
    sky.addColorStop(1, '#2e3a1f');
    context.fillStyle = sky;
    context.fillRect(0, 0, width, height);
    const sun = context.createRadialGradient(width * 0.75, height * 0.2, 0, width * 0.75, height * 0.2, width * 0.15);
    sun.addColorStop(0, 'rgba(255,250,220,1)');
    sun.addColorStop(1, 'rgba(255,250,220,0)');
    context.fillStyle = sun;
    context.fillRect(0, 0, width, height);
    for (let i = 0; i < 12; i++) {
      context.fillStyle = `hsl(${(i * 37) % 360} 30% ${30 + ((i * 13) % 40)}%)`;
      context.fillRect((i / 12) * width, height * (0.35 + ((i * 7) % 10) / 60), width / 14, height * 0.3);
    }
    // Sensor noise (a fixed xorshift, so every run makes the same file).
    const pixels = context.getImageData(0, 0, width, height);
    const data = pixels.data;
    let seed = 0x2545f491;
    for (let i = 0; i < data.length; i += 4) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const n = ((seed & 0xff) / 255 - 0.5) * noise;
      data[i] = data[i]! + n;
      data[i + 1] = data[i + 1]! + n * (((seed >>> 8) & 0xff) / 255);
      data[i + 2] = data[i + 2]! + n * (((seed >>> 16) & 0xff) / 255);
    }
    context.putImageData(pixels, 0, 0);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality });
    if (keepAs) {
      (window as unknown as Record<string, Blob>)[keepAs] = blob;
      return blob.size;
    }
    const url = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
    return url.slice(url.indexOf(',') + 1);
  }, options);
  return typeof answer === 'number' ? answer : Buffer.from(answer, 'base64');
}

export interface ExifTags {
  /** 1 upright … 6: stored turned a quarter to the left, shown turned right (a phone held upright). */
  orientation: number;
  /** Where the photo was taken, in degrees: north and east positive. */
  gps?: { latitude: number; longitude: number };
}

const rational = (value: number) => {
  const out = Buffer.alloc(8);
  out.writeUInt32BE(Math.round(value * 1000), 0);
  out.writeUInt32BE(1000, 4);
  return out;
};
const dms = (degrees: number) => {
  const d = Math.floor(degrees);
  const m = Math.floor((degrees - d) * 60);
  const s = ((degrees - d) * 60 - m) * 60;
  return Buffer.concat([rational(d), rational(m), rational(s)]);
};

function ifdEntry(tag: number, type: number, count: number, value: Buffer | number): Buffer {
  const entry = Buffer.alloc(12);
  entry.writeUInt16BE(tag, 0);
  entry.writeUInt16BE(type, 2);
  entry.writeUInt32BE(count, 4);
  if (typeof value === 'number') {
    // A SHORT sits in the first two bytes of the value field; a LONG or an offset takes all four.
    if (type === 3) entry.writeUInt16BE(value, 8);
    else entry.writeUInt32BE(value, 8);
  } else value.copy(entry, 8);
  return entry;
}

/** The TIFF structure of an Exif segment (big-endian): IFD0 with Orientation and, when given, the GPS IFD. */
function exifTiff({ orientation, gps }: ExifTags): Buffer {
  const header = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]);
  const ifd0Count = gps ? 2 : 1;
  const gpsOffset = 8 + 2 + ifd0Count * 12 + 4;
  const ifd0 = [Buffer.from([0, ifd0Count]), ifdEntry(0x0112, 3, 1, orientation)];
  if (gps) ifd0.push(ifdEntry(0x8825, 4, 1, gpsOffset));
  ifd0.push(Buffer.alloc(4));
  if (!gps) return Buffer.concat([header, ...ifd0]);
  const dataOffset = gpsOffset + 2 + 4 * 12 + 4;
  const gpsIfd = Buffer.concat([
    Buffer.from([0, 4]),
    ifdEntry(0x0001, 2, 2, Buffer.from(gps.latitude >= 0 ? 'N\0' : 'S\0', 'ascii')),
    ifdEntry(0x0002, 5, 3, dataOffset),
    ifdEntry(0x0003, 2, 2, Buffer.from(gps.longitude >= 0 ? 'E\0' : 'W\0', 'ascii')),
    ifdEntry(0x0004, 5, 3, dataOffset + 24),
    Buffer.alloc(4),
  ]);
  return Buffer.concat([header, ...ifd0, gpsIfd, dms(Math.abs(gps.latitude)), dms(Math.abs(gps.longitude))]);
}

/** The JPEG with an APP1 Exif segment holding these tags, right after its start of image. */
export function withExif(jpeg: Buffer, tags: ExifTags): Buffer {
  if (jpeg.readUInt16BE(0) !== 0xffd8) throw new Error('not a JPEG');
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'ascii'), exifTiff(tags)]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

export interface JpegInfo {
  width: number;
  height: number;
  /** The APP segments before the image data, named: 'APP0 JFIF', 'APP1 Exif', 'APP1 XMP', 'APP2'… */
  segments: string[];
}

/** The pixel size and metadata segments of a JPEG; throws when the bytes are not one. */
export function jpegInfo(bytes: Buffer): JpegInfo {
  if (bytes.length < 4 || bytes.readUInt16BE(0) !== 0xffd8) throw new Error('not a JPEG');
  const segments: string[] = [];
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw new Error(`no marker at ${offset}`);
    const marker = bytes[offset + 1]!;
    const length = bytes.readUInt16BE(offset + 2);
    const body = bytes.subarray(offset + 4, offset + 2 + length);
    if (marker >= 0xe0 && marker <= 0xef) {
      const name = body.toString('latin1', 0, 30);
      const kind = name.startsWith('Exif\0')
        ? ' Exif'
        : name.startsWith('http://ns.adobe.com/xap')
          ? ' XMP'
          : name.startsWith('JFIF\0')
            ? ' JFIF'
            : '';
      segments.push(`APP${marker - 0xe0}${kind}`);
    }
    // Start of frame (not DHT C4, JPG C8, DAC CC): precision, height, width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: body.readUInt16BE(1), width: body.readUInt16BE(3), segments };
    if (marker === 0xda) break;
    offset += 2 + length;
  }
  throw new Error('no frame header');
}
