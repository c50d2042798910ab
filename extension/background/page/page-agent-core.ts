import type { PageAction, PageOutcome } from '../../../shared/perception/page-action';
import type { RefEntry } from '../../../shared/perception/ref-table';
import type { TaskFile } from '../../../shared/protocol';
import type { RequestWatch } from '../../platform/network-activity';
import type { TabActivityWatch } from '../../platform/tab-activity';
import type { TabChanges } from '../../platform/tab-changes';
import type { FramePorts } from '../frames/content-frames';
import type { PageInput } from '../input/page-input';
import type { SettleLimits, Settled } from './page-settle';
import type { TabMemory } from './tab-snapshot';
import type { TabPorts } from './tab-driver';

/** What the page agent is given, and what its parts (element actions, dialogs and downloads, search) share. */

export interface PageAgentDeps {
  frames: FramePorts;
  tabs: TabPorts;
  sleep: (ms: number) => Promise<void>;
  now?: () => number;
  /** Longest wait for a page to settle after an action. */
  settleMs?: number;
  /** Watches a tab's requests during an action, so the page's answers are waited for; none in unit tests. */
  watchRequests?: (tabId: number) => RequestWatch;
  /** Watches a tab's navigations and the tabs it opens during an action, for the verdict; none in unit tests. */
  watchActivity?: (tabId: number) => TabActivityWatch;
  /** Reports a tab's loads, navigations and answered requests, so settling waits on them instead of polling. */
  watchChanges?: (tabId: number) => TabChanges;
  /** Why the tab's page failed to load, when it shows the browser's error page. */
  loadFailure?: (tabId: number) => Promise<{ url: string; error: string } | undefined>;
  /** Trusted input, dialogs, file pickers and downloads through the debugger; none in unit tests (synthetic input). */
  input?: PageInput;
}

/** Who acts: the task (whose debugger attachment carries trusted input) and the files its user attached. */
export interface ActOptions {
  settleMs?: number;
  owner?: string;
  files?: readonly TaskFile[];
}

export type ElementOptions = ActOptions & { settleMs: number; watch: RequestWatch | undefined };

/** The page agent as its parts see it: its deps, a tab's numbers, settling a tab, and performing an action. */
export interface PageCore {
  readonly deps: PageAgentDeps;
  memory(tabId: number): TabMemory;
  settle(tabId: number, limits: SettleLimits, watch?: RequestWatch, pending?: () => boolean): Promise<Settled>;
  perform(tabId: number, action: PageAction, options: ActOptions & { settleMs: number }): Promise<PageOutcome>;
}

/** How long a page that an action sent elsewhere (a link, a form post) may load before the model is told it still loads. */
export const FOLLOW_LOAD_CAP_MS = 10_000;

export function label(n: number, entry: Pick<RefEntry, 'role' | 'name'>): string {
  // An element with no name is said to have none, as the snapshot writes it.
  return `[${n}] ${entry.role} ${entry.name ? JSON.stringify(entry.name) : 'unnamed'}`;
}
