import type { TaskRecord } from '../../shared/protocol';

/**
 * What `npm run task` reports as a task runs: one event per happening. `--json` prints each as one line of JSON; the
 * text output is the same events in words (see formatEvent).
 */
export type TaskEvent =
  | { type: 'info'; message: string }
  | { type: 'start'; taskId: string; site: string; url: string | null; mode: 'ask' | 'act' }
  | { type: 'plan'; steps: { step: string; status: string }[] }
  | {
      type: 'step';
      step: number;
      callId: string;
      tool: string;
      text: string;
      status: 'finished' | 'denied' | 'interrupted';
      ok: boolean | null;
      result: string | null;
    }
  | { type: 'note'; text: string }
  | { type: 'approval'; id: string; intent: string; reason: string; classes: string[] }
  | { type: 'decision'; approvalId: string; intent: string; decision: 'approve' | 'approve_site' | 'reject'; by: 'user' | 'flag' | 'nobody' }
  | { type: 'question'; id: string; text: string }
  | { type: 'error'; message: string }
  | {
      type: 'end';
      taskId: string | null;
      status: string;
      success: boolean;
      summary: string;
      usage: { inputTokens: number; outputTokens: number; costUsd: number | null } | null;
      chat: TaskRecord['chat'];
      /** What the task downloaded: name, type, size and where it was saved (or why it was not kept). */
      downloads: NonNullable<TaskRecord['downloads']>;
      runDir: string | null;
      trace: string | null;
      records: number;
      screenshots: number;
      exitCode: number;
    };

export interface TaskEventSource {
  /** Emits what is new in this version of the task since the last one seen. */
  update(record: TaskRecord): void;
}

/**
 * Turns successive versions of a task record into events: plan changes, each finished action with its verification,
 * notes, approvals, questions and errors. Works from whole records, so a missed update only delays events, never
 * loses them.
 */
export function taskEvents(emit: (event: TaskEvent) => void): TaskEventSource {
  const seen = new Set<string>();
  let lastPlan = '';
  const once = (key: string, event: TaskEvent): void => {
    if (seen.has(key)) return;
    seen.add(key);
    emit(event);
  };
  return {
    update(record) {
      const agent = record.agent;
      const plan = agent?.plan;
      if (plan) {
        const steps = plan.steps.map((s) => ({ step: s.step, status: s.status }));
        const key = JSON.stringify(steps);
        if (key !== lastPlan) {
          lastPlan = key;
          emit({ type: 'plan', steps });
        }
      }
      for (const step of agent?.steps ?? []) {
        for (const call of step.calls) {
          if (call.status !== 'finished' && call.status !== 'denied' && call.status !== 'interrupted') continue;
          once(`${step.index}:${call.id}`, {
            type: 'step',
            step: step.index + 1,
            callId: call.id,
            tool: call.name,
            text: call.stepText ?? call.name,
            status: call.status,
            ok: call.result?.ok ?? null,
            result: call.result?.content ?? null,
          });
        }
      }
      for (const note of record.notes ?? []) once(`note:${note.at}`, { type: 'note', text: note.text });
      const approval = record.approval;
      if (approval) once(`approval:${approval.id}`, { type: 'approval', id: approval.id, intent: approval.intent, reason: approval.reason, classes: approval.classes });
      if (record.question) once(`question:${record.question.id}`, { type: 'question', id: record.question.id, text: record.question.text });
      if (record.error) once('error', { type: 'error', message: record.error.message });
    },
  };
}
