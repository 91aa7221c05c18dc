/** Hands a file made on the device (a PDF, a CSV) to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has started the download.
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
