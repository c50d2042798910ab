import type { ShellRunStep } from '../../shared/protocol';

function args(step: Pick<ShellRunStep, 'arguments'>): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(step.arguments) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const short = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A field of the arguments as text (they are the model's JSON: anything may be in them). */
const field = (a: Record<string, unknown>, key: string): string => {
  const value = a[key];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
};

/** The step as the panel lists it: `$ git log`, `check p2`, `write_file /etc/app.conf`, `search "error"`. */
export function shellStepText(step: Pick<ShellRunStep, 'tool' | 'arguments'>): string {
  const a = args(step);
  if (!a) return `${step.tool} ${step.arguments}`.trim();
  switch (step.tool) {
    case 'run': {
      const flags = [a.background ? 'background' : '', a.pty ? 'pty' : '', typeof a.cwd === 'string' ? `in ${a.cwd}` : ''].filter(Boolean);
      return `$ ${short(field(a, 'command'), 400)}${flags.length > 0 ? `  (${flags.join(', ')})` : ''}`;
    }
    case 'write_file':
      return `write_file ${field(a, 'path')}`;
    case 'check':
    case 'kill':
      return `${step.tool} ${field(a, 'id')}`;
    case 'wait_for_output':
      return `wait_for_output ${field(a, 'id')}${typeof a.pattern === 'string' ? ` /${a.pattern}/` : ''}`;
    case 'search_history':
      return `search "${short(field(a, 'query'), 80)}"`;
    case 'set_timeout':
      return `set_timeout ${field(a, 'seconds')} s`;
    case 'ask_user':
      return `ask: ${short(field(a, 'question'), 200)}`;
    case 'report':
      return a.success === true ? 'report: done' : 'report: not done';
    case 'update_plan':
      return `plan: ${Array.isArray(a.steps) ? a.steps.length : 0} steps`;
    default:
      return step.tool;
  }
}

/** A step's result for the panel: the untrusted-output markers the model needs are left out. */
export function shellResultText(result: string): string {
  return result.replace(/<\/?untrusted_output[^>]*>\n?/g, '').replace(/\n+$/, '');
}
