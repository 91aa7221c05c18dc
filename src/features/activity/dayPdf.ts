/**
 * The daily activity report as a PDF, drawn on the device with
 * jsPDF: the header (community, day, period, officer), the counts, every
 * entry in time order as a table (jspdf-autotable), then each report's and
 * house check's narrative with its photos as thumbnails. Pure drawing of a
 * DayModel: the photos come in already loaded (none offline: the report
 * says which are not available).
 */
import { format } from 'date-fns';
import { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';
import {
  countsLine,
  roundSummary,
  DAY_REPORT_TITLE,
  ENTRY_KIND_LABELS,
  entrySummary,
  type DayModel,
  type ReportEntry,
} from './dayModel.ts';
import { formatDateTime } from '../../ui/dateTime.ts';

/** A photo ready for the PDF: JPEG data and its size in pixels. */
export interface PdfPhoto {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The key of a photo in the map handed to drawDayReport. */
export const photoKey = (reportId: string, name: string) => `${reportId}/${name}`;

// In points, with margins that leave room for the footer (on Letter and A4 alike).
const MARGIN = 40;
const FOOTER = 28;
const THUMB_W = 96;
const THUMB_H = 72;
const GAP = 8;

/**
 * The report as a jsPDF document. `photos` maps photoKey(report, name) to
 * the thumbnail, or to null when the device cannot have it (offline and not
 * in the image cache); a photo missing from the map counts as null.
 */
export function drawDayReport(model: DayModel, photos: ReadonlyMap<string, PdfPhoto | null>, generatedAt: Date): jsPDF {
  const doc = new jsPDF({ unit: 'pt', format: model.paper });
  doc.setProperties({ title: `${DAY_REPORT_TITLE} — ${model.community} — ${format(model.day, 'yyyy-MM-dd')}` });
  const pageWidth = doc.internal.pageSize.getWidth();
  const pageHeight = doc.internal.pageSize.getHeight();
  const width = pageWidth - 2 * MARGIN;
  const bottom = pageHeight - MARGIN - FOOTER;
  let y = MARGIN;

  const ensure = (height: number) => {
    if (y + height <= bottom) return;
    doc.addPage();
    y = MARGIN;
  };
  const text = (lines: string | string[], size: number, style: 'normal' | 'bold' = 'normal', gapAfter = 4) => {
    doc.setFont('helvetica', style);
    doc.setFontSize(size);
    const wrapped: string[] = doc.splitTextToSize(Array.isArray(lines) ? lines.join('\n') : lines, width);
    const lineHeight = size * 1.25;
    for (const line of wrapped) {
      ensure(lineHeight);
      doc.text(line, MARGIN, y + size);
      y += lineHeight;
    }
    y += gapAfter;
  };

  text(DAY_REPORT_TITLE, 18, 'bold', 2);
  text(model.community, 13, 'bold', 6);
  text([`Day: ${format(model.day, 'EEEE, MMMM d, yyyy')}`, `Period: ${model.period}`, `Officer: ${model.officer}`], 10);
  text(countsLine(model), 10, 'bold', 8);

  if (model.entries.length === 0) {
    text('Nothing was logged on this day.', 11);
  } else {
    autoTable(doc, {
      startY: y,
      margin: { left: MARGIN, right: MARGIN, top: MARGIN, bottom: MARGIN + FOOTER },
      head: [['Time', 'Entry', 'Home', 'Officer', 'Details']],
      body: model.entries.map((entry) => [
        entry.time,
        ENTRY_KIND_LABELS[entry.kind],
        entry.home,
        entry.officer,
        entrySummary(entry),
      ]),
      styles: { font: 'helvetica', fontSize: 9, cellPadding: 4, overflow: 'linebreak' },
      headStyles: { fillColor: [17, 24, 39], textColor: 255 },
      columnStyles: { 0: { cellWidth: 40 }, 1: { cellWidth: 64 }, 3: { cellWidth: 84 } },
      theme: 'striped',
    });
    y = (doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY + 16;

    const written = model.entries.filter((entry): entry is ReportEntry => entry.kind !== 'call');
    if (written.length > 0) {
      ensure(40);
      text('Narratives and photos', 13, 'bold', 6);
      for (const entry of written) drawNarrative(entry);
    }
  }

  if (model.rounds.length > 0) {
    ensure(60);
    text('Tour rounds', 13, 'bold', 4);
    autoTable(doc, {
      startY: y,
      margin: { left: MARGIN, right: MARGIN, top: MARGIN, bottom: MARGIN + FOOTER },
      head: [['Time', 'Tour', 'Status', 'Details']],
      body: model.rounds.map((round) => [round.time, round.tour, round.statusWords, roundSummary(round)]),
      styles: { font: 'helvetica', fontSize: 9, cellPadding: 4, overflow: 'linebreak' },
      headStyles: { fillColor: [17, 24, 39], textColor: 255 },
      columnStyles: { 0: { cellWidth: 40 }, 2: { cellWidth: 70 } },
      theme: 'striped',
    });
    y = (doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY + 16;
  }

  if (model.alerts.length > 0) {
    ensure(60);
    text('Alerts', 13, 'bold', 4);
    autoTable(doc, {
      startY: y,
      margin: { left: MARGIN, right: MARGIN, top: MARGIN, bottom: MARGIN + FOOTER },
      head: [['Time', 'Alert', 'Officer', 'State', 'Steps']],
      body: model.alerts.map((alert) => [alert.time, alert.kind, alert.officer, alert.state, alert.steps]),
      styles: { font: 'helvetica', fontSize: 9, cellPadding: 4, overflow: 'linebreak' },
      headStyles: { fillColor: [17, 24, 39], textColor: 255 },
      columnStyles: { 0: { cellWidth: 40 }, 3: { cellWidth: 55 } },
      theme: 'striped',
    });
    y = (doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY + 16;
  }

  function drawNarrative(entry: ReportEntry) {
    ensure(50);
    text(`${entry.time} · ${entry.type} · ${entry.home}`, 10, 'bold', 1);
    if (entry.answer) text(entry.answer, 10, 'bold', 1);
    text(`${entry.officer}${entry.narrativeIsAi ? ' · Narrative (Ai assist)' : ''}`, 9, 'normal', 2);
    text(entry.narrative, 10, 'normal', 4);
    if (entry.photos.length === 0) {
      y += 6;
      return;
    }
    let x = MARGIN;
    const missing: number[] = [];
    entry.photos.forEach((name, index) => {
      const photo = photos.get(photoKey(entry.id, name)) ?? null;
      if (!photo) {
        missing.push(index + 1);
        return;
      }
      if (x + THUMB_W > MARGIN + width) {
        x = MARGIN;
        y += THUMB_H + GAP;
      }
      ensure(THUMB_H + GAP);
      // Fit the picture in the thumbnail's box, keeping its proportions.
      const scale = Math.min(THUMB_W / photo.width, THUMB_H / photo.height);
      const [w, h] = [photo.width * scale, photo.height * scale];
      doc.addImage(photo.data, 'JPEG', x, y, w, h);
      x += THUMB_W + GAP;
    });
    if (missing.length < entry.photos.length) y += THUMB_H + GAP;
    if (missing.length > 0) {
      const which = missing.length === 1 ? `Photo ${missing[0]} is` : `Photos ${missing.join(', ')} are`;
      text(`${which} not available offline.`, 9, 'normal', 2);
    }
    y += 6;
  }

  // The footer of every page: when it was made, and where the reader is.
  const pages = doc.getNumberOfPages();
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(8);
    doc.text(
      `${model.community} · ${DAY_REPORT_TITLE} · Generated ${formatDateTime(generatedAt)}`,
      MARGIN,
      pageHeight - MARGIN,
    );
    doc.text(`Page ${page} of ${pages}`, pageWidth - MARGIN, pageHeight - MARGIN, { align: 'right' });
  }
  return doc;
}
