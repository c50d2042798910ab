import { toErrorShape } from '../../../shared/errors';
import type { PageActionInput, PageOutcome } from '../../../shared/perception/page-action';
import type { FormFill, FormFieldValue, FormFillResult } from '../../../shared/protocol/form-protocol';
import type { TabSnapshot } from './tab-snapshot';

type Element = TabSnapshot['elements'][number];
type Filled = FormFillResult['fields'][number];

/** What filling a form needs of the browser: a tab of its own, the page agent's snapshot, actions and search. */
export interface FormFillDeps {
  /** Opens a tab in the background (the user's tab stays in front) at about:blank; the fill navigates it. */
  openTab(): Promise<number>;
  closeTab(tabId: number): Promise<void>;
  snapshot(tabId: number): Promise<TabSnapshot>;
  /** The tab has finished loading its page (its document and what it loads, as the browser reports it). */
  loaded(tabId: number): Promise<boolean>;
  act(tabId: number, action: PageActionInput): Promise<PageOutcome>;
  find(tabId: number, text: string): Promise<PageOutcome>;
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Roles of fields that take typed text. */
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'date', 'time', 'datetime-local', 'month', 'week']);
const CHECK_ROLES = new Set(['checkbox', 'switch', 'radio']);
const FIELD_ROLES = new Set([...TEXT_ROLES, ...CHECK_ROLES, 'combobox', 'listbox']);
/** Buttons that do not send a form. */
const NOT_SUBMIT = new Set(['reset', 'file', 'color']);
const SUBMIT_WORDS = /^(submit|send|request|order|generate|run|start|go|ok|continue|apply|save|create)\b/i;
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 'checked']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', 'unchecked']);
/** How often the page is searched for the confirmation. */
const CONFIRM_POLL_MS = 500;
/** How long a page that has loaded may take to answer: its content script starts after the page commits. */
const ANSWER_WAIT_MS = 10_000;

