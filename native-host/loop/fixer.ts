import type { LoopConfig } from '../../shared/protocol/loop-protocol';
import { createCostMeter } from './claude-pricing';
import { parseStreamLine, type ResultEvent } from './claude-stream';
import { classifyFixerError, type FixerErrorKind } from './fixer-error';
import type { CommandRunner } from './run-command';

import { deniedCalls, refusalText } from './permission-denials';
import { missingFixerError, withPrefix } from './fixer-preflight';

export { withPrefix };

export interface FixerRequest {
  prompt: string;
  repo: string;
  /** The Claude Code settings file Deputy wrote for this run (guard hook, allowed commands). */
  settingsFile: string;
  /** Variables added to the CLI's environment: the shell prefix that redacts every command's output. */
  env?: Record<string, string>;
  /** Continue this Claude session instead of starting a new one. */
  resumeSession?: string;
  /** What is left of the loop's cost budget; the CLI stops the run when it is spent. */
  maxBudgetUsd?: number;
  onProgress: (action: string) => void;
  onSessionId: (sessionId: string) => void;
  onSpawn: (pid: number) => void;
  /** Called with the run's cost so far after each model reply, so a run cut short is still paid for. */
  onCost?: (usd: number) => void;
  /** Called as soon as the run's result is read, before the process exits: from then on the run is paid for. */
  onResult?: (result: FixerResult) => void;
  signal?: AbortSignal;
}

export interface FixerResult {
  costUsd: number;
  /** The cost was added up from the usage Deputy saw, because the CLI ended before reporting its own. */
  costEstimated?: boolean;
  sessionId?: string;
  turns?: number;
  isError: boolean;
  errorKind?: FixerErrorKind;
  /** The CLI's own words for the error (not logged in, turn limit, API error, ...). */
  errorMessage?: string;
  summary: string;
  /** Whether the process ran to its end; false when it timed out, was stopped or crashed. */
  completed: boolean;
  interruption?: 'timeout' | 'aborted' | 'killed' | 'crashed';
  /** Tool calls the permission mode refused during the run. */
  permissionDenials?: number;
  /** The refused calls, each with what to allow ("Claude Code refused Bash sed -i ...: allow it with ..."). */
  refused?: string;
}

export type FixerConfig = LoopConfig['fixer'];

/**
 * The argv of one headless Claude Code run. The prompt goes on stdin, which keeps it out of argv length limits.
 * `--setting-sources user` keeps the repository's own .claude/settings*.json (which could switch hooks off or allow
 * any command) out of the run; Deputy's settings file comes in through --settings, which they cannot override.
 * `--strict-mcp-config` keeps the repository's .mcp.json servers out. Partial messages carry each reply's final
 * token counts, which is how a run that never reports its cost is still paid for.
 */
export function claudeArgs(config: FixerConfig, request: Pick<FixerRequest, 'settingsFile' | 'resumeSession' | 'maxBudgetUsd'>): string[] {
  const args = [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-partial-messages',
    '--permission-mode',
    config.permissionMode,
    '--settings',
    request.settingsFile,
    '--setting-sources',
    'user',
    '--strict-mcp-config',
  ];
  if (request.resumeSession) args.push('--resume', request.resumeSession);
  if (request.maxBudgetUsd !== undefined) args.push('--max-budget-usd', request.maxBudgetUsd.toFixed(4));
  if (config.model) args.push('--model', config.model);
  if (config.maxTurns !== undefined) args.push('--max-turns', String(config.maxTurns));
  if (config.allowedTools?.length) args.push('--allowedTools', config.allowedTools.join(','));
  if (config.disallowedTools?.length) args.push('--disallowedTools', config.disallowedTools.join(','));
  return args;
}

