import { randomUUID } from 'node:crypto';
// The chunk splitter by its own module, not the protocol's index: the host's first reply is sent before the rest of
// its protocol is loaded.
import { splitIntoChunks } from '../../shared/protocol/chunks';
import { encodeFrame } from './frame-single';

export { encodeFrame };

/**
 * Serializes one outgoing message into frames the browser accepts: a single frame when it fits under `maxBytes`,
 * otherwise a run of chunk messages that the background joins back together.
 */
export function encodeMessage(message: unknown, maxBytes: number): Buffer[] {
  const json = JSON.stringify(message);
  if (Buffer.byteLength(json, 'utf8') <= maxBytes) return [encodeFrame(json)];
  return splitIntoChunks(json, randomUUID(), maxBytes).map((chunk) => encodeFrame(JSON.stringify(chunk)));
}
