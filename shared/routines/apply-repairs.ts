import { AppError } from '../errors';
import type { Routine, RoutineRepair, RoutineStep } from './routine';

/** A value the replay filled in from a parameter goes back to being that parameter in the routine. */
function unfill(value: unknown, byValue: Map<string, string>): unknown {
  if (typeof value === 'string') {
    const name = byValue.get(value.toLowerCase());
    return name ? `{{${name}}}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => unfill(v, byValue));
  return value;
}

/** The text near an element, with a parameter's value in it turned back into the parameter. */
function unfillText(text: string, byValue: Map<string, string>): string {
  let out = text;
  for (const [value, name] of byValue) {
    const at = out.toLowerCase().indexOf(value);
    if (value.length >= 2 && at >= 0) out = `${out.slice(0, at)}{{${name}}}${out.slice(at + value.length)}`;
  }
  return out;
}

/**
 * The routine with the steps the model repaired in a replay put in place of the recorded ones. The values the replay
 * was given (`values`) become parameters again, so a repaired step does not keep one run's item or date.
 */
export function applyRepairs(routine: Routine, repairs: RoutineRepair[], values: Record<string, string>): Routine {
  const usable = repairs.filter((r): r is RoutineRepair & { replacement: RoutineStep } => r.replacement !== null && r.step < routine.steps.length);
  if (usable.length === 0) throw new AppError('bad_request', 'This replay repaired no step that can be kept: the routine stays as it is.');
  const byValue = new Map(Object.entries(values).map(([name, value]) => [value.toLowerCase(), name]));
  const steps = routine.steps.map((step, i) => {
    const repair = usable.filter((r) => r.step === i).at(-1);
    if (!repair) return step;
    const args = Object.fromEntries(Object.entries(repair.replacement.args).map(([k, v]) => [k, unfill(v, byValue)]));
    const target = repair.replacement.target;
    const near = target?.near === undefined ? undefined : unfillText(target.near, byValue);
    return { ...repair.replacement, args, target: target && near !== undefined ? { ...target, near } : target, url: step.url, text: step.text };
  });
  return { ...routine, steps };
}
