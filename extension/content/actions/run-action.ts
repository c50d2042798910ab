import { AppError } from '../../../shared/errors';
import type { ActResult, ElementAction } from '../../../shared/perception/element-action';
import type { DomAccess } from '../perception/dom-access';
import { deepActiveElement } from '../perception/dom-access';
import { dragElement, type DragWatch } from './drag-action';
import type { InputDriver } from './input-types';
import { aimAt, describeElement, scrollIntoViewIfNeeded } from './pointer-events';
import { parseChord } from './chord';
import { pointAt } from './point-action';
import { arriveAt } from './pointer-arrival';
import { scrollableOf, scrollWithInput } from './scroll-by';
import { boxForPageScroll } from './scroll-target';
import { ariaOptionNames, findAriaOption, listboxOf, selectNative } from './select-option';
import { setFiles } from './set-files';
import { selectText } from './select-text';
import { keyAriaValue, setValue, takesValue } from './set-value';
import { heldAsWritten } from '../../../shared/perception/value-formats';
import { isTextField, readBack, typeWithInput } from './type-text';
import { watchNavigation } from './watch-navigation';
import { expectsSuggestions, SUGGESTIONS_CAP_MS, type SuggestionWatch, watchSuggestions } from './suggestion-popup';
import { FRAME_MS, type ShownWatch, watchSettle, watchShown } from './watch-settle';

type Outcome = Omit<ActResult, 'replacedBy' | 'candidates' | 'token' | 'url' | 'navigation'>;

function checkedState(el: Element): boolean | null {
  if (el.tagName === 'INPUT' && ['checkbox', 'radio'].includes((el as HTMLInputElement).type)) return (el as HTMLInputElement).checked;
  const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  return aria === null ? null : aria === 'true';
}

function isDisabled(el: Element): boolean {
  return (el as HTMLButtonElement).disabled === true || el.closest('[aria-disabled=true], fieldset:disabled') !== null;
}

/** The states whose change a user would notice on the element itself. */
function stateOf(el: Element | null): string {
  if (!el) return '';
  const value = isTextField(el) || el.tagName === 'SELECT' || takesValue(el) ? `value=${(el as HTMLInputElement).value}` : '';
  return [value, `checked=${String(checkedState(el))}`, `expanded=${el.getAttribute('aria-expanded')}`, `connected=${el.isConnected}`].join(' ');
}

/** Records whether an action sent any input at all, so only those steps name their input path. */
function tracked(driver: InputDriver): { driver: InputDriver; used: () => boolean } {
  let used = false;
  const mark = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => (...args: A): Promise<R> => {
    used = true;
    return fn(...args);
  };
  return {
    used: () => used,
    driver: {
      path: () => driver.path(),
      trusted: () => driver.trusted(),
      click: mark((target, at, count) => driver.click(target, at, count)),
      hover: mark((target, at) => driver.hover(target, at)),
      press: mark((target, chord, times) => driver.press(target, chord, times)),
      typeText: mark((text) => driver.typeText(text)),
      typing: () => driver.typing?.(),
      wheel: mark((target, at, dx, dy) => driver.wheel(target, at, dx, dy)),
      drag: mark((from, to, via) => driver.drag(from, to, via)),
    },
  };
}

async function clickLike(el: Element, access: DomAccess, count: number, driver: InputDriver, cover: CoverName): Promise<string> {
  const aim = aimAt(el, access);
  if (!aim.ok) {
    throw new AppError('unavailable', `[@] is covered by ${cover(aim.coveredBy)}: a click would land there. Close or dismiss it first`);
  }
  if (aim.target === null) {
    (el as HTMLElement).click();
    return 'clicked (with click(): the element has no visible point)';
  }
  const landed = await arriveAt(el, aim, access, driver);
  await driver.click(landed.target, { x: landed.x, y: landed.y }, count);
  return count === 2 ? 'double-clicked' : 'clicked';
}

/** Runs a step of an action and waits for what it shows (a list that opens) before the next step. */
type Settled = (step: () => Promise<unknown>) => Promise<void>;

