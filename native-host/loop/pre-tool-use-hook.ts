import { isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import { commandViolation, contentViolations, pathViolation, type GuardRules } from './guard-rules';

/** The part of Claude Code's PreToolUse hook input the guard reads; other fields pass through unread. */
const HookInput = z.looseObject({
  hook_event_name: z.string().optional(),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()).default({}),
  cwd: z.string().optional(),
});

export const HookRulesFile = z.object({
  repo: z.string(),
  protectedPaths: z.array(z.string()),
  allowedPaths: z.array(z.string()),
  fabricationPatterns: z.array(z.string()),
});
export type HookRulesFile = z.infer<typeof HookRulesFile>;

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

/** Files a shell command writes through a redirection, so `echo KEY=1 > .env` is caught like an Edit of .env. */
function redirectTargets(command: string): string[] {
  return [...command.matchAll(/(?:^|[^<>0-9&])>{1,2}\s*([^\s;&|<>]+)/g)].map((match) => (match[1] ?? '').replace(/^['"]|['"]$/g, ''));
}

/**
 * Decides one PreToolUse call. Reasons are written for the fixer to read: Claude Code shows the hook's stderr to the
 * model when the hook exits with code 2, so the fixer learns why and can choose another way.
 */
export function decidePreToolUse(raw: unknown, rules: HookRulesFile): HookDecision {
  const parsed = HookInput.safeParse(raw);
  if (!parsed.success) return { block: true, reason: 'Deputy guard: the tool call could not be read, so it is refused.' };
  const { tool_name: tool, tool_input: input } = parsed.data;
  const base = parsed.data.cwd ?? rules.repo;
  const guard: GuardRules = rules;

  const toRepoPath = (file: string): string => {
    const absolute = isAbsolute(file) ? file : resolve(base, file);
    return relative(rules.repo, absolute).split('\\').join('/');
  };

  const file = str(input.file_path) || str(input.notebook_path);
  // Reading is how the fixer understands the code; only tools that change a file are held to the path rules.
  if (file && EDITING_TOOLS.has(tool)) {
    const violation = pathViolation(toRepoPath(file), guard);
    if (violation) return { block: true, reason: `Deputy guard: ${violation}; change the code that reads it instead.` };
    const content = contentViolations(addedText(tool, input), guard);
    if (content.length > 0) {
      return { block: true, reason: `Deputy guard: this edit adds ${content.join(' and ')}. Never invent data: fix the cause, or write CANNOT_FIX.md.` };
    }
  }
  if (tool === 'Bash') {
    const command = str(input.command);
    const destructive = commandViolation(command);
    if (destructive) return { block: true, reason: `Deputy guard: "${destructive}" is not allowed here; it destroys work or rewrites history.` };
    for (const target of redirectTargets(command)) {
      if (target === '/dev/null' || target.startsWith('&')) continue;
      const violation = pathViolation(toRepoPath(target), guard);
      if (violation) return { block: true, reason: `Deputy guard: the command writes ${violation}.` };
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
