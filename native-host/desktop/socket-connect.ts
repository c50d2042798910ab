import { createConnection } from 'node:net';

/** Opens and closes a connection to see whether anything listens there, giving up after `timeoutMs`. */
export function canConnect(target: { path: string } | { host: string; port: number }, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = 'path' in target ? createConnection({ path: target.path }) : createConnection({ host: target.host, port: target.port });
    const finish = (ok: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
