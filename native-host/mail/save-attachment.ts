import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AttachmentType, SavedAttachment } from '../../shared/protocol/mail-protocol';
import { contentMismatch } from './attachment-types';
import { formatSize } from '../../shared/mail-text';
import { reserveFile, safeFileName } from './safe-file-name';

export type SaveOutcome = { saved: SavedAttachment } | { why: string };

class TooLarge extends Error {}

/** Counts bytes through it and fails once they pass `maxBytes`, so a part larger than announced stops early. */
function byteLimit(maxBytes: number): Transform & { bytes: number } {
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      limiter.bytes += chunk.length;
      if (limiter.bytes > maxBytes) done(new TooLarge());
      else done(null, chunk);
    },
  }) as Transform & { bytes: number };
  limiter.bytes = 0;
  return limiter;
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/**
 * Saves one attachment's decoded content into the run folder: under a safe name that no existing file has, written to
 * a temporary file first (fsynced, then renamed over the reserved name) so a crash or a stop never leaves half a
 * document under the real name, and checked against its type. Over the size cap or with the wrong content, nothing
 * stays behind and the outcome says why.
 */
export async function saveAttachment(
  content: Readable,
  target: { folder: string; name: string; type: AttachmentType; maxBytes: number },
): Promise<SaveOutcome> {
  await mkdir(target.folder, { recursive: true });
  const name = safeFileName(target.name, target.type);
  const finalPath = await reserveFile(target.folder, name);
  const temporary = join(dirname(finalPath), `.${basename(finalPath)}.${randomBytes(4).toString('hex')}.part`);
  const limiter = byteLimit(target.maxBytes);
  try {
    await pipeline(content, limiter, createWriteStream(temporary, { flags: 'wx', mode: 0o644 }));
    const handle = await open(temporary, 'r+');
    await handle.sync().finally(() => handle.close());
    const mismatch = await contentMismatch(temporary, limiter.bytes, target.type);
    if (mismatch !== undefined) {
      await Promise.all([removeQuietly(temporary), removeQuietly(finalPath)]);
      return { why: mismatch };
    }
    await rename(temporary, finalPath);
    return { saved: { path: finalPath, name: basename(finalPath), size: limiter.bytes, type: target.type } };
  } catch (error) {
    content.destroy();
    await Promise.all([removeQuietly(temporary), removeQuietly(finalPath)]);
    if (error instanceof TooLarge)
      return { why: `too large: over the ${formatSize(target.maxBytes)} limit (stopped while downloading)` };
    throw error;
  }
}
