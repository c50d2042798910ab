import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files in which a repository tells coding agents how to work in it: AGENTS.md (read by Codex, Cursor and
 * others) and CLAUDE.md (Claude Code's). The fixer runs with `--setting-sources user`, which keeps the repository's
 * own Claude settings out and with them Claude Code's loading of the project's CLAUDE.md, so Deputy puts both files
 * into the fixer's prompt itself; the loop's `guidanceFile` names one more.
 */
export const GUIDANCE_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;

const MAX_GUIDANCE_CHARS = 8000;

export interface Guidance {
  /** The files read, as named in the prompt: "AGENTS.md and CLAUDE.md". */
  files: string;
  text: string;
}

/** The guidance files of the repository that exist, in the prompt's order, within one size limit shared between them. */
export function readGuidance(repo: string, configured: string): Guidance | undefined {
  const names = [...new Set([configured, ...GUIDANCE_FILES])];
  const found: Array<{ name: string; text: string }> = [];
  for (const name of names) {
    const path = join(repo, name);
    try {
      if (!existsSync(path) || !statSync(path).isFile()) continue;
      const text = readFileSync(path, 'utf8').trim();
      if (text) found.push({ name, text });
    } catch {
      // An unreadable guidance file is left out; the fix does not depend on it.
    }
  }
  if (found.length === 0) return undefined;
  const share = Math.floor(MAX_GUIDANCE_CHARS / found.length);
  const cut = (text: string): string => (text.length > share ? `${text.slice(0, share)}\n... (cut)` : text);
  if (found.length === 1) return { files: found[0]?.name ?? configured, text: cut(found[0]?.text ?? '') };
  return {
    files: found.map((item) => item.name).join(' and '),
    text: found.map((item) => `### ${item.name}\n${cut(item.text)}`).join('\n\n'),
  };
}
