import { type ChatEnvironment, lastFromThem, renderTranscript } from '../../../shared/agent/chat-environment';
import { createElementBans } from '../../../shared/agent/element-bans';
import type { Observation, ObservedElement } from '../../../shared/agent/environment';
import { mergeLedger } from '../../../shared/agent/support-case';
import { chatStalled, draftNote, draftWrittenEscalation } from '../../../shared/agent/support-draft';
import { contactPageFor, supportSiteHint } from '../../../shared/agent/support-sites';
import type { ChatMessage, ChatState, WrittenEscalation } from '../../../shared/protocol';
import type { TabEnvironment } from '../page/tab-environment';
import type { ChatDriver } from './chat-driver';
import { createSupportEscalation } from './support-escalation';
import type { SupportSiteMemory } from './support-site-memory';

/** The case's chat environment, and what the runner reads of it when the case ends. */
export interface ChatCaseEnvironment extends ChatEnvironment, Pick<TabEnvironment, 'currentTabId'> {
  /** The chat as it was last seen (read again when possible), for the transcript saved with the case. */
  finalState(): Promise<ChatState | null>;
  /** Everything the case has seen so far, for its case file: every message (the chat's own list keeps only its last
   * 200), the vendor, what Deputy did on its own to reach a person, and its written escalation once drafted. */
  caseSoFar(): { messages: ChatMessage[]; vendor: string | null; escalations: string[]; written?: WrittenEscalation };
}

export interface ChatCaseOptions {
  goal?: string;
  /** The facts the user allowed Deputy to share: the only facts a written escalation may hold. */
  facts?: Readonly<Record<string, string>>;
  /** What Deputy learned per site in earlier cases; the case reads it at its start and adds to it. */
  memory?: SupportSiteMemory;
  now?: () => number;
}

const CLICKS = new Set(['click']);
/** Actions that take the tab to another page (or another tab): where no chat was found, the next look tries again. */
const PAGE_MOVES = new Set(['click', 'navigate', 'back', 'forward', 'reload', 'press', 'tab_new', 'tab_switch', 'tab_close']);

/**
 * A support-chat case on one tab: the chat driver talks to the widget (opened on the first look), and the tab
 * environment keeps the page tools working for forms and buttons the chat opens. Each observation is the transcript,
 * then the page around it; the loop labels both as the other side's words. Around that, the case knows where to go
 * (the shipped map and what earlier cases learned, told at its start), does not offer again an element that led
 * nowhere, and drafts a written escalation once the chat closes or no person can be reached.
 */
