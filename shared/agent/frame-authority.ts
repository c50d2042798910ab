import type { ActionEffect } from './action-effect';
import { inAccountArea, urlKind } from './risk-words';
import type { RiskClass } from './risk-class';
import { originLabel, originOf } from './site-list';
import type { ObservedElement } from './environment';

/**
 * Frames cannot borrow the page's authority. When the model was just shown words from a frame of another site (an
 * ad, a widget) and now acts on the page itself in a way that changes something there (any POST, the account, an
 * address, a payment), those words may be what asked for it: the user decides, and the card names the frame's site.
 * Actions inside such a frame are judged by the frame's own origin elsewhere in the gate.
 */
export interface FrameAuthorityFacts {
  pageUrl: string;
  frameOrigins: readonly string[] | undefined;
  element: ObservedElement | undefined;
  effect: ActionEffect | undefined;
  /** The risk classes found so far for this call. */
  classes: ReadonlySet<RiskClass>;
  /** The call types or sets a value in a field. */
  fills: boolean;
}

const ADDRESS_FIELD = /(?:^|\s)(?:street-address|address-line\d|address-level\d|postal-code|country)$|\b(?:address|street|postcode|zip|delivery|shipping)\b/i;
const STATE_CLASSES: ReadonlySet<RiskClass> = new Set(['money', 'account', 'irreversible', 'commitment', 'send-message']);

function changesState(facts: FrameAuthorityFacts): string | null {
  const { effect, element } = facts;
  const form = effect?.form;
  if (effect?.submits && form && form.method.toLowerCase() === 'post') return `it posts a form to ${form.action}`;
  if (form && effect?.submits && (inAccountArea(form.action) || urlKind(form.action) !== null)) return `it submits a form to ${form.action}`;
  const risky = [...facts.classes].find((c) => STATE_CLASSES.has(c));
  if (risky) return `it is a ${risky} step`;
  if (facts.fills && element && ADDRESS_FIELD.test(`${element.autocomplete ?? ''} ${element.name}`)) return `it fills the field "${element.name.slice(0, 60)}"`;
  if (facts.fills && form && form.fields.some((f) => ADDRESS_FIELD.test(`${f.autocomplete} ${f.name} ${f.label}`))) return 'it fills an address form';
  return null;
}

/** The reason to ask, naming the frames' sites, or null when no cross-origin frame's words precede a change to the page. */
export function borrowedAuthority(facts: FrameAuthorityFacts): string | null {
  const top = originOf(facts.pageUrl);
  const frames = [...new Set(facts.frameOrigins ?? [])].filter((o) => o !== top);
  if (frames.length === 0 || top === null) return null;
  // Acting inside the frame itself is the frame's own business, judged by its origin.
  if (facts.element?.origin && facts.element.origin !== top) return null;
  if (facts.effect && originOf(facts.effect.frameUrl) !== top) return null;
  const what = changesState(facts);
  if (what === null) return null;
  const sites = frames.map(originLabel).join(', ');
  return `the page shows words from a frame of ${sites} (another site), and ${what} on ${originLabel(top)}: a frame's words must not act for the page`;
}
