import { open } from 'node:fs/promises';
import { join } from 'node:path';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
const MAX_NAME_BYTES = 150;

/**
 * A file name that is safe to create in the run folder from whatever a mail calls its attachment: only the last path
 * segment (both / and \ separate), no control or invisible formatting characters (a right-to-left override can make
 * "report\u202Excod.pptx" read as "report.docx" while being something else), none of the characters Windows forbids,
 * no leading dots, no reserved device names, and at most 150 bytes with the extension kept.
 */
export function safeFileName(raw: string | undefined, extension: string, fallback = 'attachment'): string {
  const last = (raw ?? '').normalize('NFC').replace(/\\/g, '/').split('/').pop() ?? '';
  let cleaned = last
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  const suffix = `.${extension}`;
  let base = cleaned.toLowerCase().endsWith(suffix) ? cleaned.slice(0, -suffix.length).replace(/[.\s]+$/, '') : cleaned;
  if (base === '' || WINDOWS_RESERVED.test(base)) base = base === '' ? fallback : `_${base}`;
  while (Buffer.byteLength(base + suffix) > MAX_NAME_BYTES) base = Array.from(base).slice(0, -1).join('');
  cleaned = `${base}${suffix}`;
  return cleaned;
}

/**
 * Creates an empty file under a name no other file has ("deck.pptx", then "deck (2).pptx", ...), so an attachment never
 * overwrites an earlier one or a file the user keeps there. The caller renames its finished download over it.
 */
export async function reserveFile(folder: string, name: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  for (let attempt = 1; attempt <= 1000; attempt += 1) {
    const candidate = join(folder, attempt === 1 ? name : `${base} (${attempt})${extension}`);
    try {
      const handle = await open(candidate, 'wx', 0o644);
      await handle.close();
      return candidate;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`1000 files named like ${name} already exist in ${folder}`);
}
