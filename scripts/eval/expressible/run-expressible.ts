import { readdir } from 'node:fs/promises';
import picomatch from 'picomatch';
import { miniwobMissing, solved } from '../../lib/miniwob-harness';
import { ExpressibleDriver } from './expressible-driver';
import { Unsolvable } from './solver-kit';
import { FORM_SOLVERS, type Solver } from './solvers-forms';
import { WIDGET_SOLVERS } from './solvers-widgets';
import { MORE_SOLVERS } from './solvers-more';
import { SIGHT_SOLVERS } from './solvers-sight';
import { PERCEPT_SOLVERS } from './solvers-percept';
import { FAMILY_SOLVERS } from './solvers-families';
import { SIGHT9_SOLVERS } from './solvers-sight9';
import { DOM9_SOLVERS } from './solvers-dom9';
import { A10_SOLVERS } from './solvers-a10';
import { B10_SOLVERS } from './solvers-b10';
import { UNSOLVED_WHY } from './unsolved-why';
import { P11_SOLVERS } from './solvers-p11';

/** Every family's scripted solution, by page name. */
export const SOLVERS: Record<string, Solver> = { ...FORM_SOLVERS, ...WIDGET_SOLVERS, ...MORE_SOLVERS, ...SIGHT_SOLVERS, ...FAMILY_SOLVERS, ...PERCEPT_SOLVERS, ...SIGHT9_SOLVERS, ...DOM9_SOLVERS, ...A10_SOLVERS, ...B10_SOLVERS, ...P11_SOLVERS };

export interface PageVerdict {
  page: string;
  solved: boolean;
  /** Why not (or the reward when solved). */
  reason: string;
  ms: number;
}

const PAGE_LIMIT_MS = 60_000;

async function solveOne(driver: ExpressibleDriver, page: string, seed: string): Promise<PageVerdict> {
  const began = Date.now();
  const solver = SOLVERS[page];
  if (!solver) return { page, solved: false, reason: `no scripted solution: ${UNSOLVED_WHY[page] ?? 'none written yet, and no reason recorded in unsolved-why.ts'}`, ms: 0 };
  const episode = await driver.open(page, seed);
  try {
    const kit = await episode.begin();
    let timer: NodeJS.Timeout | undefined;
    const failure = await Promise.race([
      solver(kit).then(
        () => null,
        (error: unknown) => (error instanceof Unsolvable ? error.message : `the script broke: ${error instanceof Error ? error.message : String(error)}`),
      ),
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no end within ${PAGE_LIMIT_MS / 1000} s`), PAGE_LIMIT_MS))),
    ]);
    clearTimeout(timer);
    if (failure && process.env.EXPRESSIBLE_DEBUG) process.stderr.write(`--- ${page}: what the solution was sent last\n${kit.text}\n`);
    if (failure) await episode.stop();
    else await kit.finish(true, 'Done as the page asked.');
    const result = await episode.result();
    const ms = Date.now() - began;
    if (solved(result)) return { page, solved: true, reason: `raw reward ${result.rawReward}`, ms };
    if (failure) return { page, solved: false, reason: failure, ms };
    return { page, solved: false, reason: result.done ? `the page's raw reward is ${result.rawReward}` : 'the episode did not end', ms };
  } finally {
    await episode.close();
  }
}

/**
 * Opens every MiniWoB++ page (or those `patterns` keep) in real Chromium through Deputy's snapshot and tools, solves
 * it with its family's scripted solution, and lets the page's reward decide. Prints a line per page and the total.
 */
export async function runExpressible(options: { dir: string; patterns: string[] | null; seed: string; headless?: boolean }, say: (line: string) => void): Promise<PageVerdict[]> {
  const missing = miniwobMissing(options.dir);
  if (missing) {
    say(`Expressibility skipped: ${missing}.`);
    return [];
  }
  const keep = options.patterns ? picomatch(options.patterns) : () => true;
  const pages = (await readdir(`${options.dir}/miniwob`))
    .filter((file) => file.endsWith('.html'))
    .map((file) => file.slice(0, -'.html'.length))
    .filter((page) => keep(page))
    .sort();
  const driver = await ExpressibleDriver.start(options.dir, options.headless === undefined ? {} : { headless: options.headless });
  const verdicts: PageVerdict[] = [];
  try {
    for (const page of pages) {
      const verdict = await solveOne(driver, page, `${options.seed}/${page}`).catch((error: unknown) => ({
        page,
        solved: false,
        reason: `the page could not be driven: ${error instanceof Error ? error.message : String(error)}`,
        ms: 0,
      }));
      verdicts.push(verdict);
      say(`${verdict.solved ? 'solved    ' : 'not solved'} ${page}: ${verdict.reason.split('\n')[0]?.slice(0, 200)}`);
    }
  } finally {
    await driver.close();
  }
  const count = verdicts.filter((v) => v.solved).length;
  say(`Expressible: ${count} of ${verdicts.length} pages solved through Deputy's snapshot and tools (${verdicts.length ? Math.round((count / verdicts.length) * 100) : 0}%), seed ${options.seed}.`);
  return verdicts;
}
