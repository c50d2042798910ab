import { AppError } from '../../shared/errors';
import type { ActResult, ActTarget, ElementAction } from '../../shared/perception/element-action';
import type { FrameSnapshot, SnapshotItem, SnapshotMode } from '../../shared/perception/frame-snapshot';
import { createInputDriver, pointIn } from './actions/input-driver';
import type { ActionEffect } from '../../shared/agent/action-effect';
import { describeEffect } from './actions/action-effect';
import { runAction } from './actions/run-action';
import { withoutHash } from '../../shared/agent/web-address';
import { type AnswerLog, watchAnswers } from './actions/answer-log';
import { watchSettle } from './actions/watch-settle';
import { collectSnapshot, SNAPSHOT_BUDGET_MS } from './perception/collect-snapshot';
import type { DomAccess } from './perception/dom-access';
import { RefRegistry } from './perception/ref-registry';
import { coveringName } from './perception/covering-name';
import { refindElement, type Candidate } from './perception/refind-element';

/** True when this frame's parent can reach into it (same origin), so the parent's snapshot already shows it. */

/** Line length of a search: long enough that a found paragraph is read whole (4 lines of it per piece: 4000 characters). */
const FIND_LINE = 1000;

export function isInlinedFrame(win: Window): boolean {
  try {
    return win.frameElement !== null;
  } catch {
    return false;
  }
}

export interface PageSessionDeps {
  win: Window;
  access: DomAccess;
  /** The key this frame's parent gave it (for stitching), if any. */
  frameKey: () => string | undefined;
  token: string;
  /** Sends a request to the background (trusted input goes through it). */
  ask: (message: unknown) => Promise<unknown>;
  randomId: () => string;
}

/**
 * One document's perception state: the numbers given to its elements and what was recorded about them. It lives as
 * long as the content script instance, which is as long as the document; a new document gets a new token, so numbers
 * from the old one are never taken for the new one's.
 */
export class PageSession {
  private readonly registry = new RefRegistry();
  /** Counts highlights, so a timer takes back only the mark it drew, not a newer one on the same element. */
  private highlights = 0;
  /** The answers this document received, so a look after the background saw one waits until the page has it. */
  private readonly answers: AnswerLog;

  constructor(private readonly deps: PageSessionDeps) {
    this.answers = watchAnswers(deps.win);
  }

  get token(): string {
    return this.deps.token;
  }

  snapshot(params: { mode: SnapshotMode; margin?: number | undefined }): FrameSnapshot {
    const { win } = this.deps;
    const frameKey = this.deps.frameKey();
    const base = { token: this.token, ...(frameKey ? { frameKey } : {}) };
    if (isInlinedFrame(win)) {
      return { ...base, url: win.location.href, title: win.document.title, inlined: true, items: [], above: 0, below: 0, dialogs: [] };
    }
    // The walk stops at its time budget and says so, rather than running past the background's wait for the frame.
    const deadline = Date.now() + SNAPSHOT_BUDGET_MS;
    const options = params.margin === undefined ? { mode: params.mode, deadline } : { mode: params.mode, margin: params.margin, deadline };
    const { snapshot } = collectSnapshot(win.document, this.registry, this.deps.access, options);
    return { ...base, inlined: false, ...snapshot };
  }

  find(params: { text: string; limit: number; budgetMs: number }): { token: string; url: string; items: SnapshotItem[]; total: number; complete: boolean } {
    const url = this.deps.win.location.href;
    if (isInlinedFrame(this.deps.win)) return { token: this.token, url, items: [], total: 0, complete: true };
    const deadline = Date.now() + params.budgetMs;
    const { snapshot } = collectSnapshot(this.deps.win.document, this.registry, this.deps.access, { mode: 'page', maxText: FIND_LINE, deadline });
    const terms = params.text.toLowerCase().split(/\s+/).filter(Boolean);
    const matches = snapshot.items.filter((item) => {
      if (item.k === 'frame') return false;
      const haystack = (item.k === 'ctx' ? item.text : `${item.role} ${item.name} ${item.ann.join(' ')}`).toLowerCase();
      return terms.every((term) => haystack.includes(term));
    });
    return { token: this.token, url, items: matches.slice(0, params.limit), total: matches.length, complete: snapshot.partial !== true };
  }

  /**
   * Waits until this document stops changing, up to `capMs`; first, until it holds the answers the background saw
   * come in (`answered`), so what the page does with them is what the look waits for.
   */
  async settle(params: {
    capMs: number;
    graceMs?: number | undefined;
    graceFrames?: number | undefined;
    quietMs?: number | undefined;
    answered?: string[] | undefined;
  }): Promise<{ mutations: number; timedOut: boolean; waitedMs: number; readyState: string }> {
    const doc = this.deps.win.document;
    const started = Date.now();
    const received = await this.answers.received(params.answered ?? [], params.capMs);
    const report = await watchSettle(doc).settle({
      capMs: Math.max(0, params.capMs - (Date.now() - started)),
      ...(params.graceMs === undefined ? {} : { graceMs: params.graceMs }),
      ...(params.graceFrames === undefined ? {} : { graceFrames: params.graceFrames }),
      ...(params.quietMs === undefined ? {} : { quietMs: params.quietMs }),
    });
    // An answer the page never got within the cap: still arriving, so the page is not quiet yet.
    return { ...report, timedOut: report.timedOut || !received, waitedMs: Date.now() - started, readyState: doc.readyState };
  }

