import type { StepRecord } from './agent-state';
import type { PageStatus } from './environment';

export interface RecoveryLimits {
  /** The same action (tool and arguments) this many times in a row: warn, then stop. */
  repeatWarn: number;
  repeatStop: number;
  /** Pages visited as A, B, A, B...: warn at this many alternations, stop at the second. */
  oscillationWarn: number;
  oscillationStop: number;
  /** Steps in a row whose page did not change at all. */
  stagnationWarn: number;
  stagnationStop: number;
  /** The same error this many times in a row. */
  errorWarn: number;
  errorStop: number;
  /** Replies in a row without any tool call. */
  emptyWarn: number;
  emptyStop: number;
  /** Scrolls in a row with no other action in between: the model is nudged every this many (never stopped). */
  scrollNudge: number;
  /** Observations in a row of a page that could not be loaded, the model's own attempts between them. */
  unreachableWarn: number;
  unreachableStop: number;
}

export const DEFAULT_RECOVERY_LIMITS: RecoveryLimits = {
  repeatWarn: 3,
  repeatStop: 5,
  oscillationWarn: 4,
  oscillationStop: 6,
  stagnationWarn: 3,
  stagnationStop: 6,
  errorWarn: 3,
  errorStop: 5,
  emptyWarn: 1,
  emptyStop: 3,
  scrollNudge: 8,
  unreachableWarn: 2,
  unreachableStop: 4,
};

export interface RecoveryVerdict {
  /** Plain sentences for the model's next turn. */
  notices: string[];
  /** Set when the task must end: the reason the user reads. */
  stop: string | null;
}

const CONTROL_TOOLS = new Set(['update_plan', 'ask_user', 'done']);

