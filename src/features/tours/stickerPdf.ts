/**
 * The checkpoint codes a director or manager prints: a sheet of stickers
 * drawn on the device with jsPDF, six to a US Letter page (two columns,
 * three rows), each in a dashed cut line. A sticker has the checkpoint's
 * name on top, its QR code (src/domain/checkpointCode.ts's qrText) drawn
 * as vector rectangles, the short code under it for a camera that cannot
 * read the sticker, and the community's name.
 *
 * The layout is a pure function of the checkpoints and a text measure, so
 * the unit tests check the same boxes the PDF is drawn from. jsPDF and the
 * QR encoder load only when a sheet is made, whoever imports this module:
 * they stay out of the bundle of the screens that list checkpoints (as the
 * daily activity report's jsPDF does, src/features/activity/DailyReportPage.tsx).
 */
import type { jsPDF } from 'jspdf';
import { shortCodeText } from '../../domain/checkpointCode.ts';

export const STICKERS_TITLE = 'Checkpoint codes';

/** What a sticker shows of a checkpoint. */
export interface StickerCheckpoint {
  name: string;
  /** Six characters, as stored ('K7M4QX'): printed as shortCodeText gives it. */
  shortCode: string;
  /** The QR code's text (qrText of src/domain/checkpointCode.ts). */
  qrText: string;
}

export interface StickerSheet {
  communityName: string;
  checkpoints: ReadonlyArray<StickerCheckpoint>;
}

/** A rectangle in points, from its top left (jsPDF's coordinates: y grows down the page). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A line of text where jsPDF draws it: left end of its baseline, in Helvetica. */
export interface PlacedText {
  text: string;
  size: number;
  bold: boolean;
  x: number;
  baseline: number;
  width: number;
}

export interface PlacedSticker {
  /** 0 for the first page. */
  page: number;
  /** The cut line. */
  box: Box;
  /** The QR code's square, its quiet zone included (white paper). */
  qr: Box;
  /** One or two lines. */
  name: PlacedText[];
  code: PlacedText;
  community: PlacedText;
}

/** The width in points of a text in Helvetica of this size. */
export type Measure = (text: string, size: number, bold: boolean) => number;

// US Letter portrait, in points.
export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
/**
 * Half an inch: every office printer prints that close to the edge, and the
 * daily report's 40 pt with its footer would not leave three rows of
 * stickers room for a QR code of 1.6 inches.
 */
export const MARGIN = 36;
/** Below the stickers: the page's footer line. */
const FOOTER = 16;
const COLUMNS = 2;
const ROWS = 3;
export const STICKERS_PER_PAGE = COLUMNS * ROWS;
/** Between two stickers: room for the scissors. */
const GUTTER = 10;
/** Inside a sticker's cut line: a cut a little off does not reach the print. */
const PADDING = 7;

/**
 * The QR code's square with its quiet zone: version 4 (33 modules and 8 of
 * quiet zone) then has a symbol of 1.7 inches, 3.7 pt a module, which a
 * phone reads from an arm's length.
 */
const QR_BOX = 150;

const NAME_SIZE = 12;
const NAME_LINE = 14;
const NAME_LINES = 2;
const CODE_SIZE = 20;
const COMMUNITY_SIZE = 8;

/**
 * How far Helvetica's glyphs reach above and below the baseline, as a
 * share of the font size (its font box, accents included): a text's
 * bounds for the layout and its tests.
 */
const ASCENT = 0.931;
const DESCENT = 0.225;

/** The rectangle a placed line of text can ink. */
export function textBounds(text: PlacedText): Box {
  return {
    x: text.x,
    y: text.baseline - ASCENT * text.size,
    width: text.width,
    height: (ASCENT + DESCENT) * text.size,
  };
}

