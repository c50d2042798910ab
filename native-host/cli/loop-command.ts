import { readFileSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { LoopOutcome } from '../../shared/protocol/loop-protocol';
import { browserFormFiller } from '../browser/browser-form-filler';
import { createLogger, streamSink } from '../log/logger';
import { loadLoopConfig, resolveRepo, type LoopFlags } from '../loop/load-loop-config';
import { createPrinter } from '../loop/loop-printer';
import { parseHookRules, runHook, type HookRulesFile } from '../loop/pre-tool-use-hook';
import { createCommandRunner } from '../loop/run-command';
import { savedLoops } from '../loop/saved-loops';
import type { ResumeChanges } from '../loop/prepare-loop';
import { researchModelFromEnv } from '../loop/research-model';
import { compareCommandLine, fixerPrograms, startLoop } from '../loop/start-loop';
import { describeLoop } from './loop-describe';
import { defaultLoopStateDir } from '../loop/state-store';
import { UsageError } from './usage-error';

const positiveInt = (value: string): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError('expected a whole number above 0');
  return number;
};
const positiveNumber = (value: string): number => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('expected a number above 0');
  return number;
};
const nonNegativeNumber = (value: string): number => {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) throw new InvalidArgumentError('expected a number, 0 or more');
  return number;
};
const list = (value: string): string[] => value.split(',').map((item) => item.trim()).filter(Boolean);
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Exit codes of `deputy loop`: 0 when the check passes, 130 when stopped by the user, 1 for every other ending. */
export function exitCodeFor(outcome: LoopOutcome | undefined): number {
  if (outcome === 'passed') return 0;
  if (outcome === 'stopped') return 130;
  return 1;
}

interface LoopOptions extends LoopFlags {
  describe?: string;
  resume?: boolean;
  approve?: boolean;
  status?: boolean;
  restart?: boolean;
  json?: boolean;
  stateDir?: string;
}

