import { randomBytes } from 'node:crypto';
import { link, lstat, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { canConnect } from '../desktop/socket-connect';

/** Which file a socket is: its device and inode, the same under every name it has. */
export interface SocketFileId {
  dev: number;
  ino: number;
}

/**
 * A name beside the public socket for this host alone to listen on. libuv removes the path a Unix socket server listened
 * on when that server closes, whatever file the path holds by then; listening on a private name and linking the file
 * to the public name keeps that removal off the public name, which a newer host may hold by then.
 */
export function privateSocketPath(socket: string): string {
  return join(dirname(socket), `.${randomBytes(4).toString('hex')}.sock`);
}

export async function socketFileId(path: string): Promise<SocketFileId | undefined> {
  const info = await lstat(path).catch(() => undefined);
  return info ? { dev: info.dev, ino: info.ino } : undefined;
}

const same = (a: SocketFileId | undefined, b: SocketFileId | undefined): boolean =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

/**
 * Gives the socket file listening at `listening` the public name `socket`, atomically: `link` fails when the name is
 * taken, so of hosts racing for it exactly one gets it. A name held by a live server is left to it ('taken'). A name
 * with nobody behind it (a host that crashed) is moved aside and removed only when it is still the file found dead,
 * so a live socket another host placed meanwhile is put back, not removed. The private name is removed once linked.
 */
export async function placeSocketFile(
  listening: string,
  socket: string,
  onStale: () => void = () => undefined,
): Promise<'placed' | 'taken'> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await link(listening, socket);
      await unlink(listening).catch(() => undefined);
      return 'placed';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const found = await socketFileId(socket);
    if (found === undefined) continue;
    if (await canConnect({ path: socket }, 500)) return 'taken';
    onStale();
    const aside = `${listening}.stale`;
    if (
      !(await rename(socket, aside).then(
        () => true,
        () => false,
      ))
    )
      continue;
    if (!same(await socketFileId(aside), found)) await link(aside, socket).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
  }
  throw new Error(`${socket} kept changing while this host tried to take it (other hosts starting at the same time)`);
}

/** Removes the public name when it still is this host's socket file; a newer host's file there is left alone. */
export async function removeSocketFileIfOurs(socket: string, ours: SocketFileId): Promise<void> {
  if (same(await socketFileId(socket), ours)) await unlink(socket).catch(() => undefined);
}
