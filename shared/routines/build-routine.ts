import { parseWebAddress } from '../agent/web-address';
import type { StepRecord } from '../agent/agent-state';
import { AppError } from '../errors';
import type { ParamKind, Routine, RoutineParam, RoutineStep, TargetIdentity } from './routine';
import { identityOf } from './target-identity';

/** Tools whose finished calls are a routine's steps: those that act. Reading, waiting and planning are not kept. */
export const REPLAYABLE_TOOLS = new Set(['click', 'type', 'select', 'check', 'hover', 'press', 'scroll', 'navigate', 'back', 'set_value', 'dialog']);

/** Arguments that hold the user's values (what may become a parameter). */
const VALUE_ARGS = ['text', 'value', 'values'];

const SECRET = /^\{\{\s*(redacted_[a-z0-9_]+)\s*\}\}$/;
const ANY_PLACEHOLDER = /\{\{\s*[a-z][a-z0-9_]*\s*\}\}/;

export interface BuildInput {
  name: string;
  /** The task as stored: already redacted (secrets are placeholders in it). */
  task: string;
  startUrl: string;
  steps: StepRecord[];
  /** The identity of each call's element, by call id, recorded when the call was made. */
  targets: Record<string, TargetIdentity>;
  now: number;
}

/** What kind of value a parameter is, from the value the user gave. */
export function kindOf(value: string): ParamKind {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) || /^\d{1,2}\/\d{1,2}\/\d{2,4}$/.test(value)) return 'date';
  if (/^-?\d+(\.\d+)?$/.test(value)) return 'number';
  return 'text';
}

/** A parameter's name from the label of the field it went into ("Delivery date" -> delivery_date), else its kind. */
export function paramName(label: string | undefined, kind: ParamKind, taken: Set<string>): string {
  const fromLabel = (label ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 32);
  const base = fromLabel || (kind === 'text' ? 'value' : kind);
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = `${base}_${n}`;
  return name;
}

function originOf(url: string): string | null {
  return parseWebAddress(url)?.origin ?? null;
}

function pageOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/**
 * Turns a finished task into a routine: its calls that acted and worked, each element by identity rather than by
 * number, the values the user wrote in the task turned into `{{name}}` parameters (in the steps and in the task's
 * words), and secrets left as the placeholders they already are. Throws when nothing in the task can be replayed.
 */
export function buildRoutine(input: BuildInput): Routine {
  const params: RoutineParam[] = [];
  const byValue = new Map<string, string>();
  const taken = new Set<string>();
  let task = input.task;
  const sites = new Set<string>();
  const start = originOf(input.startUrl);
  if (start) sites.add(start);

  const parameterize = (value: string, label: string | undefined): string => {
    const secret = SECRET.exec(value.trim());
    if (secret?.[1]) {
      if (!taken.has(secret[1])) {
        taken.add(secret[1]);
        params.push({ name: secret[1], kind: 'secret' });
      }
      return value;
    }
    if (ANY_PLACEHOLDER.test(value) || value.trim().length < 2) return value;
    const known = byValue.get(value.toLowerCase());
    if (known) return `{{${known}}}`;
    const at = task.toLowerCase().indexOf(value.toLowerCase());
    if (at < 0) return value;
    const kind = kindOf(value);
    const name = paramName(label, kind, taken);
    taken.add(name);
    byValue.set(value.toLowerCase(), name);
    params.push({ name, kind, example: value });
    task = `${task.slice(0, at)}{{${name}}}${task.slice(at + value.length)}`;
    return `{{${name}}}`;
  };

  const steps: RoutineStep[] = [];
  for (const step of input.steps) {
    for (const call of step.calls) {
      if (call.status !== 'finished' || call.result?.ok !== true || !REPLAYABLE_TOOLS.has(call.name)) continue;
      let args: Record<string, unknown>;
      try {
        args = JSON.parse(call.arguments) as Record<string, unknown>;
      } catch {
        continue;
      }
      const { ref, ...rest } = args;
      const target = typeof ref === 'number' ? (input.targets[call.id] ?? identityOf({ elements: step.observation.elements, text: step.observation.text }, ref)) : null;
      for (const key of VALUE_ARGS) {
        const value = rest[key];
        if (typeof value === 'string') rest[key] = parameterize(value, target?.name);
        else if (Array.isArray(value)) rest[key] = (value as unknown[]).map((v): unknown => (typeof v === 'string' ? parameterize(v, target?.name) : v));
      }
      const here = originOf(step.observation.url);
      if (here) sites.add(here);
      if (call.name === 'navigate' && typeof rest.url === 'string') {
        const to = originOf(rest.url);
        if (to) sites.add(to);
      }
      steps.push({ tool: call.name, args: rest, target, url: pageOf(step.observation.url), text: call.stepText ?? call.name });
    }
  }
  // A look-alike told apart by the user's own value (the product they asked for) follows the value on the next run.
  for (const step of steps) {
    const near = step.target?.near;
    if (!step.target || near === undefined) continue;
    for (const [value, name] of byValue) {
      const at = near.toLowerCase().indexOf(value);
      if (at >= 0) step.target = { ...step.target, near: `${near.slice(0, at)}{{${name}}}${near.slice(at + value.length)}` };
    }
  }
  if (steps.length === 0) throw new AppError('bad_request', 'This task has no finished step that acted on a page, so there is nothing to save as a routine.');
  return {
    format: 'deputy-routine',
    version: 1,
    name: input.name.trim(),
    sites: [...sites],
    task,
    startUrl: input.startUrl,
    params,
    steps,
    createdAt: input.now,
  };
}
