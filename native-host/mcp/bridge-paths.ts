import { posix, win32 } from 'node:path';
import { appPaths, type PathEnv } from '../paths';

export interface BridgePaths {
  /** The folder only the user may enter (0700): the socket and the token live in it. */
  dir: string;
  /** A Unix domain socket path, or a Windows named pipe. */
  socket: string;
  /** The per-user token `deputy mcp` presents in its hello; readable only by the user (0600). */
  tokenFile: string;
}

/** Unix socket paths are limited to about 104 bytes (macOS) or 108 (Linux), including the terminating zero. */
export const MAX_SOCKET_PATH_BYTES = 103;

/**
 * Where the running host listens for `deputy mcp`: `$XDG_RUNTIME_DIR/deputy` on Linux (a per-user tmpfs the system
 * already keeps at 0700), else `run/` in Deputy's data folder; `DEPUTY_RUN_DIR` overrides both (tests, several
 * installs side by side). On Windows the socket is a named pipe named after the user, and the token sits in the data
 * folder; that path is written but untested.
 */
export function bridgePaths(pathEnv: PathEnv): BridgePaths {
  const { platform, env } = pathEnv;
  const path = platform === 'win32' ? win32 : posix;
  const override = env.DEPUTY_RUN_DIR;
  const runtime = env.XDG_RUNTIME_DIR;
  const dir =
    override !== undefined && override !== ''
      ? override
      : platform === 'linux' && runtime !== undefined && posix.isAbsolute(runtime)
        ? posix.join(runtime, 'deputy')
        : path.join(appPaths(pathEnv).dataDir, 'run');
  if (platform === 'win32') {
    const user = (env.USERNAME ?? 'user').replace(/[^A-Za-z0-9_.-]/g, '_');
    const suffix = override ? `-${Buffer.from(override).toString('hex').slice(-16)}` : '';
    return { dir, socket: `\\\\.\\pipe\\deputy-bridge-${user}${suffix}`, tokenFile: win32.join(dir, 'bridge-token') };
  }
  return { dir, socket: posix.join(dir, 'bridge.sock'), tokenFile: posix.join(dir, 'bridge-token') };
}
