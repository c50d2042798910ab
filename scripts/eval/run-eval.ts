import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { browserAt, findBrowser } from '../lib/find-browser';
import type { ExtensionBrowser } from '../lib/launch-browser';
import { ExitError, EXIT } from '../task/exit-codes';
import { checkModelServer } from '../task/model-preflight';
import type { TaskOptions } from '../task/task-flags';
import { type EvalReport, type EvalTaskResult, failuresOf, totalsBySuite, totalsOf } from './eval-report';
import { evalHtml } from './eval-html';
import { type EvalTask, type OpenSuite, seededOrder } from './eval-suite';
import { formatTaskLine, formatTable } from './eval-table';
import { openDeputySuite } from './deputy-suite';
import { openMiniwobSuite } from './miniwob-suite';
import { runEvalTask } from './run-eval-task';
import { runEvalTaskAsRoutine } from './run-eval-routine';

export const SUITES = ['deputy', 'miniwob'] as const;
export type SuiteName = (typeof SUITES)[number];

/**
 * Local suites serve their sites under names such as shop.test and miniwob.test, mapped to this machine for the
 * eval's browsers only; every other name (the model's API) resolves as usual.
 */
export const LOCAL_SUITE_HOST_RULES = 'MAP *.test 127.0.0.1';

export interface EvalOptions {
  /** Provider, model, mode, approvals, step budget, screenshots, browser: `npm run task`'s own settings. */
  base: TaskOptions;
  suites: SuiteName[];
  /** A MiniWoB++ checkout (holding miniwob/ and core/). */
  suiteDir: string;
  /** Patterns on task ids (`miniwob/click-*`) or names (`click-*`); null runs every task of the suites. */
  tasks: string[] | null;
  parallel: number;
  seed: string;
  timeoutMs: number;
  /** Where report.json, report.html and each task's trace go. */
  outDir: string;
  label: string | null;
  /** Each task run live, saved as a routine and replayed (run-eval-routine.ts). */
  asRoutines?: boolean;
  /** A report whose failures are run again (with the seeds they had), instead of the suites' tasks. */
  rerun: { path: string; report: EvalReport } | null;
}

export interface EvalHooks {
  onLaunched?: (task: EvalTask, browser: ExtensionBrowser) => void;
}

export interface EvalOutput {
  report: EvalReport;
  json: string;
  html: string;
}

async function openSuite(name: SuiteName, options: EvalOptions): Promise<OpenSuite> {
  return name === 'miniwob' ? openMiniwobSuite(options.suiteDir) : openDeputySuite();
}

/** The tasks to run with their seeds: the suites' tasks the filter keeps, in the seed's order, or a report's failures. */
export function selectTasks(all: readonly EvalTask[], options: Pick<EvalOptions, 'tasks' | 'seed' | 'rerun'>): { task: EvalTask; seed: string }[] {
  if (options.rerun) {
    const byId = new Map(all.map((task) => [task.id, task]));
    return failuresOf(options.rerun.report).flatMap((failure) => {
      const task = byId.get(failure.id);
      return task ? [{ task, seed: failure.seed }] : [];
    });
  }
  const patterns = options.tasks;
  const keep = patterns ? picomatch(patterns) : () => true;
  const chosen = all.filter((task) => keep(task.id) || keep(task.id.slice(task.id.indexOf('/') + 1)));
  return seededOrder(chosen, options.seed).map((task) => ({ task, seed: `${options.seed}/${task.id}` }));
}

/**
 * Runs the chosen tasks, `parallel` at a time, each in a browser of its own, and writes report.json and report.html
 * to the output folder (also when tasks failed, timed out or lost their browser). Ctrl-C (`signal`) stops the running
 * tasks and writes the report of what ran.
 */
export async function runEval(options: EvalOptions, write: (line: string) => void, hooks: EvalHooks = {}, signal = new AbortController().signal): Promise<EvalOutput> {
  if (!existsSync('dist/manifest.json')) throw new ExitError('The extension is not built: run `npm run build` first.', EXIT.browser);
  // Said once, before anything starts, rather than by every task: no browser, or a wrong --browser.
  if (options.base.browser === undefined) findBrowser();
  else browserAt(options.base.browser, '--browser');
  const suiteNames = options.rerun ? [...new Set(failuresOf(options.rerun.report).map((task) => task.suite))].filter((name): name is SuiteName => (SUITES as readonly string[]).includes(name)) : options.suites;
  const suites: OpenSuite[] = [];
  try {
    for (const name of suiteNames) suites.push(await openSuite(name, options));
    const chosen = selectTasks(
      suites.flatMap((suite) => suite.tasks),
      options,
    );
    if (chosen.length === 0) {
      throw new ExitError(options.rerun ? `${options.rerun.path} has no failed tasks to run again.` : `No task matches --tasks ${options.tasks?.join(',') ?? ''}.`, EXIT.usage);
    }
    // The model server is asked once for the whole run (each task's own check then finds it answering).
    const preflight = await checkModelServer(options.base.provider, { hostRules: options.base.hostRules });
    if (preflight.warning) write(`warning: ${preflight.warning}`);
    const started = new Date();
    write(`Running ${chosen.length} task${chosen.length === 1 ? '' : 's'} (${suiteNames.join(', ')}), ${options.parallel} at a time, seed ${options.seed}, ${Math.round(options.timeoutMs / 1000)} s each at most.`);
    const results: EvalTaskResult[] = [];
    const queue = [...chosen];
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next && !signal.aborted; next = queue.shift()) {
        const result = await (options.asRoutines ? runEvalTaskAsRoutine : runEvalTask)({
          task: next.task,
          seed: next.seed,
          base: { ...options.base, hostRules: options.base.hostRules ?? LOCAL_SUITE_HOST_RULES },
          runsDir: join(options.outDir, 'tasks', next.task.id.replace(/\//g, '__')),
          timeoutMs: options.timeoutMs,
          signal,
          ...(hooks.onLaunched ? { onLaunched: hooks.onLaunched } : {}),
        });
        results.push(result);
        write(formatTaskLine(result, results.length, chosen.length));
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.parallel, chosen.length) }, worker));
    const finished = new Date();
    // The report lists tasks in the order they were chosen, whatever order they finished in.
    const order = new Map(chosen.map((entry, index) => [entry.task.id, index]));
    results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const report: EvalReport = {
      schema: 'deputy-eval/1',
      label: options.label ?? options.base.provider.model,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      elapsedMs: finished.getTime() - started.getTime(),
      model: { provider: options.base.provider.preset, model: options.base.provider.model, baseUrl: options.base.provider.baseUrl ?? null },
      settings: {
        suites: suiteNames,
        tasks: options.tasks,
        seed: options.seed,
        parallel: options.parallel,
        timeoutMs: options.timeoutMs,
        mode: options.base.mode,
        approve: options.base.approve,
        stepBudget: options.base.steps ?? null,
        screenshots: options.base.screenshots,
      },
      rerunOf: options.rerun?.path ?? null,
      tasks: results,
      totals: totalsOf(results),
      bySuite: totalsBySuite(results),
    };
    const output = { report, json: `${JSON.stringify(report, null, 2)}\n`, html: evalHtml([report]) };
    await mkdir(options.outDir, { recursive: true });
    await writeFile(join(options.outDir, 'report.json'), output.json);
    await writeFile(join(options.outDir, 'report.html'), output.html);
    for (const line of formatTable(report)) write(line);
    write(`Report: ${join(options.outDir, 'report.json')} and ${join(options.outDir, 'report.html')}`);
    return output;
  } finally {
    await Promise.all(suites.map((suite) => suite.close().catch(() => undefined)));
  }
}
