import type { ActionEffect } from '../../shared/agent/action-effect';
import { AppError, describeZodError, toErrorShape } from '../../shared/errors';
import type { ActResult, ActTarget, ElementAction } from '../../shared/perception/element-action';
import { PageAction, type PageActionInput, type PageOutcome } from '../../shared/perception/page-action';
import { RefTable, type RefEntry } from '../../shared/perception/ref-table';
import type { ObservedDownload } from '../../shared/agent/environment';
import type { TaskFile } from '../../shared/protocol';
import type { RequestWatch } from '../platform/network-activity';
import type { TabActivityWatch } from '../platform/tab-activity';
import { callFrame, type FramePorts } from './content-frames';
import { describePath } from './debugger-session';
import type { OpenDialog } from './dialogs';
import type { PageInput } from './page-input';
import { settleTab, type SettleLimits, type Settled } from './page-settle';
import { finalVerdict, navigationPending, tabEffect, withEffect } from './step-verdict/step-verdict';
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
  /** Watches a tab's navigations and the tabs it opens during an action, for the verdict; none in unit tests. */
  watchActivity?: (tabId: number) => TabActivityWatch;
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

type ElementOptions = ActOptions & { settleMs: number; watch: RequestWatch | undefined };

/** A download as a line of evidence: what, where, how big, or why it was not kept. */
export function downloadLine(download: ObservedDownload): string {
  const size = download.size === undefined ? '' : `, ${formatBytes(download.size)}`;
  const type = download.mime ? ` (${download.mime}${size})` : size ? ` (${size.slice(2)})` : '';
  switch (download.state) {
    case 'complete':
      return `downloaded ${JSON.stringify(download.name)}${type} to ${download.path ?? 'the downloads folder'} [download ${download.id}]`;
    case 'in_progress':
      return `a download started: ${JSON.stringify(download.name)}${type} [download ${download.id}]`;
    case 'held':
      return `the download ${JSON.stringify(download.name)}${type} is held: ${download.note ?? 'it waits for approval'} [download ${download.id}]`;
    case 'discarded':
      return `the download ${JSON.stringify(download.name)} was discarded${download.note ? `: ${download.note}` : ''} [download ${download.id}]`;
    case 'interrupted':
      return `the download ${JSON.stringify(download.name)} failed${download.note ? `: ${download.note}` : ''} [download ${download.id}]`;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Actions that may go on while a JavaScript dialog holds the page: they do not need the page to answer. */
const WHILE_DIALOG = new Set(['dialog', 'tab_new', 'tab_switch', 'tab_close', 'download']);

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

  private now(): number {
    return (this.deps.now ?? Date.now)();
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
  async act(tabId: number, input: PageActionInput | Record<string, unknown>, options: ActOptions = {}): Promise<PageOutcome> {
    const parsed = PageAction.safeParse(input);
    if (!parsed.success) {
      return { ok: false, message: `Invalid action: ${describeZodError(parsed.error)}`, changed: false, evidence: [] };
    }
    try {
      return await this.watchDialogs(tabId, parsed.data, { ...options, settleMs: options.settleMs ?? this.deps.settleMs ?? 3000 });
    } catch (error) {
      const shape = toErrorShape(error);
      return { ok: false, message: shape.message, changed: false, evidence: [] };
    }
  }

  /**
   * Runs the action while watching for what the debugger reports: a JavaScript dialog that the action opened (the page
   * freezes under it, so the action's own result only comes once the dialog is answered) and downloads it started.
   */
  private async watchDialogs(tabId: number, action: PageAction, options: ActOptions & { settleMs: number }): Promise<PageOutcome> {
    const input = this.deps.input;
    if (!input) return this.perform(tabId, action, options);
    await input.attach(options.owner, tabId);
    if (action.kind === 'dialog') return this.answerDialog(tabId, action.action, action.text, options);
    if (action.kind === 'download') return this.answerDownload(action.id, action.action, options.owner);
    const open = await input.dialogs.current(tabId);
    if (open && !WHILE_DIALOG.has(action.kind) && !(action.kind === 'wait' && action.text === undefined)) {
      return { ok: false, message: `A ${open.type} dialog is open over the page, which is frozen until it is answered: answer it with the dialog tool first`, changed: false, evidence: [`dialog: ${JSON.stringify(open.message)}`] };
    }
    const mark = input.downloads?.mark(tabId);
    const waiting = input.dialogs.whenOpened(tabId);
    const work = this.perform(tabId, action, options).catch((error: unknown): PageOutcome => ({ ok: false, message: toErrorShape(error).message, changed: false, evidence: [] }));
    const first = await Promise.race([work, waiting.opened]).finally(() => waiting.cancel());
    if ('type' in first) return this.dialogOpened(tabId, action, first, work);
    if (mark !== undefined && input.downloads) {
      const started = await input.downloads.since(tabId, mark);
      // A download is what the click did, even though the page itself did not change.
      if (started.length > 0) return withEffect(first, started.map(downloadLine));
    }
    return first;
  }

  /** The step's result when its action opened a dialog: the page is frozen, the model answers the dialog next. */
  private dialogOpened(tabId: number, action: PageAction, dialog: OpenDialog, work: Promise<PageOutcome>): PageOutcome {
    const ref = 'ref' in action ? action.ref : undefined;
    const entry = ref === undefined ? undefined : this.memory(tabId).refs.lookup(ref);
    const who = ref !== undefined && entry ? label(ref, entry) : 'the page';
    if (entry) this.deps.input?.dialogs.setCause(tabId, { ref, role: entry.role, name: entry.name });
    this.deps.input?.dialogs.holdInterrupted(tabId, work);
    const kind = dialog.type === 'beforeunload' ? 'a "leave this page?" dialog' : `a JavaScript ${dialog.type} dialog`;
    return {
      ok: true,
      message: `${action.kind === 'navigate' || action.kind === 'back' || action.kind === 'reload' ? `Going to ${action.kind === 'navigate' ? action.url : 'the other page'}` : `The ${action.kind} on ${who}`} opened ${kind}; the page is frozen until it is answered: use the dialog tool`,
      changed: true,
      evidence: [`${dialog.type} dialog: ${JSON.stringify(dialog.message)}${dialog.type === 'prompt' ? ` (suggested answer ${JSON.stringify(dialog.defaultPrompt)})` : ''}`],
    };
  }

  /** Accepts or dismisses the tab's dialog, then reports what the action that opened it did once the page went on. */
  private async answerDialog(tabId: number, action: 'accept' | 'dismiss', text: string | undefined, options: ActOptions & { settleMs: number }): Promise<PageOutcome> {
    const input = this.deps.input;
    const open = await input?.dialogs.current(tabId);
    if (!input || !open) return { ok: false, message: 'No JavaScript dialog is open on this page: there is nothing to answer', changed: false, evidence: [] };
    if (!input.sessions.isAttached(tabId)) {
      return { ok: false, message: 'The dialog cannot be answered: the debugger that answers dialogs is not attached to this tab (the user may have to answer it)', changed: false, evidence: [] };
    }
    const accept = action === 'accept';
    const answer = accept && open.type === 'prompt' ? (text ?? open.defaultPrompt) : undefined;
    const before = await this.deps.tabs.state(tabId);
    const next = input.dialogs.whenOpened(tabId);
    const watch = this.deps.watchRequests?.(tabId);
    try {
      await input.dialogs.answer(tabId, accept, answer);
      const what = open.type === 'beforeunload' ? '"leave this page?" dialog' : `${open.type} dialog`;
      const message = answer !== undefined ? `Answered the prompt ${JSON.stringify(open.message)} with ${JSON.stringify(answer)}` : `${accept ? 'Accepted' : 'Dismissed'} the ${what}`;
      const interrupted = input.dialogs.takeInterrupted(tabId) as Promise<PageOutcome> | undefined;
      const timeout = new Promise<undefined>((resolve) => setTimeout(resolve, options.settleMs + 10_000));
      const result = await Promise.race([interrupted ?? Promise.resolve(undefined), next.opened, timeout]);
      if (result && 'type' in result) return { ...this.dialogOpened(tabId, { kind: 'dialog', action }, result, Promise.resolve({ ok: true, message: '', changed: true, evidence: [] })), message: `${message}; then the page opened another ${result.type} dialog: use the dialog tool` };
      const settled = await this.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: options.settleMs }, watch);
      const evidence = [`the dialog closed${open.type !== 'prompt' || !accept ? '' : ` and the page got ${JSON.stringify(answer)}`}`];
      if (result) evidence.push(`then: ${result.message}`, ...result.evidence);
      const after = settled.tab;
      if (after && before && after.url !== before.url && !evidence.some((line) => line.includes(after.url))) evidence.push(`URL is now ${after.url}`);
      return { ok: true, message, changed: true, evidence };
    } finally {
      next.cancel();
      watch?.stop();
    }
  }

  private async answerDownload(id: string, action: 'keep' | 'discard', owner: string | undefined): Promise<PageOutcome> {
    const downloads = this.deps.input?.downloads;
    if (!downloads || owner === undefined) return { ok: false, message: 'Downloads are not handled here: only a task keeps or discards its downloads', changed: false, evidence: [] };
    const download = action === 'keep' ? await downloads.keep(owner, id) : await downloads.discard(owner, id);
    return { ok: true, message: `${action === 'keep' ? 'Kept' : 'Discarded'} the download ${JSON.stringify(download.name)}`, changed: true, evidence: [downloadLine(download)] };
  }

  /**
   * Waits for the tab to settle: loaded (up to `limits.loadCapMs`), then its answers in and its DOM quiet (up to
   * `limits.quietCapMs`). With a watch of its requests, an action's fetches are waited for too.
   */
  settle(tabId: number, limits: SettleLimits, watch?: RequestWatch, pending?: () => boolean): Promise<Settled> {
    return settleTab(
      {
        tabState: (id) => this.deps.tabs.state(id),
        ...(watch ? { inFlight: () => watch.inFlight(), documentRequested: () => watch.documentRequested() } : {}),
        ...(pending ? { navigationPending: pending } : {}),
        domQuiet: (id, options) => callFrame(this.deps.frames, id, 0, 'settle', options, options.capMs + 3000).catch(() => undefined),
        sleep: this.deps.sleep,
        now: this.deps.now ?? Date.now,
      },
      tabId,
      limits,
    );
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
        return this.onElement(tabId, action.ref, { kind: 'click', double: action.double }, options);
      case 'type':
        return this.onElement(tabId, action.ref, { kind: 'type', text: action.text, clear: action.clear, submit: action.submit }, options);
      case 'select':
        return this.onElement(tabId, action.ref, { kind: 'select', values: action.values }, options);
      case 'check':
        return this.onElement(tabId, action.ref, { kind: 'check', checked: action.checked }, options);
      case 'hover':
        return this.onElement(tabId, action.ref, { kind: 'hover' }, options);
      case 'focus':
        return this.onElement(tabId, action.ref, { kind: 'focus' }, options);
      case 'press':
        return this.onElement(tabId, action.ref, { kind: 'press', key: action.key, times: action.times }, options);
      case 'set_value':
        return this.onElement(tabId, action.ref, { kind: 'set_value', value: action.value }, options);
      case 'drag':
        return this.drag(tabId, action, options);
      case 'upload':
        return this.upload(tabId, action.ref, action.files, options);
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
        return this.onElement(tabId, action.ref, scroll, options);
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

  /** Acts on an element while the browser's view of the tab (navigations, new tabs) is watched for the verdict. */
  private async onElement(tabId: number, ref: number | undefined, action: ElementAction, options: ElementOptions): Promise<PageOutcome> {
    const activity = this.deps.watchActivity?.(tabId);
    try {
      return await this.onElementWatched(tabId, ref, action, options, activity);
    } finally {
      activity?.stop();
    }
  }

  private async onElementWatched(tabId: number, ref: number | undefined, action: ElementAction, options: ElementOptions, activity: TabActivityWatch | undefined): Promise<PageOutcome> {
    const { settleMs, watch } = options;
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
    const input = (await this.deps.input?.begin(options.owner, tabId, frameId)) ?? { reason: 'this browser offers no debugger to Deputy' };
    try {
      result = await this.callUntilReady(tabId, frameId, { target, action, settleMs, input });
    } catch (error) {
      const shape = toErrorShape(error);
      if (TRANSPORT_CODES.has(shape.code) && !shape.message.includes('[@]')) return this.afterLostFrame(tabId, ref, entry, before?.url, shape.message, settleMs, watch, activity);
      const who = ref !== undefined && entry ? label(ref, entry) : 'the page';
      const message = shape.message.includes('[@]') ? shape.message.replaceAll('[@]', who) : `Could not ${action.kind} ${who}: ${shape.message}`;
      return { ok: false, message: message.charAt(0).toUpperCase() + message.slice(1), changed: false, evidence: [] };
    } finally {
      this.deps.input?.end(input.lease);
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
    // The verdict waits for a navigation the action began, whichever side saw it first: the page (its Navigation API)
    // or the browser (webNavigation), so a submit whose next page commits late is not read as having done nothing.
    const pending = navigationPending(activity, frameId === 0 ? result.navigation : undefined, this.now(), () => this.now());
    const settled = await this.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: settleMs, alreadyLoading: before?.status === 'loading' }, watch, pending);
    const after = settled.tab;
    const tab = tabEffect({
      topFrame: frameId === 0,
      urlBefore: before?.url,
      urlAfter: after?.url,
      activity: activity?.seen(),
      navigation: result.navigation,
      stillLoading: after !== undefined && !settled.loaded,
    });
    if (after && before && after.title !== before.title) tab.lines.push(`title is now ${JSON.stringify(after.title)}`);
    const verdict = finalVerdict({ ...result, evidence }, tab);
    const message = verdict.message.replaceAll('[@]', subject);
    return { ok: result.ok, message: message.charAt(0).toUpperCase() + message.slice(1), changed: verdict.changed, evidence: verdict.evidence };
  }

  /**
   * Sends the action, waiting up to 3 s for a content script that is not there yet (a page that just committed loads
   * it through a dynamic import). Only "no receiving end" is retried: the message was not delivered, so nothing was done twice.
   */
  private async callUntilReady(
    tabId: number,
    frameId: number,
    params: { target: ActTarget | null; action: ElementAction; settleMs: number; input: { lease?: string; reason?: string } },
  ): Promise<ActResult> {
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
    activity?: TabActivityWatch,
  ): Promise<PageOutcome> {
    const settled = await this.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: settleMs }, watch, activity ? () => activity.seen().pending : undefined);
    const after = settled.tab;
    const who = ref !== undefined && entry ? label(ref, entry) : 'the page';
    const committed = (activity?.seen().committed.length ?? 0) > 0;
    if (after && (after.url !== urlBefore || settled.sawLoading || committed)) {
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

  /** Drags an element onto another of the same frame, or by an offset. */
  private async drag(tabId: number, action: Extract<PageAction, { kind: 'drag' }>, options: ElementOptions): Promise<PageOutcome> {
    let to: ActTarget | null = null;
    if (action.toRef !== undefined) {
      const memory = this.memory(tabId);
      const from = memory.refs.lookup(action.ref);
      const target = memory.refs.lookup(action.toRef);
      if (!target) throw new AppError('not_found', `There is no element [${action.toRef}] in this tab's snapshots: take a snapshot and use a number from it`);
      if (from && (from.frameId !== target.frameId || from.token !== target.token)) {
        throw new AppError('invalid_params', `[${action.ref}] and [${action.toRef}] are in different frames of the page: a drag stays within one frame`);
      }
      to = { ref: target.local, token: target.token, role: target.role, name: target.name, url: target.url };
    }
    const outcome = await this.onElement(tabId, action.ref, { kind: 'drag', to, dx: action.dx, dy: action.dy, position: action.position }, options);
    if (to && action.toRef !== undefined) outcome.message = outcome.message.replace('its target', label(action.toRef, to));
    return outcome;
  }

  /**
   * Uploads files the user attached: a click on the field (or the button that opens its picker) makes the page open a
   * file picker, which the debugger reports instead of showing; the files go into the field behind it. Without the
   * debugger, files chosen in the side panel go straight into a file field. Only attached files, by name.
   */
  private async upload(tabId: number, ref: number, names: string[], options: ElementOptions): Promise<PageOutcome> {
    const attached = options.files ?? [];
    if (attached.length === 0) {
      return { ok: false, message: 'No files are attached to this task, so there is nothing to upload: ask the user to attach the file to the task', changed: false, evidence: [] };
    }
    const files: TaskFile[] = [];
    for (const name of names) {
      const file = attached.find((f) => f.name === name) ?? attached.find((f) => f.name.toLowerCase() === name.toLowerCase());
      if (!file) {
        return { ok: false, message: `${JSON.stringify(name)} is not a file attached to this task; the attached files are ${attached.map((f) => JSON.stringify(f.name)).join(', ')}`, changed: false, evidence: [] };
      }
      files.push(file);
    }
    const input = this.deps.input;
    const path = input ? await input.attach(options.owner, tabId) : { trusted: false as const, reason: 'this browser offers no debugger to Deputy' };
    if (!input || !path.trusted) {
      if (files.some((f) => f.stored === undefined)) {
        return { ok: false, message: `Files given by path can only be put into a page through the browser's debugger, which is not available (${path.trusted ? '' : path.reason})`, changed: false, evidence: [] };
      }
      const contents = await Promise.all(files.map(async (f) => ({ name: f.name, type: f.type, base64: (await input?.load(f)) ?? '' })));
      if (contents.some((c) => c.base64 === '')) return { ok: false, message: 'An attached file is no longer kept by Deputy: ask the user to attach it again', changed: false, evidence: [] };
      return this.onElement(tabId, ref, { kind: 'set_files', files: contents }, options);
    }
    const chooser = input.nextFileChooser(tabId);
    try {
      const clicked = await this.onElement(tabId, ref, { kind: 'click', double: false }, options);
      const opened = await Promise.race([chooser.opened, new Promise<undefined>((resolve) => setTimeout(resolve, 1000))]);
      if (!opened) {
        return { ok: false, message: `No file picker opened: ${clicked.message}. Choose the file field itself, or the button that opens the picker`, changed: clicked.changed, evidence: clicked.evidence };
      }
      if (opened.mode === 'selectSingle' && files.length > 1) return { ok: false, message: 'This field takes one file: upload one', changed: false, evidence: [] };
      const held = await input.setChooserFiles(tabId, opened.backendNodeId, files);
      const wanted = files.map((f) => f.name);
      const settled = await this.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: options.settleMs }, options.watch);
      const evidence = [`the file field now holds ${held.map((n) => JSON.stringify(n)).join(', ') || 'nothing'}`];
      if (settled.tab && !settled.loaded) evidence.push('the next page is still loading');
      const entry = this.memory(tabId).refs.lookup(ref);
      const who = entry ? label(ref, entry) : `[${ref}]`;
      if (wanted.some((name) => !held.includes(name))) return { ok: false, message: `The file field behind ${who} did not take ${wanted.map((n) => JSON.stringify(n)).join(', ')}`, changed: true, evidence };
      return { ok: true, message: `Put ${wanted.map((n) => JSON.stringify(n)).join(', ')} into the file field of ${who} (${describePath(path)})`, changed: true, evidence };
    } finally {
      chooser.cancel();
    }
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
