import { endianness } from 'node:os';

/** What one pushed chunk of stdin yields: whole frame bodies, and at most one fatal problem at the end. */
export type DecodedItem = { type: 'frame'; body: Buffer } | { type: 'corrupt'; reason: string };

const LITTLE_ENDIAN = endianness() === 'LE';

export function readLength(header: Buffer): number {
  return LITTLE_ENDIAN ? header.readUInt32LE(0) : header.readUInt32BE(0);
}

/**
 * Reassembles native-messaging frames (a uint32 length in native byte order, then that many bytes of UTF-8 JSON) from
 * arbitrary stdin chunks: a frame split over several reads, several frames in one read. A length above `maxBytes`
 * means the stream can no longer be trusted to stay in step, so the decoder stops for good.
 */
export class FrameDecoder {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private expected: number | undefined;
  private corrupt = false;

  constructor(private readonly maxBytes: number) {}

  get isCorrupt(): boolean {
    return this.corrupt;
  }

  /** Bytes received that do not yet make a whole frame, the length header of a frame under way included. */
  get pendingBytes(): number {
    return this.bufferedBytes + (this.expected === undefined ? 0 : 4);
  }

  push(chunk: Buffer): DecodedItem[] {
    if (this.corrupt) return [];
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    const items: DecodedItem[] = [];
    for (;;) {
      if (this.expected === undefined) {
        if (this.bufferedBytes < 4) break;
        const length = readLength(this.take(4));
        if (length > this.maxBytes) {
          this.corrupt = true;
          this.buffered = [];
          this.bufferedBytes = 0;
          items.push({
            type: 'corrupt',
            reason: `frame length ${length} exceeds the ${this.maxBytes}-byte limit; the stream is out of step`,
          });
          break;
        }
        this.expected = length;
      }
      if (this.bufferedBytes < this.expected) break;
      items.push({ type: 'frame', body: this.take(this.expected) });
      this.expected = undefined;
    }
    return items;
  }

  private take(count: number): Buffer {
    const all = this.buffered.length === 1 ? (this.buffered[0] as Buffer) : Buffer.concat(this.buffered, this.bufferedBytes);
    const head = all.subarray(0, count);
    const rest = all.subarray(count);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.bufferedBytes = rest.length;
    return Buffer.from(head);
  }
}
