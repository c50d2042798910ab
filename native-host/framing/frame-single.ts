import { endianness } from 'node:os';

const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * One native-messaging frame: the body's length in the machine's byte order, then the body. In a module of its own
 * (nothing but node:os) so the host's early hello can answer before the protocol's schemas (zod) are loaded.
 */
export function encodeFrame(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  const frame = Buffer.allocUnsafe(4 + body.length);
  if (LITTLE_ENDIAN) frame.writeUInt32LE(body.length, 0);
  else frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}
