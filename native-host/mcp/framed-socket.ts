import type { Socket } from 'node:net';
import { FrameDecoder } from '../framing/frame-decoder';
import { encodeFrame } from '../framing/frame-encoder';

/** The largest message either side of the bridge accepts (a screenshot is a few megabytes at most). */
export const MAX_BRIDGE_FRAME_BYTES = 32 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface FramedSocket {
  send(message: unknown): void;
  close(): void;
  readonly closed: boolean;
}

/**
 * The bridge's wire format: the native-messaging framing (a uint32 length, then that many bytes of UTF-8 JSON) over a
 * local socket. A corrupt length ends the connection; a frame that is not JSON is reported and skipped.
 */
export function framedSocket(
  socket: Socket,
  handlers: { onMessage: (message: unknown) => void; onBadFrame: (reason: string) => void; onClose: () => void },
): FramedSocket {
  const decoder = new FrameDecoder(MAX_BRIDGE_FRAME_BYTES);
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    socket.destroy();
    handlers.onClose();
  };
  socket.on('data', (chunk: Buffer) => {
    for (const item of decoder.push(chunk)) {
      if (item.type === 'corrupt') {
        handlers.onBadFrame(item.reason);
        close();
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(utf8.decode(item.body));
      } catch {
        handlers.onBadFrame(`a frame of ${item.body.length} bytes is not UTF-8 JSON`);
        continue;
      }
      handlers.onMessage(message);
    }
  });
  socket.on('close', close);
  socket.on('error', close);
  return {
    send: (message) => {
      if (!closed) socket.write(encodeFrame(JSON.stringify(message)));
    },
    close,
    get closed() {
      return closed;
    },
  };
}
