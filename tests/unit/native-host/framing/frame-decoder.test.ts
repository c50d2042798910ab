import { endianness } from 'node:os';
import { describe, expect, it } from 'vitest';
import { FrameDecoder } from '../../../../native-host/framing/frame-decoder';

/** Written independently of the encoder under test: uint32 length in native byte order, then the bytes. */
function frame(body: string | Buffer): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const header = Buffer.alloc(4);
  if (endianness() === 'LE') header.writeUInt32LE(bytes.length);
  else header.writeUInt32BE(bytes.length);
  return Buffer.concat([header, bytes]);
}

const bodies = (items: ReturnType<FrameDecoder['push']>): string[] =>
  items.map((item) => (item.type === 'frame' ? item.body.toString('utf8') : `corrupt: ${item.reason}`));

describe('FrameDecoder', () => {
  it('reassembles a frame delivered one byte at a time', () => {
    const decoder = new FrameDecoder(1024);
    const bytes = frame('{"kind":"request","text":"héllo ✓ 😀"}');
    const seen: string[] = [];
    for (let index = 0; index < bytes.length; index += 1) {
      seen.push(...bodies(decoder.push(bytes.subarray(index, index + 1))));
      if (index < bytes.length - 1) expect(seen).toEqual([]);
    }
    expect(seen).toEqual(['{"kind":"request","text":"héllo ✓ 😀"}']);
    expect(decoder.pendingBytes).toBe(0);
  });

  it('yields every frame of a chunk holding several, and keeps the unfinished tail for later', () => {
    const decoder = new FrameDecoder(1024);
    const all = Buffer.concat([frame('1'), frame('[2]'), frame(''), frame('"four"')]);
    expect(bodies(decoder.push(all.subarray(0, all.length - 3)))).toEqual(['1', '[2]', '']);
    expect(decoder.pendingBytes).toBe(7);
    const headerOnly = new FrameDecoder(1024);
    expect(headerOnly.push(frame('abc').subarray(0, 4))).toEqual([]);
    expect(headerOnly.pendingBytes).toBe(4);
    expect(bodies(decoder.push(all.subarray(all.length - 3)))).toEqual(['"four"']);
  });

  it('splits at every possible point and still yields the same frames', () => {
    const all = Buffer.concat([frame('{"a":1}'), frame('{"b":[true,null]}'), frame('"x"')]);
    for (let cut = 0; cut <= all.length; cut += 1) {
      const decoder = new FrameDecoder(1024);
      const seen = [...bodies(decoder.push(all.subarray(0, cut))), ...bodies(decoder.push(all.subarray(cut)))];
      expect(seen).toEqual(['{"a":1}', '{"b":[true,null]}', '"x"']);
    }
  });

  it('accepts a length exactly at the cap and stops for good on one above it', () => {
    const atCap = new FrameDecoder(8);
    expect(bodies(atCap.push(frame('12345678')))).toEqual(['12345678']);

    const decoder = new FrameDecoder(8);
    const items = decoder.push(Buffer.concat([frame('ok'), frame('123456789'), frame('never')]));
    expect(bodies(items)).toEqual(['ok', 'corrupt: frame length 9 exceeds the 8-byte limit; the stream is out of step']);
    expect(decoder.isCorrupt).toBe(true);
    expect(decoder.push(frame('later'))).toEqual([]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it('reads the length in native byte order', () => {
    const decoder = new FrameDecoder(64 * 1024 * 1024);
    // 0x00000100 = 256 in the other byte order would be 65536: a decoder reading the wrong order waits forever.
    const header = Buffer.alloc(4);
    if (endianness() === 'LE') header.writeUInt32LE(2);
    else header.writeUInt32BE(2);
    expect(bodies(decoder.push(Buffer.concat([header, Buffer.from('{}')])))).toEqual(['{}']);
  });
});
