/**
 * Saves text as a file through the page's own download (an object URL on a link): no downloads permission needed.
 */
export function downloadText(fileName: string, text: string, type: string): void {
  downloadBytes(fileName, text, type);
}

/** Saves bytes (or text) as a file, the same way. */
export function downloadBytes(fileName: string, data: string | Uint8Array<ArrayBuffer>, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once the click returns; later revocation only frees memory.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
