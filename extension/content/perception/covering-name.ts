import { clip, collapse, dialogTitle, landmarkName } from './accessible-name';
import type { RefRegistry } from './ref-registry';

const DIALOG = '[role=dialog], [role=alertdialog], dialog[open]';

/** A dialog as the snapshot heads it: `dialog "Accept cookies"`. */
function dialogLine(el: Element): string {
  const role = el.getAttribute('role') === 'alertdialog' ? 'alertdialog' : 'dialog';
  const name = landmarkName(el) || dialogTitle(el);
  return name ? `${role} ${JSON.stringify(clip(name, 40))}` : role;
}

/**
 * What covers an element, named as the snapshot names it, so the model can find it there and deal with it: the numbered
 * control it is or is part of (`[@7] button "Chat with us"`, the frame's own number, which the background turns into
 * the tab's), else the dialog it is part of or the backdrop it holds, else its words, else its tag. A class or an id is
 * never a name (the snapshot invents none).
 */
export function coveringName(hit: Element, registry: RefRegistry | null): string {
  for (let el: Element | null = hit; el; el = el.parentElement ?? ((el.getRootNode() as ShadowRoot).host ?? null)) {
    const ref = registry?.peek(el);
    const record = ref === undefined ? undefined : registry?.record(ref);
    if (record) return `[@${record.ref}] ${record.role} ${record.name ? JSON.stringify(clip(record.name, 60)) : 'unnamed'}`;
    if (el.matches(DIALOG)) return dialogLine(el);
  }
  // A backdrop is drawn over the page around the dialog it holds.
  const held = hit.querySelector(DIALOG);
  if (held) return `the backdrop of ${dialogLine(held)}`;
  const text = clip(collapse(hit.textContent ?? ''), 40);
  const tag = hit.tagName.toLowerCase();
  return text ? `a ${tag} that the snapshot does not number, showing ${JSON.stringify(text)}` : `a ${tag} with no name or text, drawn over it`;
}
