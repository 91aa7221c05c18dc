/**
 * A PDF's text, page by page, read with pdfjs-dist (what a reader's copy
 * and paste would give): the tests of the daily activity report (issue 16)
 * check what the generated file says, not how the app built it.
 */
import { join } from 'node:path';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

// The fonts of PDF's standard fourteen (Helvetica): without them pdfjs warns on every page.
const standardFontDataUrl = `${join(projectRoot, 'node_modules', 'pdfjs-dist', 'standard_fonts')}/`;

/** Every page's text items, one per line; pages in order. */
export async function pdfPages(data: ArrayBuffer | Uint8Array): Promise<string[]> {
  const document = await pdfjs.getDocument({ data: new Uint8Array(data), standardFontDataUrl }).promise;
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
