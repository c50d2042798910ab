import type { AgentState } from '../../../shared/agent/agent-state';
import type { ApprovalAnswer, Approver } from '../../../shared/agent/approval';
import type { Provider } from '../../../shared/agent/providers/provider';
import { continueAfterCostCap } from '../../../shared/agent/cost-cap';
import { resumeAgent, startAgent, type AgentDeps } from '../../../shared/agent/run-agent';
import type { AnyTool } from '../../../shared/agent/tool';
import type { TraceRecord } from '../../../shared/agent/trace';
import type { Logger } from '../../log/logger';
import { addAlwaysAllow, loadShellRules, type ShellRules } from '../command-rules';
import { createCommandGate } from '../command-gate';
import type { Validator } from '../command-validator';
import { createShellEnvironment, type ShellAgentEnvironment } from './shell-environment';
import { saveSessionFile, type ShellSessionFile } from './shell-session-file';
import type { ShellSession } from './shell-session';
import { shellSystemPrompt } from './shell-system-prompt';
import { shellTools } from './shell-tools';

/** The defaults the issue sets: 20 steps, 10 s in the foreground, the last 5 steps verbatim in the working memory. */
export const SHELL_DEFAULTS = { maxSteps: 20, waitMs: 10_000, memoryChars: 24_000, keepSteps: 5 } as const;

export interface ShellTaskOptions {
  session: ShellSession;
  /** The objective of a new task (a resumed one keeps its own). */
  objective: string;
  mode: 'ask' | 'act';
  provider: Provider;
  /** The validator of act mode; without one, act mode asks the user about each command. */
  validator?: Validator;
  approve: Approver;
  askUser?: (question: string, signal?: AbortSignal) => Promise<string>;
  /** shell-rules.json: deny, ask and allow patterns, and the prefixes the user chose to always allow. */
  rulesFile: string;
  maxSteps?: number;
  /**
   * The most a turn may spend on the model, in dollars; at it the session stops, saved, and a resume goes on under the
   * cap then given (the saved one when none is). Unset on a new session: no cap.
   */
  maxCostUsd?: number;
  /** Past this many characters of history, older steps are summarized into the working memory. */
  memoryChars?: number;
  waitMs?: number;
  signal?: AbortSignal;
  onTrace?: (record: TraceRecord) => void;
  logger?: Logger;
  now: () => number;
  /**
   * The session's saved file when it goes on in a session that is still open (after its cost cap, with the processes
   * it left running); otherwise the one the session was opened with.
   */
  saved?: ShellSessionFile;
  /** Tools from elsewhere: Deputy's page tools through the browser, the user's MCP servers' tools. */
  extraTools?: AnyTool<ShellAgentEnvironment>[];
}

/** The rules' name for a target: "local", or the resolved user@host:port. */
export function targetKey(session: ShellSession): string {
  return session.target.spec.kind === 'local' ? 'local' : session.target.label;
}

/**
 * Runs one shell task through the shared agent loop: the shell tools, the command gate (rules, destructive commands,
 * ask-first approvals or the validator), the working memory, and the session saved after every step so it can be
 * resumed without repeating a command that had started. A saved session with an agent state is resumed.
 */
