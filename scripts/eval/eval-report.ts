import { z } from 'zod';

/** How a task of an evaluation ended, as the suite judged it (never as the agent claimed). */
export const EvalStatus = z.enum(['solved', 'failed', 'timeout', 'error']);
export type EvalStatus = z.infer<typeof EvalStatus>;

/** One task's result: the suite's verdict, what it cost, and where the time went. */
export const EvalTaskResult = z.object({
  id: z.string(),
  suite: z.string(),
  /** The seed the task ran with (MiniWoB++ problems depend on it), so a re-run poses the same problem. */
  seed: z.string(),
  status: EvalStatus,
  /** Why it was judged so: the suite's check, the timeout, or the error that ended it. */
  reason: z.string(),
  /** What the agent said about itself (true: it claimed success), null when it never said. */
  agentClaimedSuccess: z.boolean().nullable(),
  /** The suite's own score where it has one (MiniWoB++'s raw reward). */
  score: z.number().nullable(),
  steps: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  /** Input tokens the provider served from its prompt cache; null when the build or the provider does not report them. */
  cachedTokens: z.number().nonnegative().nullable(),
  /** In US dollars; null when the model's price is not known. */
  costUsd: z.number().nonnegative().nullable(),
  /** From the task's start to its end (the browser's start-up not included). */
  wallMs: z.number().nonnegative(),
  /** Time spent waiting for the model's replies; null when the trace was lost (a crashed browser). */
  modelMs: z.number().nonnegative().nullable(),
  /** Deputy's own time: wall time minus the time waiting for the model. */
  deputyMs: z.number().nonnegative().nullable(),
  /** The task's trace, task record and step screenshots. */
  runDir: z.string().nullable(),
  /** With --as-routines: the live run saved as a routine, and that routine replayed in a fresh browser. */
  routine: z
    .object({
      /** The routine file, or null when the task could not be saved as one (the note says why). */
      file: z.string().nullable(),
      note: z.string(),
      replay: z
        .object({
          status: EvalStatus,
          reason: z.string(),
          /** Model calls the replay made: 0 when every step was found again; one per repaired step otherwise. */
          modelCalls: z.number().int().nonnegative(),
          repairs: z.number().int().nonnegative(),
          stepsDone: z.number().int().nonnegative(),
          inputTokens: z.number().nonnegative(),
          outputTokens: z.number().nonnegative(),
          costUsd: z.number().nonnegative().nullable(),
          wallMs: z.number().nonnegative(),
        })
        .nullable(),
    })
    .optional(),
});
export type EvalTaskResult = z.infer<typeof EvalTaskResult>;

export const EvalTotals = z.object({
  tasks: z.number().int(),
  solved: z.number().int(),
  failed: z.number().int(),
  timeout: z.number().int(),
  error: z.number().int(),
  /** solved / tasks, 0 to 1. */
  successRate: z.number(),
  steps: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedTokens: z.number().nullable(),
  costUsd: z.number().nullable(),
  /** Sum of the tasks' wall times. */
  wallMs: z.number(),
  deputyMs: z.number().nullable(),
  /** Median of the tasks' Deputy time per step. */
  medianDeputyMsPerStep: z.number().nullable(),
});
export type EvalTotals = z.infer<typeof EvalTotals>;

/** The JSON report of one evaluation run (`--out`), also what --compare and --rerun-failures read. */
export const EvalReport = z.object({
  schema: z.literal('deputy-eval/1'),
  /** The run's name in comparisons: the model unless --label says otherwise. */
  label: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** The whole run, tasks in parallel. */
  elapsedMs: z.number(),
  model: z.object({ provider: z.string(), model: z.string(), baseUrl: z.string().nullable() }),
  settings: z.object({
    suites: z.array(z.string()),
    tasks: z.array(z.string()).nullable(),
    seed: z.string(),
    parallel: z.number().int().positive(),
    timeoutMs: z.number().int().positive(),
    mode: z.string(),
    approve: z.string(),
    stepBudget: z.number().nullable(),
    screenshots: z.boolean(),
  }),
  /** The report whose failures this run repeated, when it was --rerun-failures. */
  rerunOf: z.string().nullable(),
  tasks: z.array(EvalTaskResult),
  totals: EvalTotals,
  /** The totals of each suite on its own (a run of several suites mixes easy and hard tasks in its totals). */
  bySuite: z.record(z.string(), EvalTotals),
});
export type EvalReport = z.infer<typeof EvalReport>;

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A total that is known only when every part is: an unknown price anywhere makes the total cost unknown. */
function knownSum(values: (number | null)[]): number | null {
  return values.some((value) => value === null) ? null : sum(values as number[]);
}

export function totalsOf(tasks: readonly EvalTaskResult[]): EvalTotals {
  const count = (status: EvalStatus): number => tasks.filter((task) => task.status === status).length;
  const perStep = tasks.filter((task) => task.deputyMs !== null && task.steps > 0).map((task) => (task.deputyMs ?? 0) / task.steps);
  return {
    tasks: tasks.length,
    solved: count('solved'),
    failed: count('failed'),
    timeout: count('timeout'),
    error: count('error'),
    successRate: tasks.length === 0 ? 0 : count('solved') / tasks.length,
    steps: sum(tasks.map((task) => task.steps)),
    inputTokens: sum(tasks.map((task) => task.inputTokens)),
    outputTokens: sum(tasks.map((task) => task.outputTokens)),
    cachedTokens: tasks.every((task) => task.cachedTokens === null) ? null : sum(tasks.map((task) => task.cachedTokens ?? 0)),
    costUsd: knownSum(tasks.map((task) => task.costUsd)),
    wallMs: sum(tasks.map((task) => task.wallMs)),
    deputyMs: knownSum(tasks.map((task) => task.deputyMs)),
    medianDeputyMsPerStep: median(perStep),
  };
}

/** The totals of each suite's tasks, by suite name. */
export function totalsBySuite(tasks: readonly EvalTaskResult[]): Record<string, EvalTotals> {
  const suites = [...new Set(tasks.map((task) => task.suite))];
  return Object.fromEntries(suites.map((suite) => [suite, totalsOf(tasks.filter((task) => task.suite === suite))]));
}

/** Reads a report written by an earlier run, with a message that says what is wrong when it is not one. */
export function parseReport(text: string, source: string): EvalReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON (${error instanceof Error ? error.message : String(error)}): give the .json file an eval run wrote.`);
  }
  const parsed = EvalReport.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${source} is not a Deputy eval report (${issue ? `${issue.path.join('.') || 'top'}: ${issue.message}` : 'unknown shape'}): give the .json file an eval run wrote.`);
  }
  return parsed.data;
}

/** The tasks a --rerun-failures run repeats: every one the suite did not count as solved. */
export function failuresOf(report: EvalReport): EvalTaskResult[] {
  return report.tasks.filter((task) => task.status !== 'solved');
}
