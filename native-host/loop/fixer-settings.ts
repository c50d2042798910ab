import { writeFileAtomic } from '../atomic-file';

/** The tools that can change files; the guard hook runs for these only, so reads and searches pay nothing for it. */
export const WRITING_TOOLS_MATCHER = 'Write|Edit|MultiEdit|NotebookEdit|Bash';

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

export interface FixerSettings {
  hookCommand: string;
  /** Shell commands the fixer may run without asking: the check, the build, and what the user added. */
  allowedCommands: string[];
}

/**
 * Writes the settings file the CLI gets through --settings. Flag settings rank above the user's, the project's and the
 * local ones, so `disableAllHooks: false` here holds whatever a repository's .claude/settings.json says, and the run is
 * started with --setting-sources user so those files are not read at all.
 */
export function writeFixerSettings(file: string, settings: FixerSettings): void {
  const allow = [...new Set(settings.allowedCommands.flatMap(commandRules))];
  const content = {
    disableAllHooks: false,
    permissions: { allow },
    hooks: { PreToolUse: [{ matcher: WRITING_TOOLS_MATCHER, hooks: [{ type: 'command', command: settings.hookCommand, timeout: 30 }] }] },
  };
  writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`);
}
