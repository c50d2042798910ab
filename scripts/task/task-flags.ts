import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { ProviderSettings } from '../../shared/agent/providers/create-provider';
import { hostRulesFromEnv } from '../lib/host-rules';
import { type AttachedFile, collectFile } from './attached-file';
import { EXIT_CODES_HELP } from './exit-codes';

export interface TaskOptions {
  /** The page to open first; without it the task starts on a blank tab and the model opens what it needs. */
  url: string | undefined;
  task: string;
  flow: 'task' | 'chat';
  /** For a chat: the facts Deputy may share with support (`--fact order_number=1234`). */
  facts: Record<string, string>;
  /** Files the task may upload (`--file PATH`, repeatable): only these, by name. */
  files: AttachedFile[];
  mode: 'ask' | 'act';
  approve: 'all' | 'none' | 'ask';
  provider: ProviderSettings;
  steps: number | undefined;
  /** --max-cost: dollars per task; undefined: none. */
  maxCost?: number | undefined;
  screenshots: boolean;
  /** How pages after an action reach the model: whole (the default), or what changed since the last full page. */
  pageView?: 'full' | 'diff';
  headful: boolean;
  runsDir: string;
  /** A browser profile folder to use and keep (its logins, cookies and Deputy's own settings); a fresh one by default. */
  profile: string | undefined;
  /** The browser executable; CHROME_PATH or the usual install paths by default. */
  browser: string | undefined;
  /** One JSON event per line on stdout instead of text. */
  json: boolean;
  /** Test-only name mapping (DEPUTY_HOST_RULES), applied to the browser and to the model-server check alike. */
  hostRules: string | undefined;
  /** --save-routine NAME: once the task has ended, save it as a routine file in `routinesDir`. */
  saveRoutine?: string | undefined;
  /** --routine FILE: replay this routine file instead of a task in words (the model only for a step that no longer fits). */
  routine?: string | undefined;
  /** --param name=value for the routine's parameters (repeatable). */
  params?: Record<string, string>;
  /** --update-routine: write the steps the model repaired back into the --routine file. */
  updateRoutine?: boolean;
  routinesDir?: string;
}

