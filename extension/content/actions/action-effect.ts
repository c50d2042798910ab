import type { ActionEffect, FieldFact, FormFact } from '../../../shared/agent/action-effect';
import type { ElementAction } from '../../../shared/perception/element-action';
import { accessibleName, clip, collapse } from '../perception/accessible-name';
import { deepActiveElement, type DomAccess } from '../perception/dom-access';
import { fromScreenshot } from './point-action';
import { deepElementAt } from './pointer-events';
import { isTextField } from './type-text';

const DANGER = /\b(?:danger|destructive|delete|remove|warning-btn|btn-warning)\b/i;
const MAX_FIELDS = 60;

function text(el: Element): string {
  const own = accessibleName(el, el.tagName, el.getAttribute('role') ?? '');
  return clip(own || collapse((el as HTMLElement).innerText ?? el.textContent ?? ''), 200);
}

function fieldFact(el: Element): FieldFact | null {
  const tag = el.tagName;
  if (tag !== 'INPUT' && tag !== 'SELECT' && tag !== 'TEXTAREA') return null;
  const input = el as HTMLInputElement;
  const type = tag === 'INPUT' ? input.type : tag.toLowerCase();
  if (['submit', 'button', 'reset', 'image', 'hidden'].includes(type)) {
    // A hidden field is sent too: its name says what the form carries, never its value.
    if (type !== 'hidden') return null;
  }
  return {
    name: clip(input.name ?? '', 100),
    label: clip(accessibleName(el, tag, ''), 100),
    type: clip(type, 30),
    autocomplete: clip((el.getAttribute('autocomplete') ?? '').toLowerCase(), 60),
    filled: tag === 'SELECT' ? (el as HTMLSelectElement).selectedIndex > 0 : input.value !== '',
  };
}

/** A submit button of the form: the one Enter presses (the first), or the one given. */
function submitterOf(form: HTMLFormElement): HTMLElement | null {
  return Array.from(form.elements).find((el): el is HTMLElement => (el.tagName === 'BUTTON' && (el as HTMLButtonElement).type === 'submit') || (el.tagName === 'INPUT' && ['submit', 'image'].includes((el as HTMLInputElement).type))) ?? null;
}

function opensNewWindow(target: string, win: Window): boolean {
  const name = target.trim().toLowerCase();
  if (name === '' || name === '_self') return false;
  if (name === '_parent' || name === '_top') return win !== win.top;
  return true;
}

/** The form as the browser would submit it with this submitter: formaction, formmethod and formtarget come first. */
function formFact(form: HTMLFormElement, submitter: HTMLElement | null, win: Window): FormFact {
  const button = submitter as HTMLButtonElement | null;
  const action = button?.hasAttribute('formaction') ? button.formAction : form.action;
  const method = (button?.hasAttribute('formmethod') ? button.formMethod : form.method).toLowerCase();
  const target = button?.hasAttribute('formtarget') ? button.formTarget : form.target;
  const fields = Array.from(form.elements)
    .map(fieldFact)
    .filter((f): f is FieldFact => f !== null)
    .slice(0, MAX_FIELDS);
  const defaultButton = submitterOf(form);
  return {
    action: clip(action || win.location.href, 2000),
    method: method === 'post' || method === 'dialog' ? method : 'get',
    newWindow: opensNewWindow(target, win),
    fields,
    submitLabel: defaultButton ? clip(text(defaultButton), 100) : '',
  };
}

/** Whether activating this element submits its form: a submit button, or an image input. */
function isSubmitControl(el: Element): boolean {
  if (el.tagName === 'BUTTON') return (el as HTMLButtonElement).type === 'submit' && (el as HTMLButtonElement).form !== null;
  if (el.tagName === 'INPUT') return ['submit', 'image'].includes((el as HTMLInputElement).type) && (el as HTMLInputElement).form !== null;
  return false;
}

function formOf(el: Element): HTMLFormElement | null {
  const owned = (el as HTMLInputElement).form;
  if (owned) return owned;
  return el.closest('form');
}

