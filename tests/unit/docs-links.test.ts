import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../native-host/cli/program';

/**
 * The README is one screen that links to a page per job in docs/ (issue 25). What a reader follows or copies from
 * them must exist: every relative link and its #anchor, every `npm run` script and every `deputy` command. (The lines
 * that register `deputy mcp` and install the npm package are run as typed by tests/e2e/mcp-registration.test.ts and
 * tests/e2e/package-install.test.ts.)
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const text = (page: string): string => readFileSync(join(ROOT, page), 'utf8');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    found.add(
      (match[1] ?? '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .trim()
        .replace(/\s/g, '-'),
    );
  }
  return found;
}

describe('README and docs/', () => {
  it('has the pages the README links, one per job, each linked from the README', () => {
    const readme = text('README.md');
    for (const page of ['install', 'web-tasks', 'support-chats', 'desktop', 'shell', 'fix-loop', 'mcp', 'safety', 'privacy', 'benches', 'development']) {
      expect(readme, page).toContain(`(docs/${page}.md)`);
    }
  });

  it('every relative link and anchor leads somewhere', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const match of text(page).matchAll(/\]\(([^)\s]+)\)|<img src="([^"]+)"/g)) {
        const href = match[1] ?? match[2] ?? '';
        if (/^[a-z]+:/i.test(href)) continue;
        const [path = '', anchor] = href.split('#');
        const target = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
        if (!existsSync(target)) broken.push(`${page}: ${href} (no file)`);
        else if (anchor !== undefined && !anchors(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${page}: ${href} (no heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every npm run script and deputy command it names exists', () => {
    const scripts = Object.keys((JSON.parse(text('package.json')) as { scripts: Record<string, string> }).scripts);
    const program = buildProgram(
      () => undefined,
      () => {
        throw new Error('not run');
      },
    );
    const commands = program.commands.map((command) => command.name());
    const missing: string[] = [];
    for (const page of pages) {
      for (const match of text(page).matchAll(/npm run ([a-z][\w:-]*)/g)) if (!scripts.includes(match[1] ?? '')) missing.push(`${page}: npm run ${match[1]}`);
      for (const match of text(page).matchAll(/(?:^|[`\s])(?:deputy|npm run deputy --) ([a-z][\w-]*)/gm)) {
        const word = match[1] ?? '';
        if (['command', 'as', 'is', 'to', 'in', 'and', 'with'].includes(word)) continue;
        if (!commands.includes(word)) missing.push(`${page}: deputy ${word}`);
      }
    }
    expect(missing).toEqual([]);
    expect(commands).toEqual(expect.arrayContaining(['install', 'doctor', 'mcp', 'uninstall', 'loop', 'shell', 'desktop', 'compare']));
  });
});
