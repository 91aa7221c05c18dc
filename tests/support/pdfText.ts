/**
 * A PDF's text, page by page, read with pdfjs-dist (what a reader's copy
 * and paste would give): the tests of the daily activity report
 * check what the generated file says, not how the app built it.
 */
import { join } from 'node:path';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

// The fonts of PDF's standard fourteen (Helvetica): without them pdfjs warns on every page.
const standardFontDataUrl = `${join(projectRoot, 'node_modules', 'pdfjs-dist', 'standard_fonts')}/`;

/** pdfjs takes over (detaches) the buffer it reads: it gets a copy, so the caller can read the same file again. */
const copy = (data: ArrayBuffer | Uint8Array) => new Uint8Array(data).slice();

/** Every page's text items, one per line; pages in order. */
export async function pdfPages(data: ArrayBuffer | Uint8Array): Promise<string[]> {
  const document = await pdfjs.getDocument({ data: copy(data), standardFontDataUrl }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

export async function pdfText(data: ArrayBuffer | Uint8Array): Promise<string> {
  return (await pdfPages(data)).join('\n');
}

/** How many pictures the PDF draws (image paint operations over all pages): the report's photo thumbnails. */
export async function pdfImageCount(data: ArrayBuffer | Uint8Array): Promise<number> {
  const document = await pdfjs.getDocument({ data: copy(data), standardFontDataUrl }).promise;
  try {
    let count = 0;
    for (let n = 1; n <= document.numPages; n++) {
      const { fnArray } = await (await document.getPage(n)).getOperatorList();
      count += fnArray.filter(
        (op) => op === pdfjs.OPS.paintImageXObject || op === pdfjs.OPS.paintInlineImageXObject,
      ).length;
    }
    return count;
  } finally {
    await document.destroy();
  }
}

/** Every page's size in points, [width, height] (US Letter is 612 × 792, A4 595 × 842). */
export async function pdfPageSizes(data: ArrayBuffer | Uint8Array): Promise<Array<[number, number]>> {
  const document = await pdfjs.getDocument({ data: copy(data), standardFontDataUrl }).promise;
  try {
    const sizes: Array<[number, number]> = [];
    for (let n = 1; n <= document.numPages; n++) {
      const [x0, y0, x1, y1] = (await document.getPage(n)).view as [number, number, number, number];
      sizes.push([Math.round(x1 - x0), Math.round(y1 - y0)]);
    }
    return sizes;
  } finally {
    await document.destroy();
  }
}
