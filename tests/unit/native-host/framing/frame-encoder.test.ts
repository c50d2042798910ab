import { endianness } from 'node:os';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_TO_BROWSER_BYTES } from '../../../../shared/constants';
import { Chunk, ChunkJoiner } from '../../../../shared/protocol';
import { encodeFrame, encodeMessage } from '../../../../native-host/framing/frame-encoder';

/** Reads frames back independently of the decoder under test. */
function readFrames(frames: Buffer[]): unknown[] {
  return frames.map((frame) => {
    const length = endianness() === 'LE' ? frame.readUInt32LE(0) : frame.readUInt32BE(0);
    expect(frame.length).toBe(4 + length);
    return JSON.parse(frame.subarray(4).toString('utf8')) as unknown;
  });
}

function roundTrip(message: unknown, maxBytes = MAX_MESSAGE_TO_BROWSER_BYTES): { frames: Buffer[]; joined: unknown } {
  const frames = encodeMessage(message, maxBytes);
  for (const frame of frames) expect(frame.length - 4).toBeLessThanOrEqual(maxBytes);
  const messages = readFrames(frames);
  if (frames.length === 1) return { frames, joined: messages[0] };
  const joiner = new ChunkJoiner(() => 0);
  let joined: unknown;
  for (const [index, message] of messages.entries()) {
    const chunk = Chunk.parse(message);
    joined = joiner.add(chunk);
    if (index < messages.length - 1) expect(joined).toBeUndefined();
  }
  expect(joiner.openStreams).toBe(0);
  return { frames, joined };
}

describe('encodeMessage', () => {
  it('sends a message that fits as one frame with a native-order length', () => {
    const message = { kind: 'response', id: 'a', ok: true, result: { text: 'é✓😀' } };
    const frames = encodeMessage(message, MAX_MESSAGE_TO_BROWSER_BYTES);
    expect(frames).toHaveLength(1);
    expect(readFrames(frames)).toEqual([message]);
    expect(encodeFrame('{}').length).toBe(6);
  });

  it('chunks a 3 MB reply into frames under 1 MB that join back to the same message', () => {
    const echo = 'x'.repeat(3 * 1024 * 1024);
    const { frames, joined } = roundTrip({ kind: 'response', id: 'big', ok: true, result: { echo } });
    expect(frames.length).toBeGreaterThan(3);
    expect(joined).toEqual({ kind: 'response', id: 'big', ok: true, result: { echo } });
  });

  it.each([
    ['quotes and backslashes, which double when the JSON is escaped again', '"\\'.repeat(700_000)],
    ['control characters, which JSON writes as six-byte \\u escapes', '\u0001\u001f\n\t'.repeat(300_000)],
    ['surrogate pairs, whose halves must never be split apart', '😀'.repeat(600_000)],
    ['three-byte characters', '✓'.repeat(900_000)],
    ['a mix', 'a"😀\\\u0000é✓\n'.repeat(150_000)],
  ])('keeps every frame under the limit for %s', (_, text) => {
    const { joined } = roundTrip({ kind: 'event', event: 'notice', data: { text } });
    expect(joined).toEqual({ kind: 'event', event: 'notice', data: { text } });
  });

  it('keeps surrogate pairs whole at every chunk boundary under a small limit', () => {
    // An odd number of ASCII characters first, so the natural cut points fall inside pairs.
    const text = `a${'😀'.repeat(2000)}`;
    const { frames, joined } = roundTrip({ text }, 1024);
    expect(frames.length).toBeGreaterThan(10);
    expect(joined).toEqual({ text });
  });

  it('refuses a frame limit too small to carry any chunk instead of looping forever', () => {
    expect(() => encodeMessage({ text: 'x'.repeat(400) }, 200)).toThrow(/too small/);
  });
});
