/**
 * CSV as spreadsheets read it (RFC 4180: comma separated, CRLF rows, fields
 * with a comma, quote or line break quoted, quotes doubled), for every export
 * (the reports list, the tour rounds).
 */

/**
 * Spreadsheets run a cell starting with = + - @ as a formula; a leading
 * apostrophe keeps such text inert. Plain numbers (+15615550100, -5) are
 * left alone.
 */
function neutraliseFormula(value: string): string {
  if (/^[=+\-@\t\r]/.test(value) && !/^[+-]?[\d\s().-]+$/.test(value)) return `'${value}`;
  return value;
}

export function csvField(value: string): string {
  const safe = neutraliseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(values: readonly string[]): string {
  return values.map(csvField).join(',');
}
