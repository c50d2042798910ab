import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { type DirectoryServer, serveDirectory } from '../bench/serve-directory';
import { sharedMissing, sharedPath } from './shared-dir';

/**
 * MiniWoB++ (Farama-Foundation/miniwob-plusplus) as a harness drives it: the task pages served from the folder handed
 * to the team beside the checkout (`../shared/miniwob`), an episode started in the page's own JavaScript world with a
 * seed and a long enough time limit, and the page's own reward read back from its globals. Everything that touches
 * the page's globals goes through the test's (or the eval's) own DevTools session of the page, never through the
 * extension: the agent under test sees only what any page shows it.
 */

/** The folder beside the checkout, as the team's shared material is laid out. */
export const MINIWOB_DIR = sharedPath('miniwob');

/** A model-driven agent takes seconds per step: five minutes instead of the page's default ten seconds. */
export const AGENT_EPISODE_MS = 300_000;

export interface EpisodeResult {
  done: boolean;
  /** The reward with the page's time discount. */
  reward: number;
  /** The reward without it: a task counts as solved when this is >= 1. */
  rawReward: number;
  reason: string | null;
}

/** Why MiniWoB++ cannot be used here (its folder is missing), or null when it can. */
export function miniwobMissing(dir = MINIWOB_DIR): string | null {
  if (dir === MINIWOB_DIR) {
    const missing = sharedMissing('miniwob');
    if (missing !== null) return `${missing}: the MiniWoB++ tasks need it`;
  }
  if (!existsSync(join(dir, 'miniwob')) || !existsSync(join(dir, 'core', 'core.js'))) {
    return `MiniWoB++ is not at ${dir}${dir === MINIWOB_DIR ? ' (the shared folder beside the checkout)' : ''}: these tasks need it`;
  }
  return null;
}

/** Serves the MiniWoB++ folder as a web root: the tasks are at /miniwob/<task>.html. */
export function serveMiniwob(dir = MINIWOB_DIR): Promise<DirectoryServer> {
  return serveDirectory(dir);
}

/** The address of a task page, e.g. taskUrl(server, 'enter-date', 'miniwob.test'). */
export function taskUrl(server: DirectoryServer, task: string, host?: string): string {
  return server.url(`/miniwob/${task}.html`, host);
}

/**
 * Starts an episode on a loaded task page, in the page's main world: the seed makes its random problem repeatable,
 * the time limit fits an agent, and startEpisodeReal skips the "START" cover a person would click. Returns the task's
 * instruction as the page shows it.
 */
export async function startEpisode(page: Page, options: { seed: number | string; episodeMs?: number }): Promise<string> {
  await page.waitForFunction(() => typeof (globalThis as { core?: { startEpisodeReal?: unknown } }).core?.startEpisodeReal === 'function' && document.readyState === 'complete');
  // The page starts its own waiting episode on load (the cover); the harness takes over from there.
  await page.waitForFunction(() => (globalThis as { core?: { cover_div?: unknown } }).core?.cover_div != null);
  return page.evaluate(
    (seed, episodeMs) => {
      const page = globalThis as unknown as { core: { EPISODE_MAX_TIME: number; startEpisodeReal(): void }; Math: { seedrandom(seed: string): void } };
      page.core.EPISODE_MAX_TIME = episodeMs;
      page.Math.seedrandom(String(seed));
      page.core.startEpisodeReal();
      return document.getElementById('query')?.textContent ?? '';
    },
    options.seed,
    options.episodeMs ?? AGENT_EPISODE_MS,
  );
}

/** The episode's result as the page's globals hold it now. */
export function episodeResult(page: Page): Promise<EpisodeResult> {
  return page.evaluate(() => {
    const g = globalThis as unknown as { WOB_DONE_GLOBAL: boolean; WOB_REWARD_GLOBAL: number; WOB_RAW_REWARD_GLOBAL: number; WOB_REWARD_REASON: string | null };
    return { done: g.WOB_DONE_GLOBAL, reward: g.WOB_REWARD_GLOBAL, rawReward: g.WOB_RAW_REWARD_GLOBAL, reason: g.WOB_REWARD_REASON ?? null };
  });
}

/** Whether the page counts the episode as solved: done, with a raw reward of at least 1. */
export function solved(result: EpisodeResult): boolean {
  return result.done && result.rawReward >= 1;
}
