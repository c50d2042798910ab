import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGuidance } from '../../../../native-host/loop/guidance-files';

describe('readGuidance', () => {
  const dirs: string[] = [];
  const repo = (files: Record<string, string>): string => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-guidance-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [{}, undefined],
    [{ 'AGENTS.md': 'Use pnpm.\n' }, { files: 'AGENTS.md', text: 'Use pnpm.' }],
    [{ 'CLAUDE.md': 'Run make.\n' }, { files: 'CLAUDE.md', text: 'Run make.' }],
    [{ 'CLAUDE.md': 'Run make.', 'AGENTS.md': 'Use pnpm.' }, { files: 'CLAUDE.md and AGENTS.md', text: '### CLAUDE.md\nRun make.\n\n### AGENTS.md\nUse pnpm.' }],
    [{ 'AGENTS.md': '   \n' }, undefined],
  ])('%j gives %j', (files, expected) => {
    expect(readGuidance(repo(files), 'CLAUDE.md')).toEqual(expected);
  });

  it('reads a configured guidance file first, shares one size limit, and skips a folder of that name', () => {
    const dir = repo({ 'docs.md': 'x'.repeat(9000), 'AGENTS.md': 'Use pnpm.' });
    mkdirSync(join(dir, 'CLAUDE.md'));
    const guidance = readGuidance(dir, 'docs.md');
    expect(guidance?.files).toBe('docs.md and AGENTS.md');
    expect(guidance?.text).toContain('x'.repeat(4000) + '\n... (cut)');
    expect(guidance?.text.endsWith('### AGENTS.md\nUse pnpm.')).toBe(true);
  });
});
