import type { StepScreenshot } from '../../shared/protocol';

/** The screenshots of tasks' steps, kept apart from chrome.storage: images are large, and IndexedDB holds them well. */
export interface ScreenshotStore {
  save(taskId: string, shot: StepScreenshot): Promise<void>;
  list(taskId: string): Promise<StepScreenshot[]>;
  delete(taskId: string): Promise<void>;
}

const DB_NAME = 'deputy-artifacts';
const STORE = 'step-screenshots';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Every screenshot of one task: keys are [taskId, step], so a task's shots are one key range. */
function taskRange(taskId: string): IDBKeyRange {
  return IDBKeyRange.bound([taskId, 0], [taskId, Number.MAX_SAFE_INTEGER]);
}

/**
 * Step screenshots in the extension's IndexedDB (the service worker writes, the side panel reads through the
 * background). Opened on first use, so nothing happens at import.
 */
export function indexedDbScreenshots(): ScreenshotStore {
  let db: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> =>
    (db ??= new Promise((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: ['taskId', 'step'] });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => {
        db = undefined;
        reject(req.error ?? new Error('IndexedDB cannot be opened'));
      };
    }));
  const store = async (mode: IDBTransactionMode): Promise<IDBObjectStore> => (await open()).transaction(STORE, mode).objectStore(STORE);
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
