import { readableLabel } from '../../../shared/agent/label-text';
import { findSecrets } from '../../../shared/agent/secret-patterns';
import { labelBeforeField } from './orphan-label';
import { visibleText } from './visual-hiding';

/** Longest name shown; longer names are cut with an ellipsis so one control never floods the snapshot. */
export const MAX_NAME = 80;

/** Text in one line as the reader sees it: overridden runs in display order, no bidirectional or invisible characters. */
export function collapse(text: string): string {
  return readableLabel(text).replace(/\s+/g, ' ').trim();
}

/** How far past the cut a secret may run and still be kept whole. */
const SECRET_REACH = 400;

/**
 * Cuts text to `max` characters with an ellipsis. A secret (a card number, a key, a token) is never cut in two: the
 * part kept would reach the model before the background could recognise and redact it, so the cut moves past its end.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  for (const span of findSecrets(text.slice(0, max + SECRET_REACH), { emails: true, phones: true })) {
    if (span.start < cut && span.end > cut) {
      cut = span.end;
      break;
    }
    if (span.start >= cut) break;
  }
  return cut >= text.length ? text : `${text.slice(0, cut).trimEnd()}…`;
}

function textOf(el: Element): string {
  return collapse(el.textContent ?? '');
}

function labelledBy(el: Element): string {
  const ids = el.getAttribute('aria-labelledby');
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  return ids
    .split(/\s+/)
    .map((id) => {
      const target = root.getElementById?.(id) ?? el.ownerDocument.getElementById(id);
      return target ? textOf(target) : '';
    })
    .filter(Boolean)
    .join(' ');
}

/** A label's text without the text of controls inside it (a select's options are not part of its label). */
function labelText(label: Element): string {
  const walker = label.ownerDocument.createTreeWalker(label, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest('select, textarea, button, option') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) text += node.nodeValue ?? '';
  return collapse(text);
}

function labelsOf(el: Element): string {
  const labels = (el as HTMLInputElement).labels;
  if (!labels || labels.length === 0) return '';
  return Array.from(labels, (label) => labelText(label)).filter(Boolean).join(' ');
}

/** Controls of their own inside an element, whose words are not that element's name. */
const INNER_CONTROLS = 'button, a[href], input, select, textarea, [role=button], [role=link], [role=checkbox], [role=menuitem], [role=tab]';

/** Roles a control has by markup, which take their name from all of their content as the accessibility tree does. */
const WIDGET_NAMED_BY_CONTENT = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'checkbox', 'radio', 'switch']);

/** An element's words outside the descendants `skip` keeps. */
function textOutside(el: Element, skip: (child: Element) => boolean): string {
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.nodeType === 1 && skip(node as Element) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.nodeType === 3) text += node.nodeValue ?? '';
  return collapse(text);
}

/**
 * Text of a control's content, with image alternatives, for roles that take their name from content. Parts a person
 * cannot see (an instruction in a zero-size span inside a button) are left out; a control whose only words are for
 * screen readers keeps them, as its name.
 */
function contentName(el: Element, role: string): string {
  // A control found by its behaviour (a draggable title bar, a clickable row) is not named after a control it holds:
  // a dialog's title bar is not "Close" because its close button is inside it.
  if (!WIDGET_NAMED_BY_CONTENT.has(role) && el.firstElementChild !== null && el.querySelector(INNER_CONTROLS)) {
    const own = (child: Element) => child.matches(INNER_CONTROLS);
    return visibleText(el, false, own) || textOutside(el, own);
  }
  const text = el.firstElementChild === null ? textOf(el) : visibleText(el, false) || textOf(el);
  if (text) return text;
  const img = el.querySelector('img[alt], [aria-label], svg title');
  if (!img) return '';
  if (img.tagName === 'title') return textOf(img);
  return collapse(img.getAttribute('alt') ?? img.getAttribute('aria-label') ?? '');
}

/**
 * A short accessible name, close to the ARIA name computation for the common cases: aria-labelledby, aria-label,
 * labels (and a label right before a field that labels nothing, see orphan-label.ts), the button value, content, alt,
 * title, and for fields the placeholder, as browsers do. Hidden label text is included, as screen readers do. When all of
 * these are empty the control is unnamed, and the snapshot says so.
 */
export function accessibleName(el: Element, tag: string, role: string): string {
  let name = labelledBy(el) || collapse(el.getAttribute('aria-label') ?? '');
  if (!name) {
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
      name = labelsOf(el);
      if (!name) {
        const orphan = labelBeforeField(el);
        if (orphan) name = labelText(orphan);
      }
      const type = (el as HTMLInputElement).type;
      if (!name && tag === 'INPUT' && (type === 'submit' || type === 'button' || type === 'reset')) {
        name = collapse((el as HTMLInputElement).value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      }
      if (!name && type === 'image') name = collapse(el.getAttribute('alt') ?? '');
    } else if (tag === 'IMG') {
      name = collapse(el.getAttribute('alt') ?? '');
    } else if (role !== 'textbox' && role !== 'combobox' && role !== 'listbox' && role !== 'searchbox') {
      name = contentName(el, role);
    }
  }
  if (!name) name = collapse(el.getAttribute('title') ?? '');
  if (!name && (tag === 'INPUT' || tag === 'TEXTAREA' || role === 'textbox' || role === 'searchbox' || role === 'combobox')) {
    name = collapse(el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder') ?? '');
  }
  return clip(name, MAX_NAME);
}

/** Landmarks and dialogs are named only by their author (aria-label, aria-labelledby), never by their content. */
export function landmarkName(el: Element): string {
  const label = el.getAttribute('aria-label');
  if (label) return collapse(label);
  const ids = el.getAttribute('aria-labelledby');
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  const first = root.getElementById?.(ids.split(/\s+/)[0] ?? '');
  return first ? collapse(first.textContent ?? '') : '';
}

/**
 * A dialog's title as a person reads it, for a dialog its author did not name: its first heading, or else the part
 * its markup calls its title (`.modal-title`, `.dialog-title`). The words are the page's own, never a class name.
 */
export function dialogTitle(el: Element): string {
  const heading = el.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
  const title = heading ?? el.querySelector('[class*="title" i]:not(button, a, input)');
  return title ? clip(textOutside(title, (child) => child.matches(INNER_CONTROLS)), 40) : '';
}
