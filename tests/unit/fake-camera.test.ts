/**
 * The journeys' camera (tests/support/fakeCamera.ts): the Y4M file has the
 * header and size Chromium's fake capture device reads, and its frame,
 * turned into the RGBA a canvas gives, reads back with jsQR (the app's
 * decoder where the browser has none) to the exact text written.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { afterAll, expect, test } from 'vitest';
import { qrText } from '../../src/domain/checkpointCode.ts';
import { frameBytes, writeFakeCameraVideo, Y_DARK, Y_LIGHT } from '../support/fakeCamera.ts';

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
