import { readdir } from 'node:fs/promises';
import { AGENT_EPISODE_MS, episodeResult, miniwobMissing, serveMiniwob, solved, startEpisode, taskUrl } from '../lib/miniwob-harness';
import { EXIT, ExitError } from '../task/exit-codes';
import type { EvalTask, OpenSuite } from './eval-suite';

/** The host name the pages are served under in the eval's browser (mapped to loopback by the eval's host rules). */
const HOST = 'miniwob.test';

/** What Deputy is told: the page itself states the task (in its instruction box), as MiniWoB++ poses it. */
const TEXT = 'Do the task that this page states in its instruction at the top, on this page.';

/**
 * MiniWoB++ from a checkout (the public suite beside the project by default, or the user's `--suite-dir`): each
 * page is loaded, seeded and started with an episode long enough for a model-driven agent (five minutes, or the
 * task's time limit when longer), and judged by the page's own reward (a raw reward of at least 1 counts as solved).
 */
export async function openMiniwobSuite(dir: string): Promise<OpenSuite> {
  const missing = miniwobMissing(dir);
  if (missing) throw new ExitError(`${missing}. Point --suite-dir at a MiniWoB++ checkout (the folder that holds miniwob/ and core/).`, EXIT.usage);
  const names = (await readdir(`${dir}/miniwob`)).filter((file) => file.endsWith('.html')).map((file) => file.slice(0, -'.html'.length)).sort();
  const server = await serveMiniwob(dir);
  const tasks = names.map(
    (name): EvalTask => ({
      id: `miniwob/${name}`,
      suite: 'miniwob',
      text: TEXT,
      flow: 'task',
      async prepare(target, { seed, timeoutMs }) {
        await target.goto(taskUrl(server, name, HOST), { waitUntil: 'load' });
        // Never shorter than the harness's agent episode; longer when the task may take longer.
        await startEpisode(target, { seed, episodeMs: Math.max(AGENT_EPISODE_MS, timeoutMs) });
      },
      async judge(target) {
        const result = await episodeResult(target).catch(() => null);
        if (!result || result.done === undefined) return { solved: false, reason: 'The task page was left (no episode to read a reward from).' };
        if (!result.done) return { solved: false, reason: 'The episode did not end: the task was not submitted.', score: result.rawReward ?? 0 };
        return {
          solved: solved(result),
          reason: `The page's raw reward is ${result.rawReward}${result.reason ? ` (${result.reason})` : ''}.`,
          score: result.rawReward,
        };
      },
    }),
  );
  return { name: 'miniwob', tasks, close: () => server.close() };
}
