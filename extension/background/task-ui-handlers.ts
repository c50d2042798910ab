import type { taskUiMethods } from '../../shared/protocol';
import type { SettingsStore } from './settings-store';
import type { TaskRunner } from './task-runner';
import type { TaskStore } from './task-store';
import type { UiHandlers } from './ui-server';

type TaskHandlers = Pick<UiHandlers, keyof typeof taskUiMethods>;

/** The side panel's and popup's task and settings methods. Approvals reach the runner only through these. */
export function createTaskUiHandlers(runner: TaskRunner, tasks: TaskStore, settings: SettingsStore): TaskHandlers {
  return {
    'task.start': (params) => runner.start(params),
    'task.stop': ({ taskId }) => runner.stop(taskId),
    'task.approve': ({ taskId, approvalId, decision, note }) => runner.approve(taskId, approvalId, decision, note),
    'task.answer': ({ taskId, questionId, answer }) => runner.answer(taskId, questionId, answer),
    'task.get': async ({ taskId }) => (await tasks.get(taskId)) ?? null,
    'task.list': (filter) => tasks.list(filter),
    'task.delete': async ({ taskId }) => ({ deleted: await tasks.delete(taskId) }),
    'task.trace': async ({ taskId }) => {
      const lines = await tasks.trace(taskId);
      return { jsonl: lines.length > 0 ? `${lines.join('\n')}\n` : '', records: lines.length };
    },
    'settings.get': () => settings.getPublic(),
    'settings.set': (change) => settings.update(change),
  };
}
