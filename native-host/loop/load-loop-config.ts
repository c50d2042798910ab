import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppError, describeZodError } from '../../shared/errors';
import { outputFromText, triggerFromText } from '../../shared/protocol/loop-locations';
import { LoopConfig } from '../../shared/protocol/loop-protocol';
import { absoluteMailPaths, loadMailSettings, mailSettingsFile, refuseInlinePassword } from '../mail/mail-settings';
import { currentPathEnv, type PathEnv } from '../paths';

export const LOOP_FILE = 'deputy.loop.json';

/** What the CLI's flags can say; each one overrides the same setting in deputy.loop.json. */
export interface LoopFlags {
  repo?: string;
  config?: string;
  check?: string;
  branch?: string;
  remote?: string;
  maxIterations?: number;
  maxCost?: number;
  maxMinutes?: number;
  claudePath?: string;
  claudePrefix?: string[];
  fixerCommand?: string;
  model?: string;
  maxTurns?: number;
  permissionMode?: string;
  allowedTools?: string[];
  disallowedTools?: string[];
  fixerTimeout?: number;
  protect?: string[];
  allow?: string[];
  healthUrl?: string;
  deployTimeout?: number;
  deployWait?: number;
  expectCommit?: boolean;
  expectText?: string;
  allowCommand?: string[];
  build?: string;
  allowTestEdits?: boolean;
  startFrom?: string;
  outputFile?: string;
  /** A command or an http(s) URL that starts the job. */
  trigger?: string;
  /** Where the job's output appears: a folder and file pattern (out/deck-*.pptx), or an http(s) URL. */
  output?: string;
  /** The job mails its output: a mail settings file, or true for Deputy's own (mail.json, DEPUTY_MAIL_CONFIG). */
  outputMail?: string | true;
  /** With an http(s) --trigger: the method, and a form-encoded, JSON or multipart body. */
  triggerMethod?: string;
  triggerData?: string[];
  triggerJson?: string;
  triggerFile?: string[];
  /** Sending the trigger twice is harmless, so a failed attempt may be repeated (idempotent). */
  triggerRetry?: boolean;
  /** A web form Deputy fills in the browser to start the job, its fields ("Label=value"), button and confirmation. */
  triggerPage?: string;
  triggerField?: string[];
  triggerSubmit?: string;
  triggerConfirm?: string;
  outputTemplate?: string;
  outputRules?: string;
  /** false: no page images in the iteration reports (commander's --no-output-images). */
  outputImages?: boolean;
  /** false: no research step when stuck (--no-research). */
  research?: boolean;
  researchProvider?: string;
  researchModel?: string;
  researchBaseUrl?: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function setIn(target: Json, path: string[], value: unknown): void {
  if (value === undefined) return;
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Json;
  }
  node[path[path.length - 1] ?? ''] = value;
}

/** Reads the loop file of the repo (or the one named by --config), a clear error if it is not valid JSON. */
function readLoopFile(path: string): Json {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new AppError('not_found', `Cannot read the loop file ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}): check the path given to --config`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError('bad_request', `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}): fix the file, or pass the settings as flags`);
  }
  if (!isObject(json)) throw new AppError('bad_request', `${path} must hold one JSON object, like {"check": "npm test"}`);
  return json;
}

