import { AppError, toErrorShape } from '../../../shared/errors';
import type { ActResult, ActTarget, ElementAction } from '../../../shared/perception/element-action';
import type { PageAction, PageOutcome } from '../../../shared/perception/page-action';
import type { RefEntry, RefTable } from '../../../shared/perception/ref-table';
import type { TaskFile } from '../../../shared/protocol';
import type { RequestWatch } from '../../platform/network-activity';
import type { TabActivityWatch } from '../../platform/tab-activity';
import { callFrame } from '../frames/content-frames';
import { describePath } from '../input/debugger-session';
import { type ElementOptions, FOLLOW_LOAD_CAP_MS, type PageCore, label } from './page-agent-core';
import { addSettleParts } from './page-settle';
import { finalVerdict, LATE_EFFECT_MS, lateTabEffect, navigationPending, tabEffect } from './step-verdict';

/**
 * Actions on an element by its tab-wide number: sent to the frame that holds it (waiting for a content script that is
 * not there yet), a stale number re-found only on a unique match, the page's answers waited for, and the evidence of
 * what changed. Drags and uploads (through the file picker the debugger reports) are element actions too.
 */

/** Errors of the message transport, as opposed to errors the content script reported about the action. */
const TRANSPORT_CODES = new Set(['unavailable', 'timeout', 'disconnected', 'bad_request']);

/** Acts on an element while the browser's view of the tab (navigations, new tabs) is watched for the verdict. */
export async function onElement(core: PageCore, tabId: number, ref: number | undefined, action: ElementAction, options: ElementOptions): Promise<PageOutcome> {
  const activity = core.deps.watchActivity?.(tabId);
  try {
    return await onElementWatched(core, tabId, ref, action, options, activity);
  } finally {
    activity?.stop();
  }
}

async function onElementWatched(
  core: PageCore,
  tabId: number,
  ref: number | undefined,
  action: ElementAction,
  options: ElementOptions,
  activity: TabActivityWatch | undefined,
): Promise<PageOutcome> {
  const { settleMs, watch } = options;
  const memory = core.memory(tabId);
  const entry = ref === undefined ? undefined : memory.refs.lookup(ref);
  if (ref !== undefined && !entry) {
    throw new AppError(
      'not_found',
      `There is no element [${ref}] in this tab's snapshots${memory.refs.lastRef > 0 ? ` (numbers go up to ${memory.refs.lastRef})` : ''}: take a snapshot and use a number from it`,
    );
  }
  const now = core.deps.now ?? Date.now;
  // Where the action's time goes, for the trace (see ActionOutcome.timings).
  let mark = now();
  const timings: Record<string, number> = {};
  const lap = (part: string): void => {
    const at = now();
    timings[part] = (timings[part] ?? 0) + at - mark;
    mark = at;
  };
  const before = await core.deps.tabs.state(tabId);
  const frameId = entry?.frameId ?? 0;
  const target = entry ? { ref: entry.local, token: entry.token, role: entry.role, name: entry.name, url: entry.url } : null;
  let result: ActResult;
  const input = (await core.deps.input?.begin(options.owner, tabId, frameId)) ?? { reason: 'this browser offers no debugger to Deputy' };
  lap('input lease');
  try {
    result = await callUntilReady(core, tabId, frameId, { target, action, settleMs, input });
    lap('act in page');
    if (result.settledMs !== undefined) timings['page settle (in act)'] = result.settledMs;
  } catch (error) {
    const typed = core.deps.input?.end(input.lease) ?? {};
    const shape = toErrorShape(error);
    if (TRANSPORT_CODES.has(shape.code) && !shape.message.includes('[@]')) {
      // The frame went away with its report (Enter sent a form): what the background itself did still counts.
      lap('act in page');
      const lost = await afterLostFrame(core, tabId, ref, entry, before?.url, shape.message, settleMs, watch, activity);
      lap('tab settle (after act)');
      if (lost.ok && typed.typing) lost.evidence.unshift(`typed ${typed.typing}`);
      return { ...lost, timings, ...(activity ? { openedTabs: activity.seen().opened.length } : {}) };
    }
    const who = ref !== undefined && entry ? label(ref, entry) : 'the page';
    const said = entry ? tabNumbers(shape.message, memory.refs, entry) : shape.message;
    const message = said.includes('[@]') ? said.replaceAll('[@]', who) : `Could not ${action.kind} ${who}: ${said}`;
    return { ok: false, message: message.charAt(0).toUpperCase() + message.slice(1), changed: false, evidence: [] };
  } finally {
    core.deps.input?.end(input.lease);
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
  const pending = navigationPending(activity, frameId === 0 ? result.navigation : undefined, now(), () => now());
  let settled = await core.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: settleMs, alreadyLoading: before?.status === 'loading' }, watch, pending);
  lap('tab settle (after act)');
  addSettleParts(timings, settled.parts);
  const facts = (): Parameters<typeof tabEffect>[0] => ({
    topFrame: frameId === 0,
    urlBefore: before?.url,
    urlAfter: settled.tab?.url,
    activity: activity?.seen(),
    navigation: result.navigation,
    stillLoading: settled.tab !== undefined && !settled.loaded,
    sent: watch?.sent(),
  });
  let tab = tabEffect(facts());
  if (result.ok && !result.changed && !tab.changed && result.flagsNoEffect === true && activity && settleMs > 0) {
    // Nothing yet: a page may act a moment after the click (a timer that navigates, opens a tab or posts). "No
    // visible effect" is said only once a short look has seen nothing begin; what it sees is waited for as above.
    // The look is part of the settle: a caller that asks for none (settleMs 0) gets none, and never a longer one.
    const look = { changed: () => tabEffect(facts()).changed, sleep: core.deps.sleep, now };
    if (await lateTabEffect(look, Math.min(LATE_EFFECT_MS, settleMs))) {
      settled = await core.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: settleMs, alreadyLoading: false }, watch, navigationPending(activity, undefined, now(), now));
      tab = tabEffect(facts());
    }
    lap('late look (no effect yet)');
  }
  const after = settled.tab;
  if (after && before && after.title !== before.title) tab.lines.push(`title is now ${JSON.stringify(after.title)}`);
  const verdict = finalVerdict({ ...result, evidence }, tab);
  const message = tabNumbers(verdict.message, memory.refs, { frameId, token: result.token }).replaceAll('[@]', subject);
  lap('verdict');
  const opened = activity ? { openedTabs: activity.seen().opened.length } : {};
  return { ok: result.ok, message: message.charAt(0).toUpperCase() + message.slice(1), changed: verdict.changed, evidence: verdict.evidence, timings, ...opened };
}