export function createChatCaseEnvironment(
  chat: Pick<ChatDriver, 'open' | 'read' | 'send' | 'wait' | 'choose' | 'end'>,
  tab: TabEnvironment,
  options: ChatCaseOptions = {},
): ChatCaseEnvironment {
  const chatTab = tab.currentTabId();
  const now = options.now ?? Date.now;
  const escalation = createSupportEscalation(chat, chatTab, options.goal);
  const bans = createElementBans();
  let opened: Promise<string | null> | null = null;
  let last: ChatState | null = null;
  /** The page the chat was found on, and the elements of the last page the model saw (to know what a ref was). */
  let chatPage: string | null = null;
  let shown: ObservedElement[] = [];
  let shownUrl: string | null = null;
  /** The last look found no chat to open. */
  let chatMissing = false;
  let hinted = false;
  let written: WrittenEscalation | undefined;
  const ledger = new Map<string, ChatMessage>();
  const escalations: string[] = [];
  const seen = (state: ChatState): ChatState => {
    mergeLedger(ledger, state.messages);
    return (last = state);
  };

  /** Opens the chat once: null when it opened, else why not (in words the model and the user read). */
  const ensureOpen = (): Promise<string | null> => {
    opened ??= chat.open(chatTab).then(
      (result) => (result.opened ? null : result.summary),
      (error: unknown) => (opened = null, error instanceof Error ? error.message : String(error)),
    );
    return opened;
  };

  /** The chat as it is now; null when the tab no longer shows it (the case went on to the site's contact page). */
  const readHere = async (): Promise<ChatState | null> => {
    const state = await chat.read(chatTab).catch(() => null);
    if (!state || (state.messages.length === 0 && ledger.size > 0)) return null;
    return seen(state);
  };

  /** The first look of a case: what Deputy knows of the site, from its map and from earlier cases. */
  const siteHint = async (url: string): Promise<string> => {
    if (hinted) return '';
    hinted = true;
    const learned = (await options.memory?.get(url).catch(() => null)) ?? null;
    return supportSiteHint(url, learned);
  };

  const maybeDraft = async (state: ChatState): Promise<void> => {
    if (written || !chatPage) return;
    const reason = chatStalled(state, { noHuman: escalation.gaveUp() });
    if (!reason) return;
    const learned = (await options.memory?.get(chatPage).catch(() => null)) ?? null;
    const contact = contactPageFor(chatPage, learned);
    written = draftWrittenEscalation({
      goal: options.goal ?? '',
      messages: [...ledger.values()],
      facts: options.facts ?? {},
      reason,
      // With no contact page known, the model finds the site's own "Contact" link; the draft names the site.
      to: { via: 'contact_form', url: contact ?? new URL(chatPage).origin },
      now: now(),
    });
  };

  return {
    currentTabId: () => tab.currentTabId(),
    async act(action, actOptions) {
      const target = 'ref' in action && CLICKS.has(action.kind) ? shown.find((element) => element.ref === action.ref) : undefined;
      const from = shownUrl;
      const outcome = await tab.act(action, actOptions);
      // Going to the page an earlier case found the chat on (or any other page) is how a case leaves a page without
      // one: the chat is looked for again there, not given up on for the rest of the case.
      if (!target && chatMissing && outcome.ok && PAGE_MOVES.has(action.kind)) opened = null;
      if (target && outcome.ok) {
        // A click that changed nothing, or (while no chat could be opened) one after which still none opens, led
        // nowhere: it is not offered again in this case.
        if (!outcome.changed) bans.ban(target, 'clicked, nothing changed');
        else if (chatMissing) {
          opened = null;
          if ((await ensureOpen()) !== null) bans.ban(target, 'clicked, no chat came');
        }
        // A written escalation sent through a page's form: that page is the site's contact page, for later cases.
        if (written && outcome.changed && chatPage && from && from !== chatPage) {
          void options.memory?.learn(chatPage, { contactUrl: from }).catch(() => undefined);
        }
      }
      return outcome;
    },
    // The page tools of a case are guarded like any task's: what they will do is told to the gate, the tab's egress
    // guard follows the case's approved origins, and what it holds is settled the same way.
    ...(tab.gateFacts ? { gateFacts: tab.gateFacts.bind(tab) } : {}),
    ...(tab.capture ? { capture: tab.capture.bind(tab) } : {}),
    ...(tab.setEgressScope ? { setEgressScope: tab.setEgressScope.bind(tab) } : {}),
    ...(tab.resolveBlocked ? { resolveBlocked: tab.resolveBlocked.bind(tab) } : {}),
    async observe(observeOptions): Promise<Observation> {
      const problem = await ensureOpen();
      const page = await tab.observe(observeOptions);
      const notes: string[] = [];
      const hint = await siteHint(page.url);
      if (hint) notes.push(hint);
      let state: ChatState | null = null;
      let here = false;
      if (problem === null) {
        state = await readHere();
        here = state !== null;
        if (state) {
          if (chatPage === null) {
            chatPage = page.url;
            void options.memory?.learn(page.url, { chatUrl: page.url, vendor: state.vendor }).catch(() => undefined);
          }
          // A refusal loop is met with the chat's own way to a person before the model sees the chat again.
          const step = await escalation.step(state);
          if (step.state) state = seen(step.state);
          if (step.note) {
            notes.push(step.note);
            if (escalations.at(-1) !== step.note) escalations.push(step.note);
          }
        } else state = last;
        if (state && here) await maybeDraft(state);
      }
      if (written) notes.push(draftNote(written, options.facts?.email));
      let transcript = state ? renderTranscript(state) : `No support chat could be opened on this page: ${problem ?? 'unknown reason'}.`;
      if (state && !here) transcript = `The support chat is not on this page (it was on ${chatPage ?? 'another page'}); as last seen:\n${transcript}`;
      const head = notes.length > 0 ? `${transcript}\n${notes.map((note) => `[Deputy: ${note}]`).join('\n')}` : transcript;
      const visible = bans.apply(page);
      shown = page.elements ?? [];
      shownUrl = page.url;
      chatMissing = problem !== null;
      return {
        ...visible,
        kind: 'chat',
        ...(state
          ? { chat: { lastFromThem: lastFromThem(state.messages), choices: here ? state.choices.map((c) => c.label) : [], ...(written ? { draft: `Subject: ${written.subject}\n\n${written.body}` } : {}) } }
          : {}),
        text: `${head}\n\nThe page around the chat (act on forms and buttons the chat opens by their number):\n${visible.text}`,
      };
    },
    chat: {
      read: async () => seen(await chat.read(chatTab)),
      send: async (text) => {
        const result = await chat.send(chatTab, text);
        return { sent: result.sent, state: seen(result.state) };
      },
      wait: async (timeoutMs) => {
        const result = await chat.wait(chatTab, timeoutMs, 800);
        seen(result.state);
        return result;
      },
      choose: async (choice) => {
        const result = await chat.choose(chatTab, choice);
        return { chosen: result.chosen, taken: result.taken, state: seen(result.state) };
      },
      end: async () => {
        await readHere().catch(() => undefined);
        await chat.end(chatTab);
      },
    },
    caseSoFar: () => ({ messages: [...ledger.values()], vendor: last?.vendor ?? null, escalations: [...escalations], ...(written ? { written } : {}) }),
    async finalState() {
      if (opened === null) return last;
      return (await readHere()) ?? last;
    },
  };
}
