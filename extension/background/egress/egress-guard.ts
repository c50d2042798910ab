import type { BlockedEgress, EgressScope } from '../../../shared/agent/egress';
import { inScope, originOf, originPattern, parseSitePattern, patternRegex, type SitePattern } from '../../../shared/agent/site-list';
import type { BlockedRequest, DnrRule } from '../../platform/egress-rules';
import { type Sealed, sealedRules } from './sealed-channels';

/** The browser calls the guard needs, passed in so tests can drive it with fakes. */
export interface GuardPorts {
  replaceRules(removeRuleIds: number[], addRules: DnrRule[]): Promise<void>;
  ruleIds(): Promise<number[]>;
  tabIds(): Promise<number[]>;
  reopen(tabId: number, url: string): Promise<void>;
  /** Keeps the guard's state across restarts of the worker (session storage: gone with the browser, like the rules). */
  load(): Promise<unknown>;
  save(state: unknown): Promise<void>;
  now(): number;
  /** Told when a tab becomes a task's, however late (the secret egress watch arms it). */
  adopted?(taskId: string, tabId: number): void;
}

interface TaskGuard {
  taskId: string;
  /** The tabs the task works in: the one it started in and every tab they opened. */
  tabs: number[];
  scope: EgressScope;
  slot: number;
  /** How many actions are under way that may open a tab (kept for callers; tabs born anywhere are covered anyway). */
  watching?: number;
  /** Channels closed while a secret the task typed is on its pages (see egress/sealed-channels.ts). */
  sealed?: Sealed;
}

/** A held request, with what only the worker keeps: the full address and the fields' values, to send it again. */
export interface HeldRequest extends BlockedEgress {
  url: string;
  formData: Record<string, string[]> | null;
  rawBody: boolean;
  at: number;
  taskId: string;
  /** A step told the model about it already (as an approval, or as a line of what the guard blocked). */
  reported?: boolean;
}

/** Our rules take ids from here up, a block of SLOT_SIZE per task, so they never collide with any other rule. */
const FIRST_ID = 100_000;
const SLOT_SIZE = 100;
/** Patterns per allow rule: one regular expression must stay small enough for the browser to accept. */
const PER_RULE = 8;
/** The last ids of a task's block hold the rules that seal channels while a secret is on its pages. */
const SEALED_AT = 88;
const HELD_TTL_MS = 5 * 60_000;

const BLOCK = { type: 'block' } as chrome.declarativeNetRequest.RuleAction;
const ALLOW = { type: 'allow' } as chrome.declarativeNetRequest.RuleAction;
type ResourceType = chrome.declarativeNetRequest.ResourceType;

function patternsOf(scope: EgressScope): SitePattern[] {
  const exact = scope.origins.map(originPattern);
  const patterns = scope.patterns.map(parseSitePattern);
  return [...exact, ...patterns].filter((p): p is SitePattern => p !== null);
}

/**
 * The session rules for one task. Its tabs may load pages (and frames may post forms, and pings go) only to the
 * approved origins. While an action that may open a tab runs (`watching`), a tab opened by it is covered from its
 * first request by a rule on every tab that did not exist before, until its opener is known; at other times the
 * user's new tabs are left alone. Allow rules for the approved origins outrank the blocks. Frames may still load from
 * anywhere (pages embed payment forms, maps and videos from other sites); what the task does inside them is judged by
 * their own origin.
 */
