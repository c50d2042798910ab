import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createSupportSiteMemory } from '../../../../../extension/background/chat/support-site-memory';

function memoryStore() {
  const items = new Map<string, unknown>();
  return {
    items,
    get: <T>(key: string, schema: z.ZodType<T>) => Promise.resolve(schema.safeParse(items.get(key)).data),
    set: (key: string, value: unknown) => {
      items.set(key, structuredClone(value));
      return Promise.resolve();
    },
  };
}

describe('what Deputy learns per site from earlier support cases', () => {
  it('keeps one record per host, adds to it, and answers for any page of that host', async () => {
    const store = memoryStore();
    let now = 1;
    const memory = createSupportSiteMemory(store, () => now++);
    // Two saves at once (chat found, then the contact page) both land.
    await Promise.all([
      memory.learn('https://shop.example/help?x=1', { chatUrl: 'https://shop.example/help?x=1', vendor: 'crisp' }),
      memory.learn('https://shop.example/', { contactUrl: 'https://shop.example/contact' }),
    ]);
    expect(await memory.get('https://shop.example/orders')).toEqual({ chatUrl: 'https://shop.example/help?x=1', vendor: 'crisp', contactUrl: 'https://shop.example/contact', at: 2 });
    expect(await memory.get('https://other.example/')).toBeNull();
    // Browser pages and bad addresses are neither learned nor asked about.
    await memory.learn('chrome://newtab/', { chatUrl: 'chrome://newtab/' });
    await memory.learn('nonsense', {});
    expect(Object.keys(store.items.get('supportSites') as object)).toEqual(['shop.example']);
    expect(await memory.get('nonsense')).toBeNull();
  });

  it('treats a stored value that no longer fits as nothing learned', async () => {
    const store = memoryStore();
    store.items.set('supportSites', { 'shop.example': { chatUrl: 42 } });
    expect(await createSupportSiteMemory(store, () => 1).get('https://shop.example/')).toBeNull();
  });
});
