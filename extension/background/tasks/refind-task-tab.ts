import { withoutHash } from '../../../shared/agent/web-address';
import type { AgentState, CallRecord } from '../../../shared/agent/agent-state';
import type { TaskRecord } from '../../../shared/protocol';

/** An open tab as re-finding needs it. */
export interface OpenTab {
  id: number;
  url: string;
}

/** The chrome.tabs calls re-finding needs, passed in so tests can drive it with fakes. */
export interface TaskTabPorts {
  /** Every open tab, in every window. */
  list(): Promise<OpenTab[]>;
  /** Opens the address in a new tab and resolves once it has loaded (or stopped waiting for it). */
  open(url: string): Promise<OpenTab>;
  sleep(ms: number): Promise<void>;
}

export interface RefindRequest {
  /** The page the task was on. */
  url: string;
  /** The tab id the task had before: taken when it still shows the same page. */
  previousTabId?: number | undefined;
  /** Tabs other active tasks work in: never taken over. */
  owned: ReadonlySet<number>;
  /**
   * How long to keep looking before opening a new tab: a browser that restores its last session opens those tabs over
   * its first seconds, and the task's page may be among them.
   */
  graceMs: number;
}

export interface RefoundTab {
  tabId: number;
  how: 'same' | 'found' | 'reopened';
}

/** The open tab showing `url`, not owned by another task: the same address first, then the same one without its #part. */
export function pickTaskTab(tabs: readonly OpenTab[], request: Pick<RefindRequest, 'url' | 'previousTabId' | 'owned'>): RefoundTab | undefined {
  const free = tabs.filter((tab) => !request.owned.has(tab.id));
  for (const same of [(tab: OpenTab) => tab.url === request.url, (tab: OpenTab) => withoutHash(tab.url) === withoutHash(request.url)]) {
    const matches = free.filter(same);
    const previous = matches.find((tab) => tab.id === request.previousTabId);
    if (previous) return { tabId: previous.id, how: 'same' };
    const first = matches[0];
    if (first) return { tabId: first.id, how: 'found' };
  }
  return undefined;
}

/** Finds the task's page among the open tabs, waiting out a session restore, or reopens it in a new tab. */
export async function refindTaskTab(ports: TaskTabPorts, request: RefindRequest): Promise<RefoundTab> {
  const step = 250;
  for (let waited = 0; ; waited += step) {
    const found = pickTaskTab(await ports.list(), request);
    if (found) return found;
    if (waited >= request.graceMs) break;
    await ports.sleep(step);
  }
  const opened = await ports.open(request.url);
  return { tabId: opened.id, how: 'reopened' };
}

/** Where a task continues after a restart: its page as last seen, else the page of its last step, else where it began. */
export function taskPageUrl(record: TaskRecord): string | undefined {
  return record.pageUrl ?? record.agent?.steps.at(-1)?.observation.url ?? record.agent?.startUrl;
}

/** How many actions the task has made: where a note about it goes among its steps. */
export function callCount(agent: AgentState | null): number {
  return (agent?.steps ?? []).reduce((sum, step) => sum + step.calls.length, 0);
}

/** The note shown among the task's steps after it was moved to a tab of the new browser session. */
export function restartNote(url: string, how: RefoundTab['how'], forgotten: number): string {
  const where =
    how === 'reopened'
      ? `its tab was gone, so Deputy reopened ${url} in a new tab and continued there`
      : `Deputy found ${url} open in a tab and continued there`;
  const secrets =
    forgotten > 0
      ? ` ${forgotten === 1 ? 'A value' : `${forgotten} values`} Deputy had seen on pages (shown as {{redacted_…}}) ${forgotten === 1 ? 'was' : 'were'} kept only in memory and forgotten for safety: an action that needs one says so instead of typing it.`
      : '';
  return `The browser restarted; ${where}.${secrets}`;
}

/** Tools whose effect is input on the page, which loading the page again loses. */
const INPUT_TOOLS: ReadonlySet<string> = new Set(['type', 'select', 'check']);

export const RELOADED_MESSAGE =
  'Not run: the browser restarted and the page was loaded again, so what was typed or chosen on it before is gone. Look at the page and fill it in again before doing this.';

/**
 * After a browser restart the task's page is loaded again. The calls still to run on it (one may be waiting for
 * approval) were decided on the page as it was: when input had been made on it since it was opened, that input is gone,
 * and submitting the form now would send it empty. Such calls are marked skipped, with the reason for the model, and
 * returned; calls on a page without such input run as decided.
 */
export function skipCallsOnLostInput(agent: AgentState): CallRecord[] {
  const last = agent.steps.at(-1);
  const pending = (last?.calls ?? []).filter((call) => call.status === 'proposed' || call.status === 'awaiting_approval');
  if (!last || pending.length === 0) return [];
  const url = withoutHash(last.observation.url);
  let input = false;
  for (let i = agent.steps.length - 1; i >= 0 && !input; i -= 1) {
    const step = agent.steps[i];
    if (!step || withoutHash(step.observation.url) !== url) break;
    input = step.calls.some((call) => INPUT_TOOLS.has(call.name) && (call.status === 'interrupted' || (call.status === 'finished' && call.result?.ok !== false)));
  }
  if (!input) return [];
  for (const call of pending) {
    call.status = 'skipped';
    call.result = { ok: false, content: RELOADED_MESSAGE };
  }
  return pending;
}