/** A label as people write it: "Email *", "E-mail:" and "email" are the same field. */
const normal = (text: string): string =>
  text
    .toLowerCase()
    .replace(/\(required\)/g, '')
    .replace(/[\s*:：]+$/u, '')
    .replace(/^[\s*]+/u, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The elements a name means: exact label first, then a label that starts with it, then one that contains it. The
 * first tier with a match decides, so "Email" finds "Email *" without also taking "Email me a copy".
 */
function byLabel(elements: Element[], name: string): Element[] {
  const wanted = normal(name);
  const tiers = [(label: string) => label === wanted, (label: string) => label.startsWith(wanted), (label: string) => label.includes(wanted)];
  for (const tier of tiers) {
    const found = elements.filter((element) => tier(normal(element.name)));
    if (found.length > 0) return found;
  }
  return [];
}

const quoted = (elements: Element[]): string => [...new Set(elements.map((element) => JSON.stringify(element.name || `(unnamed ${element.role})`)))].join(', ');

class FillFailed extends Error {
  constructor(
    message: string,
    readonly failedAt: NonNullable<FormFillResult['failedAt']>,
  ) {
    super(message);
  }
}

/** A checkbox's wanted state from the value given: true/false, or a word for them. */
function wantedCheck(field: string, value: FormFieldValue): boolean {
  if (typeof value === 'boolean') return value;
  const word = Array.isArray(value) ? '' : value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw new FillFailed(`The field "${field}" is a checkbox: give it true or false, not ${JSON.stringify(value)}`, 'fill');
}

/** The field a name means; for a radio button group the name may be the group's and the value the option's label. */
function findField(elements: Element[], field: string, value: FormFieldValue): Element {
  const fields = elements.filter((element) => FIELD_ROLES.has(element.role));
  let found = byLabel(fields, field);
  if (found.length === 0 && typeof value === 'string') found = byLabel(fields.filter((element) => element.role === 'radio'), value);
  if (found.length === 1 && found[0]) return found[0];
  if (found.length === 0) throw new FillFailed(`No field "${field}" on the page: the fields there are ${quoted(fields) || '(none)'}`, 'fill');
  throw new FillFailed(`More than one field matches "${field}" (${quoted(found)}): use the whole label`, 'fill');
}

/** The value the page shows after typing, as the action read it back. */
function readBack(outcome: PageOutcome): string | undefined {
  const line = outcome.evidence.find((item) => item.startsWith('value is now '));
  if (!line) return undefined;
  try {
    return JSON.parse(line.slice('value is now '.length)) as string;
  } catch {
    return undefined;
  }
}

/** Fills one field and checks that the page kept the value. */
async function fillField(deps: FormFillDeps, tabId: number, field: string, value: FormFieldValue, element: Element): Promise<Filled> {
  const { ref, role } = element;
  const fail = (why: string): never => {
    throw new FillFailed(`The field "${field}" could not be filled: ${why}`, 'fill');
  };
  if (CHECK_ROLES.has(role)) {
    // A radio button found by its option's label ("Format": "PowerPoint") is the one to choose.
    const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
    const checked = role === 'radio' && typeof value === 'string' && !TRUE_WORDS.has(word) && !FALSE_WORDS.has(word) ? true : wantedCheck(field, value);
    const outcome = await deps.act(tabId, { kind: 'check', ref, checked });
    if (!outcome.ok) fail(outcome.message);
    const now = outcome.evidence.find((item) => item.startsWith('it is now '));
    if (now && now !== `it is now ${checked ? 'checked' : 'unchecked'}`) fail(`it stayed ${checked ? 'unchecked' : 'checked'}`);
    return { field, label: element.name, value: checked ? 'checked' : 'unchecked' };
  }
  const values = Array.isArray(value) ? value : [String(value)];
  if (role === 'listbox' || (role === 'combobox' && element.inputType === undefined)) {
    const outcome = await deps.act(tabId, { kind: 'select', ref, values });
    if (!outcome.ok) fail(outcome.message);
    const shown = readBack(outcome);
    if (shown !== undefined && values.some((wanted) => !shown.toLowerCase().includes(wanted.toLowerCase()))) fail(`it shows ${JSON.stringify(shown)} instead of ${values.join(', ')}`);
    return { field, label: element.name, value: shown ?? values.join(', ') };
  }
  const text = values.join(', ');
  const outcome = await deps.act(tabId, { kind: 'type', ref, text, clear: true });
  if (!outcome.ok) fail(outcome.message);
  const shown = readBack(outcome);
  // A password field reads back as dots of its length: only the length can be compared.
  const kept = shown === undefined || shown === text || (element.inputType === 'password' && /^•+$/.test(shown));
  if (!kept) fail(`the page changed it to ${JSON.stringify(shown)}`);
  return { field, label: element.name, value: element.inputType === 'password' ? '••••' : (shown ?? text) };
}

/** The button that sends the form: the one named, the only one, or the only one named like a submit button. */
function findSubmit(elements: Element[], name: string | undefined): Element {
  const buttons = elements.filter((element) => element.role === 'button' && !NOT_SUBMIT.has(element.inputType ?? ''));
  if (name !== undefined) {
    const found = byLabel(buttons, name);
    if (found.length === 1 && found[0]) return found[0];
    if (found.length === 0) throw new FillFailed(`No button "${name}" on the page: the buttons there are ${quoted(buttons) || '(none)'}`, 'fill');
    throw new FillFailed(`Several buttons match "${name}" (${quoted(found)}): use the whole label`, 'fill');
  }
  if (buttons.length === 1 && buttons[0]) return buttons[0];
  const likely = buttons.filter((button) => button.inputType === 'submit' || SUBMIT_WORDS.test(button.name.trim()));
  if (likely.length === 1 && likely[0]) return likely[0];
  throw new FillFailed(`Say which button sends the form ("submit"): the page has ${buttons.length === 0 ? 'no button' : `the buttons ${quoted(buttons)}`}`, 'fill');
}

/** The start of what the page shows, for a user to see what went wrong (the snapshot's text, without element numbers). */
function excerpt(snapshot: TabSnapshot | undefined): string | undefined {
  if (!snapshot) return undefined;
  const text = snapshot.text
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/^\s*\[\d+\]\s*/, '').trim())
    .filter((line) => line.length > 0)
    .join(' | ');
  return text.length > 400 ? `${text.slice(0, 399)}…` : text || undefined;
}

/**
 * The form's page once its form is there: every field named is found, or the page has loaded and some still are not
 * (then filling says which). The content script answers from the document's start, so a snapshot of a page still
 * parsing may not hold the form yet, and one of the blank tab (no web page yet) never does.
 */
async function formWhenReady(deps: FormFillDeps, tabId: number, request: FormFill): Promise<TabSnapshot> {
  const until = deps.now() + ANSWER_WAIT_MS;
  for (;;) {
    // Read before the snapshot: a page that had loaded before it was read shows all it will show without script.
    const loaded = await deps.loaded(tabId).catch(() => true);
    const snapshot = await snapshotWhenReady(deps, tabId, until);
    const webPage = /^https?:/i.test(snapshot.url);
    const found = Object.entries(request.fields).every(([field, value]) => {
      try {
        findField(snapshot.elements, field, value);
        return true;
      } catch {
        return false;
      }
    });
    if ((webPage && (found || loaded)) || deps.now() >= until) return snapshot;
    await deps.sleep(200);
  }
}

