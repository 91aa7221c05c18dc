/**
 * Stands in for jsPDF's optional helpers (html2canvas, DOMPurify, canvg:
 * vite.config.ts aliases them here). jsPDF imports them lazily only for
 * doc.html() and SVG images, which the daily activity report never uses
 * (it draws text, tables and JPEG thumbnails). Bundled, they were about
 * 380 KiB more for the service worker to precache on every phone, and their
 * CommonJS parts split Rolldown's runtime helpers into a chunk of their own
 * that the login page then loaded too.
 */
export default function notBundled(): never {
  throw new Error("jsPDF's html() and SVG support are not part of this app's bundle");
}
