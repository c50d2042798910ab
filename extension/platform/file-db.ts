import { objectStore, request } from './idb';

/** Files the user chose in the side panel for a task, kept in the extension's IndexedDB while the task runs. */
export interface FileStore {
  /** Keeps the bytes (base64) and returns the id they are kept under. */
  save(taskId: string, name: string, base64: string): Promise<string>;
  load(id: string): Promise<string | undefined>;
  /** Forgets every file of the task. */
  deleteTask(taskId: string): Promise<void>;
}

const DB_NAME = 'deputy-task-files';
const STORE = 'files';

/** Opened on first use, so nothing happens at import. Keys are [taskId, name], so a task's files are one key range. */
export function indexedDbFiles(): FileStore {
  const store = objectStore(DB_NAME, STORE, ['taskId', 'name']);
  return {
    async save(taskId, name, base64) {
      await request((await store('readwrite')).put({ taskId, name, base64 }));
      return JSON.stringify([taskId, name]);
    },
    async load(id) {
      const key = JSON.parse(id) as [string, string];
      const row = (await request((await store('readonly')).get(key))) as { base64?: string } | undefined;
      return row?.base64;
    },
    async deleteTask(taskId) {
      await request((await store('readwrite')).delete(IDBKeyRange.bound([taskId, ''], [taskId, '\uffff'])));
    },
  };
}
