import type { ActionEffect } from '../../../shared/agent/action-effect';
import { AppError, describeZodError, toErrorShape } from '../../../shared/errors';
import type { ElementAction } from '../../../shared/perception/element-action';
import { PageAction, type PageActionInput, type PageOutcome } from '../../../shared/perception/page-action';
import { RefTable } from '../../../shared/perception/ref-table';
import type { RequestWatch } from '../../platform/network-activity';
import { callFrame } from '../frames/content-frames';
import { drag, onElement, untilContentAnswers, upload } from './element-actions';
import type { ActOptions, ElementOptions, PageAgentDeps, PageCore } from './page-agent-core';
import { watchDialogs } from './page-dialogs';
import { findOnPage, waitOnPage } from './page-find';
import { addSettleParts, settleTab, type SettleLimits, type Settled } from './page-settle';
import { blockedReason } from './page-notices';
import { LISTENER_SEARCH_MS, markListeners } from './listener-marks';
import { snapshotTab, type SnapshotOptions, type TabMemory, type TabSnapshot } from './tab-snapshot';
import { NAVIGATION_CAP_MS, runTabAction } from './tab-driver';

export type { ActOptions, PageAgentDeps } from './page-agent-core';
export { downloadLine, formatBytes } from './page-dialogs';

/** Stands for a document from before a restart: never equal to a live content script's token. */
const RESTORED_TOKEN = 'restored-after-restart';

/**
 * The tab as the agent drives it: snapshots with tab-wide numbers, actions by number in whichever frame holds the
 * element, a stale number re-found only on a unique match, tab navigation, and evidence for each action. This is the
 * one module the agent core's web environment calls. Its parts are beside it: actions on an element (element-actions.ts),
 * dialogs and downloads an action raises (page-dialogs.ts), searching and waiting (page-find.ts).
 */
export class PageAgent {
  private readonly memories = new Map<number, TabMemory>();

  /** This agent as its parts see it (element-actions.ts, page-dialogs.ts, page-find.ts). */
  private readonly core: PageCore;

  constructor(private readonly deps: PageAgentDeps) {
    this.core = {
      deps,
      memory: (tabId) => this.memory(tabId),
      settle: (tabId, limits, watch, pending) => this.settle(tabId, limits, watch, pending),
      perform: (tabId, action, options) => this.perform(tabId, action, options),
    };
  }

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

