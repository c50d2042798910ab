import type { z } from 'zod';

export type StorageArea = 'local' | 'session';

/**
 * Typed access to chrome.storage. Values are parsed with their schema on the way out: storage can hold anything an
 * older version wrote, so a value that no longer fits is treated as absent rather than trusted.
 */
export interface Store {
  get<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
}

export function chromeStore(area: StorageArea): Store {
  const storage = area === 'local' ? chrome.storage.local : chrome.storage.session;
  return {
    async get(key, schema) {
      const items = await storage.get(key);
      const parsed = schema.safeParse(items[key]);
      return parsed.success ? parsed.data : undefined;
    },
    set: (key, value) => storage.set({ [key]: value }),
    remove: (key) => storage.remove(key),
  };
}

/** Extension pages may read session storage too (by default only the background can). */
export function allowSessionStorageForPages(): Promise<void> {
  return chrome.storage.session.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
}