/** A mistake in the command line (exit 2), or help shown on request (exit 0, nothing more to say). */
export class TaskUsageError extends Error {
  override readonly name = 'TaskUsageError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

const DEFAULT_MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5' } as const;

/**
 * Turns `npm run task` flags and the environment into a run: which page, which task, which model and key. The key
 * comes only from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY or DEPUTY_API_KEY), never from a flag, so it
 * does not end up in shell history.
 */
export function parseTaskFlags(argv: string[], env: NodeJS.ProcessEnv): TaskOptions {
  const program = new Command('npm run task --')
    .description('Run one Deputy task in Chromium with the built extension, streaming each step.')
    .argument('[task...]', 'what to do, in words (not with --routine)')
    .option('--save-routine <name>', 'after the task, save its steps as a routine file (in --routines-dir)')
    .option('--routine <file>', 'replay a routine file without the model (it is asked only for a step that no longer fits)')
    .option('--param <name=value>', 'with --routine: a value for one of its parameters (repeatable)', collectParam, {})
    .option('--update-routine', 'with --routine: write the steps the model repaired back into the file')
    .option('--routines-dir <dir>', 'where --save-routine writes', 'routines')
    .option('--url <url>', 'the page to start on (default: a blank tab; the model opens what it needs)', parseUrl)
    .option('--chat', "hold the page's support chat to reach the goal (a chat case)")
    .option('--fact <name=value>', 'with --chat: a fact Deputy may tell support, e.g. order_number=1234 (repeatable)', collectFact, {})
    .option('--file <path>', 'a file the task may upload, by its name (repeatable); no other file can be uploaded', collectFile, [])
    .addOption(new Option('--provider <name>', 'model provider').choices(['openai', 'anthropic', 'openai-compatible']))
    .option('--base-url <url>', 'address of an OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenRouter, ...)', parseUrl)
    .option('--model <name>', 'model name')
    .addOption(new Option('--api <api>', "OpenAI and compatible servers: chat completions, or OpenAI's Responses API").choices(['chat', 'responses']))
    .option('--json-tools', 'for models without tool calling: tools described in the prompt, calls read from JSON in the reply')
    .addOption(new Option('--reasoning-effort <level>', 'how hard a reasoning model thinks (OpenAI reasoning effort, Anthropic effort)').choices(['low', 'medium', 'high']))
    .addOption(new Option('--mode <mode>', 'ask before acting, or act without asking (risky steps still stop)').choices(['ask', 'act']).default('act'))
    .addOption(new Option('--approve <which>', 'answer approvals automatically').choices(['all', 'none']))
    .option('--steps <n>', 'step budget', parsePositive)
    .option('--max-cost <dollars>', 'stop the task when it has spent this much on the model (state saved)', parseDollars)
    .option('--screenshots', 'send a screenshot with each page (for models that accept images)')
    .addOption(new Option('--page-view <view>', 'after an action send what changed since a whole page shown before (fewer tokens), or the whole page').choices(['full', 'diff']).default('diff'))
    .option('--headful', 'show the browser window')
    .option('--profile <dir>', 'use this browser profile and keep it: its logins work (never the profile of a running browser)')
    .option('--browser <path>', 'the browser to run: Chrome, Chromium, Brave or Edge (default: CHROME_PATH, then the usual paths)')
    .option('--json', 'print one JSON event per line instead of text')
    .option('--runs-dir <dir>', 'where to write the trace and the screenshots', 'runs')
    .addHelpText('after', `\n${EXIT_CODES_HELP}`);
  parseCommandLine(program, argv);
  if (!program.opts<{ chat?: boolean }>().chat && Object.keys(program.opts<{ fact: Record<string, string> }>().fact).length > 0) {
    throw new TaskUsageError('--fact is for chat cases: add --chat, or leave the facts out.');
  }
  if (program.opts<{ chat?: boolean }>().chat && program.opts<{ url?: string }>().url === undefined) {
    throw new TaskUsageError('--chat needs --url: the page whose support chat Deputy should use.');
  }
  const routineFlags = program.opts<{ saveRoutine?: string; routine?: string; param: Record<string, string>; updateRoutine?: boolean; routinesDir: string }>();
  if (routineFlags.routine === undefined && program.args.length === 0) throw new TaskUsageError('Say what to do (the task in words), or give --routine FILE to replay a routine.');
  if (routineFlags.routine !== undefined && program.args.length > 0) throw new TaskUsageError('--routine replays its own steps: leave out the task words.');
  if (routineFlags.routine === undefined && (Object.keys(routineFlags.param).length > 0 || routineFlags.updateRoutine)) {
    throw new TaskUsageError('--param and --update-routine are for --routine FILE.');
  }
  const flags = program.opts<{
    url?: string;
    chat?: boolean;
    fact: Record<string, string>;
    file: AttachedFile[];
    provider?: 'openai' | 'anthropic' | 'openai-compatible';
    baseUrl?: string;
    model?: string;
    api?: 'chat' | 'responses';
    jsonTools?: boolean;
    reasoningEffort?: 'low' | 'medium' | 'high';
    mode: 'ask' | 'act';
    approve?: 'all' | 'none';
    steps?: number;
    maxCost?: number;
    screenshots?: boolean;
    pageView: 'full' | 'diff';
    headful?: boolean;
    runsDir: string;
    profile?: string;
    browser?: string;
    json?: boolean;
  }>();
  let hostRules: string | undefined;
  try {
    hostRules = hostRulesFromEnv(env);
  } catch (error) {
    throw new TaskUsageError(error instanceof Error ? error.message : String(error));
  }
  return {
    url: flags.url,
    task: program.args.join(' '),
    flow: flags.chat ? 'chat' : 'task',
    facts: flags.fact,
    files: flags.file,
    mode: flags.mode,
    approve: flags.approve ?? 'ask',
    provider: withProviderOptions(providerFrom(flags, env), flags),
    steps: flags.steps,
    maxCost: flags.maxCost,
    screenshots: flags.screenshots ?? false,
    pageView: flags.pageView,
    headful: flags.headful ?? false,
    runsDir: flags.runsDir,
    profile: flags.profile,
    browser: flags.browser,
    json: flags.json ?? false,
    hostRules,
    saveRoutine: routineFlags.saveRoutine,
    routine: routineFlags.routine,
    params: routineFlags.param,
    updateRoutine: routineFlags.updateRoutine ?? false,
    routinesDir: routineFlags.routinesDir,
  };
}

/**
 * Parses a command line, printing help on stdout; a mistake becomes a TaskUsageError (exit 2) with commander's words,
 * and --help (or a bare `help`) a success with nothing more to say.
 */
export function parseCommandLine(program: Command, argv: string[]): void {
  program.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: (text) => process.stdout.write(text) });
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) throw new TaskUsageError('', 0);
    throw new TaskUsageError(error instanceof Error ? error.message.replace(/^error: /, '') : String(error));
  }
}

