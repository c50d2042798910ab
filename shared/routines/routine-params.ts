import { AppError } from '../errors';
import type { Routine, RoutineStep } from './routine';

export interface FilledParams {
  /** Values for the plain parameters, by name. */
  values: Record<string, string>;
  /** Values for the secret parameters, by placeholder name: they go to the task's vault, never into a step. */
  secrets: Record<string, string>;
}

function validDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCFullYear() === Number(match[1]) && date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
}

/**
 * Checks the values given for a routine's parameters: every parameter has one (a plain one may fall back to the value
 * it was recorded with), each fits its kind, and no unknown name is given. The error names the parameter and the fix.
 */
export function checkParams(routine: Routine, given: Record<string, string>, options: { useExamples?: boolean } = {}): FilledParams {
  const known = new Set(routine.params.map((p) => p.name));
  const unknown = Object.keys(given).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const list = routine.params.map((p) => p.name).join(', ') || 'none';
    throw new AppError('bad_request', `The routine "${routine.name}" has no parameter ${unknown.map((n) => `"${n}"`).join(', ')}; its parameters are: ${list}.`);
  }
  const filled: FilledParams = { values: {}, secrets: {} };
  for (const param of routine.params) {
    const value = given[param.name] ?? (options.useExamples && param.kind !== 'secret' ? param.example : undefined);
    if (value === undefined || value.trim() === '') {
      throw new AppError('bad_request', `The routine "${routine.name}" needs a value for ${param.name} (${param.kind}): give it with --param ${param.name}=… or in the form.`);
    }
    if (param.kind === 'number' && !/^-?\d+(\.\d+)?$/.test(value.trim())) throw new AppError('bad_request', `${param.name} must be a number, not "${value}".`);
    if (param.kind === 'date' && !validDate(value.trim())) throw new AppError('bad_request', `${param.name} must be a date written YYYY-MM-DD (such as 2026-12-01), not "${value}".`);
    if (param.kind === 'secret') filled.secrets[param.name] = value;
    else filled.values[param.name] = value.trim();
  }
  return filled;
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}

function fillValue(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === 'string') return fill(value, values);
  if (Array.isArray(value)) return value.map((v) => fillValue(v, values));
  return value;
}

/** The steps with the plain parameters filled in; secret placeholders stay for the vault to resolve at typing time. */
export function fillSteps(steps: RoutineStep[], values: Record<string, string>): RoutineStep[] {
  return steps.map((step) => ({
    ...step,
    args: Object.fromEntries(Object.entries(step.args).map(([k, v]) => [k, fillValue(v, values)])),
    target: step.target?.near === undefined ? step.target : { ...step.target, near: fill(step.target.near, values) },
  }));
}

/** The routine's task in words with the plain parameters filled in (what History shows for the run). */
export function fillTask(routine: Routine, values: Record<string, string>): string {
  return fill(routine.task, values);
}
