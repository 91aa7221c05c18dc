/**
 * The sheet of checkpoint codes (src/features/tours/stickerPdf.ts): what
 * the PDF says, read back with pdfjs; that the QR code it draws decodes
 * (jsQR) to the checkpoint's exact text, from the module matrix and from
 * the printed page itself; and that the layout keeps every sticker inside
 * the page's margins and everything on a sticker inside its cut line.
 */
import { join } from 'node:path';
import { jsPDF } from 'jspdf';
import jsQR from 'jsqr';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, test } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';
import { qrText, SHORT_CODE_ALPHABET, shortCodeText, TOKEN_ALPHABET } from '../../src/domain/checkpointCode.ts';
import { darkRuns, placeSymbol, QUIET_ZONE, qrModules, type ModuleRun } from '../../src/features/tours/qrModules.ts';
import {
  checkpointStickersPdf,
  fitLines,
  jsPdfMeasure,
  stickerLayout,
  textBounds,
  type Box,
  type PlacedSticker,
  type StickerCheckpoint,
} from '../../src/features/tours/stickerPdf.ts';
import { pdfPages, pdfPageSizes } from '../support/pdfText.ts';

const COMMUNITY_ID = 'palmgrove000001';
const COMMUNITY = 'Palm Grove Estates';
const NAMES = [
  'Main gate',
  'Pool house',
  'Clubhouse back door',
  'Tennis courts',
  'Maintenance yard',
  'North lake dock',
  'Guard house',
  'Mail kiosk',
];

/** A token of the server's alphabet, different for each checkpoint. */
const token = (n: number) =>
  Array.from({ length: 20 }, (_, i) => TOKEN_ALPHABET[(n * 7 + i * 13) % TOKEN_ALPHABET.length]).join('');
/** A short code of the printable alphabet, different for each checkpoint. */
const shortCode = (n: number) =>
  Array.from({ length: 6 }, (_, i) => SHORT_CODE_ALPHABET[(n * 5 + i * 11) % SHORT_CODE_ALPHABET.length]).join('');

const checkpoints: StickerCheckpoint[] = NAMES.map((name, n) => ({
  name,
  shortCode: shortCode(n),
  qrText: qrText(COMMUNITY_ID, token(n)),
}));

const measure = jsPdfMeasure(new jsPDF({ unit: 'pt', format: 'letter' }));
const LONG_NAME = 'Service entrance behind the north clubhouse, between the tennis courts and the lake'.slice(0, 80);

// US Letter in points, and the half-inch margin every office printer prints within.
const PAGE = { width: 612, height: 792, margin: 36 };
const INCH = 72;

/** The symbol's modules painted as the PDF paints them (runs), n pixels a module, in a white quiet zone. */
function rasterise(runs: ModuleRun[], moduleCount: number, pixels = 4) {
  const side = (moduleCount + 2 * QUIET_ZONE) * pixels;
  const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const run of runs) {
    for (let y = (QUIET_ZONE + run.row) * pixels; y < (QUIET_ZONE + run.row + 1) * pixels; y++) {
      for (let x = (QUIET_ZONE + run.col) * pixels; x < (QUIET_ZONE + run.col + run.length) * pixels; x++) {
        const at = (y * side + x) * 4;
        rgba[at] = rgba[at + 1] = rgba[at + 2] = 0;
      }
    }
  }
  return { rgba, side };
}

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Everything a sticker prints, top to bottom: each must be inside the cut line and clear of the others. */
function parts(sticker: PlacedSticker): Box[] {
  return [...sticker.name.map(textBounds), sticker.qr, textBounds(sticker.code), textBounds(sticker.community)];
}

async function pdfBytes(blob: Blob) {
  return new Uint8Array(await blob.arrayBuffer());
}

const standardFontDataUrl = `${join(projectRoot, 'node_modules', 'pdfjs-dist', 'standard_fonts')}/`;