/** Runs the fixer once and reads its cost, session and outcome. It never throws for a fixer that fails; it reports. */
export async function runFixer(config: FixerConfig, request: FixerRequest, run: CommandRunner): Promise<FixerResult> {
  let result: ResultEvent | undefined;
  let apiError: { error: string; text: string } | undefined;
  let sessionId = request.resumeSession;
  let lastText = '';
  let denials = 0;
  const errors: string[] = [];
  const meter = createCostMeter();
  const spec =
    config.kind === 'command' ? { command: config.command ?? '', args: undefined } : withPrefix(config, claudeArgs(config, request));
  const outcome = await run({
    command: spec.command,
    ...(spec.args ? { args: spec.args } : {}),
    cwd: request.repo,
    ...(request.env && config.kind === 'claude' ? { env: request.env } : {}),
    input: request.prompt,
    timeoutMs: config.timeoutSeconds * 1000,
    onSpawn: request.onSpawn,
    ...(request.signal ? { signal: request.signal } : {}),
    onStdoutLine: (line) => {
      if (config.kind === 'command') return;
      for (const item of parseStreamLine(line)) {
        if (item.kind === 'init' && item.sessionId) {
          sessionId = item.sessionId;
          request.onSessionId(item.sessionId);
        } else if (item.kind === 'action') request.onProgress(item.action);
        else if (item.kind === 'text') lastText = item.text;
        else if (item.kind === 'tool-error') errors.push(item.text);
        else if (item.kind === 'permission-denied') denials += 1;
        else if (item.kind === 'api-error') apiError = { error: item.error, text: item.text };
        else if (item.kind === 'message-start') meter.start(item.id, item.model, item.usage);
        else if (item.kind === 'message-delta') {
          meter.delta(item.usage);
          request.onCost?.(meter.total());
        } else if (item.kind === 'result') {
          result = item.result;
          request.onResult?.(fromResultEvent(item.result, { lastText, errors, apiError, denials, stderr: '' }));
        }
      }
    },
  });
  if (outcome.spawnError) throw missingFixerError(config, outcome);
  // A signal Deputy did not send (a host shutdown ending its children, the OS) cuts the run short like a stop does.
  const interruption = outcome.timedOut ? 'timeout' : outcome.aborted ? 'aborted' : outcome.signal !== null ? 'killed' : undefined;
  if (config.kind === 'command') {
    const summary = outcome.stdout.trim().split('\n').slice(-5).join(' ').slice(0, 300);
    const failed = outcome.exitCode !== 0;
    return {
      costUsd: 0,
      isError: failed,
      ...(failed && !interruption ? { errorKind: 'execution' as const, errorMessage: `the fixer command exited with ${String(outcome.exitCode)}: ${outcome.stderr.trim().slice(-300)}` } : {}),
      summary,
      completed: interruption === undefined,
      ...(interruption ? { interruption } : {}),
    };
  }
  if (!result) {
    return {
      costUsd: meter.total(),
      costEstimated: true,
      ...(sessionId ? { sessionId } : {}),
      isError: true,
      summary: interruption ? `the fixer was stopped (${interruption})` : `the fixer ended without a result (exit ${String(outcome.exitCode)}): ${outcome.stderr.trim().slice(-300)}`,
      completed: false,
      interruption: interruption ?? 'crashed',
      permissionDenials: denials,
    };
  }
  return fromResultEvent(result, { lastText, errors, apiError, denials, stderr: outcome.stderr });
}

interface RunNotes {
  lastText: string;
  errors: string[];
  apiError: { error: string; text: string } | undefined;
  denials: number;
  stderr: string;
}

function fromResultEvent(result: ResultEvent, notes: RunNotes): FixerResult {
  const error = result.is_error ? classifyFixerError({ result, ...(notes.apiError ? { apiError: notes.apiError } : {}), stderr: notes.stderr }) : undefined;
  const summary = (result.result ?? notes.lastText).trim().split('\n')[0]?.slice(0, 300) || error?.message.slice(0, 300) || (notes.errors[0] ?? 'no summary');
  return {
    costUsd: result.total_cost_usd ?? 0,
    ...(result.session_id ? { sessionId: result.session_id } : {}),
    ...(result.num_turns !== undefined ? { turns: result.num_turns } : {}),
    isError: result.is_error,
    ...(error ? { errorKind: error.kind, errorMessage: error.message } : {}),
    summary,
    completed: true,
    permissionDenials: Math.max(notes.denials, result.permission_denials?.length ?? 0),
    ...(Math.max(notes.denials, result.permission_denials?.length ?? 0) > 0
      ? { refused: refusalText(deniedCalls(result.permission_denials), Math.max(notes.denials, result.permission_denials?.length ?? 0)) }
      : {}),
  };
}
