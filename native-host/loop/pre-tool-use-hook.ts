import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import { analyzeBash } from './bash-writes';
import { fileHead, toolRefusal } from './fixer-tools';
import { commandViolation, contentViolations, pathViolation, type GuardRules } from './guard-rules';

/**
 * The guard hook's rules file, written by the fix step before each run. Read without a schema library: the hook is
 * started for every writing tool call, so it loads as little as it can.
 */
export interface HookRulesFile extends GuardRules {
  repo: string;
  /** The protected files that exist when the run starts (repo-relative), for commands such as `find -delete`. */
  protectedFiles?: string[];
}

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

export function parseHookRules(value: unknown): HookRulesFile {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { repo, protectedPaths, allowedPaths, fabricationPatterns, protectedFiles } = record;
  if (typeof repo !== 'string' || !strings(protectedPaths) || !strings(allowedPaths) || !strings(fabricationPatterns)) {
    throw new Error('expected repo, protectedPaths, allowedPaths and fabricationPatterns');
  }
  return { repo, protectedPaths, allowedPaths, fabricationPatterns, ...(strings(protectedFiles) ? { protectedFiles } : {}) };
}

const EDITING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

export type HookDecision = { block: false } | { block: true; reason: string };

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Text a tool call would add to a file, for the fabrication and secret checks. */
function addedText(tool: string, input: Record<string, unknown>): string {
  if (tool === 'Write') return str(input.content);
  if (tool === 'Edit') return str(input.new_string);
  if (tool === 'MultiEdit' && Array.isArray(input.edits)) {
    return input.edits.map((edit) => (typeof edit === 'object' && edit !== null ? str((edit as Record<string, unknown>).new_string) : '')).join('\n');
  }
  if (tool === 'NotebookEdit') return str(input.new_source);
  return '';
}

/** Scratch files outside the repository are fine for a command to write; everything else outside it is not. */
function isScratch(absolute: string): boolean {
  return absolute === '/dev/null' || absolute.startsWith('/dev/fd/') || [tmpdir(), '/tmp'].some((dir) => absolute === dir || absolute.startsWith(`${dir}/`));
}

/**
 * Decides one PreToolUse call (the hook runs for every tool). Reasons are written for the fixer to read: Claude Code
 * shows the hook's stderr to the model when the hook exits with code 2, so the fixer learns why and can choose another
 * way. `head` reads a file's first bytes, for a Read of a picture whose name does not say so.
 */
export function decidePreToolUse(raw: unknown, rules: HookRulesFile, head: (path: string) => Buffer | undefined = fileHead): HookDecision {
  const call = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const tool = call.tool_name;
  if (typeof tool !== 'string') return { block: true, reason: 'Deputy guard: the tool call could not be read, so it is refused.' };
  const input = (typeof call.tool_input === 'object' && call.tool_input !== null ? call.tool_input : {}) as Record<string, unknown>;
  const base = str(call.cwd) || rules.repo;
  const absoluteOf = (file: string, from = base): string => (file === '~' || file.startsWith('~/') ? join(homedir(), file.slice(1)) : isAbsolute(file) ? file : resolve(from, file));
  const toRepoPath = (absolute: string): string => relative(rules.repo, absolute).split('\\').join('/');

  const file = str(input.file_path) || str(input.notebook_path);
  const unreadable = toolRefusal(tool, tool === 'Read' && file ? absoluteOf(file) : '', head);
  if (unreadable) return { block: true, reason: `Deputy guard: ${unreadable}.` };
  if (file && EDITING_TOOLS.has(tool)) {
    const violation = pathViolation(toRepoPath(absoluteOf(file)), rules);
    if (violation) return { block: true, reason: `Deputy guard: ${violation}; change the code that reads it instead.` };
    const content = contentViolations(addedText(tool, input), rules);
    if (content.length > 0) {
      return { block: true, reason: `Deputy guard: this edit adds ${content.join(' and ')}. Never invent data: fix the cause, or write CANNOT_FIX.md.` };
    }
  }
  if (tool === 'Bash') {
    const command = str(input.command);
    const destructive = commandViolation(command);
    if (destructive) return { block: true, reason: `Deputy guard: "${destructive}" is not allowed here; it destroys work or rewrites history.` };
    const effect = analyzeBash(command, base);
    const refusal = effect.refusals[0];
    if (refusal) return { block: true, reason: `Deputy guard: ${refusal}. Leave git to Deputy and change only the files of the fix.` };
    for (const write of effect.writes) {
      if (write.path.includes('$(...)') || write.path.includes('$')) continue;
      const absolute = absoluteOf(write.path, write.cwd);
      const inRepo = toRepoPath(absolute);
      if (inRepo.startsWith('../') && isScratch(absolute)) continue;
      const violation = pathViolation(inRepo, rules);
      if (violation) return { block: true, reason: `Deputy guard: ${violation}, and this command (${write.how}) would change it.` };
    }
    for (const find of effect.finds) {
      const hit = (rules.protectedFiles ?? []).find((path) => {
        const under = find.roots.some((root) => {
          const from = toRepoPath(absoluteOf(root, find.cwd));
          return from === '' || from === '.' || path === from || path.startsWith(`${from}/`);
        });
        const name = path.slice(path.lastIndexOf('/') + 1);
        return under && (find.names.length === 0 || find.names.some((pattern) => picomatch.isMatch(name, pattern, { dot: true }) || picomatch.isMatch(path, pattern, { dot: true })));
      });
      if (hit) return { block: true, reason: `Deputy guard: this find deletes or runs commands on files that include ${hit}, a protected path.` };
    }
  }
  return { block: false };
}

/** The hook process: JSON on stdin, exit 0 to allow, exit 2 with the reason on stderr to block. */
export function runHook(stdinText: string, rules: HookRulesFile): { exitCode: 0 | 2; stderr: string } {
  let input: unknown;
  try {
    input = JSON.parse(stdinText);
  } catch {
    return { exitCode: 2, stderr: 'Deputy guard: the hook input is not JSON, so the tool call is refused.\n' };
  }
  const decision = decidePreToolUse(input, rules);
  return decision.block ? { exitCode: 2, stderr: `${decision.reason}\n` } : { exitCode: 0, stderr: '' };
}