/** Builds the loop definition from deputy.loop.json and the flags, and validates it with messages that say what to fix. */
export function loadLoopConfig(flags: LoopFlags, cwd: string): LoopConfig {
  const repo = resolveRepo(flags.repo, cwd);
  const filePath = flags.config ? resolve(cwd, flags.config) : join(repo, LOOP_FILE);
  const raw: Json = flags.config || existsSync(filePath) ? readLoopFile(filePath) : {};
  raw.repo = repo;
  setIn(raw, ['check'], flags.check !== undefined ? (isObject(raw.check) ? { ...raw.check, command: flags.check } : flags.check) : undefined);
  setIn(raw, ['branch'], flags.branch);
  setIn(raw, ['remote'], flags.remote);
  setIn(raw, ['budgets', 'maxIterations'], flags.maxIterations);
  setIn(raw, ['budgets', 'maxCostUsd'], flags.maxCost);
  setIn(raw, ['budgets', 'maxWallMinutes'], flags.maxMinutes);
  setIn(raw, ['fixer', 'claudePath'], flags.claudePath);
  setIn(raw, ['fixer', 'commandPrefix'], flags.claudePrefix);
  if (flags.fixerCommand !== undefined) {
    setIn(raw, ['fixer', 'kind'], 'command');
    setIn(raw, ['fixer', 'command'], flags.fixerCommand);
  }
  setIn(raw, ['fixer', 'model'], flags.model);
  setIn(raw, ['fixer', 'maxTurns'], flags.maxTurns);
  setIn(raw, ['fixer', 'permissionMode'], flags.permissionMode);
  setIn(raw, ['fixer', 'allowedTools'], flags.allowedTools);
  setIn(raw, ['fixer', 'disallowedTools'], flags.disallowedTools);
  setIn(raw, ['fixer', 'timeoutSeconds'], flags.fixerTimeout);
  if (flags.protect?.length) raw.protectedPaths = [...((raw.protectedPaths as string[] | undefined) ?? []), ...flags.protect];
  if (flags.allow?.length) raw.allowedPaths = flags.allow;
  setIn(raw, ['deploy', 'healthUrl'], flags.healthUrl);
  setIn(raw, ['deploy', 'timeoutSeconds'], flags.deployTimeout);
  setIn(raw, ['deploy', 'waitSeconds'], flags.deployWait);
  setIn(raw, ['deploy', 'expectCommit'], flags.expectCommit);
  setIn(raw, ['deploy', 'expectText'], flags.expectText);
  if (flags.allowCommand?.length) setIn(raw, ['fixer', 'allowCommands'], [...(isObject(raw.fixer) && Array.isArray(raw.fixer.allowCommands) ? (raw.fixer.allowCommands as string[]) : []), ...flags.allowCommand]);
  setIn(raw, ['build'], flags.build);
  setIn(raw, ['allowTestEdits'], flags.allowTestEdits);
  setIn(raw, ['startFrom'], flags.startFrom);
  setIn(raw, ['outputFile'], flags.outputFile);
  applyTriggerFlags(raw, flags, cwd);
  if (flags.output !== undefined && flags.outputMail !== undefined) {
    throw new AppError('bad_request', '--output and --output-mail name two places for the same output: give one (--output-mail when the job mails it)');
  }
  if (flags.output !== undefined) raw.output = outputFromText(flags.output);
  if (flags.outputMail !== undefined) raw.output = { mail: flags.outputMail === true ? true : resolve(cwd, flags.outputMail) };
  setIn(raw, ['document', 'template'], flags.outputTemplate);
  setIn(raw, ['document', 'rules'], flags.outputRules);
  if (flags.outputImages === false) setIn(raw, ['document', 'images'], false);
  if (flags.research === false) setIn(raw, ['research', 'enabled'], false);
  setIn(raw, ['research', 'provider'], flags.researchProvider);
  setIn(raw, ['research', 'model'], flags.researchModel);
  setIn(raw, ['research', 'baseUrl'], flags.researchBaseUrl);
  if (raw.check === undefined && raw.document === undefined) {
    throw new AppError(
      'bad_request',
      `No check: pass --check "npm test" (any command whose exit code says pass or fail), or --output-template ref.pptx to judge the job's output document against a template, or add "check" or "document" to ${join(repo, LOOP_FILE)}`,
    );
  }
  return parseLoopConfig(raw, existsSync(filePath) ? filePath : 'the flags', { baseDir: existsSync(filePath) ? dirname(filePath) : repo });
}

/** "name=value" as the flags write fields; the value may itself hold "=". */
function pairs(values: string[] | undefined, flag: string): Array<[string, string]> {
  return (values ?? []).map((pair) => {
    const cut = pair.indexOf('=');
    if (cut <= 0) throw new AppError('bad_request', `${flag} takes name=value, like ${flag} "email=reports@example.com"; got "${pair}"`);
    return [pair.slice(0, cut), pair.slice(cut + 1)];
  });
}