function pageKey(url: string): string {
  return url.replace(/#.*$/, '');
}

function signature(name: string, args: string): string {
  try {
    return `${name} ${JSON.stringify(JSON.parse(args))}`;
  } catch {
    return `${name} ${args}`;
  }
}

function trailingRun<T>(items: T[], same: (a: T, b: T) => boolean): number {
  const last = items.at(-1);
  if (last === undefined) return 0;
  let count = 0;
  for (let i = items.length - 1; i >= 0 && same(items[i] as T, last); i -= 1) count += 1;
  return count;
}

/** How many of the last visits alternate between the last two pages: A, B, A, B gives 4. */
function alternatingTail(visits: string[]): number {
  if (visits.length < 2) return 0;
  const pair = [visits.at(-1), visits.at(-2)];
  let count = 0;
  for (let i = visits.length - 1; i >= 0 && visits[i] === pair[count % 2]; i -= 1) count += 1;
  return count;
}

/**
 * Looks at the finished steps and the page just observed for the ways agents get stuck: the same action again and
 * again on a page it does not change, going back and forth between two pages, a page that no longer changes, the same
 * error, replies with no tool call, a long run of scrolls, and a page that stays unreachable. Below the stop limit the
 * model is told plainly; past it the task ends with the reason.
 */
export function detectTrouble(
  steps: StepRecord[],
  current: { url: string; hash: string; status?: PageStatus | undefined },
  limits: RecoveryLimits,
): RecoveryVerdict {
  const notices: string[] = [];
  let stop: string | null = null;
  const verdict = (count: number, warn: number, halt: number, notice: string, reason: string): void => {
    if (count >= halt) stop ??= reason;
    else if (count >= warn) notices.push(notice);
  };

  const isAction = (c: StepRecord['calls'][number]): boolean => !CONTROL_TOOLS.has(c.name) && c.status !== 'skipped';
  const actions = steps.flatMap((s) => s.calls.filter(isAction));
  // What the page looked like after each step: the next step's observation, or the one just taken.
  const hashAfter = (i: number): string => steps[i + 1]?.observation.hash ?? current.hash;
  // The same call on another page is a different action (ref 1 on two pages is two elements), so the page is part of
  // it. An action after which the page changed made progress (a scroll that showed more of a feed), so it is no repeat.
  const attempts = steps.flatMap((s, i) =>
    s.calls.filter(isAction).map((c) => ({ key: `${signature(c.name, c.arguments)} on ${pageKey(s.observation.url)}`, progressed: hashAfter(i) !== s.observation.hash })),
  );
  const repeats = attempts.at(-1)?.progressed === false ? trailingRun(attempts, (a, b) => a.key === b.key && !a.progressed) : 0;
  const lastSignature = attempts.at(-1)?.key ?? '';
  verdict(
    repeats,
    limits.repeatWarn,
    limits.repeatStop,
    `You have done the same action ${repeats} times in a row (${lastSignature}). It is not working: try something different, or call done if the task cannot be finished.`,
    `Stopped: the same action was repeated ${repeats} times without progress (${lastSignature}).`,
  );

  const visits: string[] = [];
  for (const url of [...steps.map((s) => s.observation.url), current.url].map(pageKey)) if (visits.at(-1) !== url) visits.push(url);
  const alternations = alternatingTail(visits);
  // Named in the order they were first visited, which is how the user remembers the pages.
  const [a, b] = [visits[visits.length - alternations] ?? '', visits[visits.length - alternations + 1] ?? ''];
  verdict(
    alternations,
    limits.oscillationWarn,
    limits.oscillationStop,
    `You are going back and forth between ${a} and ${b}. Stop alternating: decide what you need from each page and take a different path.`,
    `Stopped: the task went back and forth between ${a} and ${b} ${alternations} times without progress.`,
  );

  const hashes = [...steps.map((s) => s.observation.hash), current.hash];
  const unchanged = trailingRun(hashes, (x, y) => x === y) - 1;
  verdict(
    unchanged,
    limits.stagnationWarn,
    limits.stagnationStop,
    `The page has not changed for ${unchanged} steps. Your actions are having no effect: check the refs, scroll, or try another approach.`,
    `Stopped: the page did not change for ${unchanged} steps in a row.`,
  );

  const failures: string[] = [];
  for (const call of actions) {
    if (call.result?.ok === false) failures.push(call.result.content);
    else failures.length = 0;
  }
  const errors = trailingRun(failures, (x, y) => x === y);
  verdict(
    errors,
    limits.errorWarn,
    limits.errorStop,
    `The same error happened ${errors} times in a row: "${(failures.at(-1) ?? '').slice(0, 200)}". Do not repeat the failing call; change approach.`,
    `Stopped: the same error happened ${errors} times in a row: ${(failures.at(-1) ?? '').slice(0, 200)}`,
  );

  // Scrolling through a long list is progress, but a long run of it with nothing else means the model may be looking for
  // something the page does not show that way.
  const scrolls = trailingRun(actions.map((c) => c.name === 'scroll'), (x, y) => x === y && x);
  const scrolling = actions.at(-1)?.name === 'scroll' ? scrolls : 0;
  if (limits.scrollNudge > 0 && scrolling > 0 && scrolling % limits.scrollNudge === 0 && current.status !== 'unreachable') {
    notices.push(
      `You have scrolled ${scrolling} times in a row. If what you are looking for has not appeared, use find to search the whole page, or try another way (a search box, a filter, a link); if it has, act on it.`,
    );
  }

  const statuses = [...steps.map((s) => s.observation.status ?? 'ready'), current.status ?? 'ready'];
  const unreachable = trailingRun(statuses, (x, y) => x === y && x === 'unreachable');
  verdict(
    unreachable,
    limits.unreachableWarn,
    limits.unreachableStop,
    `The page ${current.url} has still not loaded (${unreachable} times). If reloading or waiting does not help, try another address, or call done and say the site cannot be reached.`,
    `Stopped: ${current.url} could not be reached, ${unreachable} times in a row, after the model's own attempts to get there.`,
  );

  const finished = steps.filter((s) => s.reply !== null);
  const empty = trailingRun(finished.map((s) => s.calls.length === 0), (x, y) => x === y && x);
  const lastEmpty = finished.at(-1)?.calls.length === 0 ? empty : 0;
  verdict(
    lastEmpty,
    limits.emptyWarn,
    limits.emptyStop,
    'Your last reply did not call any tool. Every reply must call a tool: act on the page, update_plan, ask_user, or done.',
    `Stopped: the model replied ${lastEmpty} times in a row without calling a tool.`,
  );

  return { notices, stop };
}
