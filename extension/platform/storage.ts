import { browser } from './browser';
import type { z } from 'zod';

export type StorageArea = 'local' | 'session';

/**
 * Typed access to chrome.storage. Values are parsed with their schema on the way out: storage can hold anything an
 * older version wrote, so a value that no longer fits is treated as absent rather than trusted.
 */
export interface Store {
  get<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined>;
  /** Several keys in one read, unparsed (the caller parses each); absent keys are left out. */
  getMany(keys: string[]): Promise<Record<string, unknown>>;
  set(key: string, value: unknown): Promise<void>;
  /** Several keys in one write: all of them or none. */
  setMany(items: Record<string, unknown>): Promise<void>;
  remove(key: string | string[]): Promise<void>;
}

export function chromeStore(area: StorageArea): Store {
  const storage = area === 'local' ? browser.storage.local : browser.storage.session;
  return {
    async get(key, schema) {
      const items = await storage.get(key);
      const parsed = schema.safeParse(items[key]);
      return parsed.success ? parsed.data : undefined;
    },
    getMany: async (keys) => (keys.length === 0 ? {} : storage.get(keys)),
    set: (key, value) => storage.set({ [key]: value }),
    setMany: (items) => storage.set(items),
    remove: (key) => storage.remove(key),
  };
}

/** Extension pages may read session storage too (by default only the background can): a Chrome-only call. */
export function allowSessionStorageForPages(): Promise<void> {
  return chrome.storage.session.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
}
