import { writeFileSync } from 'node:fs';
import { AppError } from '../../shared/errors';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';
import { parseStreamLine, type ResultEvent } from './claude-stream';
import type { CommandResult, CommandRunner } from './run-command';

export interface FixerRequest {
  prompt: string;
  repo: string;
  /** A Claude Code settings file holding the PreToolUse guard hook. */
  settingsFile: string;
  onProgress: (action: string) => void;
  onSessionId: (sessionId: string) => void;
  onSpawn: (pid: number) => void;
  /** Called as soon as the run's result is read, before the process exits: from then on the run is paid for. */
  onResult?: (result: FixerResult) => void;
  signal?: AbortSignal;
}

export interface FixerResult {
  costUsd: number;
  sessionId?: string;
  turns?: number;
  isError: boolean;
  summary: string;
  /** Whether the process ran to its end; false when it timed out, was stopped or crashed. */
  completed: boolean;
  interruption?: 'timeout' | 'aborted' | 'killed' | 'crashed';
}

export type FixerConfig = LoopConfig['fixer'];

/** The argv of one headless Claude Code run. The prompt goes on stdin, which keeps it out of argv length limits. */
export function claudeArgs(config: FixerConfig, settingsFile: string): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', config.permissionMode, '--settings', settingsFile];
  if (config.model) args.push('--model', config.model);
  if (config.maxTurns !== undefined) args.push('--max-turns', String(config.maxTurns));
  if (config.allowedTools?.length) args.push('--allowedTools', config.allowedTools.join(','));
  if (config.disallowedTools?.length) args.push('--disallowedTools', config.disallowedTools.join(','));
  return args;
}

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

/** Checks before the loop starts that the fixer can be run at all, so a missing binary is reported up front. */
export async function preflightFixer(config: FixerConfig, repo: string, run: CommandRunner): Promise<void> {
  if (config.kind === 'command') return;
  const { command, args } = withPrefix(config, ['--version']);
  const result = await run({ command, args, cwd: repo, timeoutMs: 30_000 });
  if (result.spawnError || result.exitCode !== 0) throw missingFixerError(config, result);
}

/** Writes the settings file that installs the guard as a PreToolUse hook for every tool. */
export function writeHookSettings(file: string, hookCommand: string): void {
  const settings = { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: hookCommand, timeout: 30 }] }] } };
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

/** Runs the fixer once and reads its cost, session and outcome. It never throws for a fixer that fails; it reports. */
export async function runFixer(config: FixerConfig, request: FixerRequest, run: CommandRunner): Promise<FixerResult> {
  let result: ResultEvent | undefined;
  let lastText = '';
  const errors: string[] = [];
  const spec =
    config.kind === 'command'
      ? { command: config.command ?? '', args: undefined }
      : withPrefix(config, claudeArgs(config, request.settingsFile));
  const outcome = await run({
    command: spec.command,
    ...(spec.args ? { args: spec.args } : {}),
    cwd: request.repo,
    input: request.prompt,
    timeoutMs: config.timeoutSeconds * 1000,
    onSpawn: request.onSpawn,
    ...(request.signal ? { signal: request.signal } : {}),
    onStdoutLine: (line) => {
      if (config.kind === 'command') return;
      for (const item of parseStreamLine(line)) {
        if (item.kind === 'init' && item.sessionId) request.onSessionId(item.sessionId);
        else if (item.kind === 'action') request.onProgress(item.action);
        else if (item.kind === 'text') lastText = item.text;
        else if (item.kind === 'tool-error') errors.push(item.text);
        else if (item.kind === 'result') {
          result = item.result;
          request.onResult?.(fromResultEvent(item.result, lastText, errors));
        }
      }
    },
  });
  if (outcome.spawnError) throw missingFixerError(config, outcome);
  // A signal Deputy did not send (a host shutdown ending its children, the OS) cuts the run short like a stop does.
  const interruption = outcome.timedOut ? 'timeout' : outcome.aborted ? 'aborted' : outcome.signal !== null ? 'killed' : undefined;
  if (config.kind === 'command') {
    const summary = outcome.stdout.trim().split('\n').slice(-5).join(' ').slice(0, 300);
    return { costUsd: 0, isError: outcome.exitCode !== 0, summary, completed: interruption === undefined, ...(interruption ? { interruption } : {}) };
  }
  if (!result) {
    return {
      costUsd: 0,
      isError: true,
      summary: interruption ? `the fixer was stopped (${interruption})` : `the fixer ended without a result (exit ${String(outcome.exitCode)}): ${outcome.stderr.trim().slice(-300)}`,
      completed: false,
      interruption: interruption ?? 'crashed',
    };
  }
  return fromResultEvent(result, lastText, errors);
}

function fromResultEvent(result: ResultEvent, lastText: string, errors: string[]): FixerResult {
  return {
    costUsd: result.total_cost_usd ?? 0,
    ...(result.session_id ? { sessionId: result.session_id } : {}),
    ...(result.num_turns !== undefined ? { turns: result.num_turns } : {}),
    isError: result.is_error,
    summary: (result.result ?? lastText).trim().split('\n')[0]?.slice(0, 300) || (errors[0] ?? 'no summary'),
    completed: true,
  };
}