export function guardRules(task: Pick<TaskGuard, 'tabs' | 'scope' | 'slot' | 'watching' | 'sealed'>, otherTabs: number[]): DnrRule[] {
  const patterns = patternsOf(task.scope);
  if (patterns.length === 0 || task.tabs.length === 0) return [];
  const base = FIRST_ID + task.slot * SLOT_SIZE;
  const mine = { tabIds: task.tabs };
  // Every tab that exists now, the task's and everyone else's, is left out of the rule for new tabs: it covers only
  // tabs born after it, until the guard learns whose they are. -1 (requests of no tab) keeps the list from being empty.
  const newborn = { excludedTabIds: [...new Set([-1, ...otherTabs, ...task.tabs])] };
  const rules: DnrRule[] = [
    { id: base, priority: 1, action: BLOCK, condition: { ...mine, resourceTypes: ['main_frame'] } },
    { id: base + 1, priority: 1, action: BLOCK, condition: { ...mine, resourceTypes: ['sub_frame'], requestMethods: ['post'] } },
    { id: base + 2, priority: 1, action: BLOCK, condition: { ...mine, resourceTypes: ['ping'] } },
    // A tab born while the task runs is held on its first request until its opener is known, however late the page
    // opens it: a tab opened by one of the task's tabs is the task's (tabOpened), any other is the user's and reloaded.
    { id: base + 3, priority: 1, action: BLOCK, condition: { ...newborn, resourceTypes: ['main_frame' as const] } },
    ...sealedRules(task.tabs, task.sealed, base + SEALED_AT, SLOT_SIZE - SEALED_AT),
  ];
  let id = base + 10;
  for (let i = 0; i < patterns.length && id < base + SEALED_AT - 1; i += PER_RULE) {
    const regexFilter = patterns
      .slice(i, i + PER_RULE)
      .map((p) => `(?:${patternRegex(p).slice(1)})`)
      .join('|');
    const condition = { regexFilter: `^(?:${regexFilter})`, isUrlFilterCaseSensitive: false, resourceTypes: ['main_frame', 'sub_frame', 'ping'] as ResourceType[] };
    rules.push({ id, priority: 2, action: ALLOW, condition: { ...condition, ...mine } });
    rules.push({ id: id + 1, priority: 2, action: ALLOW, condition: { ...condition, ...newborn } });
    id += 2;
  }
  return rules;
}

function slotIds(slot: number): number[] {
  return Array.from({ length: SLOT_SIZE }, (_, i) => FIRST_ID + slot * SLOT_SIZE + i);
}

/**
 * The egress guard: while a task runs, the tabs it works in reach only the origins it is approved for, enforced by the
 * browser through declarativeNetRequest session rules (per request, redirect hops included). A blocked page load,
 * form post or new window becomes a held request that the task's step turns into an approval naming the destination
 * and the fields it would send; approved, it is sent again.
 */
export class EgressGuard {
  private readonly tasks = new Map<string, TaskGuard>();
  private held: HeldRequest[] = [];
  /** Tabs known to be nobody's task tab (the user's own), as of their creation. */
  private readonly userTabs = new Set<number>();
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The rules last put in force for each task's block of ids: the browser clears every tab's back/forward cache (and
   * its renderers' memory caches) at each update of an extension's rules, so rules that would not change are not sent
   * again (an action that may open a tab asks for its rules to be applied before and after it).
   */
  private readonly inForce = new Map<number, string>();

  constructor(private readonly ports: GuardPorts) {}

  /** Takes back the tasks a previous worker guarded; their rules are still in force (session rules outlive the worker). */
  async restore(): Promise<void> {
    const saved = (await this.ports.load().catch(() => null)) as { tasks?: TaskGuard[] } | null;
    for (const task of saved?.tasks ?? []) {
      if (typeof task?.taskId === 'string' && Array.isArray(task.tabs) && typeof task.slot === 'number') this.tasks.set(task.taskId, task);
    }
    await this.serial(async () => {
      const ours = (await this.ports.ruleIds()).filter((id) => id >= FIRST_ID);
      const keep = new Set([...this.tasks.values()].flatMap((t) => slotIds(t.slot)));
      const stale = ours.filter((id) => !keep.has(id));
      if (stale.length > 0) await this.ports.replaceRules(stale, []);
    });
  }

  /** Drops the guard of every task not in the list (tasks that ended while no worker ran). */
  async retain(taskIds: readonly string[]): Promise<void> {
    for (const taskId of [...this.tasks.keys()]) if (!taskIds.includes(taskId)) await this.end(taskId);
  }

  /** Sets where a task's tabs may go, starting the guard for it (in `tabId`) when it was not running. */
  async setScope(taskId: string, tabId: number, scope: EgressScope): Promise<void> {
    const task = this.tasks.get(taskId) ?? { taskId, tabs: [], scope, slot: this.freeSlot() };
    if (!task.tabs.includes(tabId)) task.tabs.push(tabId);
    task.scope = { origins: [...scope.origins], patterns: [...scope.patterns] };
    this.tasks.set(taskId, task);
    await this.apply(task);
  }

  /**
   * Covers tabs born while an action of the task runs (a link with a target, window.open): until the returned function
   * is called, a new tab's first request is held unless it goes to an approved origin.
   */
  async watchNewTabs(taskId: string): Promise<() => Promise<void>> {
    const task = this.tasks.get(taskId);
    if (!task) return () => Promise.resolve();
    task.watching = (task.watching ?? 0) + 1;
    await this.apply(task);
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      task.watching = Math.max(0, (task.watching ?? 1) - 1);
      if (this.tasks.get(taskId) === task) await this.apply(task);
    };
  }