  async snapshot(tabId: number, options: SnapshotOptions): Promise<TabSnapshot> {
    // With the task's debugger held, elements that act through script listeners are found first, to be numbered.
    const sessions = this.deps.input?.sessions;
    // Never longer than its budget and a margin: a page frozen under a JavaScript dialog answers no debugger call.
    if (sessions?.isAttached(tabId)) {
      const search = markListeners((method, params) => sessions.send(tabId, method, params)).catch(() => null);
      await Promise.race([search, new Promise((resolve) => setTimeout(resolve, LISTENER_SEARCH_MS + 600))]);
    }
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
    // A key pressed without an element goes to the top frame's focus, as `act` sends it. A page loaded again (after a
    // browser restart) may not have its content script yet: the gate waits for it rather than judging without the
    // form the action submits.
    const frameId = entry?.frameId ?? 0;
    // The facts are those of the document the action will meet: the content script answers from document_start, so a
    // page still loading (reopened after a browser restart, or mid-navigation) is waited for until it has loaded, or
    // its form would not be there yet and the gate would judge without it. The wait is bounded by the step's own
    // settle, never the page's full load: a page that never finishes loading (streaming, long-poll, an endless image)
    // must not stall a step, and past the bound the facts are read from the document as it stands.
    await this.settle(tabId, { loadCapMs: this.deps.settleMs ?? 3000, quietCapMs: 0 });
    const ask = () => callFrame(this.deps.frames, tabId, frameId, 'effect', { target, action }, 15_000);
    return untilContentAnswers({ deps: this.deps }, ask).catch(() => undefined);
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
  async act(tabId: number, input: PageActionInput | Record<string, unknown>, options: ActOptions = {}): Promise<PageOutcome> {
    const parsed = PageAction.safeParse(input);
    if (!parsed.success) {
      return { ok: false, message: `Invalid action: ${describeZodError(parsed.error)}`, changed: false, evidence: [] };
    }
    try {
      return await watchDialogs(this.core, tabId, parsed.data, { ...options, settleMs: options.settleMs ?? this.deps.settleMs ?? 3000 });
    } catch (error) {
      const shape = toErrorShape(error);
      return { ok: false, message: shape.message, changed: false, evidence: [] };
    }
  }

  /**
   * Waits for the tab to settle: loaded (up to `limits.loadCapMs`), then its answers in and its DOM quiet (up to
   * `limits.quietCapMs`). With a watch of its requests, an action's fetches are waited for too.
   */
  async settle(tabId: number, limits: SettleLimits, watch?: RequestWatch, pending?: () => boolean): Promise<Settled> {
    const changes = this.deps.watchChanges?.(tabId);
    try {
      return await settleTab(
        {
          tabState: (id) => this.deps.tabs.state(id),
          ...(watch ? { inFlight: () => watch.inFlight(), documentRequested: () => watch.documentRequested(), answered: () => watch.answered() } : {}),
          ...(pending ? { navigationPending: pending } : {}),
          showsError: () => this.neverAnswers(tabId),
          ...(changes ? { changes } : {}),
          domQuiet: (id, options) => callFrame(this.deps.frames, id, 0, 'settle', options, options.capMs + 3000).catch(() => undefined),
          sleep: this.deps.sleep,
          now: this.deps.now ?? Date.now,
        },
        tabId,
        limits,
      );
    } finally {
      changes?.stop();
    }
  }

  /**
   * The tab shows a page no content script can answer from: the browser's error page, a page of the browser itself, a
   * blank tab or an extension store. A settle does not ask it again until its cap (the Web Store cost each navigating
   * step 3 s): it is as settled as it will get.
   */
  private async neverAnswers(tabId: number): Promise<boolean> {
    if (this.deps.loadFailure && (await this.deps.loadFailure(tabId)) !== undefined) return true;
    const tab = await this.deps.tabs.state(tabId);
    return tab !== undefined && blockedReason(tab.url) !== null;
  }

  private async perform(tabId: number, action: PageAction, options: ActOptions & { settleMs: number }): Promise<PageOutcome> {
    const watch = this.deps.watchRequests?.(tabId);
    try {
      return await this.performWatched(tabId, action, { ...options, watch });
    } finally {
      watch?.stop();
    }
  }

  private async performWatched(tabId: number, action: PageAction, options: ElementOptions): Promise<PageOutcome> {
    const { settleMs, watch } = options;
    switch (action.kind) {
      case 'click':
        return onElement(this.core, tabId, action.ref, { kind: 'click', double: action.double }, options);
      case 'type':
        return onElement(this.core, tabId, action.ref, { kind: 'type', text: action.text, clear: action.clear, submit: action.submit }, options);
      case 'select':
        return onElement(this.core, tabId, action.ref, { kind: 'select', values: action.values }, options);
      case 'check':
        return onElement(this.core, tabId, action.ref, { kind: 'check', checked: action.checked }, options);
      case 'hover':
        return onElement(this.core, tabId, action.ref, { kind: 'hover' }, options);
      case 'focus':
        return onElement(this.core, tabId, action.ref, { kind: 'focus' }, options);
      case 'press':
        return onElement(this.core, tabId, action.ref, { kind: 'press', key: action.key, times: action.times }, options);
      case 'set_value':
        return onElement(this.core, tabId, action.ref, { kind: 'set_value', value: action.value }, options);
      case 'drag':
        return drag(this.core, tabId, action, options);
      case 'point':
        // A position of the screenshot is a position of the top frame's viewport: its content script sends the input.
        return onElement(this.core, tabId, undefined, action, options);
      case 'select_text':
        // Without a ref the text is looked for in the top frame, as a person reads the page.
        return onElement(this.core, tabId, action.ref, { kind: 'select_text', text: action.text }, options);
      case 'upload':
        return upload(this.core, tabId, action.ref, action.files, options);
      case 'dialog':
      case 'download':
        throw new AppError('unavailable', `${action.kind} needs the debugger, which this page agent does not have`);
      case 'scroll': {
        if (action.ref === undefined && action.direction === undefined) {
          throw new AppError('invalid_params', 'scroll needs a direction, or the ref of an element to scroll into view');
        }
        const scroll: ElementAction = action.direction
          ? { kind: 'scroll', direction: action.direction, pages: action.pages }
          : { kind: 'scroll', pages: action.pages };
        return onElement(this.core, tabId, action.ref, scroll, options);
      }
      case 'find':
        return findOnPage(this.core, tabId, action.text, action.budgetMs);
      case 'wait':
        return waitOnPage(this.core, tabId, action.seconds, action.text, watch);
      default: {
        // Where the step's time goes, for the trace: the settle, and the rest (the navigation itself).
        const now = this.deps.now ?? Date.now;
        const started = now();
        let settling = 0;
        const parts: Record<string, number> = {};
        const outcome = await runTabAction(
          {
            tabs: this.deps.tabs,
            sleep: this.deps.sleep,
            ...(this.deps.watchChanges ? { watchChanges: this.deps.watchChanges } : {}),
            settle: async (id) => {
              const from = now();
              try {
                const done = await this.settle(id, { loadCapMs: NAVIGATION_CAP_MS, quietCapMs: settleMs }, id === tabId ? watch : undefined);
                addSettleParts(parts, done.parts);
                return done;
              } finally {
                settling += now() - from;
              }
            },
            loadFailure: async (id) => (await this.deps.loadFailure?.(id))?.error,
          },
          tabId,
          action,
        );
        return { ...outcome, timings: { 'navigate and load': now() - started - settling, 'tab settle (after act)': settling, ...parts } };
      }
    }
  }

  /** Searches the tab's frames for text; its elements get numbers as a snapshot's would (see page-find.ts). */
  find(tabId: number, text: string, budgetMs?: number): Promise<PageOutcome> {
    return findOnPage(this.core, tabId, text, budgetMs);
  }
}
