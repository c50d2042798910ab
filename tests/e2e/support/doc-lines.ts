import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The README and every page of docs/, where the commands users copy are written. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
  return [join(root, 'README.md'), ...docs.map((name) => join(root, 'docs', name))];
}

/**
 * The command line a page marks with a trailing `# <marker>` comment, as a user copies it (the comment left off).
 * Several pages may carry the same line (the README's first screen and a docs page): they must then agree.
 */
export function docLine(root: string, marker: string): string {
  const found = new Set<string>();
  for (const file of docFiles(root)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trimEnd().endsWith(`# ${marker}`)) found.add(line.slice(0, line.lastIndexOf(`# ${marker}`)).trim());
    }
  }
  if (found.size === 0) throw new Error(`No line of README.md or docs/*.md is marked "# ${marker}"`);
  if (found.size > 1) throw new Error(`The lines marked "# ${marker}" differ: ${[...found].join(' | ')}`);
  return [...found][0] ?? '';
}