export async function runShellTask(options: ShellTaskOptions): Promise<AgentState> {
  const { session } = options;
  const saved = options.saved ?? session.saved;
  const objective = saved?.objective ?? options.objective;
  const mode = saved?.mode ?? options.mode;
  const maxSteps = saved?.maxSteps ?? options.maxSteps ?? SHELL_DEFAULTS.maxSteps;
  const maxCostUsd = options.maxCostUsd ?? saved?.maxCostUsd;
  let rules: ShellRules = await loadShellRules(options.rulesFile);
  const key = targetKey(session);
  const environment = createShellEnvironment({
    service: session.service,
    log: session.log,
    target: session.target,
    info: session.info,
    startDir: session.startDir,
    waitMs: saved?.waitMs ?? options.waitMs ?? SHELL_DEFAULTS.waitMs,
    now: options.now,
  });
  session.log.append({ type: 'session', sessionId: session.sessionId, target: session.target.label, objective, mode, resumed: saved !== undefined });
  const createdAt = saved?.createdAt ?? options.now();
  let memoryLogged = saved?.agent?.memory?.throughStep ?? -1;

  const approve: Approver = async (request, signal): Promise<ApprovalAnswer> => {
    const answer = await options.approve(request, signal);
    session.log.append({
      type: 'approval',
      callId: request.callId,
      intent: request.intent,
      approved: answer.approved,
      by: 'user',
      ...(answer.note ? { note: answer.note } : {}),
      ...(answer.alwaysAllowPrefix ? { alwaysAllowPrefix: answer.alwaysAllowPrefix } : {}),
    });
    if (answer.approved && answer.alwaysAllowPrefix?.trim()) {
      rules = await addAlwaysAllow(options.rulesFile, key, answer.alwaysAllowPrefix.trim());
      session.log.append({ type: 'note', text: `Commands starting with "${answer.alwaysAllowPrefix.trim()}" are now always allowed on ${key} (${options.rulesFile}).` });
    }
    return answer;
  };
  const askUser = options.askUser;
  let latest: AgentState | undefined;
  const save = (state: AgentState): void => {
    latest = state;
    saveSessionFile(session.paths.state, {
      version: 1,
      sessionId: session.sessionId,
      target: session.target.spec,
      targetLabel: session.target.label,
      objective: state.task,
      mode,
      model: `${options.provider.label}/${options.provider.model}`,
      createdAt,
      updatedAt: options.now(),
      waitMs: environment.waitMs,
      maxSteps,
      ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
      agent: state,
      processes: session.service.snapshot(),
    });
  };
  // A process that starts or ends is saved at once, so after a crash its group is known (and can be killed).
  const offProcess = session.service.subscribe((event) => {
    if (event.kind === 'process' && latest) save(latest);
  });
  const deps: AgentDeps<ShellAgentEnvironment> = {
    environment,
    tools: [...shellTools(), ...(options.extraTools ?? [])],
    provider: options.provider,
    policy: { mode },
    vault: session.vault,
    approve,
    ...(askUser
      ? {
          askUser: async (question: string, signal?: AbortSignal) => {
            const answer = await askUser(question, signal);
            session.log.append({ type: 'question', question, answer });
            return answer;
          },
        }
      : {}),
    gate: createCommandGate({
      mode,
      targetKey: key,
      targetLabel: session.description,
      objective: session.redactor.redact(objective),
      rules: () => rules,
      ...(options.validator ? { validator: options.validator } : {}),
      vault: session.vault,
      log: session.log,
    }),
    persist: (state) => {
      if (state.memory && state.memory.throughStep > memoryLogged) {
        memoryLogged = state.memory.throughStep;
        session.log.append({ type: 'memory', throughStep: state.memory.throughStep, summary: state.memory.summary });
      }
      save(state);
      return Promise.resolve();
    },
    trace: (record) => {
      if (record.type === 'reply' && record.text.trim() !== '') session.log.append({ type: 'reply', step: record.step, text: record.text });
      options.onTrace?.(record);
    },
    now: options.now,
    ...(options.signal ? { signal: options.signal } : {}),
    systemPrompt: shellSystemPrompt,
    memory: {
      thresholdChars: options.memoryChars ?? SHELL_DEFAULTS.memoryChars,
      keepSteps: SHELL_DEFAULTS.keepSteps,
      focus: 'For a shell session, keep: process ids and whether each still runs, exit codes, file paths written or read, ports, versions, and error messages word for word.',
      recallHint: 'search_history finds their commands and full output',
    },
    costCapNext: `continue with deputy shell --resume ${session.sessionId} --max-cost DOLLARS (or Resume in the side panel's Shell view)`,
    limits: {
      maxSteps,
      ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
      keepObservations: 1,
      // Two identical errors in a row get a warning. The shell's state text rarely changes, so "nothing changed" says
      // nothing about progress here; the commands' results do.
      recovery: { errorWarn: 2, errorStop: 4, stagnationWarn: Number.MAX_SAFE_INTEGER, stagnationStop: Number.MAX_SAFE_INTEGER, repeatWarn: 3, repeatStop: 6 },
    },
    ...(options.logger ? { logger: options.logger } : {}),
  };
  let state: AgentState;
  try {
    state = saved?.agent ? await resumeAgent(deps, continueAfterCostCap(saved.agent, options.now())) : await startAgent(deps, { taskId: session.sessionId, task: objective, startUrl: session.target.url });
  } finally {
    offProcess();
  }
  session.log.append({ type: 'end', status: state.status, summary: state.outcome?.summary ?? state.endReason ?? '' });
  await session.log.flush();
  return state;
}