describe('the PDF of checkpoint codes', () => {
  test('eight checkpoints print on two Letter pages, six then two, names and codes in the order given', async () => {
    const data = await pdfBytes(await checkpointStickersPdf({ communityName: COMMUNITY, checkpoints }));
    expect(await pdfPageSizes(data)).toEqual([
      [612, 792],
      [612, 792],
    ]);
    const pages = (await pdfPages(data)).map((page) => page.split('\n').map((line) => line.trim()));
    const names = pages.map((lines) => lines.filter((line) => NAMES.includes(line)));
    expect(names).toEqual([NAMES.slice(0, 6), NAMES.slice(6)]);
    const codes = pages.map((lines) => lines.filter((line) => line.startsWith('Code: ')));
    const printed = checkpoints.map((c) => `Code: ${shortCodeText(c.shortCode)}`);
    expect(codes).toEqual([printed.slice(0, 6), printed.slice(6)]);
    expect(printed[0]).toMatch(/^Code: [A-Z2-9]{3}-[A-Z2-9]{3}$/);
    // The community on every sticker, and each page's footer.
    expect(pages.map((lines) => lines.filter((line) => line === COMMUNITY).length)).toEqual([6, 2]);
    expect(pages[0]).toContain('Page 1 of 2');
    expect(pages[1]).toContain('Page 2 of 2');
    expect(pages[1]).toContain(`Checkpoint codes · ${COMMUNITY}`);

    const document = await pdfjs.getDocument({ data: data.slice(), standardFontDataUrl }).promise;
    try {
      const { info } = await document.getMetadata();
      expect((info as { Title?: string }).Title).toBe('Checkpoint codes');
    } finally {
      await document.destroy();
    }
  });

  test('every QR code on the printed page decodes to its checkpoint’s exact text', async () => {
    const data = await pdfBytes(await checkpointStickersPdf({ communityName: COMMUNITY, checkpoints }));
    const layout = stickerLayout({ communityName: COMMUNITY, checkpoints }, measure);
    const scale = 2;
    const document = await pdfjs.getDocument({ data, standardFontDataUrl }).promise;
    try {
      const decoded: Array<string | null> = [];
      for (let n = 1; n <= document.numPages; n++) {
        const page = await document.getPage(n);
        const viewport = page.getViewport({ scale });
        // pdfjs's own canvas for Node (@napi-rs/canvas, which pdfjs-dist installs with itself).
        const factory = document.canvasFactory as {
          create(width: number, height: number): { context: CanvasRenderingContext2D };
        };
        const { context } = factory.create(viewport.width, viewport.height);
        await page.render({ canvasContext: context, viewport }).promise;
        for (const sticker of layout.filter((s) => s.page === n - 1)) {
          // The QR code's square (its quiet zone included), and nothing else of the page.
          const { x, y, width } = sticker.qr;
          const side = Math.floor(width * scale);
          const pixels = context.getImageData(Math.round(x * scale), Math.round(y * scale), side, side);
          decoded.push(jsQR(pixels.data, side, side)?.data ?? null);
        }
      }
      expect(decoded).toEqual(checkpoints.map((c) => c.qrText));
    } finally {
      await document.destroy();
    }
  });

  test('an empty list is refused', async () => {
    await expect(checkpointStickersPdf({ communityName: COMMUNITY, checkpoints: [] })).rejects.toThrow(
      'There are no checkpoints to print codes for.',
    );
    expect(() => stickerLayout({ communityName: COMMUNITY, checkpoints: [] }, measure)).toThrow(/no checkpoints/);
  });
});

describe('the QR code of a checkpoint', () => {
  test('its modules, painted as the PDF paints them, decode to the exact QR text', () => {
    for (const checkpoint of checkpoints) {
      const modules = qrModules(checkpoint.qrText);
      const { rgba, side } = rasterise(darkRuns(modules), modules.length);
      expect(jsQR(rgba, side, side)?.data).toBe(checkpoint.qrText);
    }
  });

  test('runs cover exactly the dark modules, each row’s neighbours merged into one', () => {
    const modules = qrModules(checkpoints[0]!.qrText);
    const runs = darkRuns(modules);
    const painted = modules.map((row) => row.map(() => false));
    for (const run of runs) {
      expect(run.length).toBeGreaterThan(0);
      for (let col = run.col; col < run.col + run.length; col++) {
        expect(painted[run.row]![col]).toBe(false);
        painted[run.row]![col] = true;
      }
      // A run ends at a light module or at the edge: otherwise it would have gone on.
      expect(modules[run.row]![run.col + run.length] ?? false).toBe(false);
      expect(modules[run.row]![run.col - 1] ?? false).toBe(false);
    }
    expect(painted).toEqual(modules);
    expect(runs.length).toBeLessThan(modules.flat().filter(Boolean).length);
  });

  test('the printed symbol is at least 1.6 inches square, its quiet zone inside its square', () => {
    const layout = stickerLayout({ communityName: COMMUNITY, checkpoints }, measure);
    layout.forEach((sticker, i) => {
      const modules = qrModules(checkpoints[i]!.qrText);
      expect(modules.length).toBe(33); // version 4: this text at level M
      const symbol = placeSymbol(sticker.qr, modules.length);
      expect(symbol.size).toBeGreaterThanOrEqual(1.6 * INCH);
      expect(symbol.x - sticker.qr.x).toBeCloseTo(QUIET_ZONE * symbol.module);
      expect(symbol.x + symbol.size + QUIET_ZONE * symbol.module).toBeCloseTo(sticker.qr.x + sticker.qr.width);
      expect(symbol.y + symbol.size + QUIET_ZONE * symbol.module).toBeCloseTo(sticker.qr.y + sticker.qr.height);
    });
  });
});