async function selectAria(el: Element, access: DomAccess, values: string[], settled: Settled, driver: InputDriver, cover: CoverName): Promise<string> {
  let listbox = listboxOf(el);
  if (!listbox || listbox.getClientRects().length === 0) {
    await settled(() => clickLike(el, access, 1, driver, cover));
    listbox = listboxOf(el);
  }
  if (!listbox) throw new AppError('not_found', '[@] opened no listbox: click it and pick the option from the next snapshot');
  for (const wanted of values) {
    const option = findAriaOption(listbox, wanted);
    if (!option) {
      throw new AppError('not_found', `no option ${JSON.stringify(wanted)} in the list; the options are: ${ariaOptionNames(listbox).map((n) => JSON.stringify(n)).join(', ')}`);
    }
    await settled(() => clickLike(option, access, 1, driver, cover));
  }
  return `selected ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

export interface RunContext {
  access: DomAccess;
  settleMs: number;
  driver: InputDriver;
  /** For a drag onto another element: that element, resolved in this frame. */
  dropTarget?: Element | null;
  /** Names what covers an element as the snapshot names it (covering-name.ts); its tag and words without it. */
  coverName?: CoverName;
}

/** What an error says covers an element. */
export type CoverName = (el: Element) => string;

/**
 * Performs one action on an element (or, for press and scroll, on the focused element or the page), waits for the
 * page to settle, and reports evidence read back from the page: the value after typing or setting, the checked state
 * after a check, where a dragged element went, what appeared or went away after a click. An action that changed
 * nothing says so, and one whose result the page did not take (a value it refused) fails.
 */
export async function runAction(doc: Document, el: Element | null, action: ElementAction, context: RunContext): Promise<Omit<ActResult, 'replacedBy' | 'candidates' | 'token' | 'url'>> {
  const win = doc.defaultView;
  if (!win) throw new AppError('unavailable', 'the frame has no window');
  const watch = watchSettle(doc);
  const navigation = watchNavigation(win);
  // Typing into a field that shows suggestions is answered by them, a moment later: watched from before the typing.
  // (Typing that ends with Enter has taken its value: the list it would have shown is not waited for.)
  const suggestions = action.kind === 'type' && !action.submit && el && expectsSuggestions(el, context.access) ? watchSuggestions(el) : null;
  try {
    const outcome = await act(doc, win, el, action, context, watch, suggestions);
    const seen = navigation.seen();
    return seen ? { ...outcome, navigation: seen } : outcome;
  } finally {
    watch.stop();
    navigation.stop();
    suggestions?.stop();
  }
}

async function act(
  doc: Document,
  win: Window,
  el: Element | null,
  action: ElementAction,
  context: RunContext,
  watch: ReturnType<typeof watchSettle>,
  suggestions: SuggestionWatch | null,
): Promise<Outcome> {
  const { access, settleMs } = context;
  const { driver, used } = tracked(context.driver);
  const cover = context.coverName ?? describeElement;
  const before = { url: win.location.href, focus: deepActiveElement(doc, access), state: stateOf(el), scroll: win.scrollY };
  const settled: Settled = async (step) => {
    const inner = watchSettle(doc);
    await step();
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
  let ok = true;
  let message: string;
  let dragged: DragWatch | null = null;
  let scrolledBox = false;
  let shown: ShownWatch | null = null;
  switch (action.kind) {
    case 'click':
      message = await clickLike(need(), access, action.double ? 2 : 1, driver, cover);
      break;
    case 'type': {
      const target = need();
      scrollIntoViewIfNeeded(target);
      if (takesValue(target)) {
        // A date, time, colour or slider field takes a value, not key presses: the text is read as one.
        const set = await setValue(target, action.text, driver);
        evidence.push(...set.evidence.slice(1));
      } else {
        await typeWithInput(target, action.text, action.clear, driver, () => clickLike(target, access, 1, driver, cover));
      }
      const typing = driver.typing?.();
      if (typing) evidence.push(`typed ${typing}`);
      if (action.submit) await driver.press(target, parseChord('Enter'), 1);
      message = `typed into${action.submit ? ' and pressed Enter in' : ''}`;
      break;
    }
    case 'set_value': {
      const target = need();
      scrollIntoViewIfNeeded(target);
      const numeric = target.tagName === 'INPUT' && (target as HTMLInputElement).type === 'number';
      if (!takesValue(target) && !numeric && (isTextField(target) || (target as HTMLElement).isContentEditable)) {
        await typeWithInput(target, action.value, true, driver, () => clickLike(target, access, 1, driver, cover));
        message = 'typed into';
        // A text field that is a spin button (jQuery UI's spinner) may refuse typing: its arrow keys still move it.
        const number = Number(action.value.trim());
        if (target.getAttribute('role') === 'spinbutton' && action.value.trim() !== '' && Number.isFinite(number) && !heldAsWritten(readBack(target), action.value)) {
          await keyAriaValue(target as HTMLElement, number, driver);
          message = 'stepped with the arrow keys';
        }
      } else if (target.tagName === 'SELECT') {
        message = `selected ${selectNative(target as HTMLSelectElement, [action.value]).map((c) => JSON.stringify(c)).join(', ')} in`;
      } else {
        const set = await setValue(target, action.value, driver);
        message = set.message;
        evidence.push(...set.evidence.slice(1));
      }
      break;
    }
    case 'select': {
      const target = need();
      if (target.tagName === 'SELECT') {
        const chosen = selectNative(target as HTMLSelectElement, action.values);
        message = `selected ${chosen.map((c) => JSON.stringify(c)).join(', ')} in`;
      } else {
        message = await selectAria(target, access, action.values, settled, driver, cover);
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
      await clickLike(target, access, 1, driver, cover);
      message = action.checked ? 'checked' : 'unchecked';
      break;
    }
    case 'hover': {
      const target = need();
      shown = watchShown(target);
      const aim = aimAt(target, access);
      if (!aim.ok) throw new AppError('unavailable', `[@] is covered by ${cover(aim.coveredBy)}`);
      const rect = target.getBoundingClientRect();
      await driver.hover(aim.target ?? target, aim.target ? { x: aim.x, y: aim.y } : { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
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
      await driver.press(target, parseChord(action.key), action.times);
      message = `pressed ${action.key}${action.times > 1 ? ` ${action.times} times` : ''}${el ? ' on' : ''}`;
      break;
    }
    case 'scroll': {
      if (!action.direction) {
        // Every box that holds it scrolls too (a list or a calendar that scrolls on its own), not only the page.
        const target = need();
        const from = target.getBoundingClientRect();
        target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        const to = target.getBoundingClientRect();
        scrolledBox = Math.abs(to.top - from.top) >= 1 || Math.abs(to.left - from.left) >= 1;
        message = scrolledBox ? 'scrolled [@] into view' : 'left [@] where it was: it was in view already, or no box around it scrolls it further';
        if (scrolledBox) evidence.push(`it moved by ${Math.round(to.left - from.left)}, ${Math.round(to.top - from.top)} px`);
        break;
      }
      // Without a ref: the page, or the box that hides the rest when the page itself cannot move that way.
      const box = el ? scrollableOf(el) : boxForPageScroll(win, action.direction);
      message = `scrolled ${action.direction}${el ? ' in' : ''}`;
      if (!el && box) evidence.push(`the page itself does not scroll ${action.direction}: scrolled the ${describeElement(box)} that holds the rest`);
      const where = await scrollWithInput(win, box, action.direction, action.pages, driver);
      scrolledBox = box !== null && !where.startsWith('did not move');
      evidence.push(where);
      break;
    }
    case 'drag': {
      const target = need();
      const drop = context.dropTarget ?? null;
      if (action.to && !drop) throw new AppError('not_found', 'the element to drop [@] onto is no longer on the page: take a new snapshot');
      dragged = (await dragElement(target, drop, { x: action.dx, y: action.dy }, action.position, access, driver, cover)).watch;
      message = drop ? `dragged [@] onto its target${action.position === 'center' ? '' : ` (${action.position} it)`}` : `dragged [@] by ${action.dx}, ${action.dy} px`;
      break;
    }
    case 'point': {
      const done = await pointAt(doc, action, access, driver);
      message = done.message;
      evidence.push(...done.evidence);
      break;
    }
    case 'select_text': {
      const done = await selectText(doc, el, action.text, driver);
      message = done.message;
      evidence.push(...done.evidence);
      break;
    }
    case 'set_files': {
      const target = need();
      message = setFiles(target, action.files);
      break;
    }
  }
  // A field that shows suggestions (an autocomplete) is settled once they show (the page looks them up after a pause
  // in the typing, and may change other things first), up to a cap; anything else settles as soon as nothing changes.
  const until = suggestions ? { until: { holds: () => suggestions.answered(), capMs: Math.min(settleMs, SUGGESTIONS_CAP_MS) } } : {};
  const report = await watch.settle({ capMs: settleMs, graceMs: FRAME_MS, ...until });
  const after = { url: win.location.href, focus: deepActiveElement(doc, access), state: stateOf(el), scroll: win.scrollY };
  if (el && (action.kind === 'type' || action.kind === 'set_value' || (action.kind === 'select' && el.tagName === 'SELECT'))) {
    const value = readBack(el);
    evidence.unshift(`value is now ${JSON.stringify(value)}`);
    // Enter often submits and the page clears the field itself (a to-do list, a chat): only a field left empty
    // without that counts as typing the page did not take.
    const submitted = action.kind === 'type' && action.submit;
    if (!submitted && (action.kind === 'type' || action.kind === 'set_value') && isTextField(el) && value === '' && (action.kind === 'type' ? action.text : action.value) !== '') {
      ok = false;
      message = `${message} [@], but the field is still empty: the page did not take what was typed`;
    } else if (action.kind === 'set_value' && ok && isTextField(el) && (el as HTMLInputElement).type !== 'password' && !heldAsWritten(value, action.value)) {
      // set_value promises the value: one the page changed or refused is a failure that says what the field holds.
      ok = false;
      message = `${message} [@], but it holds ${JSON.stringify(value)}, not ${JSON.stringify(action.value)}: the page did not take the value`;
    }
  }
  if (el && action.kind === 'check') {
    const now = checkedState(el);
    evidence.push(`it is now ${now ? 'checked' : 'unchecked'}`);
    if (now !== action.checked && !message.startsWith('left')) {
      ok = false;
      message = `clicked [@] to ${action.checked ? 'check' : 'uncheck'} it, but it is still ${now ? 'checked' : 'unchecked'}`;
    }
  }
  if (dragged) evidence.push(...dragged.evidence());
  const revealed = shown?.revealed() ?? [];
  if (revealed.length > 0) evidence.push(`came into view: ${revealed.map((t) => JSON.stringify(t)).join(', ')}`);
  if (after.url !== before.url) evidence.push(`URL changed to ${after.url}`);
  if (el && before.state.includes('connected=true') && !el.isConnected) evidence.push('the element was removed from the page');
  // An action focuses what it acts on: that is the browser's doing, not the page's answer to the action.
  const selfFocus = el !== null && after.focus !== null && (el === after.focus || el.contains(after.focus) || after.focus.contains(el));
  const focusMoved = after.focus !== before.focus && !selfFocus;
  if (focusMoved && after.focus && after.focus !== doc.body) evidence.push(`focus moved to ${describeElement(after.focus)}`);
  if (report.added.length > 0) evidence.push(`appeared: ${report.added.map((t) => JSON.stringify(t)).join(', ')}`);
  if (report.removed.length > 0) evidence.push(`went away: ${report.removed.map((t) => JSON.stringify(t)).join(', ')}`);
  if (report.mutations > 0) evidence.push(`${report.mutations} changes on the page${report.timedOut ? ' (still changing)' : ''}`);
  const changed =
    report.mutations > 0 || after.url !== before.url || after.state !== before.state || focusMoved || after.scroll !== before.scroll || scrolledBox || revealed.length > 0;
  message = message.includes('[@]') || !el ? message : `${message} [@]`;
  // Whether nothing changed is the background's verdict: it also sees navigations, new tabs and downloads.
  // A selection changes nothing in the page's elements; it was read back instead.
  const flagsNoEffect = action.kind !== 'focus' && action.kind !== 'select_text' && !message.startsWith('left');
  return { ok, message, changed, evidence, flagsNoEffect, settledMs: report.waitedMs, ...(used() ? { inputPath: driver.path() } : {}) };
}
