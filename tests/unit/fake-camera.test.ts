/**
 * The journeys' camera (tests/support/fakeCamera.ts): the Y4M file has the
 * header and size Chromium's fake capture device reads, and its frame,
 * turned into the RGBA a canvas gives, reads back with jsQR (the app's
 * decoder where the browser has none) to the exact text written; so does
 * a video of a picture of a code (the sticker cut from the printed PDF,
 * tests/support/pdfRaster.ts), to the text the picture itself reads as.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsPDF } from 'jspdf';
import jsQR from 'jsqr';
import QRCode from 'qrcode';
import { afterAll, expect, test } from 'vitest';
import { qrText } from '../../src/domain/checkpointCode.ts';
import { checkpointStickersPdf, jsPdfMeasure, stickerLayout } from '../../src/features/tours/stickerPdf.ts';
import {
  frameBytes,
  writeFakeCameraVideo,
  writeFakeCameraVideoFromImage,
  Y_DARK,
  Y_LIGHT,
  type GrayImage,
} from '../support/fakeCamera.ts';
import { cropGray, renderPdfPageGray } from '../support/pdfRaster.ts';

const folder = mkdtempSync(join(tmpdir(), 'scms-fake-camera-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// A checkpoint's text: a 15-character community id, a 20-character token.
const TEXT = qrText('c0mmun1ty0demo0', 't0ken0abcdefghijk9z8');

/** The file's header line and its frames' planes. */
function readY4m(file: string) {
  const bytes = readFileSync(file);
  const headerEnd = bytes.indexOf(0x0a);
  const header = bytes.subarray(0, headerEnd).toString('ascii');
  const width = Number(/ W(\d+)/.exec(header)?.[1]);
  const height = Number(/ H(\d+)/.exec(header)?.[1]);
  return { bytes, header, headerEnd, width, height };
}

/** The first frame's luma plane. */
function firstLuma(file: string) {
  const { bytes, headerEnd, width, height } = readY4m(file);
  const start = headerEnd + 1 + 'FRAME\n'.length;
  return { luma: bytes.subarray(start, start + width * height), width, height };
}

/** A luma plane as the grey RGBA pixels jsQR reads. */
function lumaToRgba(luma: Uint8Array): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(luma.length * 4);
  luma.forEach((y, i) => {
    rgba.set([y, y, y, 255], i * 4);
  });
  return rgba;
}

test('the file has the header Chromium reads and whole frames, each behind its FRAME line', () => {
  const file = join(folder, 'camera.y4m');
  writeFakeCameraVideo(file, TEXT, { frames: 3 });
  const { bytes, header, headerEnd } = readY4m(file);
  expect(header).toBe('YUV4MPEG2 W640 H480 F10:1 Ip A1:1 C420jpeg');
  const frame = 'FRAME\n'.length + frameBytes(640, 480);
  expect(frameBytes(640, 480)).toBe(640 * 480 + 2 * 320 * 240);
  expect(bytes.length).toBe(headerEnd + 1 + 3 * frame);
  for (let i = 0; i < 3; i++) {
    const at = headerEnd + 1 + i * frame;
    expect(bytes.subarray(at, at + 6).toString('ascii')).toBe('FRAME\n');
  }
});

test('the first frame reads back with jsQR to the exact text; its luma is only black and white, its colour grey', () => {
  const file = join(folder, 'camera.y4m');
  writeFakeCameraVideo(file, TEXT);
  const { bytes, headerEnd, width, height } = readY4m(file);
  const start = headerEnd + 1 + 'FRAME\n'.length;
  const luma = bytes.subarray(start, start + width * height);
  const chroma = bytes.subarray(start + width * height, start + frameBytes(width, height));
  expect(new Set(luma)).toEqual(new Set([Y_DARK, Y_LIGHT]));
  expect(new Set(chroma)).toEqual(new Set([128]));
  // The corners are the quiet zone's white, so the code is within the frame.
  expect([luma[0], luma[width - 1], luma[(height - 1) * width]]).toEqual([Y_LIGHT, Y_LIGHT, Y_LIGHT]);

  const code = jsQR(lumaToRgba(luma), width, height, { inversionAttempts: 'dontInvert' });
  expect(code?.data).toBe(TEXT);
});

test('another size and text: the frame follows the options, and a different text reads back as itself', () => {
  const file = join(folder, 'small.y4m');
  const other = qrText('z'.repeat(15), 'a'.repeat(20));
  writeFakeCameraVideo(file, other, { width: 320, height: 240, frames: 1, fps: 5 });
  const { bytes, header, headerEnd, width, height } = readY4m(file);
  expect(header).toBe('YUV4MPEG2 W320 H240 F5:1 Ip A1:1 C420jpeg');
  expect(bytes.length).toBe(headerEnd + 1 + 'FRAME\n'.length + frameBytes(320, 240));
  const start = headerEnd + 1 + 'FRAME\n'.length;
  const code = jsQR(lumaToRgba(bytes.subarray(start, start + width * height)), width, height);
  expect(code?.data).toBe(other);
});

