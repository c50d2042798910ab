import type { ActionEffect } from '../../shared/agent/action-effect';
import { AppError, describeZodError, toErrorShape } from '../../shared/errors';
import type { ActResult, ActTarget, ElementAction } from '../../shared/perception/element-action';
import { PageAction, type PageActionInput, type PageOutcome } from '../../shared/perception/page-action';
import { RefTable, type RefEntry } from '../../shared/perception/ref-table';
import type { RequestWatch } from '../platform/network-activity';
import { callFrame, type FramePorts } from './content-frames';
import { settleTab, type SettleLimits, type Settled } from './page-settle';
import { snapshotTab, type SnapshotOptions, type TabMemory, type TabSnapshot } from './tab-snapshot';
import { NAVIGATION_CAP_MS, runTabAction, type TabPorts } from './tab-driver';

export interface PageAgentDeps {
  frames: FramePorts;
  tabs: TabPorts;
  sleep: (ms: number) => Promise<void>;
  now?: () => number;
  /** Longest wait for a page to settle after an action. */
  settleMs?: number;
  /** Watches a tab's requests during an action, so the page's answers are waited for; none in unit tests. */
  watchRequests?: (tabId: number) => RequestWatch;
  /** Why the tab's page failed to load, when it shows the browser's error page. */
  loadFailure?: (tabId: number) => Promise<{ url: string; error: string } | undefined>;
}

/** How long a page that an action sent elsewhere (a link, a form post) may load before the model is told it still loads. */
const FOLLOW_LOAD_CAP_MS = 10_000;
/** How long a search may read the page before it answers with what it found so far. */
const FIND_BUDGET_MS = 4000;

/** Stands for a document from before a restart: never equal to a live content script's token. */
const RESTORED_TOKEN = 'restored-after-restart';

/** Errors of the message transport, as opposed to errors the content script reported about the action. */
const TRANSPORT_CODES = new Set(['unavailable', 'timeout', 'disconnected', 'bad_request']);

function label(n: number, entry: Pick<RefEntry, 'role' | 'name'>): string {
  return `[${n}] ${entry.role}${entry.name ? ` ${JSON.stringify(entry.name)}` : ''}`;
}

/**
 * The tab as the agent drives it: snapshots with tab-wide numbers, actions by number in whichever frame holds the
 * element, a stale number re-found only on a unique match, tab navigation, and evidence for each action. This is the
 * one module the agent core's web environment calls.
 */
export class PageAgent {
  private readonly memories = new Map<number, TabMemory>();

  constructor(private readonly deps: PageAgentDeps) {}

  private memory(tabId: number): TabMemory {
    let memory = this.memories.get(tabId);
    if (!memory) {
      memory = { refs: new RefTable(), last: undefined };
      this.memories.set(tabId, memory);
    }
    return memory;
  }

  /** Forgets a closed tab's numbers. */
  forget(tabId: number): void {
    this.memories.delete(tabId);
  }

  /**
   * Gives a tab back the numbers of a snapshot taken before a restart (of the worker or the browser), for the
   * elements of its top page. Their document is gone, so the content script acts on one only when the same page has a
   * unique element with the same role and name; otherwise the action fails with the closest candidates.
   */
  restoreRefs(tabId: number, url: string, elements: readonly { ref: number; role: string; name: string; frame?: number | undefined }[]): number {
    const refs = this.memory(tabId).refs;
    let restored = 0;
    for (const element of elements) {
      // Every old number stays taken, restored or not, so an old [N] never names a new element.
      refs.reserveThrough(element.ref);
      // Frame ids are not kept across a browser restart: an element in a frame is left to a new snapshot.
      if (element.frame !== 0) continue;
      if (refs.restore(element.ref, { frameId: 0, token: RESTORED_TOKEN, local: element.ref, role: element.role, name: element.name, url })) restored += 1;
    }
    return restored;
  }

  snapshot(tabId: number, options: SnapshotOptions): Promise<TabSnapshot> {
    return snapshotTab(this.deps.frames, tabId, this.memory(tabId), options);
  }

  /**
   * What an action on an element would do, asked of the frame that holds it (the focused element's frame for a key
   * with no element): the link it follows, the form it submits and where. Undefined when the page cannot tell (the
   * element is gone, the frame does not answer): the gate then decides without it, the egress guard still in place.
   */
  async effect(tabId: number, ref: number | undefined, action: ElementAction): Promise<ActionEffect | undefined> {
    const entry = ref === undefined ? undefined : this.memory(tabId).refs.lookup(ref);
    if (ref !== undefined && !entry) return undefined;
    const target = entry ? { ref: entry.local, token: entry.token, role: entry.role, name: entry.name, url: entry.url } : null;
    // A key pressed without an element goes to the top frame's focus, as `act` sends it.
    return callFrame(this.deps.frames, tabId, entry?.frameId ?? 0, 'effect', { target, action }, 4000).catch(() => undefined);
  }

