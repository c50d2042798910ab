import { z } from 'zod';
import { outputFromText, triggerFromText } from '../../shared/protocol/loop-locations';
import type { LoopConfigInput, LoopSnapshot } from '../../shared/protocol/loop-protocol';

/**
 * The side panel's fix-loop form: the fields as typed (strings), remembered between sessions, and turned into the
 * loop definition `loop.start` takes. The host validates the definition again and its errors land on the field they
 * name.
 */
const text = z.string().catch('');
export const LoopForm = z.object({
  repo: text,
  check: text,
  branch: text,
  maxIterations: text,
  maxCostUsd: text,
  maxMinutes: text,
  protectedPaths: text,
  healthUrl: text,
  claudePath: text,
  /** Document mode: how the job is started, where its output appears, and what it is judged against. */
  trigger: text,
  /** "name=value" per line: a POST's form fields, or the page's fields by label when the form is filled in the browser. */
  triggerFields: text,
  /** The trigger's URL is a page whose form Deputy fills in the browser. */
  triggerPage: z.boolean().catch(false),
  triggerSubmit: text,
  triggerConfirm: text,
  /** Sending the trigger twice is harmless, so a failed attempt may be repeated. */
  triggerRetry: z.boolean().catch(false),
  output: text,
  /** The job mails its output: a mail settings file, or "default" for Deputy's own mail.json. */
  outputMail: text,
  outputTemplate: text,
  outputRules: text,
  /** Research when stuck, with the model chosen in Settings. */
  research: z.boolean().catch(true),
});
export type LoopForm = z.infer<typeof LoopForm>;
export type LoopField = keyof LoopForm;
/** The switches; every other field is typed as text. */
export type LoopSwitch = 'research' | 'triggerPage' | 'triggerRetry';
export type LoopTextField = Exclude<LoopField, LoopSwitch>;
export type LoopFormErrors = Partial<Record<LoopField | 'form', string>>;

export const EMPTY_LOOP_FORM: LoopForm = LoopForm.parse({});

/** Where the last definition is kept, in chrome.storage.local. */
export const LOOP_FORM_KEY = 'loopForm';

/**
 * What the form sends with loop.start: a definition, except that the output mailbox may be named by its settings file
 * (or `true` for Deputy's own), which the host reads in.
 */
export type LoopStartConfig = Omit<LoopConfigInput, 'output'> & { output?: LoopConfigInput['output'] | { mail: true | string } };

type Result = { ok: true; config: LoopStartConfig } | { ok: false; errors: LoopFormErrors };

const lines = (value: string): string[] =>
  value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

function numberField(value: string, whole: boolean): number | undefined | 'bad' {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const parsed = Number(trimmed);
  if (!Number.isFinite(parsed) || parsed <= 0 || (whole && !Number.isInteger(parsed))) return 'bad';
  return parsed;
}

/** "name=value" lines; a line without "=" is said as an error on the field. */
function fieldLines(text: string): Array<[string, string]> | undefined {
  const pairs: Array<[string, string]> = [];
  for (const line of lines(text)) {
    const cut = line.indexOf('=');
    if (cut <= 0) return undefined;
    pairs.push([line.slice(0, cut).trim(), line.slice(cut + 1).trim()]);
  }
  return pairs;
}

/**
 * The trigger: a command, a POST of the fields (form-encoded) to a URL, or the page's form filled in the browser with
 * the fields by label, its button and the confirmation the page shows.
 */
function triggerFromForm(form: LoopForm, errors: LoopFormErrors): LoopConfigInput['trigger'] | undefined {
  const text = form.trigger.trim();
  const pairs = fieldLines(form.triggerFields);
  if (!pairs) errors.triggerFields = 'Write one field per line as name=value, e.g. client=acme.';
  const fields = Object.fromEntries(pairs ?? []);
  const hasFields = (pairs?.length ?? 0) > 0;
  const isUrl = /^https?:\/\/\S+$/i.test(text);
  const retry = form.triggerRetry ? { idempotent: true } : {};
  if (form.triggerPage) {
    if (!isUrl) errors.trigger = 'Enter the address of the page with the form, e.g. https://reports.example.com/request.';
    const confirm = form.triggerConfirm.trim();
    if (!confirm) errors.triggerConfirm = 'Enter a text the page shows once the form was accepted, e.g. Thank you.';
    const submit = form.triggerSubmit.trim();
    return { page: text, fields, confirm, ...(submit ? { submit } : {}), ...retry };
  }
  if (!text) {
    if (hasFields) errors.triggerFields = 'Fields go with a trigger URL (a POST) or a page whose form is filled in the browser.';
    return undefined;
  }
  if (!isUrl) {
    if (hasFields) errors.triggerFields = 'A command trigger takes no fields: put its arguments into the command.';
    return triggerFromText(text);
  }
  return { url: text, ...(hasFields ? { form: fields } : {}), ...retry };
}

