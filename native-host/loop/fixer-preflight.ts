import { AppError } from '../../shared/errors';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';
import type { CommandResult, CommandRunner } from './run-command';

type FixerConfig = LoopConfig['fixer'];

export interface ClaudeStatus {
  installed: boolean;
  version?: string;
  /** undefined when this CLI cannot say (a version without `claude auth status`). */
  loggedIn?: boolean;
  authMethod?: string;
  /** What is wrong, in words that say what to do. */
  problem?: string;
}

const LOGIN_HELP = 'run `claude` once and sign in with /login, or set ANTHROPIC_API_KEY';

/** The executable and arguments, with the configured prefix (for example `wsl --`) in front. */
export function withPrefix(config: FixerConfig, args: string[]): { command: string; args: string[] } {
  const [first, ...rest] = config.commandPrefix;
  return first === undefined ? { command: config.claudePath, args } : { command: first, args: [...rest, config.claudePath, ...args] };
}

export function missingFixerError(config: FixerConfig, result: CommandResult): AppError {
  const what = config.kind === 'command' ? `the fixer command "${config.command ?? ''}"` : `the Claude Code CLI at "${config.claudePath}"`;
  return new AppError(
    'unavailable',
    `Could not start ${what} (${result.spawnError?.code ?? 'exit ' + String(result.exitCode)}): install Claude Code (npm install -g @anthropic-ai/claude-code) or pass --claude-path with the full path to the executable`,
  );
}

/**
 * Whether Claude Code is installed and signed in: `claude --version`, then `claude auth status --json`, which reads
 * the local credentials without calling the API. Used by the loop's preflight and by `deputy doctor`.
 */
export async function claudeStatus(config: FixerConfig, cwd: string, run: CommandRunner): Promise<ClaudeStatus> {
  const version = await run({ ...withPrefix(config, ['--version']), cwd, timeoutMs: 30_000 });
  if (version.spawnError || version.exitCode !== 0) {
    return { installed: false, problem: missingFixerError(config, version).message };
  }
  const status: ClaudeStatus = { installed: true, version: version.stdout.trim().split(/\s/)[0] ?? '' };
  const auth = await run({ ...withPrefix(config, ['auth', 'status', '--json']), cwd, timeoutMs: 30_000 });
  let parsed: { loggedIn?: unknown; authMethod?: unknown } | undefined;
  try {
    parsed = JSON.parse(auth.stdout) as { loggedIn?: unknown; authMethod?: unknown };
  } catch {
    parsed = undefined;
  }
  if (typeof parsed?.loggedIn !== 'boolean') return status;
  status.loggedIn = parsed.loggedIn;
  if (typeof parsed.authMethod === 'string') status.authMethod = parsed.authMethod;
  if (!parsed.loggedIn) status.problem = `Claude Code ${status.version ?? ''} is installed but not logged in: ${LOGIN_HELP}`;
  return status;
}

/** Checks before the loop starts that the fixer can run at all: installed, logged in, and a mode the CLI accepts. */
export async function preflightFixer(config: FixerConfig, repo: string, run: CommandRunner): Promise<ClaudeStatus | undefined> {
  if (config.kind === 'command') return undefined;
  if (config.permissionMode === 'bypassPermissions' && config.commandPrefix.length === 0 && process.getuid?.() === 0) {
    throw new AppError('bad_request', 'Claude Code refuses --permission-mode bypassPermissions when run as root: run Deputy as an ordinary user, or keep the default acceptEdits and allow more commands with --allow-command');
  }
  const status = await claudeStatus(config, repo, run);
  if (!status.installed || status.loggedIn === false) throw new AppError(status.installed ? 'forbidden' : 'unavailable', status.problem ?? 'Claude Code cannot be used');
  return status;
}