  async act(params: { target: ActTarget | null; action: ElementAction; settleMs: number; input?: { lease?: string | undefined; reason?: string | undefined } | undefined }): Promise<ActResult> {
    const doc = this.deps.win.document;
    const self = { token: this.token, url: this.deps.win.location.href };
    this.answers.actionBegins();
    const driver = createInputDriver(params.input, { win: this.deps.win, frameKey: this.deps.frameKey(), ask: this.deps.ask, randomId: this.deps.randomId });
    const context = { access: this.deps.access, settleMs: params.settleMs, driver, coverName: (el: Element) => coveringName(el, this.registry) };
    if (params.target === null) return { ...self, ...(await runAction(doc, null, params.action, context)) };
    const resolved = this.resolve(params.target);
    if ('candidates' in resolved) {
      return { ...self, ok: false, message: '[@] is gone', changed: false, evidence: [], candidates: resolved.candidates };
    }
    let dropTarget: Element | null = null;
    if (params.action.kind === 'drag' && params.action.to) {
      const drop = this.resolve(params.action.to);
      if ('candidates' in drop) throw new AppError('not_found', 'the element to drop [@] onto is gone from the page: take a new snapshot');
      dropTarget = drop.el;
    }
    const outcome = await runAction(doc, resolved.el, params.action, { ...context, dropTarget });
    return resolved.replacedBy === undefined ? { ...self, ...outcome } : { ...self, ...outcome, replacedBy: resolved.replacedBy };
  }

  /** Where the child frame given `key` shows its content, in this frame's viewport (see the content channel). */
  frameBox(params: { key: string }, keys: { frameOf(key: string): Element | undefined }): { x: number; y: number; ownKey?: string } | null {
    const frame = keys.frameOf(params.key);
    if (!frame) return null;
    const rect = frame.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return null;
    const at = pointIn(this.deps.win, frame, { x: rect.left + frame.clientLeft, y: rect.top + frame.clientTop });
    const ownKey = this.deps.frameKey();
    return ownKey ? { ...at, ownKey } : at;
  }

  /** What the action would do on the target (or the focused element), for the policy gate; nothing is done. */
  effect(params: { target: ActTarget | null; action: ElementAction }): ActionEffect {
    const doc = this.deps.win.document;
    if (params.target === null) return describeEffect(doc, null, params.action, this.deps.access);
    const resolved = this.resolve(params.target);
    if ('candidates' in resolved) throw new AppError('not_found', 'the element is gone: take a new snapshot');
    return describeEffect(doc, resolved.el, params.action, this.deps.access);
  }

  /**
   * Outlines the element for the user and marks it with `data-deputy-highlight`, so a person (or a test) can see which
   * element a number names. Only a live element is highlighted; a stale number is never guessed at here.
   */
  highlight(params: { target: ActTarget; durationMs: number }): { found: boolean } {
    const el = params.target.token === this.token ? this.registry.element(params.target.ref) : undefined;
    if (!(el instanceof HTMLElement) && !(el instanceof SVGElement)) return { found: false };
    // The element's own outline is kept on it once, so a second highlight (the card's "Show it on the page") never
    // takes the orange for the element's own, and whoever takes the mark back (this timer, or the background when the
    // card is answered) gives back exactly what was there.
    if (!el.hasAttribute('data-deputy-highlight')) el.setAttribute('data-deputy-outline-was', el.style.outline);
    const stamp = String((this.highlights += 1));
    el.setAttribute('data-deputy-highlight', String(params.target.ref));
    el.dataset.deputyStamp = stamp;
    el.style.outline = '3px solid #f59e0b';
    setTimeout(() => {
      if (el.dataset.deputyStamp !== stamp || !el.hasAttribute('data-deputy-highlight')) return;
      el.style.outline = el.getAttribute('data-deputy-outline-was') ?? '';
      if (el.getAttribute('style') === '') el.removeAttribute('style');
      el.removeAttribute('data-deputy-highlight');
      el.removeAttribute('data-deputy-outline-was');
      delete el.dataset.deputyStamp;
    }, params.durationMs);
    return { found: true };
  }

  /** The live element for a target; a stale one is re-found only on a unique match. */
  private resolve(target: ActTarget): { el: Element; replacedBy?: number } | { candidates: { ref: number; role: string; name: string }[] } {
    if (target.token === this.token) {
      const el = this.registry.element(target.ref);
      if (el) return { el };
      if (!this.registry.known(target.ref)) {
        throw new AppError('not_found', `this page never showed [@]; take a snapshot and use a number from it`);
      }
    }
    const sameDocument = target.token === this.token;
    const record = (sameDocument ? this.registry.record(target.ref) : undefined) ?? { role: target.role, name: target.name };
    // A number from another page is never matched to this one's elements; from an earlier load of this page it may be.
    const samePage = sameDocument || withoutHash(target.url) === withoutHash(this.deps.win.location.href);
    const { snapshot, elements } = collectSnapshot(this.deps.win.document, this.registry, this.deps.access, { mode: 'page' });
    const current: Candidate[] = [];
    let index = 0;
    for (const item of snapshot.items) {
      if (item.k !== 'el') continue;
      const el = elements[index];
      index += 1;
      if (!el) continue;
      current.push({ el, ref: item.ref, role: item.role, name: item.name, context: this.registry.record(item.ref)?.context ?? '' });
    }
    const refound = refindElement(record, current);
    if (refound.found && samePage) return { el: refound.found.el, replacedBy: refound.found.ref };
    if (refound.found) return { candidates: [{ ref: refound.found.ref, role: refound.found.role, name: refound.found.name }] };
    return { candidates: refound.candidates.map(({ ref, role, name }) => ({ ref, role, name })) };
  }
}
