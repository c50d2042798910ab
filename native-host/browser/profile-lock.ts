import { readlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export class ProfileInUseError extends Error {
  override readonly name = 'ProfileInUseError';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Refuses a profile that a running browser holds. Chromium marks a profile in use with a `SingletonLock` link naming
 * its host and process (Linux and macOS); a second browser on the same folder would hand the run to the first one, or
 * corrupt the profile. A lock left by a browser that crashed is stale, and Chromium takes it over itself.
 */
export async function assertProfileFree(userDataDir: string): Promise<void> {
  const lock = await readlink(join(userDataDir, 'SingletonLock')).catch(() => undefined);
  if (!lock) return;
  const at = lock.lastIndexOf('-');
  const host = lock.slice(0, at);
  const pid = Number(lock.slice(at + 1));
  if (host !== hostname() || !Number.isInteger(pid) || !alive(pid)) return;
  throw new ProfileInUseError(
    `The profile ${userDataDir} is in use by a running browser (process ${pid}). Close that browser first, or give Deputy a profile of its own (see "Use your logins" in the README).`,
  );
}
