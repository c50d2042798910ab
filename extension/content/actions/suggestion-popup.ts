import type { DomAccess } from '../perception/dom-access';

/**
 * How long after typing a field that shows suggestions its popup (or its word that there are none) is waited for. Pages
 * wait for a pause in the typing before they look suggestions up (jQuery UI's autocomplete 300 ms, most 150-500 ms),
 * then answer from memory or from a request: the cap is for the answer that never comes (nothing matches and the page
 * says nothing), and is generous so that a busy machine, whose timers fire late, still sees the popup.
 */
export const SUGGESTIONS_CAP_MS = 1500;

/** Roles and tags of the lists a popup of suggestions is drawn as. */
const LIST = '[role=listbox], [role=menu], [role=tree], [role=grid], ul, ol';
/** How many changed elements are kept to look at between two looks: a popup shows within its first few. */
const KEPT = 200;
/** How far up from a changed node a layer (a popup drawn over the page) is looked for. */
const LAYER_DEPTH = 6;

/** The combobox a field belongs to: itself, or the ARIA 1.1 wrapper around it. */
function comboboxOf(field: Element): Element {
  return field.closest('[role=combobox]') ?? field;
}

/** The elements a field (or its combobox) says its suggestions are shown in. */
function controlledBy(field: Element): Element[] {
  const doc = field.ownerDocument;
  const ids = [field, comboboxOf(field)].flatMap((el) => [el.getAttribute('aria-controls'), el.getAttribute('aria-owns')]).join(' ');
  return ids
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => doc.getElementById(id))
    .filter((el): el is HTMLElement => el !== null);
}

/**
 * A text field whose page shows suggestions for what is typed: a combobox, an ARIA autocomplete, a popup it controls;
 * or one whose page turned the browser's own suggestions off (autocomplete="off") and listens to its keys itself, as
 * script autocompletes do (jQuery UI's says nothing else about itself). Before the page's listeners are known (a task's
 * first step, before it holds the debugger) such a field counts: a wait for suggestions that do not come costs the
 * cap, a settle that ends before they show costs the step. A datalist is not one: its suggestions are the browser's own
 * popup, shown at once and never part of the page.
 */
export function expectsSuggestions(el: Element, access: DomAccess): boolean {
  const autocomplete = el.getAttribute('aria-autocomplete');
  return (
    el.getAttribute('role') === 'combobox' ||
    autocomplete === 'list' ||
    autocomplete === 'both' ||
    (el.getAttribute('aria-haspopup') ?? 'false') !== 'false' ||
    el.hasAttribute('aria-controls') ||
    el.hasAttribute('aria-owns') ||
    (el.getAttribute('autocomplete')?.toLowerCase() === 'off' && isTextEntry(el) && (access.listens?.(el) === true || access.listenersKnown?.() !== true))
  );
}

/** A field typed into as text (not a password, a number, a date or a checkbox). */
function isTextEntry(el: Element): boolean {
  if (el.tagName === 'TEXTAREA') return true;
  const type = el.tagName === 'INPUT' ? (el as HTMLInputElement).type : '';
  return type === 'text' || type === 'search';
}

/** Shown, with at least one item that has words: a popup that holds suggestions, not an empty shell. */
function showsItems(list: Element): boolean {
  if (!list.checkVisibility()) return false;
  for (const item of Array.from(list.children)) {
    if ((item.textContent ?? '').trim() !== '' && item.checkVisibility()) return true;
  }
  return false;
}

/** An element drawn over the page (absolute or fixed) at or above `el`, within a few levels. */
function layerAt(el: Element): Element | null {
  const win = el.ownerDocument.defaultView;
  if (!win) return null;
  let node: Element | null = el;
  for (let depth = 0; node && depth < LAYER_DEPTH && node !== el.ownerDocument.body; depth += 1, node = node.parentElement) {
    const position = win.getComputedStyle(node).position;
    if (position === 'absolute' || position === 'fixed') return node;
  }
  return null;
}

export interface SuggestionWatch {
  /**
   * Whether the page has answered the typing: a popup of the field (the list it controls, a list or a layer drawn over
   * the page) changed and shows suggestions. A page that finds nothing and says nothing is waited for up to the cap.
   */
  answered(): boolean;
  stop(): void;
}

/**
 * Watches a field's page, from before the typing, for the answer to it: the state the settle after typing waits for,
 * so the model is sent the suggestions rather than the page as it was a moment before they showed.
 */
export function watchSuggestions(field: Element): SuggestionWatch {
  const doc = field.ownerDocument;
  // The elements changed since the last look: each change is looked at once, in the state it left (a list shown by a
  // later change to itself is a change of its own).
  let changed = new Set<Element>();
  let seen = false;
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const target = record.target.nodeType === 1 ? (record.target as Element) : record.target.parentElement;
      if (target && changed.size < KEPT) changed.add(target);
    }
  });
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  const popupShown = (target: Element): boolean => {
    // Changes in the field itself (its value, a "loading" class) are the typing, not the answer.
    if (target === field || field.contains(target)) return false;
    const controlled = controlledBy(field).find((popup) => popup === target || popup.contains(target) || target.contains(popup));
    if (controlled) return showsItems(controlled);
    const list = target.closest(LIST);
    if (list && !list.contains(field) && showsItems(list)) return true;
    const layer = layerAt(target);
    return layer !== null && !layer.contains(field) && layer.checkVisibility() && (layer.textContent ?? '').trim() !== '';
  };
  return {
    answered() {
      if (!seen) {
        const looked = changed;
        changed = new Set();
        for (const target of looked) if ((seen = popupShown(target))) break;
      }
      return seen;
    },
    stop: () => observer.disconnect(),
  };
}
