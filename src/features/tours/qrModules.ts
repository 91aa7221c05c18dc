/**
 * A checkpoint's QR code as modules (its black and white squares), for the
 * sticker PDF to draw as vector rectangles: no canvas and no image, so the
 * same code runs in the browser and in the unit tests, and the printed
 * code stays sharp at any size. stickerPdf.ts loads this module (and the
 * qrcode package with it) only when a PDF is made.
 */
import QRCode from 'qrcode';

/** The white border a reader needs around the symbol, in modules (the QR standard's 4). */
export const QUIET_ZONE = 4;

/**
 * The symbol's modules, row by row: true for a dark one. Level M corrects
 * about 15 % damage (a scuffed or rained-on sticker) and keeps a
 * checkpoint's text in version 4 (33 × 33), large modules for a phone at
 * arm's length.
 */
export function qrModules(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  return Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, col) => Boolean(modules.data[row * size + col])),
  );
}

/** Dark modules side by side in one row: drawn as one rectangle. */
export interface ModuleRun {
  row: number;
  col: number;
  length: number;
}

/**
 * The dark modules as horizontal runs, row by row from the top left: a
 * rectangle for each run rather than for each module keeps the PDF small
 * (a checkpoint's code has about 530 dark modules in about 290 runs).
 */
export function darkRuns(modules: ReadonlyArray<ReadonlyArray<boolean>>): ModuleRun[] {
  const runs: ModuleRun[] = [];
  modules.forEach((cells, row) => {
    let start = -1;
    for (let col = 0; col <= cells.length; col++) {
      const dark = col < cells.length && cells[col] === true;
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        runs.push({ row, col: start, length: col - start });
        start = -1;
      }
    }
  });
  return runs;
}

/** Where a symbol's modules go in a square box that holds the symbol and its quiet zone. */
export interface SymbolPlacement {
  /** The top left of the first module, in the box's units. */
  x: number;
  y: number;
  /** The side of one module. */
  module: number;
  /** The side of the symbol without its quiet zone: what a reader must see whole. */
  size: number;
}

export function placeSymbol(box: { x: number; y: number; width: number }, moduleCount: number): SymbolPlacement {
  const module = box.width / (moduleCount + 2 * QUIET_ZONE);
  return {
    x: box.x + QUIET_ZONE * module,
    y: box.y + QUIET_ZONE * module,
    module,
    size: moduleCount * module,
  };
}
