import { randomUUID } from 'node:crypto';
import type { AgentState } from '../../../shared/agent/agent-state';
import type { Approver } from '../../../shared/agent/approval';
import type { Provider } from '../../../shared/agent/providers/provider';
import { continueAfterCostCap } from '../../../shared/agent/cost-cap';
import { resumeAgent, startAgent, type AgentDeps } from '../../../shared/agent/run-agent';
import { createSecretVault } from '../../../shared/agent/secret-vault';
import type { TraceRecord } from '../../../shared/agent/trace';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../log/logger';
import { createDesktopEnvironment, type DesktopControl, type DesktopEnvironmentOptions } from './desktop-environment';
import { desktopSystemPrompt } from './desktop-system-prompt';
import { desktopTools } from './desktop-tools';
import { createRunLog } from './run-log';

export interface DesktopTaskOptions {
  task: string;
  provider: Provider;
  desktop: DesktopControl & {
    onStop(listener: () => void): () => void;
    cancel(): Promise<number>;
  };
  runDir: string;
  mode: 'ask' | 'act';
  approve: Approver;
  askUser?: (question: string, signal?: AbortSignal) => Promise<string>;
  dryRun: boolean;
  width: number;
  quality: number;
  /** Leave out an image identical to the last one sent, with a note instead (default true). */
  skipUnchanged?: boolean;
  /** Draw a ring where the last click landed on the next screenshot (default true). */
  markClicks?: boolean;
  displayId?: string;
  maxSteps?: number;
  /** The most the task may spend on the model per turn, in dollars; at it the task stops with its state saved. */
  maxCostUsd?: number;
  /**
   * A task this run folder saved when it stopped at its cost cap (its state.json): it goes on from there, under
   * `maxCostUsd`, instead of a new task starting.
   */
  continueFrom?: AgentState;
  /** What the cap's stop says to do next; the CLI's --resume line by default. */
  costCapNext?: string;
  /** Stops the task from outside (Ctrl+C in the terminal, the side panel's stop). */
  signal?: AbortSignal;
  /** Each trace record as it happens, for a live view. */
  onTrace?: (record: TraceRecord) => void;
  /** Each step's screenshot (the model's JPEG and the PNG's path), for a live view. */
  onScreenshot?: DesktopEnvironmentOptions['onShot'];
  log: Logger;
  now: () => number;
}

/**
 * Runs one desktop task through the shared agent loop: screenshots as observations, the desktop tools, the same policy
 * gate, budgets and recovery as web tasks, and a run folder on disk. The stop hotkey and the outside signal both end
 * it at once: the action in progress is cut off and no further action starts.
 */
export async function runDesktopTask(options: DesktopTaskOptions): Promise<{ state: AgentState; stoppedByHotkey: boolean }> {
  if (!options.provider.vision) {
    throw new AppError('bad_config', `Desktop tasks need a model that reads images; ${options.provider.model} is not marked as one.`);
  }
  const controller = new AbortController();
  let stoppedByHotkey = false;
  const stop = (): void => {
    if (controller.signal.aborted) return;
    controller.abort(new AppError('cancelled', 'Stopped by the user.'));
    void options.desktop.cancel().catch(() => 0);
  };
  const offHotkey = options.desktop.onStop(() => {
    stoppedByHotkey = true;
    options.log.info('stop hotkey pressed');
    stop();
  });
  const onOutsideAbort = (): void => stop();
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', onOutsideAbort, { once: true });

  const environment = createDesktopEnvironment({
    desktop: options.desktop,
    runDir: options.runDir,
    width: options.width,
    quality: options.quality,
    dryRun: options.dryRun,
    now: options.now,
    ...(options.displayId === undefined ? {} : { displayId: options.displayId }),
    ...(options.onScreenshot ? { onShot: options.onScreenshot } : {}),
    ...(options.skipUnchanged === undefined ? {} : { skipUnchanged: options.skipUnchanged }),
    ...(options.markClicks === undefined ? {} : { markClicks: options.markClicks }),
  });
  const runLog = await createRunLog(options.runDir, (step) => environment.shot(step));
  const deps: AgentDeps<typeof environment> = {
    environment,
    tools: desktopTools(),
    provider: options.provider,
    // The desktop has no sites for a plan to name: in ask mode each of its actions asks, as it always did.
    policy: { mode: options.mode, approveEachStep: true },
    vault: createSecretVault(),
    approve: options.approve,
    ...(options.askUser ? { askUser: options.askUser } : {}),
    persist: (state) => runLog.persist(state),
    trace: (record) => {
      runLog.trace(record);
      options.onTrace?.(record);
    },
    now: options.now,
    signal: controller.signal,
    screenshots: true,
    systemPrompt: desktopSystemPrompt,
    logger: options.log,
    costCapNext: options.costCapNext ?? `continue with deputy desktop --resume ${options.runDir} --max-cost DOLLARS`,
    limits: { ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }), ...(options.maxCostUsd === undefined ? {} : { maxCostUsd: options.maxCostUsd }) },
  };
  try {
    const state = options.continueFrom
      ? await resumeAgent(deps, continueAfterCostCap(options.continueFrom, options.now()))
      : await startAgent(deps, { taskId: randomUUID(), task: options.task, startUrl: 'desktop:display' });
    await runLog.flush();
    return { state, stoppedByHotkey };
  } finally {
    offHotkey();
    options.signal?.removeEventListener('abort', onOutsideAbort);
  }
}