/** The provider options beyond the model: which OpenAI API, JSON tool calls, images, reasoning effort. */
function withProviderOptions(
  provider: ProviderSettings,
  flags: { api?: 'chat' | 'responses'; jsonTools?: boolean; reasoningEffort?: 'low' | 'medium' | 'high'; screenshots?: boolean },
): ProviderSettings {
  if (flags.api !== undefined && provider.preset === 'anthropic') {
    throw new TaskUsageError('--api chooses between OpenAI APIs; Anthropic models always use the Messages API: leave --api out.');
  }
  return {
    ...provider,
    ...(flags.api ? { openaiApi: flags.api } : {}),
    ...(flags.jsonTools ? { toolCalling: 'json' as const } : {}),
    ...(flags.reasoningEffort ? { reasoningEffort: flags.reasoningEffort } : {}),
    ...(flags.screenshots ? { vision: true } : {}),
  };
}

function providerFrom(
  flags: { provider?: 'openai' | 'anthropic' | 'openai-compatible'; baseUrl?: string; model?: string },
  env: NodeJS.ProcessEnv,
): ProviderSettings {
  const kind = flags.provider ?? (flags.baseUrl ? 'openai-compatible' : env.ANTHROPIC_API_KEY && !env.OPENAI_API_KEY ? 'anthropic' : 'openai');
  if (kind === 'openai-compatible') {
    if (!flags.baseUrl) throw new TaskUsageError('--provider openai-compatible needs --base-url (for Ollama: --base-url http://localhost:11434/v1)');
    if (!flags.model) throw new TaskUsageError('--provider openai-compatible needs --model (the name your server knows the model by)');
    // The key for an OpenAI-compatible server: DEPUTY_API_KEY when set, else OPENAI_API_KEY, as the OpenAI SDK and
    // most tools read it with a base URL (OpenRouter, vLLM, LiteLLM take their key there). A local server ignores it.
    const apiKey = env.DEPUTY_API_KEY ?? env.OPENAI_API_KEY;
    return { preset: 'custom', baseUrl: flags.baseUrl, model: flags.model, ...(apiKey ? { apiKey } : {}) };
  }
  const apiKey = kind === 'openai' ? (env.OPENAI_API_KEY ?? env.DEPUTY_API_KEY) : (env.ANTHROPIC_API_KEY ?? env.DEPUTY_API_KEY);
  if (!apiKey) {
    const variable = kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
    throw new TaskUsageError(
      `No API key for ${kind}: set ${variable} (or DEPUTY_API_KEY), or use a local model server with --base-url http://localhost:11434/v1 --model NAME.`,
    );
  }
  return { preset: kind, model: flags.model ?? DEFAULT_MODELS[kind], apiKey, ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}) };
}

function parseDollars(value: string): number {
  const n = Number(value.replace(/^\$/, ''));
  if (!Number.isFinite(n) || n <= 0 || n > 1000) throw new TaskUsageError(`--max-cost takes dollars between 0 and 1000 (for example --max-cost 0.50), not "${value}"`);
  return n;
}

function parseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url.toString();
  } catch {
    throw new InvalidArgumentError(`"${value}" is not an http(s) URL.`);
  }
}

const FACT_NAME = /^[a-z][a-z0-9_]{0,63}$/;

function collectFact(value: string, facts: Record<string, string>): Record<string, string> {
  const at = value.indexOf('=');
  const name = at < 0 ? '' : value.slice(0, at).trim().toLowerCase().replace(/[\s-]+/g, '_');
  const fact = at < 0 ? '' : value.slice(at + 1).trim();
  if (!FACT_NAME.test(name) || fact === '') {
    throw new InvalidArgumentError(`"${value}" is not name=value: write e.g. --fact order_number=1234 or --fact "name=Jane Doe".`);
  }
  return { ...facts, [name]: fact };
}

function collectParam(value: string, params: Record<string, string>): Record<string, string> {
  const at = value.indexOf('=');
  const name = at < 0 ? '' : value.slice(0, at).trim();
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(name)) throw new InvalidArgumentError(`"${value}" is not name=value: write e.g. --param item="blue mug" --param date=2026-12-01.`);
  return { ...params, [name]: value.slice(at + 1) };
}

function parsePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of 1 or more.');
  return n;
}
