import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { AppError } from '../../shared/errors';

/**
 * Makes the bridge folder private: created 0700, and refused when it belongs to another user or is a symlink (someone
 * else could then swap the socket for their own). A folder that is ours but too open is closed down.
 */
export async function ensurePrivateDir(dir: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (platform === 'win32') return;
  const info = await lstat(dir);
  if (info.isSymbolicLink() || !info.isDirectory()) throw new AppError('forbidden', `${dir} is not a plain folder; Deputy keeps its bridge socket only in a folder of its own.`);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) throw new AppError('forbidden', `${dir} belongs to another user (uid ${info.uid}); remove it or set DEPUTY_RUN_DIR to a folder of yours.`);
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** The token in the file, created (0600, 32 random bytes as hex) when there is none yet. */
export async function readOrCreateToken(file: string): Promise<string> {
  const existing = await readToken(file);
  if (existing !== undefined) return existing;
  const token = randomBytes(32).toString('hex');
  try {
    await writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return token;
  } catch (error) {
    // Another host wrote it between our read and our write: theirs counts.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const written = await readToken(file);
      if (written !== undefined) return written;
    }
    throw error;
  }
}

/** The token in the file, or undefined when there is none (no host has run for this user yet). */
export async function readToken(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Compares two tokens in constant time. */
export function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
