import { AppError } from '../../../shared/errors';
import { matchChoiceLabel, type ChatBaseline, type ChatState, type ChatWaitResult } from '../../../shared/protocol/chat-protocol';
import { controlTest, describeForm, fieldLabel, findChoices, findForms, findUploads, isTyping, type ChatParts } from './chat-controls';
import { findLauncher } from './chat-launcher';
import { clickLikeAUser, composerText, pressEnter, setFieldValue, typeInto } from './composer-input';
import { deepDom, firstMatch, isShown, type DeepDom, type ShadowRootOf } from './deep-query';
import { findGenericChat, findSendControl, labelOf } from './generic-chat';
import { readMessages, type ReadMessage } from './message-reader';
import { ReplySettle } from './reply-settle';
import { TranscriptLedger, messagesSince } from './transcript-ledger';
import { TypingWatch } from './typing-watch';
import { profileById } from './vendor-profiles';

export interface ChatFrameDeps {
  doc: Document;
  shadowRootOf: ShadowRootOf;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const POLL_MS = 50;

/**
 * Drives the chat UI that lives in this frame: reads the transcript, types, sends, clicks quick replies, fills the
 * chat's forms, and waits for the other side. It remembers what it typed (to recognise our own messages where the
 * markup does not say) and gives messages stable ids across reads.
 */
export class ChatFrame {
  private readonly ledger: TranscriptLedger;
  private readonly sentTexts: string[] = [];
  private readonly typingWatch = new TypingWatch();

  constructor(private readonly deps: ChatFrameDeps) {
    this.ledger = new TranscriptLedger(deps.now);
  }

  private dom(): DeepDom {
    return deepDom(this.deps.doc, this.deps.shadowRootOf);
  }

  /** The chat's parts in this frame, or null when none is shown here. */
  parts(vendor: string, dom: DeepDom = this.dom()): ChatParts | null {
    const profile = vendor === 'generic' ? null : (profileById(vendor) ?? null);
    const generic = findGenericChat(dom, this.deps.shadowRootOf);
    const composer = (profile && firstMatch(dom, profile.composer, isShown)) ?? generic?.composer ?? null;
    const list = (profile && firstMatch(dom, profile.messageList)) ?? generic?.list ?? null;
    if (!composer && !list) return null;
    const root = generic?.root ?? list ?? composer;
    if (!root) return null;
    const send =
      (profile && firstMatch(dom, profile.send, isShown)) ?? generic?.send ?? (composer ? findSendControl(root, composer, this.deps.shadowRootOf) : null);
    return { root, composer, send, list, profile };
  }

  /** From now on, remembers any typing indicator the other side shows, however briefly (see TypingWatch). */
  private watchTyping(vendor: string, parts: ChatParts): void {
    this.typingWatch.start({
      typing: () => {
        const dom = this.dom();
        const current = parts.root.isConnected ? parts : this.parts(vendor, dom);
        return current !== null && isTyping(current, dom, this.deps.shadowRootOf);
      },
      targets: () => {
        const targets: Node[] = [this.deps.doc];
        for (let node = parts.root.getRootNode(); node instanceof ShadowRoot; node = node.host.getRootNode()) targets.push(node);
        return targets;
      },
      setTimer: (run, ms) => {
        const timer = setTimeout(run, ms);
        return () => clearTimeout(timer);
      },
    });
  }

  private requireParts(vendor: string, dom: DeepDom): ChatParts {
    const parts = this.parts(vendor, dom);
    if (!parts) {
      throw new AppError('not_found', `No open ${vendor} chat in this frame (${this.deps.doc.location.href}): open the chat first, then try again`);
    }
    return parts;
  }

  read(vendor: string): ChatState {
    const dom = this.dom();
    const parts = this.parts(vendor, dom);
    if (!parts) {
      return { vendor, open: false, messages: [], typing: false, choices: [], forms: [], uploads: [], composer: { found: false, kind: 'none', disabled: false } };
    }
    return this.stateOf(vendor, parts, dom);
  }

  private messagesOf(parts: ChatParts, dom: DeepDom): ReadMessage[] {
    const shadowRootOf = this.deps.shadowRootOf;
    return readMessages({
      scope: parts.list ?? parts.root,
      profile: parts.profile,
      shadowRootOf,
      sentTexts: this.sentTexts,
      isControl: controlTest(parts, dom, shadowRootOf),
    });
  }