describe('the layout of the stickers', () => {
  const layout = stickerLayout({ communityName: COMMUNITY, checkpoints }, measure);

  test('two columns of three rows, in the order given, each sticker inside the page’s margins', () => {
    expect(layout.map((s) => s.page)).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    const page = {
      x: PAGE.margin,
      y: PAGE.margin,
      width: PAGE.width - 2 * PAGE.margin,
      height: PAGE.height - 2 * PAGE.margin,
    };
    for (const sticker of layout) expect(inside(sticker.box, page), JSON.stringify(sticker.box)).toBe(true);
    // Left to right, then down; the next page starts at the top left again.
    const [a, b, c, , , f, g] = layout.map((s) => s.box);
    expect(b!.x).toBeGreaterThan(a!.x);
    expect(b!.y).toBe(a!.y);
    expect(c!.x).toBe(a!.x);
    expect(c!.y).toBeGreaterThan(a!.y);
    expect(f!.y).toBeGreaterThan(c!.y);
    expect(g).toEqual(a);
    for (const one of layout.slice(0, 6))
      for (const other of layout.slice(0, 6)) if (one !== other) expect(overlap(one.box, other.box)).toBe(false);
  });

  test('on every sticker: the name, then the QR code, the short code and the community, inside the cut line and clear of each other', () => {
    for (const sticker of layout) {
      const boxes = parts(sticker);
      for (const part of boxes) expect(inside(part, sticker.box), JSON.stringify(part)).toBe(true);
      for (let i = 1; i < boxes.length; i++)
        expect(boxes[i]!.y).toBeGreaterThanOrEqual(boxes[i - 1]!.y + boxes[i - 1]!.height);
      expect(sticker.name.map((line) => line.text)).toEqual([checkpoints[layout.indexOf(sticker)]!.name]);
      // The short code large: the largest text of the sticker.
      expect(sticker.code.size).toBeGreaterThanOrEqual(18);
      expect(sticker.code.size).toBeGreaterThan(sticker.name[0]!.size);
      expect(sticker.community.size).toBeLessThan(sticker.name[0]!.size);
    }
  });

  test('a long name wraps on two lines, shortened with an ellipsis, still inside its sticker', () => {
    expect(LONG_NAME).toHaveLength(80);
    const unbroken = 'W'.repeat(80);
    const [long, word] = stickerLayout(
      {
        communityName: 'The Homeowners Association of the Very Long Named Palm Grove Estates and Country Club',
        checkpoints: [
          { ...checkpoints[0]!, name: LONG_NAME },
          { ...checkpoints[1]!, name: unbroken },
        ],
      },
      measure,
    );
    for (const sticker of [long!, word!]) {
      expect(sticker.name).toHaveLength(2);
      expect(sticker.name[1]!.text.endsWith('…')).toBe(true);
      for (const part of parts(sticker)) expect(inside(part, sticker.box), JSON.stringify(part)).toBe(true);
      expect(sticker.community.text.endsWith('…')).toBe(true);
    }
    // Cut at a space, and what it keeps is the name's beginning.
    const kept = long!.name
      .map((line) => line.text)
      .join(' ')
      .slice(0, -1);
    expect(LONG_NAME.startsWith(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(40);
    expect(long!.name[0]!.text).toMatch(/\w$/);
    expect(LONG_NAME[long!.name[0]!.text.length]).toBe(' ');
    // A word wider than a line is cut where it must be.
    expect(word!.name[0]!.text).toMatch(/^W+$/);
  });

  test('fitting text: short stays as it is, spaces are tidied, the ellipsis counts in the width', () => {
    const chars = (text: string) => text.length;
    expect(fitLines('Main gate', 20, 2, chars)).toEqual(['Main gate']);
    expect(fitLines('  Main \n gate ', 20, 2, chars)).toEqual(['Main gate']);
    expect(fitLines('one two three four', 9, 2, chars)).toEqual(['one two', 'three fo…']);
    expect(fitLines('one two three', 9, 2, chars)).toEqual(['one two', 'three']);
    expect(fitLines('abcdefghijkl', 5, 2, chars)).toEqual(['abcde', 'fghi…']);
  });
});