/**
 * The frame's numbers in what it reported (`[@7]`, another element of the same document, such as what covers the one
 * acted on) as the tab's numbers the model knows; one the model was never given a number for is named without one.
 */
function tabNumbers(text: string, refs: Pick<RefTable, 'numberOf'>, frame: { frameId: number; token: string }): string {
  return text.replace(/\[@(\d+)\] /g, (_, local: string) => {
    const n = refs.numberOf(frame.frameId, frame.token, Number(local));
    return n === undefined ? '' : `[${n}] `;
  });
}

/** Sends the action once the frame's content script answers (see untilContentAnswers). */
function callUntilReady(
  core: PageCore,
  tabId: number,
  frameId: number,
  params: { target: ActTarget | null; action: ElementAction; settleMs: number; input: { lease?: string; reason?: string } },
): Promise<ActResult> {
  return untilContentAnswers(core, () => callFrame(core.deps.frames, tabId, frameId, 'act', params, params.settleMs + 10_000));
}

/**
 * Sends a call to a frame, again while its content script is not there yet (a page that just committed loads it
 * through a dynamic import after its load event, later still on a busy machine): up to 15 s. Only "no receiving
 * end" is sent again: the message was not delivered, so nothing is done twice.
 */
export async function untilContentAnswers<T>(core: Pick<PageCore, 'deps'>, send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= 75 || !toErrorShape(error).message.includes('Receiving end does not exist')) throw error;
      await core.deps.sleep(200);
    }
  }
}

/**
 * The frame did not answer: either the action navigated it away (a link, a form submit), which is success, or the
 * frame is gone, which makes the number stale with nothing to re-find it in.
 */