/** A text shortened with an ellipsis to fit the width (unchanged when it fits). */
export function ellipsize(text: string, maxWidth: number, width: (text: string) => number): string {
  if (width(text) <= maxWidth) return text;
  let end = text.length;
  while (end > 0 && width(`${text.slice(0, end).trimEnd()}…`) > maxWidth) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * A text wrapped at spaces into at most maxLines lines of maxWidth, the
 * last one shortened with an ellipsis when the text does not fit; a word
 * wider than a line is cut where it must be.
 */
export function fitLines(text: string, maxWidth: number, maxLines: number, width: (text: string) => number): string[] {
  let rest = text.trim().replace(/\s+/g, ' ');
  const lines: string[] = [];
  while (rest && lines.length < maxLines - 1) {
    if (width(rest) <= maxWidth) break;
    // The longest start of the rest that fits, then back to its last space.
    let end = 0;
    while (end < rest.length && width(rest.slice(0, end + 1)) <= maxWidth) end++;
    const space = rest.lastIndexOf(' ', end);
    const cut = space > 0 ? space : Math.max(1, end);
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) lines.push(ellipsize(rest, maxWidth, width));
  return lines;
}

/** Where every sticker goes, in the order given: page by page, left to right, then down. */
export function stickerLayout(sheet: StickerSheet, measure: Measure): PlacedSticker[] {
  if (sheet.checkpoints.length === 0) throw new Error('There are no checkpoints to print codes for.');
  const width = (PAGE_WIDTH - 2 * MARGIN - (COLUMNS - 1) * GUTTER) / COLUMNS;
  const height = (PAGE_HEIGHT - 2 * MARGIN - FOOTER - (ROWS - 1) * GUTTER) / ROWS;
  const inner = width - 2 * PADDING;

  const placed = (text: string, size: number, bold: boolean, centre: number, baseline: number): PlacedText => {
    const textWidth = measure(text, size, bold);
    return { text, size, bold, x: centre - textWidth / 2, baseline, width: textWidth };
  };

  return sheet.checkpoints.map((checkpoint, index) => {
    const page = Math.floor(index / STICKERS_PER_PAGE);
    const slot = index % STICKERS_PER_PAGE;
    const box: Box = {
      x: MARGIN + (slot % COLUMNS) * (width + GUTTER),
      y: MARGIN + Math.floor(slot / COLUMNS) * (height + GUTTER),
      width,
      height,
    };
    const centre = box.x + width / 2;

    // The name on top: one line sits in the middle of the two lines' room.
    const lines = fitLines(checkpoint.name, inner, NAME_LINES, (text) => measure(text, NAME_SIZE, true));
    const nameTop = box.y + PADDING + ((NAME_LINES - lines.length) * NAME_LINE) / 2;
    const name = lines.map((line, i) =>
      placed(line, NAME_SIZE, true, centre, nameTop + ASCENT * NAME_SIZE + i * NAME_LINE),
    );

    const qrTop = box.y + PADDING + ASCENT * NAME_SIZE + (NAME_LINES - 1) * NAME_LINE + DESCENT * NAME_SIZE;
    const qr: Box = { x: centre - QR_BOX / 2, y: qrTop, width: QR_BOX, height: QR_BOX };

    // The short code right under the code it stands in for; the community at the bottom.
    const code = placed(
      `Code: ${shortCodeText(checkpoint.shortCode)}`,
      CODE_SIZE,
      true,
      centre,
      qr.y + QR_BOX + ASCENT * CODE_SIZE,
    );
    const communityText = ellipsize(sheet.communityName.trim(), inner, (text) => measure(text, COMMUNITY_SIZE, false));
    const community = placed(
      communityText,
      COMMUNITY_SIZE,
      false,
      centre,
      box.y + height - PADDING - DESCENT * COMMUNITY_SIZE,
    );
    return { page, box, qr, name, code, community };
  });
}

/** jsPDF's widths of its standard Helvetica (what the PDF then draws). */
export function jsPdfMeasure(doc: jsPDF): Measure {
  return (text, size, bold) => {
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    return doc.getStringUnitWidth(text) * size;
  };
}

/** The sheet of stickers as a PDF. Throws when there is no checkpoint (the screen offers none then). */
export async function checkpointStickersPdf(sheet: StickerSheet): Promise<Blob> {
  if (sheet.checkpoints.length === 0) throw new Error('There are no checkpoints to print codes for.');
  const [{ jsPDF }, { darkRuns, placeSymbol, qrModules }] = await Promise.all([
    import('jspdf'),
    import('./qrModules.ts'),
  ]);
  // Compressed: each QR code is a few hundred rectangles.
  const doc = new jsPDF({ unit: 'pt', format: 'letter', orientation: 'portrait', compress: true });
  doc.setProperties({ title: STICKERS_TITLE });
  const stickers = stickerLayout(sheet, jsPdfMeasure(doc));

  const text = (line: PlacedText) => {
    doc.setFont('helvetica', line.bold ? 'bold' : 'normal');
    doc.setFontSize(line.size);
    doc.text(line.text, line.x, line.baseline);
  };

  for (const [index, sticker] of stickers.entries()) {
    const checkpoint = sheet.checkpoints[index]!;
    if (sticker.page + 1 > doc.getNumberOfPages()) doc.addPage();

    doc.setDrawColor(150);
    doc.setLineWidth(0.5);
    doc.setLineDashPattern([4, 3], 0);
    doc.rect(sticker.box.x, sticker.box.y, sticker.box.width, sticker.box.height, 'S');
    doc.setLineDashPattern([], 0);

    const modules = qrModules(checkpoint.qrText);
    const symbol = placeSymbol(sticker.qr, modules.length);
    // One path filled once: rectangles filled one by one leave hairline
    // seams between rows where a viewer smooths each edge on its own.
    doc.setFillColor(0, 0, 0);
    for (const run of darkRuns(modules)) {
      doc.rect(
        symbol.x + run.col * symbol.module,
        symbol.y + run.row * symbol.module,
        run.length * symbol.module,
        symbol.module,
        null,
      );
    }
    doc.fill();

    doc.setTextColor(0);
    for (const line of sticker.name) text(line);
    text(sticker.code);
    doc.setTextColor(80);
    text(sticker.community);
  }

  // Every page's footer: which sheet this is, and how many there are.
  const pages = doc.getNumberOfPages();
  const footer = (line: string) => doc.getStringUnitWidth(line) * 8;
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(8);
    doc.setTextColor(80);
    const pageText = `Page ${page} of ${pages}`;
    const room = PAGE_WIDTH - 2 * MARGIN - footer(pageText) - 24;
    doc.text(
      ellipsize(`${STICKERS_TITLE} · ${sheet.communityName.trim()}`, room, footer),
      MARGIN,
      PAGE_HEIGHT - MARGIN,
    );
    doc.text(pageText, PAGE_WIDTH - MARGIN, PAGE_HEIGHT - MARGIN, { align: 'right' });
  }
  return doc.output('blob');
}
