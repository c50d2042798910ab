import { AppError } from '../../../shared/errors';
import type { ActResult, ElementAction } from '../../../shared/perception/element-action';
import type { DomAccess } from '../perception/dom-access';
import { deepActiveElement } from '../perception/dom-access';
import { aimAt, describeElement, dispatchClick, dispatchHover, scrollIntoViewIfNeeded } from './pointer-events';
import { parseChord, pressKey } from './press-key';
import { scrollableOf, scrollBy } from './scroll-by';
import { ariaOptionNames, findAriaOption, listboxOf, selectNative } from './select-option';
import { isTextField, readBack, typeText } from './type-text';
import { FRAME_MS, watchSettle } from './watch-settle';

type Outcome = Omit<ActResult, 'replacedBy' | 'candidates' | 'token' | 'url'>;

function checkedState(el: Element): boolean | null {
  if (el.tagName === 'INPUT' && ['checkbox', 'radio'].includes((el as HTMLInputElement).type)) return (el as HTMLInputElement).checked;
  const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  return aria === null ? null : aria === 'true';
}

/** A text field that announces a list of suggestions: a combobox, an ARIA autocomplete, a datalist, a popup it controls. */
export function expectsSuggestions(el: Element): boolean {
  const autocomplete = el.getAttribute('aria-autocomplete');
  return (
    el.getAttribute('role') === 'combobox' ||
    autocomplete === 'list' ||
    autocomplete === 'both' ||
    (el.getAttribute('aria-haspopup') ?? 'false') !== 'false' ||
    el.hasAttribute('list') ||
    el.hasAttribute('aria-controls') ||
    el.hasAttribute('aria-owns')
  );
}

function isDisabled(el: Element): boolean {
  return (el as HTMLButtonElement).disabled === true || el.closest('[aria-disabled=true], fieldset:disabled') !== null;
}

/** The states whose change a user would notice on the element itself. */
function stateOf(el: Element | null): string {
  if (!el) return '';
  const value = isTextField(el) || el.tagName === 'SELECT' ? `value=${(el as HTMLInputElement).value}` : '';
  return [value, `checked=${String(checkedState(el))}`, `expanded=${el.getAttribute('aria-expanded')}`, `connected=${el.isConnected}`].join(' ');
}

function clickLike(el: Element, access: DomAccess, count: number): string {
  const aim = aimAt(el, access);
  if (!aim.ok) {
    throw new AppError('unavailable', `[@] is covered by ${describeElement(aim.coveredBy)}: a click would land there. Close or dismiss it first`);
  }
  if (aim.target === null) {
    (el as HTMLElement).click();
    return 'clicked (with click(): the element has no visible point)';
  }
  dispatchClick(aim.target, aim.x, aim.y, count);
  return count === 2 ? 'double-clicked' : 'clicked';
}

/** Runs a step of an action and waits for what it shows (a list that opens) before the next step. */
type Settled = (step: () => void) => Promise<void>;