  /** The quick replies on offer now, each with the label a person reads on it. */
  private choicesOf(parts: ChatParts, dom: DeepDom, read: readonly ReadMessage[] = this.messagesOf(parts, dom)): { element: Element; label: string }[] {
    const ourLast = read.filter((item) => item.message.author === 'us').at(-1)?.element ?? null;
    return findChoices(parts, dom, this.deps.shadowRootOf, ourLast).map((element) => ({ element, label: labelOf(element) }));
  }

  private stateOf(vendor: string, parts: ChatParts, dom: DeepDom): ChatState {
    const shadowRootOf = this.deps.shadowRootOf;
    const read = this.messagesOf(parts, dom);
    const composer = parts.composer;
    return {
      vendor,
      open: composer !== null && isShown(composer),
      messages: this.ledger.update(read.map((item) => item.message)),
      typing: isTyping(parts, dom, shadowRootOf),
      choices: this.choicesOf(parts, dom, read).map((choice, index) => ({ index, label: choice.label })),
      forms: findForms(parts, shadowRootOf).map(describeForm),
      uploads: findUploads(parts, shadowRootOf),
      composer: {
        found: composer !== null,
        kind: composer === null ? 'none' : composer instanceof HTMLTextAreaElement || composer instanceof HTMLInputElement ? 'textarea' : 'contenteditable',
        disabled: composer !== null && (composer.matches(':disabled') || composer.getAttribute('aria-disabled') === 'true' || composer.getAttribute('contenteditable') === 'false'),
      },
    };
  }

  /** Clicks the widget's launcher (a profile's, else a fixed bottom-right button that names chat or help). */
  launch(vendor: string): { clicked: boolean; label: string | null } {
    const dom = this.dom();
    const launcher = findLauncher(dom, profileById(vendor));
    if (!launcher) return { clicked: false, label: null };
    clickLikeAUser(launcher);
    return { clicked: true, label: labelOf(launcher).slice(0, 120) || launcher.tagName.toLowerCase() };
  }

  async send(vendor: string, text: string): Promise<{ sent: boolean; via: 'enter' | 'button'; state: ChatState }> {
    const dom = this.dom();
    const parts = this.requireParts(vendor, dom);
    const composer = parts.composer;
    if (!composer) throw new AppError('not_found', 'The chat has no composer to type into: it may be closed or waiting for a choice');
    if (composer.matches(':disabled') || composer.getAttribute('aria-disabled') === 'true' || composer.getAttribute('contenteditable') === 'false') {
      throw new AppError('unavailable', 'The chat does not take typed messages right now (its composer is disabled): pick one of the offered choices or fill its form instead');
    }
    this.watchTyping(vendor, parts);
    typeInto(composer, text);
    this.sentTexts.push(text.replace(/\s+/g, ' ').trim());
    // Frameworks apply the typed text to their state on their next render; Enter in the same task would find the
    // widget still empty (and its send disabled), as it never would for a person.
    await this.deps.sleep(POLL_MS);
    const preferButton = (parts.profile?.input.submit ?? (parts.send ? 'button' : 'enter')) === 'button';
    let via: 'enter' | 'button' = preferButton && parts.send ? 'button' : 'enter';
    this.submit(composer, parts.send, via);
    let cleared = await this.until(() => composerText(composer).trim() === '', 1000);
    if (!cleared && parts.send) {
      // The widget ignored that way of sending (some send only on Enter, some only with their button): try the other.
      via = via === 'enter' ? 'button' : 'enter';
      this.submit(composer, parts.send, via);
      cleared = await this.until(() => composerText(composer).trim() === '', 1000);
    }
    const state = this.read(vendor);
    const shown = state.messages.some((message) => message.author === 'us' && message.text.includes(text.trim().slice(0, 40)));
    return { sent: cleared || shown, via, state };
  }

  private submit(composer: Element, send: Element | null, via: 'enter' | 'button'): void {
    if (via === 'button' && send) clickLikeAUser(send);
    else pressEnter(composer);
  }

  /**
   * Clicks one of the quick replies on offer now, never anything else the page shows, and reports whether the chat
   * took it: the choice went away or was disabled, or our message with its label appeared.
   */
  async choose(vendor: string, choice: string | number): Promise<{ chosen: string; taken: boolean; state: ChatState }> {
    const dom = this.dom();
    const parts = this.requireParts(vendor, dom);
    const choices = this.choicesOf(parts, dom);
    const labels = choices.map((option) => option.label);
    const index = typeof choice === 'number' ? choice : matchChoiceLabel(labels, choice);
    const target = choices[index];
    if (!target) {
      const offered = labels.length > 0 ? labels.map((label) => `"${label}"`).join(', ') : 'none';
      throw new AppError('not_found', `No choice ${JSON.stringify(choice)} in the chat; the choices offered are: ${offered}`);
    }
    this.watchTyping(vendor, parts);
    clickLikeAUser(target.element);
    const taken = await this.until(() => {
      const now = this.dom();
      const current = this.parts(vendor, now);
      if (!current) return true;
      const offeredNow = this.choicesOf(current, now);
      if (!offeredNow.some((option) => option.element === target.element)) return true;
      const ours = this.messagesOf(current, now).filter((item) => item.message.author === 'us');
      return ours.at(-1)?.message.text.includes(target.label) ?? false;
    }, 1500);
    return { chosen: target.label, taken, state: this.read(vendor) };
  }