async function afterLostFrame(
  core: PageCore,
  tabId: number,
  ref: number | undefined,
  entry: RefEntry | undefined,
  urlBefore: string | undefined,
  reason: string,
  settleMs: number,
  watch: RequestWatch | undefined,
  activity?: TabActivityWatch,
): Promise<PageOutcome> {
  const settled = await core.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: settleMs }, watch, activity ? () => activity.seen().pending : undefined);
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
export async function drag(core: PageCore, tabId: number, action: Extract<PageAction, { kind: 'drag' }>, options: ElementOptions): Promise<PageOutcome> {
  let to: ActTarget | null = null;
  if (action.toRef !== undefined) {
    const memory = core.memory(tabId);
    const from = memory.refs.lookup(action.ref);
    const target = memory.refs.lookup(action.toRef);
    if (!target) throw new AppError('not_found', `There is no element [${action.toRef}] in this tab's snapshots: take a snapshot and use a number from it`);
    if (from && (from.frameId !== target.frameId || from.token !== target.token)) {
      throw new AppError('invalid_params', `[${action.ref}] and [${action.toRef}] are in different frames of the page: a drag stays within one frame`);
    }
    to = { ref: target.local, token: target.token, role: target.role, name: target.name, url: target.url };
  }
  const outcome = await onElement(core, tabId, action.ref, { kind: 'drag', to, dx: action.dx, dy: action.dy, position: action.position }, options);
  if (to && action.toRef !== undefined) outcome.message = outcome.message.replace('its target', label(action.toRef, to));
  return outcome;
}

/**
 * Uploads files the user attached: a click on the field (or the button that opens its picker) makes the page open a
 * file picker, which the debugger reports instead of showing; the files go into the field behind it. Without the
 * debugger, files chosen in the side panel go straight into a file field. Only attached files, by name.
 */
export async function upload(core: PageCore, tabId: number, ref: number, names: string[], options: ElementOptions): Promise<PageOutcome> {
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
  const input = core.deps.input;
  const path = input ? await input.attach(options.owner, tabId) : { trusted: false as const, reason: 'this browser offers no debugger to Deputy' };
  if (!input || !path.trusted) {
    if (files.some((f) => f.stored === undefined)) {
      return { ok: false, message: `Files given by path can only be put into a page through the browser's debugger, which is not available (${path.trusted ? '' : path.reason})`, changed: false, evidence: [] };
    }
    const contents = await Promise.all(files.map(async (f) => ({ name: f.name, type: f.type, base64: (await input?.load(f)) ?? '' })));
    if (contents.some((c) => c.base64 === '')) return { ok: false, message: 'An attached file is no longer kept by Deputy: ask the user to attach it again', changed: false, evidence: [] };
    return onElement(core, tabId, ref, { kind: 'set_files', files: contents }, options);
  }
  const chooser = input.nextFileChooser(tabId);
  try {
    const clicked = await onElement(core, tabId, ref, { kind: 'click', double: false }, options);
    const opened = await Promise.race([chooser.opened, new Promise<undefined>((resolve) => setTimeout(resolve, 1000))]);
    if (!opened) {
      return { ok: false, message: `No file picker opened: ${clicked.message}. Choose the file field itself, or the button that opens the picker`, changed: clicked.changed, evidence: clicked.evidence };
    }
    if (opened.mode === 'selectSingle' && files.length > 1) return { ok: false, message: 'This field takes one file: upload one', changed: false, evidence: [] };
    const held = await input.setChooserFiles(tabId, opened.backendNodeId, files);
    const wanted = files.map((f) => f.name);
    const settled = await core.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: options.settleMs }, options.watch);
    const evidence = [`the file field now holds ${held.map((n) => JSON.stringify(n)).join(', ') || 'nothing'}`];
    if (settled.tab && !settled.loaded) evidence.push('the next page is still loading');
    const entry = core.memory(tabId).refs.lookup(ref);
    const who = entry ? label(ref, entry) : `[${ref}]`;
    if (wanted.some((name) => !held.includes(name))) return { ok: false, message: `The file field behind ${who} did not take ${wanted.map((n) => JSON.stringify(n)).join(', ')}`, changed: true, evidence };
    return { ok: true, message: `Put ${wanted.map((n) => JSON.stringify(n)).join(', ')} into the file field of ${who} (${describePath(path)})`, changed: true, evidence };
  } finally {
    chooser.cancel();
  }
}