/** Repeated names become a list (several checkboxes of one name, a multiple select). */
function grouped(entries: Array<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of entries) {
    const before = out[name];
    out[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return out;
}

/** The trigger from --trigger (a command or a URL) or --trigger-page (a web form), with the flags that shape it. */
function applyTriggerFlags(raw: Json, flags: LoopFlags, cwd: string): void {
  if (flags.trigger !== undefined && flags.triggerPage !== undefined) {
    throw new AppError('bad_request', '--trigger and --trigger-page are two ways to start the job: give one');
  }
  if (flags.trigger !== undefined) raw.trigger = triggerFromText(flags.trigger);
  if (flags.triggerPage !== undefined) raw.trigger = { page: flags.triggerPage };
  const trigger = isObject(raw.trigger) ? raw.trigger : undefined;
  const httpFlags = [flags.triggerMethod, flags.triggerData?.length, flags.triggerJson, flags.triggerFile?.length].some((value) => value !== undefined && value !== 0);
  const pageFlags = [flags.triggerField?.length, flags.triggerSubmit, flags.triggerConfirm].some((value) => value !== undefined && value !== 0);
  if (httpFlags && !(trigger && 'url' in trigger)) {
    throw new AppError('bad_request', '--trigger-method, --trigger-data, --trigger-json and --trigger-file shape an HTTP request: give the URL with --trigger https://...');
  }
  if (pageFlags && !(trigger && 'page' in trigger)) {
    throw new AppError('bad_request', '--trigger-field, --trigger-submit and --trigger-confirm describe a web form: give its page with --trigger-page https://...');
  }
  if (flags.triggerRetry && !(trigger && ('url' in trigger || 'page' in trigger))) {
    throw new AppError('bad_request', '--trigger-retry marks an HTTP request or a web form as safe to send twice: give one with --trigger URL or --trigger-page URL');
  }
  if (!trigger) return;
  setIn(trigger, ['method'], flags.triggerMethod?.toUpperCase());
  if (flags.triggerJson !== undefined) {
    try {
      trigger.json = JSON.parse(flags.triggerJson);
    } catch (error) {
      throw new AppError('bad_request', `--trigger-json is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const data = pairs(flags.triggerData, '--trigger-data');
  const files = pairs(flags.triggerFile, '--trigger-file');
  if (files.length > 0) trigger.multipart = { ...grouped(data), ...Object.fromEntries(files.map(([name, path]) => [name, { file: resolve(cwd, path) }])) };
  else if (data.length > 0) trigger.form = grouped(data);
  if (flags.triggerRetry) trigger.idempotent = true;
  const fields = pairs(flags.triggerField, '--trigger-field');
  if (fields.length > 0) trigger.fields = { ...(isObject(trigger.fields) ? trigger.fields : {}), ...grouped(fields) };
  setIn(trigger, ['submit'], flags.triggerSubmit);
  setIn(trigger, ['confirm'], flags.triggerConfirm);
  if (flags.triggerPage !== undefined && trigger.confirm === undefined) {
    throw new AppError('bad_request', '--trigger-page needs --trigger-confirm: the text the page shows once the form was accepted (like "Thank you"), so a form the service refused is not taken for a started job');
  }
}

/**
 * The output mailbox as the loop keeps it: settings named by a file ("mail": "mail.json") or Deputy's own ("mail":
 * true) are read in, and every file the settings name is made absolute, so the saved definition works from anywhere.
 */
function resolveOutputMail(raw: Json, baseDir: string, pathEnv: PathEnv): void {
  const output = raw.output;
  if (!isObject(output) || !('mail' in output)) return;
  const mail = output.mail;
  if (mail === true || typeof mail === 'string') {
    const { file } = mailSettingsFile(pathEnv, mail === true ? undefined : resolve(baseDir, mail));
    raw.output = { ...output, mail: absoluteMailPaths(loadMailSettings(file).config, dirname(file)) };
    return;
  }
  refuseInlinePassword(mail, 'The output mailbox in the loop definition');
  raw.output = { ...output, mail: absoluteMailPaths(mail, baseDir) };
}

/** The repository folder from --repo (default: the current folder), which must exist. */
export function resolveRepo(flag: string | undefined, cwd: string): string {
  const repo = resolve(cwd, flag ?? '.');
  if (!existsSync(repo) || !statSync(repo).isDirectory()) {
    throw new AppError('not_found', `The repository folder ${repo} does not exist: pass --repo with the path of a git checkout`);
  }
  return repo;
}

/**
 * Validates a loop definition from any source (file, flags, the side panel). An output mailbox named by its settings file
 * is read in; relative paths in mailbox settings are relative to `baseDir` (the loop file's folder, else the repo).
 */
export function parseLoopConfig(raw: unknown, source: string, options: { baseDir?: string; pathEnv?: PathEnv } = {}): LoopConfig {
  if (isObject(raw)) {
    const copy = { ...raw };
    resolveOutputMail(copy, options.baseDir ?? (typeof raw.repo === 'string' ? raw.repo : process.cwd()), options.pathEnv ?? currentPathEnv());
    raw = copy;
  }
  const parsed = LoopConfig.safeParse(raw);
  if (!parsed.success) throw new AppError('bad_request', `The loop definition in ${source} is invalid: ${describeZodError(parsed.error)}`);
  if (parsed.data.fixer.kind === 'command' && !parsed.data.fixer.command) {
    throw new AppError('bad_request', `The loop definition in ${source} has fixer kind "command" without fixer.command: set the command that receives the prompt on stdin`);
  }
  return parsed.data;
}