/** `deputy loop --status`: what the saved state of this repo's loop says, without touching anything. */
function statusAction(options: LoopOptions): number {
  const repo = realpathSync(resolveRepo(options.repo, process.cwd()));
  const stateDir = options.stateDir ?? defaultLoopStateDir();
  const saved = savedLoops(stateDir).find((loop) => loop.repo === repo);
  if (!saved) {
    process.stdout.write(options.json ? 'null\n' : `No loop has run on ${repo} yet.\n`);
    return 0;
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify(saved)}\n`);
    return 0;
  }
  const where = `iteration ${saved.iteration}, step ${saved.step}, cost $${saved.costUsd.toFixed(2)}`;
  const state = saved.running ? 'running' : (saved.outcome ?? 'interrupted');
  const next = saved.running ? '' : saved.outcome === undefined || saved.outcome === 'stopped' || saved.outcome === 'failed' ? '\nContinue it with: deputy loop --resume' : '';
  process.stdout.write(`Loop ${saved.loopId} on ${repo}: ${state} (${where})${saved.reason ? `\n${saved.reason}` : ''}\nState: ${saved.stateFile}${next}\n`);
  return 0;
}

async function loopAction(given: LoopOptions): Promise<number> {
  if (given.status && given.describe === undefined) return statusAction(given);
  const options = given.describe === undefined ? given : await withDescribedLoop({ ...given, describe: given.describe });
  if (options === undefined) return 0;
  if (options.resume && options.restart) throw new UsageError('--resume and --restart cannot be used together: --resume continues the last loop, --restart discards it');
  if (options.approve && !options.resume) throw new UsageError('--approve goes with --resume: it pushes the fix that waits for your approval');
  // A resumed loop keeps the definition saved in its state; only budgets and fixer limits may change.
  const repo = resolveRepo(options.repo, process.cwd());
  const config = options.resume ? undefined : loadLoopConfig(options, process.cwd());
  const resumeChanges = options.resume ? resumeChangesFrom(options) : undefined;
  const stateDir = options.stateDir ?? defaultLoopStateDir();
  const log = createLogger('loop', [streamSink(process.stderr)], process.env.DEPUTY_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const mode = options.json ? 'json' : process.stdout.isTTY ? 'tty' : 'plain';
  const printer = createPrinter(mode, (text) => void process.stdout.write(text));
  const controller = new AbortController();
  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping after saving the loop state (press Ctrl-C again to quit at once)...\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const script = process.argv[1] ?? '';
  try {
    const state = await startLoop({
      repo,
      ...(config ? { config } : {}),
      resume: options.resume === true,
      restart: options.restart === true,
      ...(resumeChanges ? { resumeChanges } : {}),
      ...(options.approve ? { approve: true } : {}),
      stateDir,
      fixerPrograms: (rulesFile) => fixerPrograms(process.execPath, script, rulesFile),
      compareCommand: compareCommandLine(process.execPath, script),
      researchModel: (spec) => researchModelFromEnv(spec, process.env),
      // A web form trigger is filled in a Chromium started with the extension built beside this script (dist/).
      fillForm: browserFormFiller({ extensionDir: resolve(dirname(script), '..', 'dist') }),
      run: createCommandRunner(),
      emit: (event) => printer.print(event),
      signal: controller.signal,
      log,
    });
    return exitCodeFor(state.outcome);
  } finally {
    printer.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** --describe: the drafted loop file as --config once the user confirmed it, or undefined when it was not started. */
async function withDescribedLoop(options: LoopOptions & { describe: string }): Promise<LoopOptions | undefined> {
  if (options.resume || options.approve || options.status || options.config) {
    throw new UsageError('--describe drafts a new loop from words: it cannot go with --resume, --approve, --status or --config');
  }
  const repo = realpathSync(resolveRepo(options.repo, process.cwd()));
  const file = await describeLoop(options, repo, options.stateDir ?? defaultLoopStateDir(), {
    terminal: { input: process.stdin, output: process.stdout },
    stderr: process.stderr,
    env: process.env,
    now: () => new Date(),
  });
  return file === undefined ? undefined : { ...options, repo, config: file };
}

/** Flags that define a loop (not its limits): --resume keeps the saved definition, so these need --restart. */
const DEFINITION_FLAGS: Array<[keyof LoopOptions, string]> = [
  ['check', '--check'], ['config', '--config'], ['branch', '--branch'], ['remote', '--remote'], ['fixerCommand', '--fixer-command'],
  ['permissionMode', '--permission-mode'], ['allowedTools', '--allowed-tools'], ['disallowedTools', '--disallowed-tools'], ['protect', '--protect'],
  ['allow', '--allow'], ['healthUrl', '--health-url'], ['deployTimeout', '--deploy-timeout'], ['deployWait', '--deploy-wait'], ['expectCommit', '--expect-commit'],
  ['expectText', '--expect-text'], ['startFrom', '--start-from'], ['outputFile', '--output-file'], ['allowCommand', '--allow-command'], ['build', '--build'],
  ['allowTestEdits', '--allow-test-edits'], ['trigger', '--trigger'], ['output', '--output'], ['outputMail', '--output-mail'], ['outputTemplate', '--output-template'],
  ['triggerMethod', '--trigger-method'], ['triggerData', '--trigger-data'], ['triggerJson', '--trigger-json'], ['triggerFile', '--trigger-file'], ['triggerRetry', '--trigger-retry'],
  ['triggerPage', '--trigger-page'], ['triggerField', '--trigger-field'], ['triggerSubmit', '--trigger-submit'], ['triggerConfirm', '--trigger-confirm'],
  ['outputRules', '--output-rules'], ['researchProvider', '--research-provider'], ['researchModel', '--research-model'], ['researchBaseUrl', '--research-base-url'],
];
/** Negated flags (--no-...): commander sets them to true unless given, so only false means the user gave them. */
const NEGATED_DEFINITION_FLAGS: Array<[keyof LoopOptions, string]> = [['outputImages', '--no-output-images'], ['research', '--no-research']];

/** The budgets and fixer limits given with --resume; a flag that would change the loop's definition is refused. */
export function resumeChangesFrom(options: LoopOptions): ResumeChanges {
  const refused = [
    ...DEFINITION_FLAGS.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag),
    ...NEGATED_DEFINITION_FLAGS.filter(([key]) => options[key] === false).map(([, flag]) => flag),
  ];
  if (refused.length > 0) {
    throw new UsageError(`${refused.join(', ')} cannot change a loop on --resume (it keeps its definition); only budgets and fixer limits can (--max-iterations, --max-cost, --max-minutes, --fixer-timeout, --max-turns, --model, --claude-path). Use --restart to start over with new settings`);
  }
  const budgets = {
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
    ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
    ...(options.maxMinutes !== undefined ? { maxWallMinutes: options.maxMinutes } : {}),
  };
  const fixer = {
    ...(options.fixerTimeout !== undefined ? { timeoutSeconds: options.fixerTimeout } : {}),
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.claudePath !== undefined ? { claudePath: options.claudePath } : {}),
    ...(options.claudePrefix !== undefined ? { commandPrefix: options.claudePrefix } : {}),
  };
  return { ...(Object.keys(budgets).length > 0 ? { budgets } : {}), ...(Object.keys(fixer).length > 0 ? { fixer } : {}) };
}

/** The guard hook Claude Code runs before each tool call: the call as JSON on stdin; exit 2 blocks it. */
async function hookAction(options: { rules: string }): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  let rules: HookRulesFile;
  try {
    rules = parseHookRules(JSON.parse(readFileSync(options.rules, 'utf8')));
  } catch (error) {
    // Failing closed: without its rules the guard cannot tell a safe edit from a harmful one.
    process.stderr.write(`Deputy guard: cannot read the rules file ${options.rules} (${error instanceof Error ? error.message : String(error)}), so the tool call is refused.\n`);
    return 2;
  }
  const result = runHook(Buffer.concat(chunks).toString('utf8'), rules);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

/** Adds `deputy loop` and the hidden `deputy loop-hook` and `deputy loop-redact` to the program. */
export function registerLoopCommands(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('loop')
    .description('run a check, fix failures with Claude Code, validate, commit, push, wait for the deploy, repeat')
    .option('--repo <dir>', 'the git checkout to fix (default: the current folder)')
    .option('--describe <words>', 'draft the loop from a description in words with the research model, show it field by field, and start it once you confirm')
    .option('--check <command>', 'the check: a shell command whose exit code says pass (0) or fail')
    .option('--config <file>', 'a loop definition file (default: deputy.loop.json in the repo)')
    .option('--max-iterations <n>', 'stop after this many fixer runs (default 10)', positiveInt)
    .option('--max-cost <usd>', 'stop once the fixer has cost this much in USD (default 20)', positiveNumber)
    .option('--max-minutes <n>', 'stop after this much running time (default 240)', positiveNumber)
    .option('--branch <name>', 'the branch to push (default: the checked-out branch)')
    .option('--remote <name>', 'the remote to push to (default: origin)')
    .option('--claude-path <path>', 'the Claude Code executable (default: claude on PATH)')
    .option('--claude-prefix <words>', 'a command prefix for the fixer, for example "wsl --"', (value: string) => value.split(' ').filter(Boolean))
    .option('--fixer-command <command>', 'use this command as the fixer instead of Claude Code; it gets the prompt on stdin')
    .option('--model <model>', 'Claude Code --model')
    .option('--max-turns <n>', 'Claude Code --max-turns', positiveInt)
    .addOption(new Option('--permission-mode <mode>', 'Claude Code --permission-mode').choices(['default', 'acceptEdits', 'bypassPermissions', 'plan']))
    .option('--allowed-tools <list>', 'Claude Code --allowedTools, comma-separated', list)
    .option('--disallowed-tools <list>', 'Claude Code --disallowedTools, comma-separated', list)
    .option('--fixer-timeout <seconds>', 'kill the fixer after this long (default 600)', positiveNumber)
    .option('--protect <glob>', 'a protected path, besides the defaults (repeatable)', collect)
    .option('--allow <glob>', 'only these paths may change (repeatable)', collect)
    .option('--allow-command <command>', 'a shell command the fixer may run without asking, besides the check and the build (repeatable)', collect)
    .option('--build <command>', 'the build command, which the fixer may run like the check')
    .option('--allow-test-edits', 'let a fix change tests or the check; such a fix waits for --resume --approve before it is pushed')
    .option('--health-url <url>', 'after each push, wait for this URL to answer 2xx')
    .option('--expect-commit', 'with --health-url: only an answer that names the pushed commit counts as deployed')
    .option('--expect-text <text>', 'with --health-url: only an answer that contains this text counts as deployed')
    .option('--deploy-timeout <seconds>', 'how long to wait for the health URL (default 600)', positiveNumber)
    .addOption(new Option('--deploy-wait <seconds>', 'without --health-url: how long to wait after a push (default 30; 0 when the check runs locally)').argParser(nonNegativeNumber))
    .addOption(new Option('--start-from <step>', 'skip earlier steps on the first iteration').choices(['trigger', 'output', 'check']))
    .option('--output-file <path>', 'with --start-from check: an existing output file for the first check')
    .option('--trigger <command-or-url>', "start the service's job each iteration: a shell command, or an http(s) URL to POST to")
    .addOption(new Option('--trigger-method <method>', 'with an http(s) --trigger: the method (default POST)').choices(['GET', 'POST', 'PUT']))
    .option('--trigger-data <name=value>', 'with an http(s) --trigger: a field of a form-encoded body (repeatable)', collect)
    .option('--trigger-json <json>', 'with an http(s) --trigger: a JSON body')
    .option('--trigger-file <name=path>', 'with an http(s) --trigger: a file sent as multipart/form-data with the --trigger-data fields (repeatable)', collect)
    .option('--trigger-retry', 'the trigger is safe to send twice: a POST or form that failed after it was sent is tried again')
    .option('--trigger-page <url>', "start the job through a web form Deputy fills in the browser (the side panel's, or a Chromium it starts)")
    .option('--trigger-field <label=value>', "with --trigger-page: a field as the page labels it, and its value (repeatable; true/false for a checkbox)", collect)
    .option('--trigger-submit <label>', 'with --trigger-page: the button that sends the form (found by itself when there is one)')
    .option('--trigger-confirm <text>', 'with --trigger-page: the text the page shows once the form was accepted')
    .option('--output <glob-or-url>', "where the job's output appears: a folder and file pattern (out/deck-*.pptx), or an http(s) URL to download")
    .option('--output-mail [settings]', "the job mails its output: wait for the mail and take its attachment (mail settings file; default Deputy's mail.json)")
    .option('--output-template <file>', "document mode: judge each output (.pptx, .xlsx, .docx) against this reference template; its findings are the check")
    .option('--output-rules <file>', 'document mode: a rules.json (deputy compare --learn) that tunes or replaces what is learned from the template')
    .option('--no-output-images', "document mode: no page images in each iteration's report")
    .option('--no-research', 'when stuck, stop without asking a model for a root-cause analysis')
    .addOption(new Option('--research-provider <name>', 'the model provider of the research step (key from OPENAI_API_KEY, ANTHROPIC_API_KEY or DEPUTY_API_KEY)').choices(['openai', 'anthropic', 'openai-compatible']))
    .option('--research-model <name>', 'the model of the research step (default gpt-4.1 or claude-sonnet-4-6)')
    .option('--research-base-url <url>', 'the research model server, for an OpenAI-compatible one (Ollama, vLLM, ...)')
    .option('--resume', 'continue the interrupted loop of this repo from its last step (new budgets and fixer limits may be given)')
    .option('--approve', 'with --resume: push the fix that waits for your approval')
    .option('--restart', 'discard an unfinished (or damaged) loop state of this repo and start over')
    .option('--status', "show the saved state of this repo's loop and exit")
    .option('--json', 'print one JSON event per line instead of the status line')
    .option('--state-dir <dir>', 'where loop state and reports are kept (default: the Deputy state folder)')
    .addHelpText(
      'after',
      [
        '',
        'The trigger is a command, an HTTP request (--trigger URL with --trigger-data, --trigger-json or --trigger-file),',
        'or a web form (--trigger-page with --trigger-field and --trigger-confirm). A POST or form is sent again after a',
        'failure only when it never reached the service, unless --trigger-retry. --output-mail waits for the mail with the',
        'output (only mails after the trigger count) and judges its attachment.',
        '',
        'Settings can also live in deputy.loop.json at the root of the repo (flags win): check, trigger, output, document,',
        'research, deploy, logs, startFrom, allowedPaths, protectedPaths, fabricationPatterns, guidanceFile, fixer, budgets,',
        'retries.',
        '',
        'Document mode: with --output-template the check is the job\'s output document compared with the template; each',
        "iteration's findings (critical, high, medium) go to the fixer, and its report.html and findings.json are kept in",
        'the state folder. A hollow output (mostly empty) stops the loop. When the same findings come back, a model',
        '(OPENAI_API_KEY or ANTHROPIC_API_KEY) writes a root-cause analysis for one more fixer run, unless --no-research.',
        'State and the report are kept per repo under the state folder; after a crash or Ctrl-C, run with --resume.',
        '',
        'The fixer runs with --permission-mode acceptEdits: it may edit files, and run the check and the build; other',
        'commands need --allow-command. Tests, test configuration, protected paths and git history are never changed by a',
        'pushed fix. See the README for the details.',
        '',
        '--describe "the results are emailed to me, compare them with the template and fix the backend" asks the research',
        'model (--research-provider, --research-model, --research-base-url; key from the environment) for a loop definition,',
        'checks it like deputy.loop.json, saves it in the state folder and shows it field by field. On a terminal it asks',
        'before starting; otherwise it prints the command that starts it and exits 0. Other flags override the draft.',
        '',
        'Exit codes: 0 the check passes; 1 stuck, needs a human, out of budget or a step failed; 130 stopped; 2 usage.',
        '',
        'Example:',
        '  deputy loop --repo ~/src/service --check "npm test" --max-iterations 5 --health-url https://service.test/health',
        '  deputy loop --repo ~/src/decks --trigger "node build-deck.mjs out" --output "out/deck-*.pptx" --output-template ref.pptx',
        '  deputy loop --repo ~/src/decks --trigger https://decks.example/run --trigger-data client=acme --output-mail --output-template ref.pptx',
      ].join('\n'),
    )
    .action(async (options: LoopOptions) => setExitCode(await loopAction(options)));

  program
    .command('loop-hook', { hidden: true })
    .description('the PreToolUse guard hook Claude Code runs during a fix loop')
    .requiredOption('--rules <file>', 'the loop guard rules file')
    .action(async (options: { rules: string }) => setExitCode(await hookAction(options)));

  program
    .command('loop-redact', { hidden: true })
    .description('the redaction Claude Code runs during a fix loop: "hook" (PostToolUse) or "shell <shell> <command line>"')
    .argument('<mode...>')
    .allowUnknownOption()
    .action(async (words: string[]) => {
      const { loopRedact } = await import('../loop/redact-command');
      setExitCode(
        await loopRedact(words, {
          stdin: () => readFileSync(0, 'utf8'),
          stdout: (text) => void process.stdout.write(text),
          stderr: (text) => void process.stderr.write(text),
          onSignal: (forward) => {
            for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => forward(signal));
          },
        }),
      );
    });
}
