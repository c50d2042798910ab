import type { ObservedElement } from '../agent/environment';
import type { TargetIdentity } from './routine';

/** The part of a page observation identities are read from and matched against. */
export interface IdentityView {
  elements: ObservedElement[];
  /** The numbered snapshot text (for the text near an element); null when it was masked. */
  text: string | null;
}

export type TargetMatch = { kind: 'found'; ref: number } | { kind: 'missing'; why: string } | { kind: 'ambiguous'; refs: number[]; why: string };

const ELEMENT_LINE = /^\s*\*?\[(\d+)\]/;

/** Names compare without case and with runs of white space as one space: "Add  to cart" is "add to cart". */
export function sameName(a: string, b: string): boolean {
  return normal(a) === normal(b);
}

function normal(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The nearest line of plain text above the element in the snapshot (a heading, a product's name), skipping other
 * numbered lines: "Blue mug" above `[31] button "Add to cart"`. Undefined when the text is masked or has none.
 */
export function nearText(text: string | null, ref: number): string | undefined {
  if (!text) return undefined;
  const lines = text.split('\n');
  const at = lines.findIndex((line) => ELEMENT_LINE.exec(line)?.[1] === String(ref));
  for (let i = at - 1; i >= 0 && at > 0; i -= 1) {
    const line = (lines[i] ?? '').trim();
    if (line === '' || ELEMENT_LINE.test(line)) continue;
    // A heading or list mark is layout, not what the text says.
    const words = line.replace(/^(#+|[-•]|heading\s*\d?:?)\s*/i, '').trim();
    if (words.length >= 2) return words.slice(0, 80);
  }
  return undefined;
}

function lookAlikes(elements: ObservedElement[], role: string, name: string, origin: string | undefined): ObservedElement[] {
  return elements.filter((e) => e.role === role && sameName(e.name, name) && e.origin === origin);
}

/** The identity of the element numbered `ref` in a view, or null when the view does not show it. */
export function identityOf(view: IdentityView, ref: number): TargetIdentity | null {
  const element = view.elements.find((e) => e.ref === ref);
  if (!element) return null;
  const same = lookAlikes(view.elements, element.role, element.name, element.origin);
  const near = nearText(view.text, ref);
  return {
    role: element.role,
    name: element.name,
    ...(element.origin ? { origin: element.origin } : {}),
    ...(near ? { near } : {}),
    nth: Math.max(0, same.findIndex((e) => e.ref === ref)),
    of: Math.max(1, same.length),
  };
}

/**
 * Finds the element an identity names in a new view of the page: the one element of that role and name in that
 * frame's origin; among look-alikes, the one under the same nearby text, or (when there are as many as before) the
 * one at the same place among them. Anything else is missing or ambiguous, and the step is not guessed at.
 */
export function findTarget(identity: TargetIdentity, view: IdentityView): TargetMatch {
  const same = lookAlikes(view.elements, identity.role, identity.name, identity.origin);
  const what = `${identity.role} "${identity.name}"${identity.origin ? ` in a frame of ${identity.origin}` : ''}`;
  if (same.length === 0) return { kind: 'missing', why: `No ${what} is on the page now.` };
  const only = same[0];
  if (same.length === 1 && only) return { kind: 'found', ref: only.ref };
  if (identity.near !== undefined) {
    const near = same.filter((e) => {
      const text = nearText(view.text, e.ref);
      return text !== undefined && sameName(text, identity.near ?? '');
    });
    const one = near[0];
    if (near.length === 1 && one) return { kind: 'found', ref: one.ref };
    // None of them is by the text it was by (another product): the place among them would be a guess.
    if (near.length === 0) {
      return { kind: 'ambiguous', refs: same.map((e) => e.ref), why: `There are ${same.length} of ${what} on the page, and none is by "${identity.near}" as before.` };
    }
  }
  const placed = same[identity.nth];
  if (same.length === identity.of && placed) return { kind: 'found', ref: placed.ref };
  return {
    kind: 'ambiguous',
    refs: same.map((e) => e.ref),
    why: `There are ${same.length} of ${what} on the page now (there were ${identity.of}), and none stands out by the text near it${identity.near ? ` ("${identity.near}")` : ''}.`,
  };
}
