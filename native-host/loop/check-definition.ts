import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';
import { isTestFile } from './guard-rules';

/**
 * What defines the check besides the code under test: test configuration files, the package scripts an npm-style
 * check runs, and the files the check command names. A fix may not change them (nor the tests): a check that passes
 * only because its definition changed is not a pass.
 */
export const TEST_CONFIG_PATTERNS = [
  '**/vitest.config.*',
  '**/vitest.workspace.*',
  '**/vitest.setup.*',
  '**/jest.config.*',
  '**/jest.setup.*',
  '**/jest.preset.*',
  '**/karma.conf.*',
  '**/.mocharc*',
  '**/ava.config.*',
  '**/playwright.config.*',
  '**/cypress.config.*',
  '**/pytest.ini',
  '**/conftest.py',
  '**/tox.ini',
  '**/noxfile.py',
  '**/.coveragerc',
  '**/phpunit.xml*',
  '**/.rspec',
  '**/.nycrc*',
  '**/.c8rc*',
];

/** Files whose test section (not the rest) defines the check: the section's text is what must stay. */
const SECTIONED: Record<string, (text: string) => string> = {
  'package.json': (text) => {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify({ scripts: json.scripts, jest: json.jest, vitest: json.vitest, mocha: json.mocha, ava: json.ava, c8: json.c8, nyc: json.nyc });
    } catch {
      return text;
    }
  },
  'pyproject.toml': (text) => iniSections(text, /^\[tool\.(?:pytest|coverage|tox|nox)/),
  'setup.cfg': (text) => iniSections(text, /^\[(?:tool:pytest|pytest|coverage)/),
};

function iniSections(text: string, start: RegExp): string {
  const out: string[] = [];
  let inside = false;
  for (const line of text.split('\n')) {
    if (/^\[/.test(line)) inside = start.test(line);
    if (inside) out.push(line);
  }
  return out.join('\n');
}

const SKIPPED_DIRS = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__', 'dist', 'build', 'target']);

function listFiles(repo: string, dir = '', out: string[] = [], depth = 0): string[] {
  if (depth > 6) return out;
  let entries;
  try {
    entries = readdirSync(join(repo, dir), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) listFiles(repo, path, out, depth + 1);
    } else out.push(path);
  }
  return out;
}

/** Repo files named in the check command (its entry script, a config passed with --config, a Makefile for make). */
function commandFiles(repo: string, command: string): string[] {
  const found = new Set<string>();
  for (const word of command.split(/[\s=;&|()<>'"]+/)) {
    if (!word || word.startsWith('-')) continue;
    const path = normalize(word).replace(/^\.\//, '');
    if (path.startsWith('..') || path.startsWith('/')) continue;
    const absolute = join(repo, path);
    if (existsSync(absolute) && statSync(absolute).isFile()) found.add(path);
  }
  if (/(?:^|[\s;&|])make\b/.test(command)) for (const name of ['Makefile', 'makefile', 'GNUmakefile']) if (existsSync(join(repo, name))) found.add(name);
  if (/(?:^|[\s;&|])(?:npm|yarn|pnpm|bun|npx)\b/.test(command) && existsSync(join(repo, 'package.json'))) found.add('package.json');
  if (/\b(?:pytest|tox|nox)\b/.test(command)) for (const name of ['pyproject.toml', 'setup.cfg']) if (existsSync(join(repo, name))) found.add(name);
  return [...found];
}

export interface CheckDefinition {
  /** Repo-relative files that define the check. */
  files: string[];
  fingerprint: string;
}

/**
 * The template and rules files of document mode that lie inside the repo, repo-relative: they define the check as
 * much as a test does, so a fix that edits them is not a fix.
 */
export function documentDefinitionFiles(repo: string, document: LoopConfig['document']): string[] {
  const files: string[] = [];
  for (const path of [document?.template, document?.rules]) {
    if (path === undefined) continue;
    const inside = relative(repo, isAbsolute(path) ? path : resolve(repo, path));
    if (inside && !inside.startsWith('..') && !isAbsolute(inside)) files.push(inside.split('\\').join('/'));
  }
  return files;
}

/** The definition of a loop's check: its command's files, test configuration, and the document mode's template and rules. */
export function loopCheckDefinition(state: { repo: string; config: Pick<LoopConfig, 'check' | 'document'>; checkArtifacts?: string[] | undefined }): CheckDefinition {
  return checkDefinition(state.repo, state.config.check?.command, state.checkArtifacts, documentDefinitionFiles(state.repo, state.config.document));
}

/**
 * The files that define the check in this repo now, and one hash over what they say; `outputs` (what the check writes)
 * are not among them, and `extra` files (a template, rules) are.
 */
export function checkDefinition(repo: string, command: string | undefined, outputs: string[] = [], extra: string[] = []): CheckDefinition {
  const isConfig = picomatch(TEST_CONFIG_PATTERNS, { dot: true });
  const files = new Set([...(command === undefined ? [] : commandFiles(repo, command)), ...extra]);
  for (const path of listFiles(repo)) if (isConfig(path)) files.add(path);
  const sorted = [...files].filter((path) => !outputs.includes(path)).sort();
  const hash = createHash('sha256');
  for (const path of sorted) hash.update(`${path}\0${definingText(path, readText(join(repo, path)))}\0`);
  return { files: sorted, fingerprint: hash.digest('hex').slice(0, 16) };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The part of a file that defines the check: a test section of a shared file, or the whole file. */
export function definingText(path: string, text: string | undefined): string {
  if (text === undefined) return '(absent)';
  const name = path.slice(path.lastIndexOf('/') + 1);
  return SECTIONED[name]?.(text) ?? text;
}

/**
 * Why a changed file may not be part of a fix, or undefined: a test file, or a file that defines the check whose
 * defining part changed (`before` and `after` are its text at the iteration's start and now).
 */
export function definitionChange(path: string, definitionFiles: string[], before: string | undefined, after: string | undefined): string | undefined {
  if (isTestFile(path)) return `changed the test file ${path} (tests must stay as they were)`;
  if (!definitionFiles.includes(path) && !picomatch.isMatch(path, TEST_CONFIG_PATTERNS, { dot: true })) return undefined;
  if (definingText(path, before) === definingText(path, after)) return undefined;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return SECTIONED[name] ? `changed what defines the check in ${path} (its test settings or scripts)` : `changed ${path}, which defines the check`;
}
