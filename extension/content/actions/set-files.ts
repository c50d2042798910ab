import { AppError } from '../../../shared/errors';

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Puts files into a file field through a DataTransfer and tells the page with input and change events, the way a
 * drop would. Used for files the user chose in the side panel where the debugger cannot set them; only ever with files
 * the user attached to the task (the background picks them by name), never with anything the page names.
 */
export function setFiles(el: Element, files: { name: string; type: string; base64: string }[]): string {
  if (el.tagName !== 'INPUT' || (el as HTMLInputElement).type !== 'file') {
    throw new AppError('invalid_params', '[@] is not a file field, and the debugger that answers the file picker of a button is not available: choose the file field itself');
  }
  const input = el as HTMLInputElement;
  if (input.disabled) throw new AppError('forbidden', '[@] is disabled');
  if (files.length > 1 && !input.multiple) throw new AppError('invalid_params', '[@] takes one file: upload one');
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(new File([bytesOf(file.base64)], file.name, { type: file.type }));
  input.files = transfer.files;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
  return `put ${files.map((f) => JSON.stringify(f.name)).join(', ')} into`;
}
