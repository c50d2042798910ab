import type { ActionEffect } from './action-effect';
import { inAccountArea, urlKind } from './risk-words';
import type { RiskClass } from './risk-class';
import { originLabel, originOf } from './site-list';
import type { ObservedElement } from './environment';

/**
 * Frames cannot borrow the page's authority. Once the model was shown words from a frame of another site (an ad, a
 * widget), at this step or any earlier one of the task (they stay in its context), an action on the page itself that
 * may change something there asks the user, and the card names the frame's site. "May change something" is anything
 * Deputy cannot see to be only reading: a form post wherever it goes, the account, an address, a payment, and a control
 * whose own script decides what the page sends (a button in no form, a key press that submits). Reading stays free: a
 * same-site link, a GET search, scrolling. Actions inside such a frame are judged by the frame's own origin elsewhere
 * in the gate.
 */
export interface FrameAuthorityFacts {
  /** The tool called (click, type, press, navigate...). */
  tool: string;
  pageUrl: string;
  frameOrigins: readonly string[] | undefined;
  /** Frames of other sites whose words the model was shown at earlier steps of the task. */
  earlierFrameOrigins?: readonly string[] | undefined;
  element: ObservedElement | undefined;
  effect: ActionEffect | undefined;
  /** The risk classes found so far for this call. */
  classes: ReadonlySet<RiskClass>;
  /** The call types or sets a value in a field. */
  fills: boolean;
  /** Where a navigate call goes. */
  url?: string | undefined;
}

const ADDRESS_FIELD = /(?:^|\s)(?:street-address|address-line\d|address-level\d|postal-code|country|country-name)$|\b(?:address|street|postcode|zip|delivery|shipping)\b/i;
const STATE_CLASSES: ReadonlySet<RiskClass> = new Set(['money', 'account', 'irreversible', 'commitment', 'send-message']);
/** Tools that activate a control: what they do is the control's (its link, its form, or its script). */
const ACTIVATES = new Set(['click', 'click_at', 'press', 'check', 'drag', 'drag_at']);
/** Controls that only choose among options in place: the form they are in sends nothing until it is submitted. */
const CHOOSERS = new Set(['checkbox', 'radio', 'switch', 'option', 'tab', 'combobox', 'listbox', 'slider', 'spinbutton', 'textbox', 'searchbox']);

function activationChanges(facts: FrameAuthorityFacts): string | null {
  const { effect, element } = facts;
  const label = element?.name ? ` "${element.name.slice(0, 60)}"` : '';
  if (effect?.link) return inAccountArea(effect.link.url) || urlKind(effect.link.url) !== null ? `it opens ${effect.link.url}` : null;
  const form = effect?.form;
  // A GET form (a search, a filter) reads; its account and checkout addresses are caught above.
  if (form && effect?.submits && form.method.toLowerCase() === 'get') return null;
  if (facts.classes.has('submit')) return `it submits${label}`;
  const role = element?.role ?? '';
  if (CHOOSERS.has(role) || /^(?:checkbox|radio|select|textarea|text|search|email|number|range)$/i.test(effect?.element.type ?? '')) return null;
  if (role === 'link' && !effect) return null;
  if (facts.tool === 'press' && !element) return null;
  // A button in no form, or one that does not submit its form: the page's script decides what it sends, and where.
  return `it activates${label}, whose page script decides what it sends`;
}

function changesState(facts: FrameAuthorityFacts): string | null {
  const { effect, element } = facts;
  const form = effect?.form;
  if (effect?.submits && form && form.method.toLowerCase() === 'post') return `it posts a form to ${form.action}`;
  if (form && effect?.submits && (inAccountArea(form.action) || urlKind(form.action) !== null)) return `it submits a form to ${form.action}`;
  const risky = [...facts.classes].find((c) => STATE_CLASSES.has(c));
  if (risky) return `it is a ${risky} step`;
  if (facts.fills && element && ADDRESS_FIELD.test(`${element.autocomplete ?? ''} ${element.name}`)) return `it fills the field "${element.name.slice(0, 60)}"`;
  if (facts.fills && form && form.fields.some((f) => ADDRESS_FIELD.test(`${f.autocomplete} ${f.name} ${f.label}`))) return 'it fills an address form';
  if (facts.tool === 'navigate' && facts.url && (inAccountArea(facts.url) || urlKind(facts.url) !== null)) return `it opens ${facts.url}`;
  if (ACTIVATES.has(facts.tool) || facts.classes.has('submit')) return activationChanges(facts);
  return null;
}

/** The reason to ask, naming the frames' sites, or null when no cross-origin frame's words precede a change to the page. */
export function borrowedAuthority(facts: FrameAuthorityFacts): string | null {
  const top = originOf(facts.pageUrl);
  if (top === null) return null;
  const here = [...new Set(facts.frameOrigins ?? [])].filter((o) => o !== top);
  const before = [...new Set(facts.earlierFrameOrigins ?? [])].filter((o) => o !== top && !here.includes(o));
  if (here.length === 0 && before.length === 0) return null;
  // Acting inside the frame itself is the frame's own business, judged by its origin.
  if (facts.element?.origin && facts.element.origin !== top) return null;
  if (facts.effect && originOf(facts.effect.frameUrl) !== top) return null;
  const what = changesState(facts);
  if (what === null) return null;
  const sites = (list: string[]): string => list.map(originLabel).join(', ');
  const seen = [
    ...(here.length > 0 ? [`the page shows words from a frame of ${sites(here)} (another site)`] : []),
    ...(before.length > 0 ? [`earlier in this task Deputy was shown words from a frame of ${sites(before)} (another site)`] : []),
  ].join(', and ');
  return `${seen}, and ${what} on ${originLabel(top)}: a frame's words must not act for the page`;
}
