import { z } from 'zod';
import { LearnedSupportSite } from '../../../shared/agent/support-sites';
import type { Store } from '../../platform/storage';

/**
 * What Deputy learned per site from earlier support cases (issue 31, item 5): the page its chat opened on and the
 * contact page a written escalation went through, kept in local storage under the site's host. A case reads it when
 * it starts and adds to it as it learns; one record per host, the newest knowledge kept.
 */
const KEY = 'supportSites';
const Memory = z.record(z.string(), LearnedSupportSite);
/** Enough for every site a user has support cases with; the oldest are dropped past it. */
const MAX_SITES = 200;

export interface SupportSiteMemory {
  get(url: string): Promise<LearnedSupportSite | null>;
  learn(url: string, learned: Omit<Partial<LearnedSupportSite>, 'at'>): Promise<void>;
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed.host.toLowerCase() : null;
  } catch {
    return null;
  }
}

export function createSupportSiteMemory(store: Pick<Store, 'get' | 'set'>, now: () => number): SupportSiteMemory {
  // Writes are chained so two saves of one case do not lose each other's field.
  let writing: Promise<void> = Promise.resolve();
  return {
    async get(url) {
      const host = hostOf(url);
      if (!host) return null;
      return (await store.get(KEY, Memory))?.[host] ?? null;
    },
    learn(url, learned) {
      const host = hostOf(url);
      if (!host) return Promise.resolve();
      writing = writing.then(async () => {
        const all = (await store.get(KEY, Memory)) ?? {};
        const next = { ...all, [host]: { ...all[host], ...learned, at: now() } };
        const kept = Object.entries(next).sort(([, a], [, b]) => b.at - a.at).slice(0, MAX_SITES);
        await store.set(KEY, Object.fromEntries(kept));
      });
      return writing;
    },
  };
}