/** The loop definition from the form, or a message per field that needs fixing first. */
export function configFromForm(form: LoopForm): Result {
  const errors: LoopFormErrors = {};
  const repo = form.repo.trim();
  const check = form.check.trim();
  const template = form.outputTemplate.trim();
  const rules = form.outputRules.trim();
  const output = form.output.trim();
  const outputMail = form.outputMail.trim();
  const documentMode = template !== '' || rules !== '';
  if (!repo) errors.repo = 'Enter the folder of the git checkout to fix, e.g. /home/me/my-service.';
  if (!check && !documentMode) errors.check = 'Enter the command that checks the service, e.g. npm test (exit code 0 means it passes), or an output template below.';
  if (output && outputMail) errors.outputMail = 'The output comes either from a folder or URL (Output) or by mail: clear one of the two.';
  else if (documentMode && !output && !outputMail) errors.output = "Enter where the job's output document appears: a folder and file pattern like /srv/reports/deck-*.pptx, or an http(s) URL; or the mail settings below when it is mailed.";
  else if (output && !/^https?:\/\//i.test(output) && /[\\/]$/.test(output)) errors.output = 'End the output with a file name pattern, e.g. /srv/reports/deck-*.pptx.';
  const job = triggerFromForm(form, errors);
  const maxIterations = numberField(form.maxIterations, true);
  const maxCostUsd = numberField(form.maxCostUsd, false);
  const maxWallMinutes = numberField(form.maxMinutes, false);
  if (maxIterations === 'bad') errors.maxIterations = 'Max iterations is a whole number of 1 or more, or empty for 10.';
  if (maxCostUsd === 'bad') errors.maxCostUsd = 'The cost budget is an amount in dollars above 0, e.g. 5 or 2.50, or empty for $20.';
  if (maxWallMinutes === 'bad') errors.maxMinutes = 'The time budget is a number of minutes above 0, or empty for 240.';
  const healthUrl = form.healthUrl.trim();
  if (healthUrl && !/^https?:\/\/\S+$/.test(healthUrl)) errors.healthUrl = 'The health URL starts with http:// or https://, e.g. https://my-service.example/health.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const budgets = {
    ...(typeof maxIterations === 'number' ? { maxIterations } : {}),
    ...(typeof maxCostUsd === 'number' ? { maxCostUsd } : {}),
    ...(typeof maxWallMinutes === 'number' ? { maxWallMinutes } : {}),
  };
  const protectedPaths = lines(form.protectedPaths);
  const branch = form.branch.trim();
  const claudePath = form.claudePath.trim();
  const config: LoopStartConfig = {
    repo,
    ...(check ? { check } : {}),
    ...(job ? { trigger: job } : {}),
    ...(output ? { output: outputFromText(output) } : {}),
    ...(outputMail ? { output: { mail: outputMail === 'default' ? (true as const) : outputMail } } : {}),
    ...(documentMode ? { document: { ...(template ? { template } : {}), ...(rules ? { rules } : {}) } } : {}),
    ...(form.research ? {} : { research: { enabled: false } }),
    ...(branch ? { branch } : {}),
    ...(Object.keys(budgets).length > 0 ? { budgets } : {}),
    ...(protectedPaths.length > 0 ? { protectedPaths } : {}),
    ...(healthUrl ? { deploy: { healthUrl } } : {}),
    ...(claudePath ? { fixer: { claudePath } } : {}),
  };
  return { ok: true, config };
}

/** Which field a definition path of the host's validation names ("budgets.maxIterations: ..."). */
const PATH_FIELDS: [RegExp, LoopField][] = [
  [/\bbudgets\.maxIterations\b/, 'maxIterations'],
  [/\bbudgets\.maxCostUsd\b/, 'maxCostUsd'],
  [/\bbudgets\.maxWallMinutes\b/, 'maxMinutes'],
  [/\bdeploy\b/, 'healthUrl'],
  [/\bprotectedPaths\b/, 'protectedPaths'],
  [/\bdocument\.rules\b/, 'outputRules'],
  [/\bdocument\b/, 'outputTemplate'],
  [/\boutput\.mail\b/, 'outputMail'],
  [/\boutput\b/, 'output'],
  [/\btrigger\.confirm\b/, 'triggerConfirm'],
  [/\btrigger\.submit\b/, 'triggerSubmit'],
  [/\btrigger\.(fields|form)\b/, 'triggerFields'],
  [/\btrigger\b/, 'trigger'],
  [/\bbranch\b/, 'branch'],
  [/\bcheck\b/, 'check'],
  [/\bfixer\b/, 'claudePath'],
  [/\brepo\b/, 'repo'],
];

/** The host's own sentences for a bad field, as loop.start answers them. */
const MESSAGE_FIELDS: [RegExp, LoopField][] = [
  [/The repository folder .* does not exist|is not a git repository|needs config\.repo|has uncommitted changes|has no remote/, 'repo'],
  [/is on branch .* but the loop is set to push/, 'branch'],
  [/Could not start the Claude Code CLI|Claude Code CLI/, 'claudePath'],
  [/deploy health URL/, 'healthUrl'],
  [/^The output template /, 'outputTemplate'],
  [/^The output rules /, 'outputRules'],
  [/^The mail settings|output mailbox/, 'outputMail'],
];

/**
 * Puts the host's error next to the field it is about; anything else stays a message for the whole form. The host's
 * sentence is kept as it is: it already says what to do.
 */
export function errorsFromHost(message: string): LoopFormErrors {
  const invalid = /The loop definition in .* is invalid: (.*)$/s.exec(message);
  if (invalid) {
    const detail = invalid[1] ?? '';
    const field = PATH_FIELDS.find(([pattern]) => pattern.test(detail.split(':')[0] ?? ''))?.[1];
    return field ? { [field]: message } : { form: message };
  }
  const field = MESSAGE_FIELDS.find(([pattern]) => pattern.test(message))?.[1];
  return field ? { [field]: message } : { form: message };
}

/** True when the host refused a new loop because an unfinished one for the same repo can be resumed. */
export function offersResume(message: string): boolean {
  return /An unfinished loop exists for /.test(message);
}

/** The saved loop of this repository that the host could resume: stopped, failed, or cut off by a crash. */
export function resumableLoop(loops: readonly LoopSnapshot[], repo: string): LoopSnapshot | undefined {
  const wanted = repo.trim().replace(/\/+$/, '');
  if (!wanted) return undefined;
  return loops.find(
    (loop) => !loop.running && loop.repo.replace(/\/+$/, '') === wanted && (loop.outcome === undefined || loop.outcome === 'stopped' || loop.outcome === 'failed'),
  );
}