async function selectAria(el: Element, access: DomAccess, values: string[], settled: Settled): Promise<string> {
  let listbox = listboxOf(el);
  if (!listbox || listbox.getClientRects().length === 0) {
    await settled(() => clickLike(el, access, 1));
    listbox = listboxOf(el);
  }
  if (!listbox) throw new AppError('not_found', '[@] opened no listbox: click it and pick the option from the next snapshot');
  for (const wanted of values) {
    const option = findAriaOption(listbox, wanted);
    if (!option) {
      throw new AppError('not_found', `no option ${JSON.stringify(wanted)} in the list; the options are: ${ariaOptionNames(listbox).map((n) => JSON.stringify(n)).join(', ')}`);
    }
    await settled(() => clickLike(option, access, 1));
  }
  return `selected ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

/**
 * Performs one action on an element (or, for press and scroll, on the focused element or the page), waits for the
 * page to settle, and reports evidence read back from the page: the value after typing, the checked state after a
 * check, what changed after a click. An action that changed nothing says so.
 */
export async function runAction(
  doc: Document,
  el: Element | null,
  action: ElementAction,
  access: DomAccess,
  settleMs: number,
): Promise<Outcome> {
  const win = doc.defaultView;
  if (!win) throw new AppError('unavailable', 'the frame has no window');
  const watch = watchSettle(doc);
  try {
    return await act(doc, win, el, action, access, settleMs, watch);
  } finally {
    watch.stop();
  }
}

async function act(
  doc: Document,
  win: Window,
  el: Element | null,
  action: ElementAction,
  access: DomAccess,
  settleMs: number,
  watch: ReturnType<typeof watchSettle>,
): Promise<Outcome> {
  const before = { url: win.location.href, focus: deepActiveElement(doc, access), state: stateOf(el), scroll: win.scrollY };
  const settled: Settled = async (step) => {
    const inner = watchSettle(doc);
    step();
    await inner.settle({ capMs: Math.min(settleMs, 1500), graceMs: 300 });
  };
  const need = (): Element => {
    if (!el) throw new AppError('invalid_params', `${action.kind} needs an element: pass the ref of the element to act on`);
    // A user cannot use a disabled control either; saying so beats an action that silently does nothing.
    if (action.kind !== 'scroll' && action.kind !== 'hover' && isDisabled(el)) {
      throw new AppError('forbidden', '[@] is disabled: the page has to enable it first (often by filling in other fields)');
    }
    return el;
  };
  const evidence: string[] = [];
  let message: string;
  switch (action.kind) {
    case 'click':
      message = clickLike(need(), access, action.double ? 2 : 1);
      break;
    case 'type': {
      const target = need();
      scrollIntoViewIfNeeded(target);
      typeText(target, action.text, action.clear);
      if (action.submit) pressKey(target, parseChord('Enter'));
      message = `typed into${action.submit ? ' and pressed Enter in' : ''}`;
      break;
    }
    case 'select': {
      const target = need();
      if (target.tagName === 'SELECT') {
        const chosen = selectNative(target as HTMLSelectElement, action.values);
        message = `selected ${chosen.map((c) => JSON.stringify(c)).join(', ')} in`;
      } else {
        message = await selectAria(target, access, action.values, settled);
      }
      break;
    }
    case 'check': {
      const target = need();
      const state = checkedState(target);
      if (state === null) throw new AppError('invalid_params', '[@] is not a checkbox, radio button or switch: use click instead');
      if (state === action.checked) {
        message = `left [@] ${action.checked ? 'checked' : 'unchecked'}: it already was`;
        break;
      }
      clickLike(target, access, 1);
      message = action.checked ? 'checked' : 'unchecked';
      break;
    }
    case 'hover': {
      const target = need();
      const aim = aimAt(target, access);
      if (!aim.ok) throw new AppError('unavailable', `[@] is covered by ${describeElement(aim.coveredBy)}`);
      const rect = target.getBoundingClientRect();
      dispatchHover(aim.target ?? target, aim.target ? aim.x : rect.left + rect.width / 2, aim.target ? aim.y : rect.top + rect.height / 2);
      message = 'hovered over';
      break;
    }
    case 'focus': {
      const target = need() as HTMLElement;
      scrollIntoViewIfNeeded(target);
      target.focus();
      message = 'focused';
      break;
    }
    case 'press': {
      const target = el ?? deepActiveElement(doc, access) ?? doc.body;
      if (el) (el as HTMLElement).focus({ preventScroll: true });
      pressKey(target, parseChord(action.key));
      message = `pressed ${action.key}${el ? ' on' : ''}`;
      break;
    }
    case 'scroll': {
      if (!action.direction) {
        need().scrollIntoView({ block: 'center', behavior: 'instant' });
        message = 'scrolled into view';
        break;
      }
      const box = el ? scrollableOf(el) : null;
      message = `scrolled ${action.direction}${el ? ' in' : ''}`;
      evidence.push(scrollBy(win, box, action.direction, action.pages));
      break;
    }
  }
  // A field that says it shows suggestions (an autocomplete) gets time for its list to come; anything else settles as
  // soon as nothing changes.
  const graceMs = action.kind === 'type' && el && expectsSuggestions(el) ? 600 : FRAME_MS;
  const report = await watch.settle({ capMs: settleMs, graceMs });
  const after = { url: win.location.href, focus: deepActiveElement(doc, access), state: stateOf(el), scroll: win.scrollY };
  if (el && (action.kind === 'type' || (action.kind === 'select' && el.tagName === 'SELECT'))) {
    evidence.push(`value is now ${JSON.stringify(readBack(el))}`);
  }
  if (el && action.kind === 'check') evidence.push(`it is now ${checkedState(el) ? 'checked' : 'unchecked'}`);
  if (after.url !== before.url) evidence.push(`URL changed to ${after.url}`);
  if (el && before.state.includes('connected=true') && !el.isConnected) evidence.push('the element was removed from the page');
  if (after.focus !== before.focus && after.focus && after.focus !== doc.body) evidence.push(`focus moved to ${describeElement(after.focus)}`);
  if (report.mutations > 0) evidence.push(`${report.mutations} changes on the page${report.timedOut ? ' (still changing)' : ''}`);
  const changed =
    report.mutations > 0 || after.url !== before.url || after.state !== before.state || after.focus !== before.focus || after.scroll !== before.scroll;
  if (!changed && action.kind !== 'focus') evidence.push('no visible effect');
  return { ok: true, message: message.includes('[@]') || !el ? message : `${message} [@]`, changed, evidence };
}