test('an odd size, which 4:2:0 cannot halve, is refused', () => {
  expect(() => writeFakeCameraVideo(join(folder, 'odd.y4m'), TEXT, { width: 641 })).toThrow(/even size/);
});

/** The code for `text` as a grey picture: `module` pixels a module (not a whole number, so scaling has edges to blend), a white border of `border` pixels. */
function qrPicture(text: string, module: number, border: number): GrayImage {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const width = Math.round(modules.size * module + 2 * border);
  const height = width + 40; // taller than wide: centred and kept in proportion, not stretched
  const data = new Uint8Array(width * height).fill(255);
  const top = 20 + border;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const row = Math.floor((y - top) / module);
      const col = Math.floor((x - border) / module);
      if (row >= 0 && col >= 0 && row < modules.size && col < modules.size && modules.get(row, col))
        data[y * width + x] = 0;
    }
  return { width, height, data };
}

const grayToRgba = (image: GrayImage) => lumaToRgba(image.data);

test('a video of a picture reads back with jsQR to the text the picture reads as, its grey in the video range', () => {
  const picture = qrPicture(TEXT, 9.3, 40);
  expect(jsQR(grayToRgba(picture), picture.width, picture.height)?.data).toBe(TEXT);
  const file = join(folder, 'picture.y4m');
  writeFakeCameraVideoFromImage(file, picture, { frames: 2 });
  const { bytes, header, headerEnd } = readY4m(file);
  expect(header).toBe('YUV4MPEG2 W640 H480 F10:1 Ip A1:1 C420jpeg');
  expect(bytes.length).toBe(headerEnd + 1 + 2 * ('FRAME\n'.length + frameBytes(640, 480)));
  const { luma, width, height } = firstLuma(file);
  expect(Math.min(...luma)).toBe(Y_DARK);
  expect(Math.max(...luma)).toBe(Y_LIGHT);
  // Centred on white: the corners and the middle of each edge are the frame's white.
  for (const at of [0, width - 1, (height - 1) * width, width / 2, (height / 2) * width])
    expect(luma[at]).toBe(Y_LIGHT);
  expect(jsQR(lumaToRgba(luma), width, height, { inversionAttempts: 'dontInvert' })?.data).toBe(TEXT);
});

test('the sticker cut from the printed PDF, rendered and put in front of the camera, reads back as its checkpoint', async () => {
  const checkpoints = ['Main gate', 'Pool house', 'Boat ramp'].map((name, n) => ({
    name,
    shortCode: `K7M4Q${'XYZ'[n]}`,
    qrText: qrText('c0mmun1ty0demo0', `t0ken0abcdefghijk9z${n}`),
  }));
  const sheet = { communityName: 'Palm Grove Estates', checkpoints };
  const pdf = new Uint8Array(await (await checkpointStickersPdf(sheet)).arrayBuffer());
  const scale = 3;
  const page = await renderPdfPageGray(pdf, 1, scale);
  expect([page.width, page.height]).toEqual([612 * scale, 792 * scale]);
  const { qr } = stickerLayout(sheet, jsPdfMeasure(new jsPDF({ unit: 'pt', format: 'letter' })))[1]!;
  const margin = 3; // points of white beyond the quiet zone, clear of the name above and the code below
  const sticker = cropGray(page, {
    x: (qr.x - margin) * scale,
    y: (qr.y - margin) * scale,
    width: (qr.width + 2 * margin) * scale,
    height: (qr.height + 2 * margin) * scale,
  });
  expect(sticker.width).toBe((150 + 2 * margin) * scale);
  expect(jsQR(grayToRgba(sticker), sticker.width, sticker.height)?.data).toBe(checkpoints[1]!.qrText);

  const file = join(folder, 'sticker.y4m');
  writeFakeCameraVideoFromImage(file, sticker);
  const { luma, width, height } = firstLuma(file);
  expect(jsQR(lumaToRgba(luma), width, height, { inversionAttempts: 'dontInvert' })?.data).toBe(checkpoints[1]!.qrText);
});

test('cropping keeps the rows and columns asked for, within the picture', () => {
  const picture = { width: 4, height: 3, data: Uint8Array.from({ length: 12 }, (_, i) => i) };
  expect(cropGray(picture, { x: 1, y: 1, width: 2, height: 2 })).toEqual({
    width: 2,
    height: 2,
    data: Uint8Array.from([5, 6, 9, 10]),
  });
  expect(cropGray(picture, { x: -5, y: 2, width: 7, height: 9 })).toEqual({
    width: 2,
    height: 1,
    data: Uint8Array.from([8, 9]),
  });
  expect(() => cropGray(picture, { x: 4, y: 0, width: 2, height: 2 })).toThrow(/outside/);
});
