import { accessSync, chmodSync, constants } from 'node:fs';
import { AppError } from '../../shared/errors';
import { writeFileAtomic } from '../atomic-file';
import { shellQuote } from './shell-quote';

/**
 * Claude Code permission rules that let the fixer run one shell command as written, and with more arguments (the
 * `:*` form), with each part of a compound command allowed the same way: the CLI checks every part of `a && b` on its
 * own, and refuses any part that no rule allows.
 */
export function commandRules(command: string): string[] {
  const whole = command.trim().replace(/\s+/g, ' ');
  if (whole.length === 0) return [];
  const parts = whole.split(/\s*(?:&&|\|\||;|\|)\s*/).map((part) => part.trim()).filter(Boolean);
  const rules = new Set<string>();
  for (const part of new Set([whole, ...parts])) {
    // A rule cannot hold a parenthesis of its own; such a command is only allowed through --allowed-tools.
    if (/[()]/.test(part)) continue;
    rules.add(`Bash(${part})`);
    rules.add(`Bash(${part}:*)`);
  }
  return [...rules];
}

/**
 * A program Claude Code starts as a hook. Given in exec form (`command` with `args`), it is spawned without a shell,
 * and so not through the shell prefix either.
 */
export interface HookProgram {
  command: string;
  args: string[];
}

/** Deputy's programs for a fixer run. */
export interface FixerPrograms {
  /** The PreToolUse guard, with the loop's rules file. */
  guard: HookProgram;
  /** Deputy's redaction: with `hook` the PostToolUse hook, with `shell <shell>` the shell prefix. */
  redact: HookProgram;
}

export interface FixerSettings {
  programs: FixerPrograms;
  /** Shell commands the fixer may run without asking: the check, the build, and what the user added. */
  allowedCommands: string[];
}

/**
 * Writes the settings file the CLI gets through --settings. Flag settings rank above the user's, the project's and the
 * local ones, so `disableAllHooks: false` here holds whatever a repository's .claude/settings.json says, and the run is
 * started with --setting-sources user so those files are not read at all. Both hooks match every tool: the guard
 * refuses what cannot be redacted (fixer-tools.ts) and the edits it judges, the redaction rewrites every result.
 */
export function writeFixerSettings(file: string, settings: FixerSettings): void {
  const allow = [...new Set(settings.allowedCommands.flatMap(commandRules))];
  const { guard, redact } = settings.programs;
  const content = {
    disableAllHooks: false,
    permissions: { allow },
    hooks: {
      PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: guard.command, args: guard.args, timeout: 30 }] }],
      PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: redact.command, args: [...redact.args, 'hook'], timeout: 60 }] }],
    },
  };
  writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`);
}

const runnable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The shell the fixer's commands run in, found as Claude Code finds one (CLAUDE_CODE_SHELL, then SHELL when it is bash
 * or zsh, then the usual places), and then given to it as CLAUDE_CODE_SHELL, so the CLI writes its command lines for
 * the shell Deputy's prefix runs them in.
 */
export function fixerShell(env: Record<string, string | undefined>, canRun: (path: string) => boolean = runnable): string {
  const named = [env.CLAUDE_CODE_SHELL, env.SHELL].filter((shell): shell is string => !!shell && /(?:bash|zsh)$/.test(shell));
  const usual = ['/bin', '/usr/bin', '/usr/local/bin', '/opt/homebrew/bin'].flatMap((dir) => [`${dir}/bash`, `${dir}/zsh`]);
  const found = [...named, ...usual].find(canRun);
  if (!found) throw new AppError('unavailable', 'The fixer needs bash or zsh (Claude Code runs its commands in one), and none was found: install bash, or set CLAUDE_CODE_SHELL to its path.');
  return found;
}

/**
 * Writes the shell prefix Claude Code runs every fixer command through (CLAUDE_CODE_SHELL_PREFIX) and returns the
 * fixer's environment for it. The CLI cuts a prefix at its last " -" into a program and its options, so the file's
 * path must not hold one.
 */
export function writeFixerShell(file: string, redact: HookProgram, shell: string): Record<string, string> {
  if (file.includes(' -')) {
    throw new AppError('invalid_params', `The loop's state folder (${file}) has " -" in its path, which Claude Code cannot run a shell prefix from: choose another with --state-dir or DEPUTY_STATE_DIR.`);
  }
  const words = [redact.command, ...redact.args, 'shell', shell].map(shellQuote).join(' ');
  writeFileAtomic(file, `#!/bin/sh\n# Deputy runs every command of the fixer through this file, so their output reaches its model redacted.\nexec ${words} "$@"\n`);
  chmodSync(file, 0o700);
  return { CLAUDE_CODE_SHELL_PREFIX: file, CLAUDE_CODE_SHELL: shell };
}
