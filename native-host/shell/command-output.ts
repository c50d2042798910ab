import { TerminalText, sizeText } from './terminal-text';

export interface OutputLimits {
  /** Rendered text kept in memory per command; older text is only in the session log. */
  memoryChars: number;
  /** What one delivery to the model shows at most: its start and its end. */
  headChars: number;
  tailChars: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { memoryChars: 1_000_000, headChars: 2_000, tailChars: 6_000 };

/** New output handed over once: the text (possibly shortened) and what was left out of it. */
export interface Delivery {
  text: string;
  /** Characters of new output left out of `text` (in the middle, or already gone from memory). */
  omittedChars: number;
  omittedLines: number;
  /** Whether there was any new output at all. */
  fresh: boolean;
}

/**
 * The output of one command: rendered to plain text (ANSI stripped, binary left out), redacted line by line before
 * anything keeps it, and handed to the model exactly once: each delivery starts where the last one ended. A long
 * delivery shows its head and tail and says how much of the middle is only in the log. Memory keeps the latest text
 * only; the log has all of it.
 */
export class CommandOutput {
  /** The kept text; `base` is the absolute offset of its first character. */
  private text = '';
  private base = 0;
  private delivered = 0;
  /** The start of the line being written, and how much of it was already delivered while it was partial. */
  private partialDelivered = '';
  private readonly terminal: TerminalText;
  private rawBytes = 0;
  private lineCount = 0;
  /** Completed lines at the last delivery, so a shortened delivery can say how many lines it left out. */
  private deliveredLines = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly redact: (text: string) => string,
    /** Each batch of completed lines, redacted, for the log and live views. */
    private readonly onLines: (text: string) => void,
    private readonly limits: OutputLimits = DEFAULT_OUTPUT_LIMITS,
  ) {
    this.terminal = new TerminalText((lines) => this.addLines(lines));
  }

  get bytes(): number {
    return this.rawBytes;
  }

  get lines(): number {
    return this.lineCount;
  }

  push(chunk: Buffer): void {
    this.rawBytes += chunk.length;
    this.terminal.push(chunk);
    this.notify();
  }

  end(): void {
    this.terminal.end();
    this.notify();
  }

  /** The line being written right now (a prompt, a progress bar), redacted. */
  partial(): string {
    const partial = this.terminal.partial();
    return partial === '' ? '' : this.redact(partial);
  }

  /** Whether anything arrived that was not delivered yet. */
  hasNew(): boolean {
    return this.base + this.text.length > this.delivered || this.partial().length > this.partialDelivered.length;
  }

  /** Calls the listener after every change; returns what removes it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Everything new since the last delivery, once. The partial line goes too, and is not repeated when it completes. */
  take(): Delivery {
    const end = this.base + this.text.length;
    const lost = Math.max(0, this.base - this.delivered);
    let fresh = this.text.slice(Math.max(0, this.delivered - this.base));
    const newLines = this.lineCount - this.deliveredLines;
    this.delivered = end;
    this.deliveredLines = this.lineCount;
    const partial = this.partial();
    if (partial.startsWith(this.partialDelivered) && partial.length > this.partialDelivered.length) {
      fresh += partial.slice(this.partialDelivered.length);
      this.partialDelivered = partial;
    }
    return this.shorten(fresh, lost, newLines);
  }

  /** What a `take()` would deliver now, in full, without delivering it: for matching a pattern in new output. */
  pending(): string {
    const fresh = this.text.slice(Math.max(0, this.delivered - this.base));
    const partial = this.partial();
    return partial.startsWith(this.partialDelivered) ? fresh + partial.slice(this.partialDelivered.length) : fresh;
  }

  /** The last `chars` characters of output (with the partial line), without delivering anything: for live views. */
  tail(chars: number): string {
    const all = this.text + this.partial();
    return all.length > chars ? all.slice(all.length - chars) : all;
  }

  private shorten(fresh: string, lost: number, newLines: number): Delivery {
    const { headChars, tailChars } = this.limits;
    if (fresh.length <= headChars + tailChars) {
      const note = lost > 0 ? `[… ${sizeText(lost)} of earlier output are only in the session log]\n` : '';
      return { text: note + fresh, omittedChars: lost, omittedLines: 0, fresh: fresh.length > 0 || lost > 0 };
    }
    const head = cutAtLine(fresh.slice(0, headChars), 'end');
    const tail = cutAtLine(fresh.slice(fresh.length - tailChars), 'start');
    const middle = fresh.slice(head.length, fresh.length - tail.length);
    // Counted from all the new lines, including those already gone from memory.
    const middleLines = Math.max(countLines(middle), newLines - countLines(head) - countLines(tail));
    const omitted = middle.length + lost;
    return {
      text: `${head}\n[… ${middleLines} lines (${sizeText(omitted)}) not shown: they are in the session log, where search_history finds them …]\n${tail}`,
      omittedChars: omitted,
      omittedLines: middleLines,
      fresh: true,
    };
  }

  private addLines(lines: string[]): void {
    const redacted = this.redact(`${lines.join('\n')}\n`);
    const lineStart = this.base + this.text.length;
    this.text += redacted;
    this.lineCount += lines.length;
    // A partial line already delivered is not delivered again when it completes, unless the line was rewritten.
    if (this.partialDelivered !== '') {
      if (this.delivered === lineStart && redacted.startsWith(this.partialDelivered)) this.delivered = lineStart + this.partialDelivered.length;
      this.partialDelivered = '';
    }
    if (this.text.length > this.limits.memoryChars) {
      const drop = this.text.length - Math.floor(this.limits.memoryChars * 0.75);
      this.text = this.text.slice(drop);
      this.base += drop;
    }
    this.onLines(redacted);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

/** Cuts a piece at a line boundary when one is near, so the model sees whole lines. */
function cutAtLine(piece: string, keep: 'start' | 'end'): string {
  if (keep === 'end') {
    const last = piece.lastIndexOf('\n');
    return last > piece.length / 2 ? piece.slice(0, last) : piece;
  }
  const first = piece.indexOf('\n');
  return first !== -1 && first < piece.length / 2 ? piece.slice(first + 1) : piece;
}
