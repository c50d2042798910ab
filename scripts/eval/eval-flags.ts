import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import { MINIWOB_DIR, miniwobMissing } from '../lib/miniwob-harness';
import { parseCommandLine, parseTaskFlags, TaskUsageError } from '../task/task-flags';
import { type EvalOptions, SUITES, type SuiteName } from './run-eval';

export type EvalCommand =
  | { kind: 'compare'; files: string[]; out: string }
  | { kind: 'expressible'; dir: string; patterns: string[] | null; seed: string; headless: boolean }
  | { kind: 'run'; options: Omit<EvalOptions, 'rerun'>; rerunPath: string | null; notes: string[] };

/** Stands in for the task text when the model flags are read with `npm run task`'s own parser. */
const NO_TASK = '\u0000eval';

/** One browser per task: half the cores (at least one), as each Chromium keeps about a core busy while it works. */
export function defaultParallel(cores = availableParallelism()): number {
  return Math.max(1, Math.min(8, Math.floor(cores / 2)));
}

const MODEL_FLAGS_HELP = `
Model and run settings are the same flags as npm run task: --provider, --base-url, --model, --mode, --approve,
--steps, --screenshots, --headful, --browser (the key comes from OPENAI_API_KEY, ANTHROPIC_API_KEY or DEPUTY_API_KEY).
Approvals are answered "all" unless --approve none says otherwise: nobody sits at an evaluation.

Examples:
  OPENAI_API_KEY=sk-... npm run eval -- --model gpt-4o-mini --suite deputy
  ANTHROPIC_API_KEY=sk-ant-... npm run eval -- --suite miniwob --tasks 'click-*,enter-*' --parallel 2 --seed 7
  npm run eval -- --rerun-failures eval-runs/<time>/report.json --model gpt-4o
  npm run eval -- --compare eval-runs/a/report.json eval-runs/b/report.json`;

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of 1 or more.');
  return n;
}

function suiteList(value: string): SuiteName[] {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(SUITES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) throw new InvalidArgumentError(`"${value}" names no suite: the suites are ${SUITES.join(', ')}.`);
  return names as SuiteName[];
}

/**
 * Turns `npm run eval` flags into a run (or a comparison of earlier runs). The eval's own flags are read here; every
 * other flag goes to `npm run task`'s parser, so provider, model and settings mean exactly what they mean there.
 */
export function parseEvalFlags(argv: string[], env: NodeJS.ProcessEnv, now = new Date()): EvalCommand {
  const program = new Command('npm run eval --')
    .description("Run suites of web tasks through Deputy's built extension in Chromium and report success, tokens, cost and time.")
    .option('--suite <names>', `suites to run, comma-separated: ${SUITES.join(', ')} (default: both; MiniWoB++ when its folder is there)`, suiteList)
    .option('--suite-dir <dir>', 'a MiniWoB++ checkout (the folder holding miniwob/ and core/)', MINIWOB_DIR)
    .option('--tasks <patterns>', "only these tasks: comma-separated ids or names, globs allowed ('click-*', 'deputy/*')")
    .option('--parallel <n>', `tasks at a time, each in a browser of its own (default ${defaultParallel()}, from this machine's cores)`, positive)
    .option('--seed <seed>', 'fixes the task order and the MiniWoB++ problems (default: a new one, printed and saved in the report)')
    .option('--timeout <seconds>', 'time limit per task; a task still running then is stopped and counted as timed out', positive, 300)
    .option('--out <dir>', 'where report.json, report.html and each task\'s trace go (default eval-runs/<time>)')
    .option('--label <name>', 'the run\'s name in reports and comparisons (default: the model)')
    .option('--rerun-failures <report.json>', 'run again only the tasks an earlier report did not count as solved, with their seeds')
    .option('--expressible', 'no model: solve each MiniWoB++ page with a scripted solution that reads only what the model is sent, through Deputy\'s snapshot and tools (with --suite miniwob)')
    .option('--as-routines', 'run each task live once, save it as a routine, replay that routine in a fresh browser and report which replays succeed with no model call, which with repairs (support chats cannot be routines and run live only)')
    .option('--compare <reports...>', 'no run: compare earlier reports (report.json files) in a table and compare.html')
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText('after', MODEL_FLAGS_HELP);
  parseCommandLine(program, argv);
  const flags = program.opts<{
    suite?: SuiteName[];
    suiteDir: string;
    tasks?: string;
    parallel?: number;
    seed?: string;
    timeout: number;
    out?: string;
    label?: string;
    rerunFailures?: string;
    compare?: string[];
    expressible?: boolean;
    asRoutines?: boolean;
  }>();
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  if (flags.compare) {
    if (flags.compare.length < 2) throw new TaskUsageError('--compare needs two or more report.json files.');
    return { kind: 'compare', files: flags.compare, out: flags.out ?? `eval-runs/compare-${stamp}` };
  }
  if (flags.expressible) {
    if (flags.suite && !flags.suite.includes('miniwob')) throw new TaskUsageError('--expressible measures the MiniWoB++ pages: give --suite miniwob (or no --suite).');
    return {
      kind: 'expressible',
      dir: flags.suiteDir,
      patterns: flags.tasks ? flags.tasks.split(',').map((pattern) => pattern.trim().replace(/^miniwob\//, '')).filter(Boolean) : null,
      seed: flags.seed ?? randomBytes(4).toString('hex'),
      headless: !program.args.includes('--headful'),
    };
  }
  const base = parseTaskFlags([...program.args, NO_TASK], env);
  if (base.task !== NO_TASK) throw new TaskUsageError(`Unexpected "${base.task.replace(` ${NO_TASK}`, '')}": npm run eval takes no task text (the suites bring their tasks).`);
  for (const [flag, given] of [
    ['--url', base.url !== undefined],
    ['--chat', base.flow === 'chat'],
    ['--file', base.files.length > 0],
    ['--profile', base.profile !== undefined],
    ['--json', base.json],
  ] as const) {
    if (given) throw new TaskUsageError(`${flag} is for one task (npm run task); the suites bring their own pages, and each task runs in a fresh profile.`);
  }
  const notes: string[] = [];
  let suites = flags.suite;
  if (!suites) {
    const missing = miniwobMissing(flags.suiteDir);
    suites = missing ? ['deputy'] : ['deputy', 'miniwob'];
    if (missing) notes.push(`MiniWoB++ left out: ${missing}. Give --suite-dir to run it.`);
  }
  if (flags.asRoutines && base.routine !== undefined) throw new TaskUsageError('--as-routines saves and replays each task of the suites: leave out --routine.');
  if (flags.rerunFailures && (flags.suite || flags.tasks)) throw new TaskUsageError('--rerun-failures runs the failed tasks of its report: leave out --suite and --tasks.');
  return {
    kind: 'run',
    rerunPath: flags.rerunFailures ?? null,
    notes,
    options: {
      base: { ...base, approve: base.approve === 'ask' ? 'all' : base.approve },
      suites,
      suiteDir: flags.suiteDir,
      tasks: flags.tasks ? flags.tasks.split(',').map((pattern) => pattern.trim()).filter(Boolean) : null,
      parallel: flags.parallel ?? defaultParallel(),
      seed: flags.seed ?? randomBytes(4).toString('hex'),
      timeoutMs: flags.timeout * 1000,
      outDir: flags.out ?? `eval-runs/${stamp}`,
      label: flags.label ?? null,
      asRoutines: flags.asRoutines ?? false,
    },
  };
}
