/**
 * Labels that name a field without saying so in markup: `<label>Check-in</label><input type="date">`, with no `for`
 * and no nesting, a pattern many sites and form builders use. The browser does not connect them, but every reader of
 * the page does: the label's text is the field's name, and the label is no control of its own.
 */
const NOT_NAMEABLE = new Set(['hidden', 'checkbox', 'radio', 'button', 'submit', 'reset', 'image']);

/** A field whose name a label gives: a text-like input, a select or a textarea (checkboxes carry their own labels). */
function isNameableField(el: Element): boolean {
  if (el.tagName === 'SELECT' || el.tagName === 'TEXTAREA') return true;
  return el.tagName === 'INPUT' && !NOT_NAMEABLE.has((el as HTMLInputElement).type);
}

/** The field itself, or the one field a wrapper holds as its only element. */
function fieldIn(el: Element | null): Element | null {
  if (!el) return null;
  if (isNameableField(el)) return el;
  const only = el.childElementCount === 1 ? el.firstElementChild : null;
  return only && isNameableField(only) ? only : null;
}

function isLoneLabel(el: Element | null): el is HTMLLabelElement {
  return el !== null && el.tagName === 'LABEL' && (el as HTMLLabelElement).control === null;
}

/**
 * The field a label that labels nothing stands right before: its next sibling, or (when the label is alone in a
 * wrapper) the next sibling of that wrapper; either may itself be a wrapper of one field. Null when there is none.
 */
export function fieldAfterLabel(label: Element): Element | null {
  if (!isLoneLabel(label)) return null;
  const direct = fieldIn(label.nextElementSibling);
  if (direct) return direct;
  const parent = label.parentElement;
  return parent && parent.childElementCount === 1 ? fieldIn(parent.nextElementSibling) : null;
}

/** The label that labels nothing and stands right before this field (see fieldAfterLabel), or null. */
export function labelBeforeField(field: Element): HTMLLabelElement | null {
  if (!isNameableField(field)) return null;
  const candidates: Array<Element | null> = [field.previousElementSibling];
  const wrapper = field.parentElement;
  if (wrapper && wrapper.childElementCount === 1) candidates.push(wrapper.previousElementSibling);
  for (const candidate of candidates) {
    const label = isLoneLabel(candidate) ? candidate : candidate?.childElementCount === 1 && isLoneLabel(candidate.firstElementChild) ? candidate.firstElementChild : null;
    if (label && fieldAfterLabel(label) === field) return label;
  }
  return null;
}
