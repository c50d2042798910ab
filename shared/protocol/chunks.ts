import { AppError } from '../errors';
import type { Chunk } from './channel';

export const MAX_CHUNKS = 1024;

/**
 * Splits a serialized message into chunk messages whose own JSON stays under `maxBytes`. A UTF-16 unit can take up to
 * six bytes once JSON-escaped and UTF-8 encoded (\u0000 escapes), so pieces are sized for that worst case.
 */
export function splitIntoChunks(json: string, stream: string, maxBytes: number): Chunk[] {
  const pieceLength = Math.floor((maxBytes - 256) / 6);
  // A piece shortened to keep a surrogate pair whole must still hold one unit, or the loop below would never advance.
  if (pieceLength < 2) throw new AppError('internal', `A frame limit of ${maxBytes} bytes is too small to carry chunks`);
  const pieces: string[] = [];
  for (let start = 0; start < json.length; ) {
    let end = Math.min(json.length, start + pieceLength);
    // Never split a surrogate pair: the halves would not survive UTF-8 encoding.
    const last = json.charCodeAt(end - 1);
    if (end < json.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    pieces.push(json.slice(start, end));
    start = end;
  }
  if (pieces.length > MAX_CHUNKS) {
    throw new AppError('too_large', `A message of ${json.length} characters needs ${pieces.length} chunks; the limit is ${MAX_CHUNKS}`);
  }
  return pieces.map((data, index) => ({ kind: 'chunk', stream, index, count: pieces.length, data }));
}

/** Joins chunk messages back into whole messages; streams that stall are dropped after `maxAgeMs`. */
export class ChunkJoiner {
  private readonly streams = new Map<string, { parts: string[]; received: number; startedAt: number }>();

  constructor(
    private readonly now: () => number,
    private readonly maxAgeMs = 60_000,
  ) {}

  /** Returns the whole message once the last piece arrives, else undefined. Throws on an inconsistent stream. */
  add(chunk: Chunk): unknown {
    this.dropStale();
    let stream = this.streams.get(chunk.stream);
    if (!stream) {
      stream = { parts: new Array<string>(chunk.count), received: 0, startedAt: this.now() };
      this.streams.set(chunk.stream, stream);
    }
    if (chunk.count !== stream.parts.length || chunk.index >= chunk.count || stream.parts[chunk.index] !== undefined) {
      this.streams.delete(chunk.stream);
      throw new AppError('bad_frame', `Inconsistent chunk ${chunk.index}/${chunk.count} in stream ${chunk.stream}`);
    }
    stream.parts[chunk.index] = chunk.data;
    stream.received += 1;
    if (stream.received < chunk.count) return undefined;
    this.streams.delete(chunk.stream);
    try {
      return JSON.parse(stream.parts.join('')) as unknown;
    } catch (error) {
      throw new AppError('bad_json', `Chunk stream ${chunk.stream} did not join into valid JSON`, { cause: error });
    }
  }

  get openStreams(): number {
    return this.streams.size;
  }

  private dropStale(): void {
    const now = this.now();
    for (const [id, stream] of this.streams) if (now - stream.startedAt > this.maxAgeMs) this.streams.delete(id);
  }
}