  /** Shows the user which element a number names; false when it is no longer on the page. */
  async highlight(tabId: number, ref: number, durationMs = 1500): Promise<boolean> {
    const entry = this.memory(tabId).refs.lookup(ref);
    if (!entry) throw new AppError('not_found', `There is no element [${ref}] in this tab's snapshots: take a snapshot and use a number from it`);
    const target = { ref: entry.local, token: entry.token, role: entry.role, name: entry.name, url: entry.url };
    const reply = await callFrame(this.deps.frames, tabId, entry.frameId, 'highlight', { target, durationMs });
    return reply.found;
  }

  /** Performs one action; failures come back as `ok: false` with a message saying what to do, never as a throw. */
  async act(tabId: number, input: PageActionInput | Record<string, unknown>, options: { settleMs?: number } = {}): Promise<PageOutcome> {
    const parsed = PageAction.safeParse(input);
    if (!parsed.success) {
      return { ok: false, message: `Invalid action: ${describeZodError(parsed.error)}`, changed: false, evidence: [] };
    }
    try {
      return await this.perform(tabId, parsed.data, options.settleMs ?? this.deps.settleMs ?? 3000);
    } catch (error) {
      const shape = toErrorShape(error);
      return { ok: false, message: shape.message, changed: false, evidence: [] };
    }
  }

  /**
   * Waits for the tab to settle: loaded (up to `limits.loadCapMs`), then its answers in and its DOM quiet (up to
   * `limits.quietCapMs`). With a watch of its requests, an action's fetches are waited for too.
   */
  settle(tabId: number, limits: SettleLimits, watch?: RequestWatch): Promise<Settled> {
    return settleTab(
      {
        tabState: (id) => this.deps.tabs.state(id),
        ...(watch ? { inFlight: () => watch.inFlight(), documentRequested: () => watch.documentRequested() } : {}),
        domQuiet: (id, options) => callFrame(this.deps.frames, id, 0, 'settle', options, options.capMs + 3000).catch(() => undefined),
        sleep: this.deps.sleep,
        now: this.deps.now ?? Date.now,
      },
      tabId,
      limits,
    );
  }

  private async perform(tabId: number, action: PageAction, settleMs: number): Promise<PageOutcome> {
    const watch = this.deps.watchRequests?.(tabId);
    try {
      return await this.performWatched(tabId, action, settleMs, watch);
    } finally {
      watch?.stop();
    }
  }

  private async performWatched(tabId: number, action: PageAction, settleMs: number, watch: RequestWatch | undefined): Promise<PageOutcome> {
    switch (action.kind) {
      case 'click':
        return this.onElement(tabId, action.ref, { kind: 'click', double: action.double }, settleMs, watch);
      case 'type':
        return this.onElement(tabId, action.ref, { kind: 'type', text: action.text, clear: action.clear, submit: action.submit }, settleMs, watch);
      case 'select':
        return this.onElement(tabId, action.ref, { kind: 'select', values: action.values }, settleMs, watch);
      case 'check':
        return this.onElement(tabId, action.ref, { kind: 'check', checked: action.checked }, settleMs, watch);
      case 'hover':
        return this.onElement(tabId, action.ref, { kind: 'hover' }, settleMs, watch);
      case 'focus':
        return this.onElement(tabId, action.ref, { kind: 'focus' }, settleMs, watch);
      case 'press':
        return this.onElement(tabId, action.ref, { kind: 'press', key: action.key }, settleMs, watch);
      case 'scroll': {
        if (action.ref === undefined && action.direction === undefined) {
          throw new AppError('invalid_params', 'scroll needs a direction, or the ref of an element to scroll into view');
        }
        const scroll: ElementAction = action.direction
          ? { kind: 'scroll', direction: action.direction, pages: action.pages }
          : { kind: 'scroll', pages: action.pages };
        return this.onElement(tabId, action.ref, scroll, settleMs, watch);
      }
      case 'find':
        return this.find(tabId, action.text, action.budgetMs);
      case 'wait':
        return this.wait(tabId, action.seconds, action.text, watch);
      default:
        return runTabAction(
          {
            tabs: this.deps.tabs,
            sleep: this.deps.sleep,
            settle: (id) => this.settle(id, { loadCapMs: NAVIGATION_CAP_MS, quietCapMs: settleMs }, id === tabId ? watch : undefined),
            loadFailure: async (id) => (await this.deps.loadFailure?.(id))?.error,
          },
          tabId,
          action,
        );
    }
  }

