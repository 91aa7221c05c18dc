/**
 * A PDF page as a grey picture, rendered by pdfjs-dist on its canvas for
 * Node (@napi-rs/canvas, which pdfjs-dist installs with itself, as
 * tests/unit/checkpoint-stickers.test.ts renders the stickers): what a
 * printer would put on paper, for a camera to look at
 * (tests/support/fakeCamera.ts's writeFakeCameraVideoFromImage).
 */
import { join } from 'node:path';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import type { GrayImage } from './fakeCamera.ts';

export type { GrayImage } from './fakeCamera.ts';

// The standard fonts (Helvetica): without them pdfjs warns on every page and draws its text in a stand-in.
const standardFontDataUrl = `${join(projectRoot, 'node_modules', 'pdfjs-dist', 'standard_fonts')}/`;

/** A rectangle in pixels, from the top left. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Page `pageNumber` (1 for the first) at `scale` pixels a point, as grey
 * 0 (black) to 255 (white): the page's white paper under what it draws.
 */
export async function renderPdfPageGray(
  pdfBytes: ArrayBuffer | Uint8Array,
  pageNumber: number,
  scale: number,
): Promise<GrayImage> {
  // pdfjs takes over (detaches) the buffer it reads: a copy leaves the caller's bytes readable.
  const data = new Uint8Array(pdfBytes).slice();
  const document = await pdfjs.getDocument({ data, standardFontDataUrl }).promise;
  try {
    const page = await document.getPage(pageNumber);
    const viewport = page.getViewport({ scale });
    const factory = document.canvasFactory as {
      create(width: number, height: number): { context: CanvasRenderingContext2D };
    };
    const width = Math.floor(viewport.width);
    const height = Math.floor(viewport.height);
    const { context } = factory.create(width, height);
    await page.render({ canvasContext: context, viewport }).promise;
    const rgba = context.getImageData(0, 0, width, height).data;
    const gray = new Uint8Array(width * height);
    for (let i = 0; i < gray.length; i++) {
      const [r, g, b, a] = [rgba[i * 4]!, rgba[i * 4 + 1]!, rgba[i * 4 + 2]!, rgba[i * 4 + 3]!];
      // Rec. 601 luma, over white where the canvas is left transparent.
      const luma = 0.299 * r + 0.587 * g + 0.114 * b;
      gray[i] = Math.round((luma * a + 255 * (255 - a)) / 255);
    }
    return { width, height, data: gray };
  } finally {
    await document.destroy();
  }
}

/** The part of `image` inside `box` (rounded to whole pixels, kept within the picture). */
export function cropGray(image: GrayImage, box: PixelBox): GrayImage {
  const x0 = Math.max(0, Math.round(box.x));
  const y0 = Math.max(0, Math.round(box.y));
  const x1 = Math.min(image.width, Math.round(box.x + box.width));
  const y1 = Math.min(image.height, Math.round(box.y + box.height));
  if (x1 <= x0 || y1 <= y0)
    throw new Error(`${JSON.stringify(box)} is outside the ${image.width}×${image.height} picture`);
  const width = x1 - x0;
  const data = new Uint8Array(width * (y1 - y0));
  for (let y = y0; y < y1; y++)
    data.set(image.data.subarray(y * image.width + x0, y * image.width + x1), (y - y0) * width);
  return { width, height: y1 - y0, data };
}
