import type { StepScreenshot } from '../../shared/protocol';
import { objectStore, request } from './idb';

/** A step's screenshot as kept: the full image and, where one could be made, a small JPEG for the step card. */
export type KeptScreenshot = StepScreenshot & { thumb?: string };

/** The screenshots of tasks' steps, kept apart from chrome.storage: images are large, and IndexedDB holds them well. */
export interface ScreenshotStore {
  /** Keeps a shot; returns the tasks whose shots were let go to stay under the store's size cap. */
  save(taskId: string, shot: KeptScreenshot): Promise<string[]>;
  /** Every full image of a task, by step. */
  list(taskId: string): Promise<StepScreenshot[]>;
  /** The small images of a task, by step (the full image where no small one was made). */
  thumbnails(taskId: string): Promise<StepScreenshot[]>;
  /** One full image. */
  get(taskId: string, step: number): Promise<StepScreenshot | undefined>;
  delete(taskId: string): Promise<void>;
}

const DB_NAME = 'deputy-artifacts';
const STORE = 'step-screenshots';
/** What all kept screenshots may take together (base64 characters, about bytes): the oldest tasks' go first. */
export const SCREENSHOT_CAP_BYTES = 200 * 1024 * 1024;
/** The record that counts each task's bytes: its key is outside every task's range (task ids are never empty). */
const LEDGER_KEY = ['', 0];

type Ledger = Record<string, { bytes: number; at: number }>;
type Row = KeptScreenshot & { taskId: string };

/** Every screenshot of one task: keys are [taskId, step], so a task's shots are one key range. */
function taskRange(taskId: string): IDBKeyRange {
  return IDBKeyRange.bound([taskId, 0], [taskId, Number.MAX_SAFE_INTEGER]);
}

function sizeOf(shot: KeptScreenshot): number {
  return shot.base64.length + (shot.thumb?.length ?? 0);
}

/**
 * Which tasks to let go, oldest first, so that the total fits under the cap; the task being written is kept, even
 * alone over the cap (its newest steps matter most while it runs).
 */
export function tasksToEvict(ledger: Ledger, keep: string, cap: number): string[] {
  let total = Object.values(ledger).reduce((sum, entry) => sum + entry.bytes, 0);
  const evicted: string[] = [];
  const oldestFirst = Object.entries(ledger)
    .filter(([taskId]) => taskId !== keep)
    .sort((a, b) => a[1].at - b[1].at);
  for (const [taskId, entry] of oldestFirst) {
    if (total <= cap) break;
    evicted.push(taskId);
    total -= entry.bytes;
  }
  return evicted;
}

/**
 * Step screenshots in the extension's IndexedDB (the service worker writes, the side panel reads through the
 * background), under a size cap: a ledger record counts each task's bytes, and a write that goes over the cap lets
 * the oldest tasks' screenshots go in the same transaction. Opened on first use, so nothing happens at import.
 */
export function indexedDbScreenshots(cap = SCREENSHOT_CAP_BYTES): ScreenshotStore {
  const store = objectStore(DB_NAME, STORE, ['taskId', 'step']);
  const rows = async (taskId: string): Promise<Row[]> => (await request((await store('readonly')).getAll(taskRange(taskId)))) as Row[];
  const plain = ({ step, mediaType, base64, at }: KeptScreenshot): StepScreenshot => ({ step, mediaType, base64, at });
  return {
    async save(taskId, shot) {
      const tx = await store('readwrite');
      const ledger = ((await request(tx.get(LEDGER_KEY))) as { ledger?: Ledger } | undefined)?.ledger ?? {};
      const old = (await request(tx.get([taskId, shot.step]))) as Row | undefined;
      await request(tx.put({ taskId, ...shot }));
      const entry = ledger[taskId] ?? { bytes: 0, at: shot.at };
      ledger[taskId] = { bytes: entry.bytes - (old ? sizeOf(old) : 0) + sizeOf(shot), at: shot.at };
      const evicted = tasksToEvict(ledger, taskId, cap);
      for (const gone of evicted) {
        await request(tx.delete(taskRange(gone)));
        delete ledger[gone];
      }
      await request(tx.put({ taskId: LEDGER_KEY[0], step: LEDGER_KEY[1], ledger }));
      return evicted;
    },
    async list(taskId) {
      return (await rows(taskId)).map(plain);
    },
    async thumbnails(taskId) {
      return (await rows(taskId)).map((row) => (row.thumb ? { step: row.step, mediaType: 'image/jpeg', base64: row.thumb, at: row.at } : plain(row)));
    },
    async get(taskId, step) {
      const row = (await request((await store('readonly')).get([taskId, step]))) as Row | undefined;
      return row ? plain(row) : undefined;
    },
    async delete(taskId) {
      const tx = await store('readwrite');
      await request(tx.delete(taskRange(taskId)));
      const ledger = ((await request(tx.get(LEDGER_KEY))) as { ledger?: Ledger } | undefined)?.ledger;
      if (ledger?.[taskId]) {
        delete ledger[taskId];
        await request(tx.put({ taskId: LEDGER_KEY[0], step: LEDGER_KEY[1], ledger }));
      }
    },
  };
}
