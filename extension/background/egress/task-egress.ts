import type { ActionEffect, GateFacts } from '../../../shared/agent/action-effect';
import type { BlockedEgress, EgressScope } from '../../../shared/agent/egress';
import type { ActionOutcome } from '../../../shared/agent/environment';
import type { ElementAction } from '../../../shared/perception/element-action';
import type { PageOutcome } from '../../../shared/perception/page-action';
import type { EgressGuard, HeldRequest } from './egress-guard';
import type { SecretEgress } from './secret-egress';

/** What a task's tab environment needs of the egress guard and the browser to settle what the guard held. */
export interface TaskEgress {
  taskId: string;
  guard: Pick<EgressGuard, 'setScope' | 'adopt' | 'tabsOf' | 'heldSince' | 'release' | 'watchNewTabs' | 'unreported'>;
  /** Sends a held form post again from the tab's page. */
  resubmit(tabId: number, url: string, fields: Record<string, string[]>): Promise<boolean>;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Requests carrying a secret the task typed, held by the debugger (see egress/secret-egress.ts). */
  secrets?: Pick<SecretEgress, 'place' | 'takeHeld' | 'decide'>;
  /** Adds a line to the task's steps: what the guard blocked with no approval asked (see egress/late-held.ts). */
  note?: (text: string) => Promise<void>;
}

/** How the environment acts on a tab (the page agent) and tells whether it shows the browser's error page. */
export interface EgressTabs {
  act(tabId: number, action: Record<string, unknown>): Promise<PageOutcome>;
  /** Whether the tab shows the browser's error page in place of `url` (the held request's page). */
  showsError(tabId: number, url: string): Promise<boolean>;
  /** Waits for the tab to load what was sent (capped). */
  settle(tabId: number): Promise<{ url: string; title: string } | undefined>;
}

/** Actions whose effect the page can tell before they run, as the content script's `effect` takes them. */
export function elementActionFor(tool: string, args: Record<string, unknown>): ElementAction | null {
  switch (tool) {
    case 'click':
      return { kind: 'click', double: args.double === true };
    case 'check':
      return { kind: 'check', checked: args.checked !== false };
    case 'press':
      return typeof args.key === 'string' ? { kind: 'press', key: args.key, times: typeof args.times === 'number' ? args.times : 1 } : null;
    case 'type':
      return { kind: 'type', text: '', clear: true, submit: args.submit === true };
    case 'set_value':
      // Judged as typing is: the form the field is in, and where it sends what it holds.
      return { kind: 'type', text: '', clear: true, submit: false };
    case 'click_at':
    case 'hover_at':
    case 'drag_at': {
      // Judged by the element under the point, as a click on it would be (its link, its form, its frame's site).
      if (typeof args.x !== 'number' || typeof args.y !== 'number') return null;
      const op = tool === 'hover_at' ? 'hover' : tool === 'drag_at' ? 'drag' : args.double === true ? 'double' : 'click';
      return { kind: 'point', op, x: args.x, y: args.y };
    }
    case 'drag':
      // The dragged element is judged where it is (its frame's site); where it lands comes with it (dropOf).
      return { kind: 'hover' };
    case 'select':
      return Array.isArray(args.values) && args.values.length > 0 ? { kind: 'select', values: args.values.map(String) } : null;
    default:
      return null;
  }
}

type EffectOf = (tabId: number, ref: number | undefined, action: ElementAction) => Promise<ActionEffect | undefined>;

/**
 * Where a drag lets go, asked as the start is: the element under the drop point (drag_at), the element it is dropped
 * on (drag with to_ref), or the element at the offset from the dragged one (drag by dx, dy, found in its frame).
 */
function dropOf(effect: EffectOf, tabId: number, call: { tool: string; args: Record<string, unknown> }): Promise<ActionEffect | undefined> | undefined {
  const { args } = call;
  if (call.tool === 'drag_at') {
    return typeof args.to_x === 'number' && typeof args.to_y === 'number' ? effect(tabId, undefined, { kind: 'point', op: 'hover', x: args.to_x, y: args.to_y }) : undefined;
  }
  if (call.tool !== 'drag' || typeof args.ref !== 'number') return undefined;
  if (typeof args.to_ref === 'number') return effect(tabId, args.to_ref, { kind: 'hover' });
  const offset = { dx: typeof args.dx === 'number' ? args.dx : 0, dy: typeof args.dy === 'number' ? args.dy : 0 };
  return effect(tabId, args.ref, { kind: 'drag', to: null, ...offset, position: 'center' });
}

/** The facts for the gate: what the action will do in the page, and for a drag, where it lets go. */
export async function gateFactsFor(effect: EffectOf, tabId: number, call: { tool: string; args: Record<string, unknown> }): Promise<GateFacts> {
  const action = elementActionFor(call.tool, call.args);
  if (!action) return {};
  const ref = typeof call.args.ref === 'number' ? call.args.ref : undefined;
  if (ref === undefined && call.tool !== 'press' && action.kind !== 'point') return {};
  const found = await effect(tabId, ref, action);
  const drop = await dropOf(effect, tabId, call);
  return { ...(found ? { effect: found } : {}), ...(drop ? { drop } : {}) };
}

