import { readFile } from 'node:fs/promises';
import type { ExtensionBrowser } from '../lib/launch-browser';
import { runTask, type TaskRun } from '../task/run-task';
import type { TaskEvent } from '../task/task-events';
import type { TaskOptions } from '../task/task-flags';
import type { EvalTaskResult } from './eval-report';
import type { EvalTask, Verdict } from './eval-suite';

/** How long a task that was stopped at its timeout may take to stop before its browser is closed under it. */
const STOP_GRACE_MS = 30_000;

export interface EvalTaskRun {
  task: EvalTask;
  seed: string;
  /** The run's settings (provider, mode, approvals, step budget, browser, host rules); the task fills in the rest. */
  base: TaskOptions;
  runsDir: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Called with each task's browser once it started (the tests kill one here to prove a crash is reported). */
  onLaunched?: (task: EvalTask, browser: ExtensionBrowser) => void;
}

/**
 * Model time and cached tokens from the task's trace: each reply record says how long the model took, and a prompt
 * still unanswered when the task ended (stopped at its timeout) counts as waiting for the model until the end.
 */
export function traceFigures(jsonl: string): { modelMs: number; cachedTokens: number | null } {
  let modelMs = 0;
  let cachedTokens: number | null = null;
  let asked: number | null = null;
  let lastAt = 0;
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as { type?: string; at?: unknown; durationMs?: unknown; cachedInputTokens?: unknown };
    if (typeof record.at === 'number') lastAt = Math.max(lastAt, record.at);
    if (record.type === 'prompt' && typeof record.at === 'number') asked = record.at;
    if (record.type !== 'reply') continue;
    asked = null;
    if (typeof record.durationMs === 'number') modelMs += record.durationMs;
    if (typeof record.cachedInputTokens === 'number') cachedTokens = (cachedTokens ?? 0) + record.cachedInputTokens;
  }
  if (asked !== null) modelMs += Math.max(0, lastAt - asked);
  return { modelMs, cachedTokens };
}

async function readTrace(path: string | null): Promise<{ modelMs: number; cachedTokens: number | null } | null> {
  const text = path ? await readFile(path, 'utf8').catch(() => null) : null;
  return text === null ? null : traceFigures(text);
}

/**
 * Runs one task of a suite through `npm run task`'s own code (the built extension in a browser of its own), judges
 * it by the state it left, and measures it. A task that overruns its time is stopped and reported as a timeout; a
 * browser that dies under a task makes it an error with the reason; nothing here throws for a task's sake.
 */
export async function runEvalTask(run: EvalTaskRun): Promise<EvalTaskResult> {
  const { task, seed } = run;
  const interrupt = new AbortController();
  const forward = (): void => interrupt.abort();
  run.signal.addEventListener('abort', forward, { once: true });
  let ext: ExtensionBrowser | undefined;
  let timedOut = false;
  let judgedAt: number | undefined;
  let startedAt: number | undefined;
  let end: Extract<TaskEvent, { type: 'end' }> | undefined;
  let verdict: Verdict | undefined;
  let crashed = false;
  const began = Date.now();
  let killed = false;
  const kill = (): void => {
    killed = true;
    ext?.browser.process()?.kill('SIGKILL');
  };
  let hardStop: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    interrupt.abort();
    hardStop = setTimeout(kill, STOP_GRACE_MS);
  }, run.timeoutMs);

  const options: TaskOptions = {
    ...run.base,
    url: task.url,
    task: task.text,
    flow: task.flow,
    facts: task.facts ?? {},
    files: [],
    runsDir: run.runsDir,
    json: true,
    profile: undefined,
  };
  const io = {
    write(line: string) {
      const event = JSON.parse(line) as TaskEvent;
      if (event.type === 'start') startedAt = Date.now();
      if (event.type === 'end') end = event;
    },
  };
  let outcome: TaskRun | undefined;
  let failure: string | undefined;
  try {
    outcome = await runTask(
      options,
      io,
      {
        onLaunched(browser) {
          ext = browser;
          browser.browser.on('disconnected', () => {
            if (judgedAt === undefined && !killed) crashed = true;
          });
          run.onLaunched?.(task, browser);
        },
        async beforeStart(target) {
          if (!task.prepare) return;
          // In front first: a page in a background tab may not get input or animation frames.
          await target.bringToFront();
          await task.prepare(target, { seed, timeoutMs: run.timeoutMs });
        },
        async beforeClose(target) {
          judgedAt = Date.now();
          if (crashed || !ext?.browser.connected) return;
          verdict = await task.judge(target, ext.browser).catch((error: unknown) => ({ solved: false, reason: `The check could not read the result: ${error instanceof Error ? error.message : String(error)}` }));
        },
      },
      interrupt.signal,
    );
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
    clearTimeout(hardStop);
    run.signal.removeEventListener('abort', forward);
  }

  const record = outcome?.record;
  const trace = await readTrace(end?.trace ?? null);
  const wallMs = (judgedAt ?? Date.now()) - (startedAt ?? began);
  const usage = record?.agent?.usage;
  const signal = ext?.browser.process()?.signalCode;
  const claimed = record?.agent?.outcome ? record.agent.outcome.success : null;
  let status: EvalTaskResult['status'];
  let reason: string;
  if (crashed) {
    status = 'error';
    reason = `The browser closed in the middle of the task${signal ? ` (killed by ${signal})` : ''}.`;
  } else if (timedOut) {
    status = 'timeout';
    reason = `No end within ${Math.round(run.timeoutMs / 1000)} s (from its browser's start): the task was stopped.`;
  } else if (run.signal.aborted) {
    status = 'error';
    reason = 'The evaluation was interrupted.';
  } else if (failure !== undefined || !verdict) {
    status = 'error';
    reason = failure ?? 'The task ended without a result to judge.';
  } else {
    status = verdict.solved ? 'solved' : 'failed';
    reason = verdict.reason;
  }
  return {
    id: task.id,
    suite: task.suite,
    seed,
    status,
    reason,
    agentClaimedSuccess: claimed,
    score: verdict?.score ?? null,
    steps: record?.agent?.steps.length ?? 0,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedTokens: trace?.cachedTokens ?? null,
    costUsd: usage ? usage.costUsd : null,
    wallMs,
    modelMs: trace ? trace.modelMs : null,
    deputyMs: trace ? Math.max(0, wallMs - trace.modelMs) : null,
    runDir: outcome?.runDir ?? end?.runDir ?? null,
  };
}
