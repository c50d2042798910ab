import type { Browser, Page } from 'puppeteer-core';

/** The suite's own judgement of a task, from the state the task left behind (never from what the agent said). */
export interface Verdict {
  solved: boolean;
  reason: string;
  /** A score of the suite's own where it has one (MiniWoB++'s raw reward). */
  score?: number;
}

/** One task of a suite, as the eval runner drives it through the real extension. */
export interface EvalTask {
  /** `<suite>/<name>`, e.g. `miniwob/click-button`. */
  id: string;
  suite: string;
  /** What Deputy is asked to do, in words. */
  text: string;
  /** The page the task starts on (opened by the task itself); absent when `prepare` loads it. */
  url?: string;
  flow: 'task' | 'chat';
  /** For a chat case: the facts Deputy may share with support. */
  facts?: Record<string, string>;
  /**
   * Puts the task's tab in its starting state before the task starts (MiniWoB++: load, seed, and start an episode
   * as long as the task's time limit).
   */
  prepare?(target: Page, run: { seed: string; timeoutMs: number }): Promise<void>;
  /** Reads the resulting state once the task ended. */
  judge(target: Page, browser: Browser): Promise<Verdict>;
}

/** A suite with the servers its tasks need running; close() stops them. */
export interface OpenSuite {
  name: string;
  tasks: EvalTask[];
  close(): Promise<void>;
}

/** Reads one localStorage entry of an origin, from a page of that origin opened for the purpose. */
export async function readStorage(browser: Browser, pageUrl: string, key: string): Promise<unknown> {
  const page = await browser.newPage();
  try {
    await page.goto(pageUrl, { waitUntil: 'domcontentloaded' });
    const text = await page.evaluate((name) => localStorage.getItem(name), key);
    return text === null ? null : (JSON.parse(text) as unknown);
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** Numbers drawn from a seed: the same seed gives the same task order on every machine (mulberry32). */
export function seededRandom(seed: string): () => number {
  let state = 0;
  for (const char of seed) state = (Math.imul(state ^ char.charCodeAt(0), 2654435761) + 1) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The tasks in an order fixed by the seed (Fisher-Yates with the seeded numbers). */
export function seededOrder<T>(items: readonly T[], seed: string): T[] {
  const random = seededRandom(seed);
  const order = [...items];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as T, order[i] as T];
  }
  return order;
}
