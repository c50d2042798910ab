import type { StepScreenshot } from '../../shared/protocol';
import { objectStore, request } from './idb';

/** The screenshots of tasks' steps, kept apart from chrome.storage: images are large, and IndexedDB holds them well. */
export interface ScreenshotStore {
  save(taskId: string, shot: StepScreenshot): Promise<void>;
  list(taskId: string): Promise<StepScreenshot[]>;
  delete(taskId: string): Promise<void>;
}

const DB_NAME = 'deputy-artifacts';
const STORE = 'step-screenshots';

/** Every screenshot of one task: keys are [taskId, step], so a task's shots are one key range. */
function taskRange(taskId: string): IDBKeyRange {
  return IDBKeyRange.bound([taskId, 0], [taskId, Number.MAX_SAFE_INTEGER]);
}

/**
 * Step screenshots in the extension's IndexedDB (the service worker writes, the side panel reads through the
 * background). Opened on first use, so nothing happens at import.
 */
export function indexedDbScreenshots(): ScreenshotStore {
  const store = objectStore(DB_NAME, STORE, ['taskId', 'step']);
  return {
    async save(taskId, shot) {
      await request((await store('readwrite')).put({ taskId, ...shot }));
    },
    async list(taskId) {
      const rows = (await request((await store('readonly')).getAll(taskRange(taskId)))) as Array<StepScreenshot & { taskId: string }>;
      return rows.map(({ step, mediaType, base64, at }) => ({ step, mediaType, base64, at }));
    },
    async delete(taskId) {
      await request((await store('readwrite')).delete(taskRange(taskId)));
    },
  };
}