/** The text around a control: the nearest container with some words (its row, card or form), for prices near it. */
function contextOf(el: Element): string {
  let node: Element | null = el.parentElement;
  for (let depth = 0; node && depth < 6; depth += 1, node = node.parentElement) {
    const words = collapse((node as HTMLElement).innerText ?? node.textContent ?? '');
    if (words.length >= 40 || node.tagName === 'FORM') return clip(words, 600);
  }
  return clip(collapse(el.ownerDocument.body?.innerText ?? ''), 600);
}

function selectedLabels(el: Element, values: string[]): string[] {
  if (el.tagName !== 'SELECT') return values.map((v) => clip(v, 200));
  const options = Array.from((el as HTMLSelectElement).options);
  return values.map((wanted) => {
    const key = collapse(wanted).toLowerCase();
    const option = options.find((o) => collapse(o.label || o.text).toLowerCase() === key) ?? options.find((o) => o.value === wanted) ?? options.find((o) => collapse(o.label || o.text).toLowerCase().includes(key));
    return clip(collapse(option ? option.label || option.text : wanted), 200);
  });
}

/** Where a drag of `el` by an offset lets go: its centre moved by the offset, in its frame's viewport. */
function dropByOffset(el: Element, action: { dx: number; dy: number }): { x: number; y: number } {
  const rect = el.getBoundingClientRect();
  return { x: rect.left + rect.width / 2 + action.dx, y: rect.top + rect.height / 2 + action.dy };
}

/**
 * What an action on an element will do, found out in the page before it runs: the link it follows (its address as the
 * page has it now, and whether it opens a new window), the form it submits (its address, method and the names of
 * its fields), whether it submits at all (a submit button; Enter in a field; typing with submit), and the words and
 * prices around it. Enter on a button or link is the click it causes; a key with no element acts on the focused one.
 */
export function describeEffect(doc: Document, el: Element | null, action: ElementAction, access: DomAccess): ActionEffect {
  const win = doc.defaultView;
  const point = action.kind === 'point' ? fromScreenshot(win, action.x, action.y) : action.kind === 'drag' && el ? dropByOffset(el, action) : null;
  const atPoint = point ? deepElementAt(doc, point.x, point.y, access) : null;
  // Input at a point over a child frame lands in that frame: the gate judges it by the frame's site.
  const frameUrl = atPoint instanceof HTMLIFrameElement && atPoint.src ? atPoint.src : (win?.location.href ?? doc.URL);
  // A drag by an offset is judged where it lets go, not where it starts.
  const dropped = action.kind === 'drag' ? atPoint : null;
  const target = dropped ?? el ?? atPoint ?? (action.kind === 'press' ? deepActiveElement(doc, access) : null) ?? doc.body;
  const key = action.kind === 'press' ? action.key : action.kind === 'type' && action.submit ? 'Enter' : '';
  const activates = action.kind === 'click' || (action.kind === 'point' && (action.op === 'click' || action.op === 'double')) || action.kind === 'check' || key === 'Enter' || (key === ' ' && !isTextField(target));
  const effect: ActionEffect = {
    frameUrl: clip(frameUrl, 2000),
    element: {
      tag: target.tagName,
      type: clip((target as HTMLInputElement).type ?? '', 30),
      text: text(target),
      danger: DANGER.test(`${typeof target.className === 'string' ? target.className : ''} ${target.id}`),
    },
    submits: false,
    context: contextOf(target),
  };
  const form = formOf(target);
  const inField = isTextField(target) || target.tagName === 'SELECT';
  const submits = (activates && isSubmitControl(target)) || (key === 'Enter' && inField && target.tagName === 'INPUT' && form !== null);
  if (form && win) effect.form = formFact(form, submits && isSubmitControl(target) ? (target as HTMLElement) : submitterOf(form), win);
  effect.submits = submits && form !== null;
  const link = target.closest<HTMLAnchorElement>('a[href], area[href]');
  if (activates && link && win && !effect.submits) {
    effect.link = { url: clip(link.href, 2000), newWindow: opensNewWindow(link.target, win) };
  }
  if (action.kind === 'select') effect.options = selectedLabels(target, action.values);
  return effect;
}