  private async onElement(tabId: number, ref: number | undefined, action: ElementAction, settleMs: number, watch: RequestWatch | undefined): Promise<PageOutcome> {
    const memory = this.memory(tabId);
    const entry = ref === undefined ? undefined : memory.refs.lookup(ref);
    if (ref !== undefined && !entry) {
      throw new AppError(
        'not_found',
        `There is no element [${ref}] in this tab's snapshots${memory.refs.lastRef > 0 ? ` (numbers go up to ${memory.refs.lastRef})` : ''}: take a snapshot and use a number from it`,
      );
    }
    const before = await this.deps.tabs.state(tabId);
    const frameId = entry?.frameId ?? 0;
    const target = entry ? { ref: entry.local, token: entry.token, role: entry.role, name: entry.name, url: entry.url } : null;
    let result: ActResult;
    try {
      result = await this.callUntilReady(tabId, frameId, { target, action, settleMs });
    } catch (error) {
      const shape = toErrorShape(error);
      if (TRANSPORT_CODES.has(shape.code) && !shape.message.includes('[@]')) return this.afterLostFrame(tabId, ref, entry, before?.url, shape.message, settleMs, watch);
      const who = ref !== undefined && entry ? label(ref, entry) : 'the page';
      const message = shape.message.includes('[@]') ? shape.message.replaceAll('[@]', who) : `Could not ${action.kind} ${who}: ${shape.message}`;
      return { ok: false, message: message.charAt(0).toUpperCase() + message.slice(1), changed: false, evidence: [] };
    }
    const who = ref !== undefined && entry ? label(ref, entry) : 'the page';
    if (result.candidates) {
      const candidates = result.candidates.map((c) => label(memory.refs.numberFor({ frameId, token: result.token, url: result.url, local: c.ref, role: c.role, name: c.name }), c));
      return {
        ok: false,
        message: `Element ${who} is gone; ${candidates.length > 0 ? `closest candidates: ${candidates.join(', ')}` : 'nothing like it is on the page now'}. Take a new snapshot before acting`,
        changed: false,
        evidence: [],
      };
    }
    const evidence = [...result.evidence];
    let subject = who;
    if (result.replacedBy !== undefined && entry) {
      const n = memory.refs.numberFor({ ...entry, token: result.token, url: result.url, local: result.replacedBy });
      subject = label(n, entry);
      evidence.unshift(`[${ref}] had been re-rendered; acted on the same element, now [${n}]`);
    }
    // The frame's DOM is quiet; the tab may have started loading another page (a link, a form post) or be waiting for
    // answers the action asked for (suggestions, search results): wait for those too, capped.
    const settled = await this.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: settleMs, alreadyLoading: before?.status === 'loading' }, watch);
    const after = settled.tab;
    let changed = result.changed;
    if (after && before && after.url !== before.url && frameId === 0) {
      if (!evidence.some((line) => line.includes(after.url))) evidence.push(`URL is now ${after.url}`);
      changed = true;
    }
    if (after && !settled.loaded) {
      evidence.push('the next page is still loading');
      changed = true;
    }
    if (after && before && after.title !== before.title) evidence.push(`title is now ${JSON.stringify(after.title)}`);
    const message = result.message.replaceAll('[@]', subject);
    return { ok: result.ok, message: message.charAt(0).toUpperCase() + message.slice(1), changed, evidence };
  }

  /**
   * Sends the action, waiting up to 3 s for a content script that is not there yet (a page that just committed loads
   * it through a dynamic import). Only "no receiving end" is retried: the message was not delivered, so nothing was done twice.
   */
  private async callUntilReady(tabId: number, frameId: number, params: { target: ActTarget | null; action: ElementAction; settleMs: number }): Promise<ActResult> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await callFrame(this.deps.frames, tabId, frameId, 'act', params, params.settleMs + 10_000);
      } catch (error) {
        if (attempt >= 15 || !toErrorShape(error).message.includes('Receiving end does not exist')) throw error;
        await this.deps.sleep(200);
      }
    }
  }

  /**
   * The frame did not answer: either the action navigated it away (a link, a form submit), which is success, or the
   * frame is gone, which makes the number stale with nothing to re-find it in.
   */
  private async afterLostFrame(
    tabId: number,
    ref: number | undefined,
    entry: RefEntry | undefined,
    urlBefore: string | undefined,
    reason: string,
    settleMs: number,
    watch: RequestWatch | undefined,
  ): Promise<PageOutcome> {
    const settled = await this.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: settleMs }, watch);
    const after = settled.tab;
    const who = ref !== undefined && entry ? label(ref, entry) : 'the page';
    if (after && (after.url !== urlBefore || settled.sawLoading)) {
      return {
        ok: true,
        message: `Acted on ${who}; the page navigated`,
        changed: true,
        evidence: [`URL is now ${after.url}`, ...(settled.loaded ? [`title is ${JSON.stringify(after.title)}`] : ['still loading'])],
      };
    }
    return {
      ok: false,
      message: `Element ${who} is gone: its frame no longer answers (${reason}). Take a new snapshot`,
      changed: false,
      evidence: [],
    };
  }

  async find(tabId: number, text: string, budgetMs = FIND_BUDGET_MS): Promise<PageOutcome> {
    const memory = this.memory(tabId);
    const frameIds = await this.deps.frames.listFrames(tabId);
    const lines: string[] = [];
    let total = 0;
    let unfinished = 0;
    for (const frameId of frameIds) {
      const found = await callFrame(this.deps.frames, tabId, frameId, 'find', { text, limit: 30, budgetMs }, budgetMs + 3000).catch(() => undefined);
      // A frame that could not answer in time was not searched to its end either.
      if (!found || !found.complete) unfinished += 1;
      if (!found) continue;
      total += found.total;
      for (const item of found.items) {
        if (item.k === 'ctx') lines.push(`text: ${item.text}`);
        else if (item.k === 'el') {
          const n = memory.refs.numberFor({ frameId, token: found.token, url: found.url, local: item.ref, role: item.role, name: item.name });
          lines.push([`[${n}] ${item.role}${item.name ? ` ${JSON.stringify(item.name)}` : ''}`, ...item.ann].join(' '));
        }
      }
    }
    // Running out of time is said plainly: "nothing found" would tell the model the text is not there.
    const partly = unfinished > 0 ? ` in the part of the page searched before the search ran out of time (${budgetMs / 1000} s; the page is very large)` : '';
    if (total === 0) {
      const message =
        unfinished > 0
          ? `Found nothing matching ${JSON.stringify(text)}${partly}. The text may still be further on: scroll to it, or search for something more specific`
          : `Found nothing matching ${JSON.stringify(text)} on the page`;
      return { ok: true, message, changed: false, evidence: [] };
    }
    return {
      ok: true,
      message: `Found ${total} match${total === 1 ? '' : 'es'} for ${JSON.stringify(text)}${partly}${total > lines.length ? ` (first ${lines.length} shown)` : ''}`,
      changed: false,
      evidence: lines.slice(0, 30),
    };
  }

  private async wait(tabId: number, seconds: number | undefined, text: string | undefined, watch: RequestWatch | undefined): Promise<PageOutcome> {
    if (text === undefined) {
      const ms = Math.min(seconds ?? 1, 30) * 1000;
      const tab = await this.deps.tabs.state(tabId);
      if (tab?.status === 'loading') {
        // Waiting on a page that is still loading ends as soon as it has loaded and settled.
        const settled = await this.settle(tabId, { loadCapMs: ms, quietCapMs: 3000 }, watch);
        return settled.loaded
          ? { ok: true, message: `The page finished loading after ${(settled.waitedMs / 1000).toFixed(1)} s`, changed: true, evidence: [] }
          : { ok: true, message: `Waited ${seconds ?? 1} s; the page is still loading`, changed: true, evidence: [] };
      }
      await this.deps.sleep(ms);
      return { ok: true, message: `Waited ${seconds ?? 1} s`, changed: false, evidence: [] };
    }
    const deadline = Math.min(seconds ?? 10, 30) * 1000;
    for (let waited = 0; waited <= deadline; waited += 500) {
      const found = await this.find(tabId, text).catch(() => undefined);
      if (found && found.evidence.length > 0) return { ok: true, message: `${JSON.stringify(text)} is on the page`, changed: true, evidence: found.evidence.slice(0, 3) };
      await this.deps.sleep(500);
    }
    return { ok: false, message: `${JSON.stringify(text)} did not appear within ${deadline / 1000} s`, changed: false, evidence: [] };
  }
}
