import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { protectedList, type GuardRules } from './guard-rules';

/**
 * Protected paths, checked by their content before and after each fixer run, ignored files included. The hook stops
 * the common ways of writing them; this check holds whatever way was used (a script, a variable, a tool the hook
 * does not know), and keeps a copy of each file so a change can be undone even where git cannot (an ignored .env).
 */

/** Repo-relative path to "mode:sha256" of the content. */
export type ProtectedSnapshot = Record<string, string>;

/** Folders never walked: dependencies and build output hold no files of the service's own to protect. */
const SKIPPED_DIRS = new Set(['node_modules', '.venv', 'venv', '__pycache__', 'dist', 'build', 'target']);
/** The parts of .git that change what git does (config, hooks), unlike objects and the index, which git rewrites itself. */
const GIT_PARTS = ['.git/config', '.git/hooks', '.git/info'];
/** A copy is kept of files up to this size; a larger protected file is still checked, but only a person can restore it. */
const MAX_BACKUP_BYTES = 10 * 1024 * 1024;

function fingerprint(file: string): string | undefined {
  try {
    const stat = lstatSync(file);
    if (stat.isSymbolicLink()) return `link:${createHash('sha256').update(readlinkSync(file)).digest('hex')}`;
    if (!stat.isFile()) return undefined;
    return `${(stat.mode & 0o777).toString(8)}:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
  } catch {
    return undefined;
  }
}

function walk(root: string, relativeDir: string, visit: (path: string) => void): void {
  let entries;
  try {
    entries = readdirSync(join(root, relativeDir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name === '.git' || SKIPPED_DIRS.has(entry.name)) continue;
      walk(root, path, visit);
    } else visit(path);
  }
}

/** The protected files of the repo as they are now. */
export function snapshotProtected(repo: string, rules: GuardRules): ProtectedSnapshot {
  const match = picomatch(protectedList(rules), { dot: true, nocase: true });
  const snapshot: ProtectedSnapshot = {};
  const add = (path: string): void => {
    const print = fingerprint(join(repo, path));
    if (print) snapshot[path] = print;
  };
  walk(repo, '', (path) => {
    if (match(path)) add(path);
  });
  for (const part of GIT_PARTS) {
    const absolute = join(repo, part);
    if (!existsSync(absolute)) continue;
    if (lstatSync(absolute).isDirectory()) walk(repo, part, add);
    else add(part);
  }
  return snapshot;
}

/** Paths whose content, mode or existence differs between two snapshots. */
export function changedProtected(before: ProtectedSnapshot, after: ProtectedSnapshot): string[] {
  const paths = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...paths].filter((path) => before[path] !== after[path]).sort();
}

/** Keeps a copy of each protected file (user-only permissions) so a change can be undone after a crash too. */
export function backupProtected(repo: string, snapshot: ProtectedSnapshot, backupDir: string): void {
  rmSync(backupDir, { recursive: true, force: true });
  mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  for (const [path, print] of Object.entries(snapshot)) {
    if (print.startsWith('link:')) continue;
    const file = join(repo, path);
    if (lstatSync(file).size > MAX_BACKUP_BYTES) continue;
    writeFileSync(join(backupDir, print.replace(':', '-')), readFileSync(file), { mode: 0o600 });
  }
}

/**
 * Puts the changed protected paths back as they were: content and mode from the copy, and paths that did not exist
 * removed. Returns the paths it could not restore (no copy was kept), which a person must look at.
 */
export function restoreProtected(repo: string, before: ProtectedSnapshot, changed: string[], backupDir: string): string[] {
  const lost: string[] = [];
  for (const path of changed) {
    const file = join(repo, path);
    const print = before[path];
    if (print === undefined) {
      rmSync(file, { force: true, recursive: true });
      continue;
    }
    const copy = join(backupDir, print.replace(':', '-'));
    if (!existsSync(copy)) {
      lost.push(path);
      continue;
    }
    rmSync(file, { force: true, recursive: true });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, readFileSync(copy));
    chmodSync(file, Number.parseInt(print.split(':')[0] ?? '644', 8));
  }
  return lost;
}
