import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentState } from '../../../shared/agent/agent-state';
import type { TraceRecord } from '../../../shared/agent/trace';
import type { ShotRecord } from './desktop-environment';

/** One line of steps.jsonl: what the agent saw, planned and did at one step, and how long each part took. */
export interface StepLine {
  step: number;
  plan: { step: string; status: string }[] | null;
  action: string;
  arguments: unknown;
  decision: string | null;
  status: string;
  ok: boolean | null;
  result: string | null;
  observation: { screenshot: string | null; image: { width: number; height: number } | null; fingerprint: string | null };
  timings: { screenshotMs: number | null; modelMs: number | null; actionMs: number | null };
  at: number;
}

export interface RunLog {
  trace(record: TraceRecord): void;
  persist(state: AgentState): Promise<void>;
  /** Resolves once every line so far is on disk. */
  flush(): Promise<void>;
}

function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function planOf(args: unknown): StepLine['plan'] {
  if (typeof args !== 'object' || args === null || !('steps' in args) || !Array.isArray(args.steps)) return null;
  return (args.steps as unknown[]).flatMap((s) =>
    typeof s === 'object' && s !== null && 'step' in s && 'status' in s ? [{ step: String(s.step), status: String(s.status) }] : [],
  );
}

/**
 * Writes a desktop run folder: steps.jsonl (one line per action), trace.jsonl (the loop's full trace, already
 * redacted), state.json (the task as last persisted, replaced atomically), beside the step-N.png screenshots the
 * environment keeps there. Everything is written in order through one queue that the loop does not wait on: desktop
 * tasks are not resumed from state.json after a crash (it is the user's record of the run; only a task stopped at its
 * cost cap goes on from it, after it was flushed), so the disk stays off each step's path,
 * a state saved while an earlier one is still being written replaces it, and `flush` waits for the rest. A crash
 * loses at most the lines still queued.
 */
export async function createRunLog(runDir: string, shot: (step: number) => ShotRecord | undefined): Promise<RunLog> {
  await mkdir(runDir, { recursive: true });
  let queue: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  let plan: StepLine['plan'] = null;
  const modelMs = new Map<number, number>();
  const target = join(runDir, 'state.json');
  let latestState: AgentState | undefined;
  const enqueue = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch((error: unknown) => {
      failure ??= error instanceof Error ? error : new Error(`Could not write the run folder: ${JSON.stringify(error)}`);
    });
  };
  const append = (file: string, value: unknown): void => enqueue(() => appendFile(join(runDir, file), `${JSON.stringify(value)}\n`));

  return {
    trace: (record) => {
      append('trace.jsonl', record);
      if (record.type === 'reply') modelMs.set(record.step, record.durationMs);
      if (record.type !== 'tool') return;
      const args = parseArguments(record.arguments);
      if (record.name === 'update_plan' && record.status === 'finished') plan = planOf(args) ?? plan;
      const seen = shot(record.step);
      const line: StepLine = {
        step: record.step,
        plan,
        action: record.name,
        arguments: args,
        decision: record.decision,
        status: record.status,
        ok: record.ok,
        result: record.content,
        observation: {
          screenshot: seen ? seen.pngPath : null,
          image: seen ? { width: seen.frame.width, height: seen.frame.height } : null,
          fingerprint: seen ? seen.fingerprint : null,
        },
        timings: { screenshotMs: seen ? seen.ms : null, modelMs: modelMs.get(record.step) ?? null, actionMs: record.durationMs },
        at: record.at,
      };
      append('steps.jsonl', line);
    },
    persist: (state) => {
      plan = state.plan ? state.plan.steps.map((s) => ({ step: s.step, status: s.status })) : null;
      const queued = latestState !== undefined;
      latestState = state;
      if (!queued) {
        enqueue(async () => {
          const latest = latestState;
          latestState = undefined;
          if (latest === undefined) return;
          // The loop's saved state carries no screenshot (the PNGs beside it are the record); compact, as it is
          // rewritten several times a step.
          await writeFile(`${target}.tmp`, JSON.stringify(latest));
          await rename(`${target}.tmp`, target);
        });
      }
      return Promise.resolve();
    },
    flush: async () => {
      await queue;
      if (failure !== undefined) throw failure;
    },
  };
}
