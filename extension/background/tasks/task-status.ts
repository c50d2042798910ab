import type { AgentState } from '../../../shared/agent/agent-state';
import type { TaskFile, TaskRecord, TaskStatus } from '../../../shared/protocol';

/** What a task record says about itself: whether it still works, the status it shows, its site, its files' note. */

const ACTIVE: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'paused', 'awaiting_approval', 'awaiting_user']);
/** A task can be paused only while it works on its own: a pending approval or question already holds it. */
export const PAUSABLE: ReadonlySet<TaskStatus> = new Set(['queued', 'running']);

export function isActive(record: TaskRecord): boolean {
  return ACTIVE.has(record.status);
}

/**
 * Whether the state's last step has this call waiting for the user's approval: before it ran, or while it runs (a
 * request the egress guard held during the step).
 */
export function waitsForApproval(state: AgentState, callId: string): boolean {
  return state.steps.at(-1)?.calls.some((call) => call.id === callId && (call.status === 'awaiting_approval' || call.status === 'started')) ?? false;
}

/** While an approval or question is pending, that is the task's status, whatever the loop last saved. */
export function statusOf(state: AgentState, record: TaskRecord): TaskStatus {
  if (record.approval && state.status === 'running') return 'awaiting_approval';
  if (record.question && state.status === 'running') return 'awaiting_user';
  return state.status;
}

/** How the model learns which files it may upload: names, sizes and types, never where they are. */
export function filesNote(files: readonly TaskFile[]): string {
  if (files.length === 0) return '';
  const list = files.map((f) => `${f.name} (${f.type || 'file'}, ${f.size} bytes)`).join('; ');
  return `\n\nFiles the user attached for this task (upload them by name with the upload tool): ${list}`;
}

export function siteOf(url: string): string {
  try {
    // A page without a host (a blank tab, a browser page) is named by its address without query or fragment.
    return new URL(url).host || url.replace(/[?#].*$/, '');
  } catch {
    return url;
  }
}
