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
    set: (key, value) => {
      data.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
    remove: (key) => {
      data.delete(key);
      return Promise.resolve();
    },
  };
}
