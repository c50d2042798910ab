import { stripVTControlCharacters } from 'node:util';

/** A line longer than this is cut into pieces, so output without newlines never grows one string without bound. */
const MAX_LINE_CHARS = 64 * 1024;
/** How much of a chunk may be control characters or undecodable bytes before it counts as binary. */
const BINARY_SHARE = 0.1;

/**
 * One line as a terminal would show it: escape sequences (colours, cursor and title codes) removed, a carriage return
 * starting the line over (progress bars keep their last state), a backspace stepping back, other control characters
 * dropped. Tabs stay.
 */
export function renderLine(raw: string): string {
  // Operating-system commands (a window title ended by BEL) first: Node's stripper leaves their text behind.
  // eslint-disable-next-line no-control-regex -- escape sequences are exactly what this removes.
  const text = stripVTControlCharacters(raw.replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, ''));
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for.
  if (!/[\r\b\x00-\x08\x0b-\x1f\x7f]/.test(text)) return text;
  const cells: string[] = [];
  let column = 0;
  for (const char of text.replace(/\r+$/, '')) {
    if (char === '\r') column = 0;
    else if (char === '\b') column = Math.max(0, column - 1);
    else if (char === '\t' || char >= ' ') {
      if (char === '\x7f') continue;
      cells[column] = char;
      column += 1;
    }
  }
  return Array.from(cells, (cell) => cell ?? ' ').join('');
}

/** Chunks shorter than this are never judged binary: a lone bell or escape is a terminal's, not a file's. */
const MIN_BINARY_CHARS = 64;

function looksBinary(text: string): boolean {
  if (text.length < MIN_BINARY_CHARS) return false;
  let odd = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd || code === 0 || (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x1b && code !== 0x08)) odd += 1;
  }
  return odd / text.length > BINARY_SHARE;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Turns a command's raw bytes into plain text lines as they arrive: UTF-8 decoded across chunk boundaries, rendered
 * like a terminal line by line, and binary data (an image, a compressed file cat'ed by mistake) replaced by one line
 * that says how much was left out. Lines come out as they complete; the line still being written can be looked at
 * with `partial()` (a prompt without a newline, a progress bar).
 */
export class TerminalText {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  private binaryBytes = 0;

  constructor(private readonly emit: (lines: string[]) => void) {}

  push(chunk: Buffer): void {
    const text = this.decoder.decode(chunk, { stream: true });
    if (looksBinary(text)) {
      this.flushPending();
      this.binaryBytes += chunk.length;
      // A multibyte sequence cut at the end of binary data must not turn into a stray character before the next text.
      this.decoder.decode();
      return;
    }
    this.endBinary();
    this.pending += text;
    if (!this.pending.includes('\n') && this.pending.length <= MAX_LINE_CHARS) return;
    const parts = this.pending.split('\n');
    this.pending = parts.pop() ?? '';
    const lines = parts.map(renderLine);
    while (this.pending.length > MAX_LINE_CHARS) {
      lines.push(renderLine(this.pending.slice(0, MAX_LINE_CHARS)));
      this.pending = this.pending.slice(MAX_LINE_CHARS);
    }
    if (lines.length > 0) this.emit(lines);
  }

  /** The line being written, as it would show now (empty when the last line ended). */
  partial(): string {
    return this.binaryBytes > 0 ? '' : renderLine(this.pending);
  }

  /** The command ended: whatever is left becomes the last line. */
  end(): void {
    const rest = this.decoder.decode();
    if (rest !== '') this.pending += rest;
    this.endBinary();
    this.flushPending();
  }

  private flushPending(): void {
    if (this.pending === '') return;
    const line = renderLine(this.pending);
    this.pending = '';
    this.emit([line]);
  }

  private endBinary(): void {
    if (this.binaryBytes === 0) return;
    const bytes = this.binaryBytes;
    this.binaryBytes = 0;
    this.emit([`[binary output: ${sizeText(bytes)} not shown]`]);
  }
}

export { sizeText };