  async fill(vendor: string, formIndex: number, values: Record<string, string>, submit: boolean) {
    const dom = this.dom();
    const parts = this.requireParts(vendor, dom);
    const forms = findForms(parts, this.deps.shadowRootOf);
    const form = forms[formIndex];
    if (!form) throw new AppError('not_found', `The chat shows ${forms.length} form(s); there is no form ${formIndex}`);
    const labels = form.fields.map((field) => [fieldLabel(field), field.name, field.getAttribute('placeholder') ?? ''].join(' '));
    // Every key is matched before anything is typed, so a wrong key changes nothing in the form.
    const targets = Object.entries(values).map(([key, value]) => {
      const field = form.fields[matchLabel(labels, key)];
      if (!field) {
        throw new AppError('invalid_params', `The chat form has no field "${key}"; its fields are: ${form.fields.map((f) => `"${fieldLabel(f)}"`).join(', ')}`);
      }
      return { field, value };
    });
    const filled: string[] = [];
    for (const { field, value } of targets) {
      setFieldValue(field, field instanceof HTMLSelectElement ? optionValue(field, value) : value);
      filled.push(fieldLabel(field));
    }
    let submitted = false;
    if (submit) {
      this.watchTyping(vendor, parts);
      if (form.submit) clickLikeAUser(form.submit);
      else if (form.element instanceof HTMLFormElement) form.element.requestSubmit();
      submitted = true;
    }
    await this.deps.sleep(POLL_MS);
    return { filled, submitted, state: this.read(vendor) };
  }

  /** Waits until the other side's reply has settled (see ReplySettle), the timeout passes, or `sliceMs` runs out. */
  async wait(vendor: string, baseline: ChatBaseline, timeoutMs: number, quietMs: number): Promise<ChatWaitResult> {
    const startedAt = this.deps.now();
    const settle = new ReplySettle({ baseline, quietMs, timeoutMs, startedAt });
    for (;;) {
      const state = this.read(vendor);
      const extras = JSON.stringify([state.choices, state.forms, state.uploads]);
      const verdict = settle.observe(this.deps.now(), { messages: state.messages, typing: state.typing, extras });
      if (verdict.status !== 'waiting') {
        const typingSeen = verdict.typingSeen || this.typingWatch.seen;
        if (verdict.status === 'replied') this.typingWatch.stop();
        const newMessages = messagesSince(state.messages, baseline).filter((message) => message.author !== 'us');
        const waitedMs = this.deps.now() - startedAt;
        const summary =
          verdict.status === 'replied'
            ? `Support replied with ${newMessages.length} message(s)`
            : typingSeen
              ? `No complete reply within ${Math.round(timeoutMs / 1000)} s: support was typing but sent nothing more`
              : `No reply within ${Math.round(timeoutMs / 1000)} s: nobody answered`;
        return { status: verdict.status, newMessages, typingSeen, waitedMs, summary, state };
      }
      await this.deps.sleep(POLL_MS);
    }
  }

  private async until(test: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = this.deps.now() + timeoutMs;
    while (this.deps.now() < deadline) {
      if (test()) return true;
      await this.deps.sleep(POLL_MS);
    }
    return test();
  }
}

/** Exact label first, then ignoring case, then the first label that contains the words. */
export function matchLabel(labels: readonly string[], wanted: string): number {
  const folded = wanted.trim().toLowerCase();
  const exact = labels.indexOf(wanted);
  if (exact !== -1) return exact;
  const ignoringCase = labels.findIndex((label) => label.trim().toLowerCase() === folded);
  if (ignoringCase !== -1) return ignoringCase;
  return labels.findIndex((label) => label.toLowerCase().includes(folded));
}

function optionValue(select: HTMLSelectElement, wanted: string): string {
  const option = [...select.options].find((candidate) => candidate.value === wanted || candidate.text.trim().toLowerCase() === wanted.trim().toLowerCase());
  return option?.value ?? wanted;
}
