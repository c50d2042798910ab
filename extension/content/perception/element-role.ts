/**
 * Roles as the snapshot names them: ARIA role names where one applies, so the model reads familiar words.
 * "strong" interactive elements are controls in their own right; "weak" ones (focusable by tabindex, onclick, pointer
 * cursor) are numbered only when no interactive ancestor already covers them.
 */
export type InteractiveKind = 'strong' | 'weak';

const WIDGET_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'listbox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'treeitem',
]);

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  file: 'button',
  color: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
};

/** Inputs that take a date or a time: the snapshot names them by their kind, so the model types what they expect. */
export const DATE_TIME_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week']);

const LANDMARK_TAGS: Record<string, string> = {
  NAV: 'navigation',
  MAIN: 'main',
  ASIDE: 'complementary',
  SEARCH: 'search',
  HEADER: 'banner',
  FOOTER: 'contentinfo',
  FORM: 'form',
  DIALOG: 'dialog',
};

const LANDMARK_ROLES = new Set([
  'navigation',
  'main',
  'complementary',
  'search',
  'banner',
  'contentinfo',
  'form',
  'region',
  'dialog',
  'alertdialog',
]);

export function explicitRole(el: Element): string | null {
  const value = el.getAttribute('role');
  if (!value) return null;
  const first = value.trim().split(/\s+/)[0];
  return first ? first.toLowerCase() : null;
}

/** The role of an interactive element, or null when the element is not a control by markup. */
export function controlRole(el: Element, tag: string): string | null {
  const role = explicitRole(el);
  if (role && WIDGET_ROLES.has(role)) return role;
  switch (tag) {
    case 'A':
    case 'AREA':
      return el.hasAttribute('href') ? 'link' : null;
    case 'BUTTON':
      return 'button';
    case 'INPUT': {
      const type = (el.getAttribute('type') ?? 'text').toLowerCase();
      if (type === 'hidden') return null;
      if (el.hasAttribute('list')) return 'combobox';
      if (DATE_TIME_TYPES.has(type)) return type;
      return INPUT_ROLES[type] ?? 'textbox';
    }
    case 'SELECT':
      return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    case 'TEXTAREA':
      return 'textbox';
    case 'SUMMARY':
      return 'button';
    default:
      return null;
  }
}

/**
 * Classifies an element as a strong control, a weak (focusable or script-clickable) one, or not interactive.
 * `editableRoot` is true for the outermost contenteditable element, which is a text box of its own.
 */
export function interactiveKind(el: Element, tag: string, editableRoot: boolean): { kind: InteractiveKind; role: string } | null {
  const role = controlRole(el, tag);
  if (role) return { kind: 'strong', role };
  if (editableRoot) return { kind: 'strong', role: 'textbox' };
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number.parseInt(tabindex, 10) >= 0) return { kind: 'weak', role: explicitRole(el) ?? structureRole(el, tag) ?? 'focusable' };
  if (el.hasAttribute('onclick')) return { kind: 'weak', role: explicitRole(el) ?? structureRole(el, tag) ?? 'clickable' };
  return null;
}

/** Roles of page structure that a control found by its behaviour keeps, as the accessibility tree names it. */
export const STRUCTURE_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader', 'row', 'listitem', 'heading', 'img', 'label']);

/**
 * The ARIA role a cell, row, list item, heading, image or label has by its markup, or null for an element with no
 * role of its own (a div, a span). A calendar's day cell that reacts to a click is a `gridcell`, as Chromium's
 * accessibility tree says, not a role of Deputy's own.
 */
export function structureRole(el: Element, tag: string): string | null {
  switch (tag) {
    case 'TD': {
      const grid = explicitRole(el.closest('table') ?? el);
      return grid === 'grid' || grid === 'treegrid' ? 'gridcell' : 'cell';
    }
    case 'TH':
      return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
    case 'TR':
      return 'row';
    case 'LI':
      return el.parentElement && /^(UL|OL|MENU)$/.test(el.parentElement.tagName) ? 'listitem' : null;
    case 'IMG':
      return el.getAttribute('alt') === '' ? null : 'img';
    case 'LABEL':
      return 'label';
    default:
      return headingLevel(el, tag) > 0 ? 'heading' : null;
  }
}

/** Headings give their level, as markdown does: `## Pricing`. */
export function headingLevel(el: Element, tag: string): number {
  if (tag.length === 2 && tag[0] === 'H') {
    const level = tag.charCodeAt(1) - 48;
    if (level >= 1 && level <= 6) return level;
  }
  if (explicitRole(el) === 'heading') {
    const level = Number.parseInt(el.getAttribute('aria-level') ?? '2', 10);
    return level >= 1 && level <= 6 ? level : 2;
  }
  return 0;
}

/** Landmarks and dialogs, which open a section in the flat list. Sections and forms count only when named. */
export function landmarkRole(el: Element, tag: string): string | null {
  const role = explicitRole(el);
  if (role) return LANDMARK_ROLES.has(role) ? role : null;
  if (tag === 'SECTION') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : null;
  const landmark = LANDMARK_TAGS[tag];
  if (!landmark) return null;
  if (landmark === 'form' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) return null;
  if ((landmark === 'banner' || landmark === 'contentinfo') && el.closest('article, aside, main, nav, section')) return null;
  return landmark;
}