  /** A tab becomes one of the task's (it switched there with the user's approval, or opened it). */
  async adopt(taskId: string, tabId: number): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task || task.tabs.includes(tabId)) return;
    task.tabs.push(tabId);
    this.userTabs.delete(tabId);
    this.ports.adopted?.(taskId, tabId);
    // Every task's rule for new tabs must now leave this one out: it is this task's, reaching this task's origins only.
    await this.applyAll();
  }

  /** Closes (or opens again, with null) the task's channels whose content cannot be read, but towards `origins`. */
  async seal(taskId: string, sealed: Sealed | null): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task) return;
    if (sealed === null) delete task.sealed;
    else task.sealed = { origins: [...sealed.origins], everything: sealed.everything };
    await this.apply(task);
  }

  tabsOf(taskId: string): number[] {
    return [...(this.tasks.get(taskId)?.tabs ?? [])];
  }

  ownerOf(tabId: number): string | undefined {
    return [...this.tasks.values()].find((task) => task.tabs.includes(tabId))?.taskId;
  }

  async end(taskId: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task) return;
    this.tasks.delete(taskId);
    this.held = this.held.filter((h) => h.taskId !== taskId);
    await this.serial(async () => {
      this.inForce.delete(task.slot);
      await this.ports.replaceRules(slotIds(task.slot), []);
    });
    await this.persist();
  }

  /** A tab was opened: one opened by a task's tab is that task's from now on; any other is the user's. */
  async tabOpened(tabId: number, openerTabId: number | undefined): Promise<void> {
    const owner = openerTabId === undefined ? undefined : this.ownerOf(openerTabId);
    if (owner !== undefined) {
      await this.adopt(owner, tabId);
      return;
    }
    if (this.ownerOf(tabId) !== undefined || this.userTabs.has(tabId)) return;
    this.userTabs.add(tabId);
    await this.applyAll();
    // The user's own tab may have been held in the moment before it was known to be theirs: load it again.
    for (const request of this.held.filter((h) => h.tabId === tabId)) {
      this.held = this.held.filter((h) => h !== request);
      if (request.method === 'GET' && request.type === 'main_frame') await this.ports.reopen(tabId, request.url).catch(() => undefined);
    }
  }

  async tabClosed(tabId: number): Promise<void> {
    this.userTabs.delete(tabId);
    for (const task of this.tasks.values()) {
      if (!task.tabs.includes(tabId)) continue;
      task.tabs = task.tabs.filter((id) => id !== tabId);
      await this.apply(task);
    }
  }

  /** The browser blocked a request: keep it for the task whose tab made it, when the guard is what blocked it. */
  async requestBlocked(request: BlockedRequest): Promise<void> {
    const origin = originOf(request.url);
    if (origin === null) return;
    const owner = this.ownerOf(request.tabId);
    const task = owner === undefined ? undefined : this.tasks.get(owner);
    const ours = request.type === 'main_frame' || request.type === 'ping' || request.method === 'POST';
    if (!ours) return;
    if (!task) {
      // A tab of the user's caught in the moment before the guard knew it: load it again once the rules know it.
      if (this.userTabs.has(request.tabId) && request.type === 'main_frame' && request.method === 'GET') {
        await this.applyAll();
        await this.ports.reopen(request.tabId, request.url).catch(() => undefined);
        return;
      }
      // Not known yet (its creation event may come next): kept under no task until tabOpened decides.
    } else if (inScope(request.url, task.scope)) {
      // Blocked by someone else's rule (another extension): not the guard's to ask about.
      return;
    }
    const at = this.ports.now();
    this.held = this.held.filter((h) => at - h.at < HELD_TTL_MS);
    const address = request.url.replace(/[?#].*$/, '');
    this.held.push({
      id: request.requestId,
      url: request.url,
      address,
      origin,
      withQuery: address !== request.url,
      method: request.method,
      type: request.type,
      fields: Object.keys(request.formData ?? {}),
      tabId: request.tabId,
      newTab: false,
      formData: request.formData,
      rawBody: request.rawBody,
      at,
      taskId: owner ?? '',
    });
  }

  /**
   * The first page load or form post the guard held in the task's tabs since `since` (pings are held quietly: they
   * carry nothing the task typed). A request from a tab the task did not start in is marked as from a new tab.
   */
  heldSince(taskId: string, since: number, startTabId: number): HeldRequest | undefined {
    const task = this.tasks.get(taskId);
    if (!task) return undefined;
    const found = this.held.find((h) => h.at >= since && h.type !== 'ping' && !h.reported && task.tabs.includes(h.tabId));
    if (found) found.reported = true;
    return found ? { ...found, taskId, newTab: found.tabId !== startTabId } : undefined;
  }

  /**
   * The page loads and form posts the guard held in the task's tabs that no step has told of yet (a window the page
   * opened between steps or after the action's look, or beside the one an approval asked about), each returned once.
   */
  unreported(taskId: string, startTabId: number): HeldRequest[] {
    const task = this.tasks.get(taskId);
    if (!task) return [];
    const found = this.held.filter((h) => h.type !== 'ping' && !h.reported && task.tabs.includes(h.tabId));
    for (const h of found) h.reported = true;
    return found.map((h) => ({ ...h, taskId, newTab: h.tabId !== startTabId }));
  }

  /** Forgets a held request once it was approved or refused. */
  release(id: string): void {
    this.held = this.held.filter((h) => h.id !== id);
  }

  private freeSlot(): number {
    const used = new Set([...this.tasks.values()].map((t) => t.slot));
    let slot = 0;
    while (used.has(slot)) slot += 1;
    return slot;
  }

  private async apply(task: TaskGuard): Promise<void> {
    await this.serial(async () => {
      const tabs = await this.ports.tabIds();
      const current = this.tasks.get(task.taskId);
      if (current !== task) return;
      const rules = guardRules(task, tabs);
      const key = JSON.stringify(rules);
      if (this.inForce.get(task.slot) === key) return;
      // Forgotten first: an update that fails midway leaves rules that must be sent again.
      this.inForce.delete(task.slot);
      await this.ports.replaceRules(slotIds(task.slot), rules);
      this.inForce.set(task.slot, key);
    });
    await this.persist();
  }

  private async applyAll(): Promise<void> {
    for (const task of this.tasks.values()) await this.apply(task);
  }

  private persist(): Promise<void> {
    return this.ports.save({ tasks: [...this.tasks.values()].map(({ watching: _watching, ...task }) => task) }).catch(() => undefined);
  }

  /** Rule changes one after another: two updates of the same ids must not interleave. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
