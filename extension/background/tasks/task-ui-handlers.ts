import { createProvider, type ProviderSettings } from '../../../shared/agent/providers/create-provider';
import { toErrorShape } from '../../../shared/errors';
import type { taskUiMethods } from '../../../shared/protocol';
import type { SettingsStore } from '../stores/settings-store';
import type { TaskRunner } from './task-runner';
import type { TaskStore } from './task-store';
import type { UiHandlers } from '../ui/ui-server';

type TaskHandlers = Pick<UiHandlers, keyof typeof taskUiMethods>;

/** The side panel's and popup's task and settings methods. Approvals reach the runner only through these. */
export function createTaskUiHandlers(runner: TaskRunner, tasks: TaskStore, settings: SettingsStore): TaskHandlers {
  return {
    'task.start': (params) => runner.start(params),
    'task.stop': ({ taskId }) => runner.stop(taskId),
    'task.pause': ({ taskId }) => runner.pause(taskId),
    'task.resume': ({ taskId }) => runner.resume(taskId),
    'task.approve': ({ taskId, approvalId, decision, note }) => runner.approve(taskId, approvalId, decision, note),
    'task.continue': ({ taskId, text }) => runner.continue(taskId, text),
    'task.answer': ({ taskId, questionId, answer }) => runner.answer(taskId, questionId, answer),
    'task.get': async ({ taskId }) => (await tasks.get(taskId)) ?? null,
    'task.list': (filter) => tasks.list(filter),
    'task.delete': async ({ taskId }) => ({ deleted: await tasks.delete(taskId) }),
    'task.trace': async ({ taskId }) => {
      const lines = await tasks.trace(taskId);
      return { jsonl: lines.length > 0 ? `${lines.join('\n')}\n` : '', records: lines.length };
    },
    'task.screenshots': ({ taskId }) => tasks.screenshotsOf(taskId),
    'task.thumbnails': ({ taskId }) => tasks.thumbnailsOf(taskId),
    'task.screenshot': async ({ taskId, step }) => (await tasks.screenshotOf(taskId, step)) ?? null,
    'settings.get': () => settings.getPublic(),
    'settings.set': (change) => settings.update(change),
    'settings.test': async ({ provider }) => testConnection(provider, (await settings.get()).provider),
  };
}

/**
 * Makes one tiny request with the given provider settings (a blank key means the stored one), without retries, and
 * says what happened in words: the settings form shows the message as it is.
 */
async function testConnection(given: ProviderSettings | undefined, saved: ProviderSettings | null): Promise<{ ok: boolean; message: string; code?: string; model?: string; latencyMs?: number }> {
  const chosen = given ?? saved;
  if (!chosen) return { ok: false, message: 'Choose a provider and a model first.' };
  // The stored key is used only for the endpoint it was saved with: another server must never receive it.
  const sameEndpoint = saved !== null && saved.preset === chosen.preset && (saved.baseUrl ?? '') === (chosen.baseUrl ?? '');
  const apiKey = chosen.apiKey?.trim() ? chosen.apiKey : sameEndpoint ? saved.apiKey : undefined;
  const started = Date.now();
  try {
    const provider = createProvider({ ...chosen, ...(apiKey ? { apiKey } : {}), stream: false, maxRetries: 0, maxOutputTokens: 16, timeoutMs: 20_000 }, { browser: true });
    const reply = await provider.complete({ system: 'This is a connection test. Reply with the word OK.', messages: [{ role: 'user', content: 'Say OK.' }], tools: [] });
    const latencyMs = Date.now() - started;
    return { ok: true, message: `Connected: ${reply.model || chosen.model} answered in ${latencyMs} ms.`, model: reply.model, latencyMs };
  } catch (error) {
    const { code, message } = toErrorShape(error);
    return { ok: false, message, code };
  }
}
