import { AppError } from '../../../shared/errors';
import { accessibleName, collapse } from '../perception/accessible-name';

function norm(text: string): string {
  return collapse(text).toLowerCase();
}

/** Picks options of a native <select> by label or value; an option that does not exist is named in the error. */
export function selectNative(select: HTMLSelectElement, values: string[]): string[] {
  if (select.disabled) throw new AppError('forbidden', 'the select is disabled');
  if (values.length > 1 && !select.multiple) throw new AppError('invalid_params', 'this select takes one option; pass one value');
  const options = Array.from(select.options);
  const chosen = values.map((wanted) => {
    const key = norm(wanted);
    const option =
      options.find((o) => norm(o.label || o.text) === key) ??
      options.find((o) => o.value === wanted) ??
      options.find((o) => norm(o.label || o.text).includes(key));
    if (!option) {
      const list = options.slice(0, 15).map((o) => JSON.stringify(collapse(o.label || o.text))).join(', ');
      throw new AppError('not_found', `no option ${JSON.stringify(wanted)}; the options are: ${list}${options.length > 15 ? ', ...' : ''}`);
    }
    if (option.disabled) throw new AppError('forbidden', `option ${JSON.stringify(wanted)} is disabled`);
    return option;
  });
  select.focus({ preventScroll: true });
  for (const option of options) option.selected = chosen.includes(option);
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return Array.from(select.selectedOptions, (o) => collapse(o.label || o.text));
}

/** The listbox a combobox controls, or the listbox itself, or null while the popup is closed. */
export function listboxOf(el: Element): Element | null {
  if (el.getAttribute('role') === 'listbox') return el;
  const doc = el.getRootNode() as Document | ShadowRoot;
  for (const attribute of ['aria-controls', 'aria-owns']) {
    const id = el.getAttribute(attribute);
    const target = id ? (doc.getElementById?.(id.split(/\s+/)[0] ?? '') ?? null) : null;
    if (target) return target.getAttribute('role') === 'listbox' ? target : target.querySelector('[role=listbox]');
  }
  return el.querySelector('[role=listbox]') ?? el.parentElement?.querySelector('[role=listbox]') ?? null;
}

/** The visible option of an ARIA listbox whose name matches, best match first. */
export function findAriaOption(listbox: Element, wanted: string): Element | undefined {
  const options = Array.from(listbox.querySelectorAll('[role=option]')).filter((o) => o.getClientRects().length > 0);
  const key = norm(wanted);
  const named = options.map((o) => ({ o, name: norm(accessibleName(o, o.tagName, 'option')) }));
  return (named.find((x) => x.name === key) ?? named.find((x) => x.o.getAttribute('data-value') === wanted) ?? named.find((x) => x.name.includes(key)))?.o;
}

export function ariaOptionNames(listbox: Element): string[] {
  return Array.from(listbox.querySelectorAll('[role=option]'), (o) => accessibleName(o, o.tagName, 'option')).slice(0, 15);
}
