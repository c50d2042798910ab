import { z } from 'zod';
import { ChatBaseline } from '../../../shared/protocol';
import type { Store } from '../../platform/storage';

export const ChatSession = z.object({
  vendor: z.string(),
  frameId: z.number().int().nonnegative(),
  /** Where the last action of ours (or the last settled wait) left the transcript. */
  baseline: ChatBaseline.nullable(),
});
export type ChatSession = z.infer<typeof ChatSession>;

/**
 * The chat each tab is driving: which vendor, which frame, and where our last action left the transcript. Kept in
 * memory and in session storage, so a service worker stopped between a send and its wait still counts the reply
 * from the right place.
 */
export class ChatSessions {
  private readonly cache = new Map<number, ChatSession>();

  constructor(private readonly store: Store | null) {}

  async get(tabId: number): Promise<ChatSession | undefined> {
    const cached = this.cache.get(tabId);
    if (cached || !this.store) return cached;
    const stored = await this.store.get(key(tabId), ChatSession).catch(() => undefined);
    if (stored) this.cache.set(tabId, stored);
    return stored;
  }

  async set(tabId: number, session: ChatSession): Promise<void> {
    this.cache.set(tabId, session);
    await this.store?.set(key(tabId), session);
  }

  async delete(tabId: number): Promise<boolean> {
    const had = this.cache.delete(tabId) || (this.store ? (await this.store.get(key(tabId), ChatSession)) !== undefined : false);
    await this.store?.remove(key(tabId));
    return had;
  }
}

function key(tabId: number): string {
  return `chat:${tabId}`;
}
