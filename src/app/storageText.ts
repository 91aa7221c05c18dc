/**
 * The words of the sync panel's storage line (StorageStatus.tsx): whether
 * the browser keeps the data, and the space used and left, as a phone's
 * settings show them (decimal units: 1 GB = 1,000,000,000 bytes).
 */
export const STORAGE_KEPT = 'Kept on this device';
export const STORAGE_NOT_KEPT = 'The browser may clear this data when space runs low';
export const STORAGE_HINT =
  'To keep it, install the app to your home screen: in the browser menu choose “Add to Home screen” or “Install app”.';

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** '0 B', '850 kB', '12 MB', '3.2 GB': one decimal below 10, whole numbers above. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  // 999.7 MB rounds to '1000 MB': say '1.0 GB' instead.
  if (Math.round(value) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** '12 MB used · 3.2 GB free': what this app's data takes, and what it may still take. */
export function storageSpaceLine(usage: number, quota: number): string {
  return `${formatBytes(usage)} used · ${formatBytes(quota - usage)} free`;
}

export function storageKeptLine(kept: boolean | null): string | null {
  return kept === null ? null : kept ? STORAGE_KEPT : STORAGE_NOT_KEPT;
}
