/**
 * A camera for the browser journeys: a video file of a QR code (drawn
 * from its text, or a picture of it: the sticker cut from the printed PDF,
 * tests/support/pdfRaster.ts), which Chromium shows to every page as its
 * only camera. Chromium's fake capture
 * device reads Y4M (uncompressed YUV frames behind a one-line header) and
 * loops it, so a few identical frames make a camera held still over a
 * sticker.
 *
 * Launch with it: `launchChromium({ fakeCamera: file })`
 * (scripts/browser/chromium.ts; its switches are fakeCameraArgs there, for
 * another launch), then grant the page the camera:
 * `context.grantPermissions(['camera'], { origin })`. Without the grant
 * headless Chromium refuses the camera, as an officer who said no.
 * The switches are not re-exported here: this module is also the unit
 * layer's (tests/unit/fake-camera.test.ts), which would then load
 * playwright-core for nothing (about 0.6 s).
 */
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

/** The white border a reader needs around the symbol, in modules (the QR standard's 4). */
export const QUIET_ZONE = 4;

/** Video-range luma: black and white as a camera records them. Chroma 128 is grey: no colour. */
export const Y_DARK = 16;
export const Y_LIGHT = 235;
const NO_COLOUR = 128;

export interface FakeCameraVideo {
  /** Frame size in pixels, both even (4:2:0 halves each side for the colour planes): 640 × 480, a phone camera's stream size. */
  width?: number;
  height?: number;
  /** Frames in the file; Chromium loops them (5). */
  frames?: number;
  /** Frames a second (10). */
  fps?: number;
  /**
   * How much of the frame's shorter side the code takes with its quiet zone
   * (0.75: a sticker at arm's length); for a picture, how much of each side
   * it may take.
   */
  fill?: number;
}

/** The header line of a Y4M file of 4:2:0 frames (C420jpeg: the colour samples centred, what Chromium reads). */
export function y4mHeader(width: number, height: number, fps: number): string {
  return `YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`;
}

/** One frame's bytes after its 'FRAME\n' line: the Y plane, then U and V at a quarter of its size. */
export const frameBytes = (width: number, height: number) => width * height * 1.5;

/**
 * The luma plane of the code for `text`: its modules (level M, as the
 * stickers) as squares of whole pixels, centred on white with the quiet
 * zone.
 */
export function qrLumaPlane(text: string, width: number, height: number, fill = 0.75): Uint8Array {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = modules.size + 2 * QUIET_ZONE;
  // Whole pixels a module: a code with blurred edges would test the reader, not the app.
  const modulePx = Math.floor((Math.min(width, height) * fill) / side);
  if (modulePx < 1) throw new Error(`a ${width}×${height} frame is too small for a ${side}-module code`);
  const left = Math.floor((width - modules.size * modulePx) / 2);
  const top = Math.floor((height - modules.size * modulePx) / 2);
  const plane = new Uint8Array(width * height).fill(Y_LIGHT);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < modulePx; y++) {
        const start = (top + row * modulePx + y) * width + left + col * modulePx;
        plane.fill(Y_DARK, start, start + modulePx);
      }
    }
  }
  return plane;
}

/** Writes `file`: `frames` copies of one frame, its luma plane given, its colour grey. */
function writeY4m(file: string, luma: Uint8Array, width: number, height: number, frames: number, fps: number): void {
  const frame = Buffer.alloc(frameBytes(width, height), NO_COLOUR);
  frame.set(luma, 0);
  const marker = Buffer.from('FRAME\n', 'ascii');
  const parts = [Buffer.from(y4mHeader(width, height, fps), 'ascii')];
  for (let i = 0; i < frames; i++) parts.push(marker, frame);
  writeFileSync(file, Buffer.concat(parts));
}

function evenSize(width: number, height: number): void {
  if (width % 2 || height % 2) throw new Error(`4:2:0 frames need an even size, not ${width}×${height}`);
}

/** Writes `file`, a Y4M video of the QR code for `qrText` held still in front of the camera. */
export function writeFakeCameraVideo(file: string, qrText: string, options: FakeCameraVideo = {}): void {
  const { width = 640, height = 480, frames = 5, fps = 10, fill = 0.75 } = options;
  evenSize(width, height);
  writeY4m(file, qrLumaPlane(qrText, width, height, fill), width, height, frames, fps);
}

/** A grey picture, row by row: 0 black to 255 white (what tests/support/pdfRaster.ts renders a PDF page to). */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The luma plane of a picture held in front of the camera: scaled, its
 * sides kept in proportion, to fit `fill` of the frame's width and of its
 * height, centred on white. Each frame pixel is the mean of the picture's
 * pixels under it (a box filter): shrinking a printed page keeps its
 * modules' edges as a lens would blur them, not as every n-th pixel would
 * jag them. Black and white become the video range's 16 and 235.
 */
export function imageLumaPlane(image: GrayImage, width: number, height: number, fill = 0.75): Uint8Array {
  if (image.width < 1 || image.height < 1 || image.data.length !== image.width * image.height)
    throw new Error(`a ${image.width}×${image.height} picture needs ${image.width * image.height} pixels`);
  const scale = Math.min((width * fill) / image.width, (height * fill) / image.height);
  const outWidth = Math.max(1, Math.round(image.width * scale));
  const outHeight = Math.max(1, Math.round(image.height * scale));
  const left = Math.floor((width - outWidth) / 2);
  const top = Math.floor((height - outHeight) / 2);
  const plane = new Uint8Array(width * height).fill(Y_LIGHT);
  // The picture's pixels [from, to) under output pixel i of n, along a side of `size` pixels.
  const span = (i: number, n: number, size: number) => {
    const from = Math.min(size - 1, Math.floor((i * size) / n));
    return [from, Math.max(from + 1, Math.min(size, Math.ceil(((i + 1) * size) / n)))] as const;
  };
  for (let oy = 0; oy < outHeight; oy++) {
    const [y0, y1] = span(oy, outHeight, image.height);
    for (let ox = 0; ox < outWidth; ox++) {
      const [x0, x1] = span(ox, outWidth, image.width);
      let sum = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += image.data[y * image.width + x]!;
      const mean = sum / ((y1 - y0) * (x1 - x0));
      plane[(top + oy) * width + left + ox] = Math.round(Y_DARK + (mean * (Y_LIGHT - Y_DARK)) / 255);
    }
  }
  return plane;
}

/**
 * Writes `file`, a Y4M video of `image` held still in front of the camera:
 * a sticker's QR code as the printed PDF draws it (cut from the page with
 * the quiet zone around it), so the scan reads what the manager printed,
 * not a code drawn again from the text.
 */
export function writeFakeCameraVideoFromImage(file: string, image: GrayImage, options: FakeCameraVideo = {}): void {
  const { width = 640, height = 480, frames = 5, fps = 10, fill = 0.75 } = options;
  evenSize(width, height);
  writeY4m(file, imageLumaPlane(image, width, height, fill), width, height, frames, fps);
}
