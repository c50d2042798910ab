import type { TaskRecord } from '../../shared/protocol';

export interface StepPrinter {
  /** Prints what is new in this version of the task since the last one seen. */
  update(record: TaskRecord): void;
}

/**
 * Streams a task to the terminal as it happens: plan changes, each finished action with its verification, and
 * why it ended. Works from whole task records, so a missed event only delays lines, never loses them.
 */
export function createStepPrinter(write: (line: string) => void): StepPrinter {
  const printed = new Set<string>();
  let lastPlan = '';
  const once = (key: string, line: string): void => {
    if (printed.has(key)) return;
    printed.add(key);
    write(line);
  };
  return {
    update(record) {
      const agent = record.agent;
      const plan = agent?.plan;
      if (plan) {
        const text = plan.steps.map((s) => `${s.status === 'completed' ? '[x]' : s.status === 'in_progress' ? '[>]' : '[ ]'} ${s.step}`).join('\n    ');
        if (text !== lastPlan) {
          lastPlan = text;
          write(`  plan:\n    ${text}`);
        }
      }
      for (const step of agent?.steps ?? []) {
        for (const call of step.calls) {
          if (call.status !== 'finished' && call.status !== 'denied' && call.status !== 'interrupted') continue;
          const text = call.stepText ?? call.name;
          const detail = call.result ? firstLine(call.result.content) : '';
          // The result often restates the step; show it only when it adds something (a navigation, a failure).
          const result = detail && detail !== text ? ` -> ${call.result?.ok ? '' : 'failed: '}${detail}` : '';
          once(`${step.index}:${call.id}`, `  ${step.index + 1}. ${text}${call.status === 'denied' ? ' (blocked)' : ''}${result}`);
        }
      }
      for (const note of record.notes ?? []) once(`note:${note.at}`, `  i ${note.text}`);
      if (record.approval) once(`approval:${record.approval.id}`, `  ? approval needed (${record.approval.classes.join(', ')}): ${record.approval.intent} - ${record.approval.reason}`);
      if (record.question) once(`question:${record.question.id}`, `  ? the agent asks: ${record.question.text}`);
      if (record.error) once('error', `  error: ${record.error.message}`);
    },
  };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