/** How long a window the action opened may take to have its first request held. */
const NEW_WINDOW_GRACE_MS = 250;
const NEW_WINDOW_POLL_MS = 25;

/**
 * The request the guard held while an action ran, if any. The acting tab's own requests are settled by then (the
 * action's settle waits for them, and the guard records a block in the same event that ends one). A window the page
 * opened is not: its first request is made a moment later, so it gets a short grace, which ends as soon as the guard
 * holds something. `openedTabs` is how many windows the browser saw the page open during the action: with none there
 * is nothing to wait for; unknown (not watched), a click or key that may have opened one gets the grace.
 */
export async function heldDuring(egress: TaskEgress, since: number, tabId: number, mayOpenWindow: boolean, openedTabs?: number): Promise<HeldRequest | undefined> {
  // A request carrying a secret is asked about whenever it was made (a script may send it a while after the typing).
  const secret = egress.secrets?.takeHeld(egress.taskId);
  if (secret) return secret;
  const now = egress.guard.heldSince(egress.taskId, since, tabId);
  if (now || !mayOpenWindow || openedTabs === 0) return now;
  const deadline = egress.now() + NEW_WINDOW_GRACE_MS;
  for (;;) {
    await egress.sleep(Math.max(0, Math.min(NEW_WINDOW_POLL_MS, deadline - egress.now())));
    const held = egress.guard.heldSince(egress.taskId, since, tabId);
    if (held || egress.now() >= deadline) return held;
  }
}

export function publicView(held: HeldRequest): BlockedEgress {
  const { id, address, origin, withQuery, method, type, fields, tabId, newTab, secrets } = held;
  return { id, address, origin, withQuery, method, type, fields, tabId, newTab, ...(secrets ? { secrets } : {}) };
}

/**
 * Settles a held request. Approved: a page load is opened again, a form post is sent again from its page with the
 * fields it carried, and a new tab the page opened becomes the tab the task works in. Refused: a new tab the page
 * opened for it is closed, and a tab left on the browser's error page goes back to where it was.
 */
export async function resolveHeld(
  egress: TaskEgress,
  tabs: EgressTabs,
  held: HeldRequest,
  approved: boolean,
  returnTo: string | undefined,
): Promise<ActionOutcome & { tabId?: number }> {
  egress.guard.release(held.id);
  if (held.type === 'request') {
    // Still held by the browser: approved, it goes on as the page sent it; refused, it fails and nothing is sent.
    const sent = (await egress.secrets?.decide(egress.taskId, held.id, approved)) ?? false;
    if (!approved) return { ok: true, changed: false, message: `the request to ${held.origin} was cancelled; nothing was sent`, evidence: [] };
    return sent
      ? { ok: true, changed: true, message: `the page's request to ${held.address} went on`, evidence: [] }
      : { ok: false, changed: false, message: `${held.origin} is approved now for it, but the page's request is gone: do the action again`, evidence: [] };
  }
  // The tab is put back by opening the page it was on again: going back in history does not work here, as the
  // browser skips entries a page made without a user's gesture (a script's click is not one).
  const restore = async (): Promise<PageOutcome | null> =>
    returnTo !== undefined && (await tabs.showsError(held.tabId, held.url)) ? tabs.act(held.tabId, { kind: 'navigate', url: returnTo }) : null;
  if (!approved) {
    if (held.newTab) {
      await tabs.act(held.tabId, { kind: 'tab_close', tabId: held.tabId }).catch(() => undefined);
      return { ok: true, changed: true, message: 'the tab the page opened for it was closed', evidence: [] };
    }
    const back = held.type === 'main_frame' ? await restore() : null;
    if (back?.ok) return { ok: true, changed: true, message: 'the tab is back on the page it was on', evidence: back.evidence };
    return { ok: true, changed: false, message: 'the page stays as it was', evidence: [] };
  }
  const moved = held.newTab ? { tabId: held.tabId } : {};
  if (held.type === 'main_frame' && held.method === 'GET') {
    const opened = await tabs.act(held.tabId, { kind: 'navigate', url: held.url });
    return { ok: opened.ok, changed: true, message: opened.message.replace(held.url, held.address), evidence: opened.evidence, ...moved };
  }
  if (held.type === 'main_frame' && held.method === 'POST' && held.formData && !held.rawBody) {
    // The post is sent from a page of the site that made it: the browser's error page cannot send anything.
    await restore();
    const sent = await egress.resubmit(held.tabId, held.url, held.formData).catch(() => false);
    if (!sent) return { ok: false, changed: false, message: `${held.origin} is approved now, but the page could not send the form again: do the action again`, evidence: [] };
    await egress.sleep(200);
    const settled = await tabs.settle(held.tabId);
    const evidence = settled ? [`URL is ${settled.url}`, `title is ${JSON.stringify(settled.title)}`] : [];
    return { ok: true, changed: true, message: `sent the form again to ${held.address}`, evidence, ...moved };
  }
  return { ok: false, changed: false, message: `${held.origin} is approved now, but this request cannot be replayed as it was: do the action again`, evidence: [] };
}
/** The scope to set for the task's guard, in its current tab. */
export function setGuardScope(egress: TaskEgress, tabId: number, scope: EgressScope): Promise<void> {
  return egress.guard.setScope(egress.taskId, tabId, scope);
}
