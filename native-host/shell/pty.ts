import type * as NodePty from '@lydell/node-pty';
import { AppError } from '../../shared/errors';

type PtyModule = typeof NodePty;

/** The terminal size commands see in a pty: wide, so tools do not wrap their lines for an 80-column screen. */
export const PTY_SIZE = { cols: 200, rows: 50 };

let loaded: Promise<PtyModule> | undefined;

/**
 * The pty library, loaded on first use: it is native code (prebuilt for Linux, macOS and Windows), and a host that
 * never runs a command in a pty never loads it. A platform without a prebuilt binary gets a clear error instead.
 */
export function loadPty(): Promise<PtyModule> {
  loaded ??= import('@lydell/node-pty').catch((error: unknown) => {
    loaded = undefined;
    throw new AppError('unavailable', `A pty is not available on this machine (${error instanceof Error ? error.message : String(error)}): run the command without pty.`);
  });
  return loaded;
}