/** A snapshot of a page that just loaded, once its content script answers. */
async function snapshotWhenReady(deps: FormFillDeps, tabId: number, until = deps.now() + ANSWER_WAIT_MS): Promise<TabSnapshot> {
  for (;;) {
    try {
      return await deps.snapshot(tabId);
    } catch (error) {
      if (deps.now() >= until) throw error;
      await deps.sleep(200);
    }
  }
}

/** Waits until the page says the form was accepted: the confirmation text, anywhere on the page. */
async function awaitConfirmation(deps: FormFillDeps, tabId: number, confirm: string, deadline: number): Promise<string | undefined> {
  for (;;) {
    const found = await deps.find(tabId, confirm).catch(() => undefined);
    const line = found?.evidence[0];
    if (found && found.evidence.length > 0 && line) return line.replace(/^text: /, '');
    if (deps.now() >= deadline) return undefined;
    await deps.sleep(CONFIRM_POLL_MS);
  }
}

/**
 * Fills a web form as a person would, without a model: opens the page in a background tab, finds each field by what
 * the page labels it, types or picks its value and reads it back, presses the submit button and waits for the page to
 * say the form was accepted. Everything it finds wrong is said with what to change (the fields on the page, the
 * buttons there, what the page shows instead of the confirmation). The tab is closed when the form was accepted, and
 * left open when it was sent but not confirmed, for the user to look at.
 */
export async function fillForm(deps: FormFillDeps, request: FormFill): Promise<FormFillResult> {
  const deadline = deps.now() + request.timeoutSeconds * 1000;
  const filled: Filled[] = [];
  let submitted = false;
  let url = request.url;
  let keepTab = false;
  let tabId: number | undefined;
  let last: TabSnapshot | undefined;
  try {
    tabId = await deps.openTab();
    const opened = await deps.act(tabId, { kind: 'navigate', url: request.url });
    if (!opened.ok) throw new FillFailed(`The form's page ${request.url} could not be opened: ${opened.message}`, 'load');
    last = await formWhenReady(deps, tabId, request);
    url = last.url;
    for (const [field, value] of Object.entries(request.fields)) {
      filled.push(await fillField(deps, tabId, field, value, findField(last.elements, field, value)));
    }
    // A confirmation the page shows before the form is sent would prove nothing.
    if (((await deps.find(tabId, request.confirm).catch(() => undefined))?.evidence.length ?? 0) > 0) {
      throw new FillFailed(`The page shows "${request.confirm}" before the form is sent, so it cannot tell that the form was accepted: give a text only the page after sending shows`, 'fill');
    }
    // Filling may change the form (a field that appears once another is set): the button is looked for afresh.
    last = await deps.snapshot(tabId);
    const button = findSubmit(last.elements, request.submit);
    // From the press on the form may have been sent, even when the press reports a failure (input that may have
    // reached the page is never repeated): such a fill counts as sent, so a job that must not run twice is not retried.
    submitted = true;
    const clicked = await deps.act(tabId, { kind: 'click', ref: button.ref });
    if (!clicked.ok) throw new FillFailed(`Pressing "${button.name}" did not go through: ${clicked.message}`, 'submit');
    const confirmation = await awaitConfirmation(deps, tabId, request.confirm, Math.max(deadline, deps.now() + 5000));
    last = await snapshotWhenReady(deps, tabId).catch(() => last);
    url = last?.url ?? url;
    if (confirmation === undefined) {
      keepTab = true;
      throw new FillFailed(`The form was sent with "${button.name}", but the page did not say "${request.confirm}" within ${request.timeoutSeconds} s; the tab is left open for you to look at`, 'confirm');
    }
    return { accepted: true, submitted, message: `The page confirmed the form: ${confirmation}`, url, fields: filled, confirmation };
  } catch (error) {
    const failedAt = error instanceof FillFailed ? error.failedAt : submitted ? 'confirm' : 'load';
    const message = error instanceof FillFailed ? error.message : `Filling the form failed: ${toErrorShape(error).message}`;
    const seen = excerpt(last);
    return { accepted: false, submitted, failedAt, message, url, fields: filled, ...(seen && failedAt !== 'fill' ? { pageExcerpt: seen } : {}) };
  } finally {
    if (tabId !== undefined && !keepTab) await deps.closeTab(tabId).catch(() => undefined);
  }
}
