import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { ChunkJoiner, MAX_CHUNKS, splitIntoChunks, type Chunk } from '../../../../shared/protocol';

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

describe('splitIntoChunks', () => {
  it('keeps every chunk message under the byte limit, even when its data is all escapes', () => {
    const json = JSON.stringify({ text: '\u0000"\\😀'.repeat(20_000) });
    const chunks = splitIntoChunks(json, 'stream-1', 8 * 1024);
    for (const chunk of chunks) expect(utf8Bytes(JSON.stringify(chunk))).toBeLessThanOrEqual(8 * 1024);
    expect(chunks.map((chunk) => chunk.data).join('')).toBe(json);
    expect(new Set(chunks.map((chunk) => chunk.count))).toEqual(new Set([chunks.length]));
  });

  it('never leaves half a surrogate pair at the end of a chunk', () => {
    const json = `"x${'😀'.repeat(5000)}"`;
    for (const chunk of splitIntoChunks(json, 's', 1024)) {
      const last = chunk.data.charCodeAt(chunk.data.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
      // A lone half would be replaced by U+FFFD on its way through UTF-8.
      expect(new TextDecoder().decode(new TextEncoder().encode(chunk.data))).toBe(chunk.data);
    }
  });

  it(`refuses a message that would need more than ${MAX_CHUNKS} chunks`, () => {
    expect(() => splitIntoChunks('x'.repeat(200_000), 's', 1024)).toThrow(AppError);
  });
});

describe('ChunkJoiner', () => {
  const chunks = (json: string): Chunk[] => splitIntoChunks(json, 'st', 1024);
  const message = { kind: 'response', id: 'a', ok: true, result: { text: 'é😀'.repeat(2000) } };

  it('joins chunks that arrive out of order', () => {
    const joiner = new ChunkJoiner(() => 0);
    const parts = chunks(JSON.stringify(message)).reverse();
    const results = parts.map((chunk) => joiner.add(chunk));
    expect(results.slice(0, -1).every((result) => result === undefined)).toBe(true);
    expect(results.at(-1)).toEqual(message);
    expect(joiner.openStreams).toBe(0);
  });

  it('throws on a duplicate, a changed count or an index past the end, and forgets that stream', () => {
    const parts = chunks(JSON.stringify(message));
    const [first, second] = parts;
    if (!first || !second) throw new Error('expected chunks');
    const duplicate = new ChunkJoiner(() => 0);
    duplicate.add(first);
    expect(() => duplicate.add(first)).toThrow(/Inconsistent chunk/);
    expect(duplicate.openStreams).toBe(0);
    const recount = new ChunkJoiner(() => 0);
    recount.add(first);
    expect(() => recount.add({ ...second, count: second.count + 1 })).toThrow(AppError);
    expect(() => new ChunkJoiner(() => 0).add({ ...first, index: first.count })).toThrow(AppError);
  });

  it('throws bad_json when the joined text is not JSON', () => {
    const joiner = new ChunkJoiner(() => 0);
    expect(() => joiner.add({ kind: 'chunk', stream: 'x', index: 0, count: 1, data: '{"a":' })).toThrow(
      expect.objectContaining({ code: 'bad_json' }) as Error,
    );
  });

  it('drops a stream that stalls longer than its maximum age', () => {
    let now = 0;
    const joiner = new ChunkJoiner(() => now, 1000);
    const [first] = chunks(JSON.stringify(message));
    if (!first) throw new Error('expected chunks');
    joiner.add(first);
    now = 1001;
    joiner.add({ kind: 'chunk', stream: 'other', index: 0, count: 2, data: '' });
    expect(joiner.openStreams).toBe(1);
  });
});
