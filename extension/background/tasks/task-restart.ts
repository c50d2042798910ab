import { foundNamesIn } from '../../../shared/agent/secret-vault';
import { AppError, toErrorShape } from '../../../shared/errors';
import type { TaskRecord } from '../../../shared/protocol';
import { callCount, refindTaskTab, restartNote, skipCallsOnLostInput, taskPageUrl } from './refind-task-tab';
import type { TaskCore } from './task-runner-deps';
import { isActive } from './task-status';

/** What resuming needs of the runner: whether a task runs in this worker, and running one. */
export interface Resuming {
  isRunning(taskId: string): boolean;
  run(record: TaskRecord, startUrl: string): void;
  startUrlOf(record: TaskRecord): Promise<string>;
}

/**
 * Resumes every task that was working when the worker or the browser stopped. A task from an earlier browser session
 * first finds its page again, in a tab no other task works in, or reopens it. A paused task stays paused until the user
 * resumes it. Returns how many were resumed.
 */
export async function resumeAllTasks(core: TaskCore, runner: Resuming): Promise<number> {
  const session = await core.deps.browserSession();
  const records = await core.deps.tasks.list();
  const active = records.filter((record) => isActive(record) && !runner.isRunning(record.id));
  // Guards of tasks that ended while no worker ran come off; those of tasks resuming stay in force meanwhile.
  await core.deps.egress?.retain(records.filter(isActive).map((r) => r.id)).catch(() => undefined);
  const owned = new Set(records.filter((r) => isActive(r) && r.tabSession === session).map((r) => r.tabId));
  let resumed = 0;
  for (const record of active) {
    if (record.stopRequested) {
      await core.change(record.id, (r) => ({ ...r, status: 'stopped', approval: null, question: null }));
      continue;
    }
    let current = record;
    if (record.tabSession !== session) {
      try {
        current = await rebindTask(core, record, session, owned);
      } catch (error) {
        core.deps.log.warn('task lost its page on restart', { taskId: record.id, error: String(error) });
        await core.change(record.id, (r) => ({ ...r, status: 'failed', error: toErrorShape(error), approval: null, question: null }));
        continue;
      }
      owned.add(current.tabId);
    }
    if (current.status === 'paused') continue;
    core.deps.log.info('resuming task', { taskId: record.id, steps: current.agent?.steps.length ?? 0 });
    runner.run(current, await runner.startUrlOf(current));
    resumed += 1;
  }
  return resumed;
}

/**
 * Moves a task from a tab of an earlier browser session to one of this session showing its page, and says so among
 * its steps. Calls decided on input the reload lost are skipped (a pending approval with them).
 */
export async function rebindTask(core: TaskCore, record: TaskRecord, session: string, owned: ReadonlySet<number>): Promise<TaskRecord> {
  const url = taskPageUrl(record);
  if (url === undefined || url === '') {
    throw new AppError('not_found', 'The browser restarted before this task had looked at its page, so Deputy cannot tell where to continue: start the task again.');
  }
  const tab = await refindTaskTab(core.deps.tabs, { url, previousTabId: record.tabId, owned, graceMs: core.deps.restoreGraceMs ?? 2000 });
  const kept = await core.deps.secrets.load(record.id);
  const forgotten = foundNamesIn(JSON.stringify(record.agent)).filter((name) => !(name in kept)).length;
  const agent = record.agent ? (JSON.parse(JSON.stringify(record.agent)) as typeof record.agent) : null;
  const skipped = agent ? skipCallsOnLostInput(agent) : [];
  const approvalSkipped = record.approval !== null && skipped.some((call) => call.id === record.approval?.callId);
  let text = restartNote(url, tab.how, forgotten);
  if (approvalSkipped) text += ' The action that waited for your approval was not taken: the page was loaded again and lost what had been filled in, so the task looks at it again.';
  core.deps.log.info('task moved to a tab of the restarted browser', { taskId: record.id, how: tab.how, skipped: skipped.length });
  const updated = await core.change(record.id, (r) => ({
    ...r,
    tabId: tab.tabId,
    tabSession: session,
    pageUrl: url,
    ...(skipped.length > 0 ? { agent } : {}),
    ...(approvalSkipped ? { approval: null, status: 'running' as const } : {}),
    notes: [...(r.notes ?? []), { at: core.deps.now(), afterCalls: callCount(r.agent), text }],
  }));
  if (!updated) throw new AppError('not_found', 'The task was deleted while it was being resumed.');
  return updated;
}
