import type { z } from 'zod';
import type { Store } from '../../../../../extension/platform/storage';

/** chrome.storage stand-in: values are copied through JSON the way the real storage copies them. */
export function memoryStore(): Store & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: <T>(key: string, schema: z.ZodType<T>) => {
      const raw = data.get(key);
      const parsed = schema.safeParse(raw === undefined ? undefined : JSON.parse(raw));
      return Promise.resolve(parsed.success ? parsed.data : undefined);
    },
    getMany: (keys) => {
      const found: Record<string, unknown> = {};
      for (const key of keys) {
        const raw = data.get(key);
        if (raw !== undefined) found[key] = JSON.parse(raw) as unknown;
      }
      return Promise.resolve(found);
    },
    set: (key, value) => {
      data.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
    setMany: (items) => {
      for (const [key, value] of Object.entries(items)) data.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
    remove: (key) => {
      for (const one of Array.isArray(key) ? key : [key]) data.delete(one);
      return Promise.resolve();
    },
  };
}
