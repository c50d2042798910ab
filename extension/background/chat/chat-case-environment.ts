import { type ChatEnvironment, lastFromThem, renderTranscript } from '../../../shared/agent/chat-environment';
import type { Observation } from '../../../shared/agent/environment';
import type { ChatState } from '../../../shared/protocol';
import type { ChatDriver } from './chat-driver';
import type { TabEnvironment } from '../page/tab-environment';

/** The case's chat environment, and what the runner reads of it when the case ends. */
export interface ChatCaseEnvironment extends ChatEnvironment, Pick<TabEnvironment, 'currentTabId'> {
  /** The chat as it was last seen (read again when possible), for the transcript saved with the case. */
  finalState(): Promise<ChatState | null>;
}

/**
 * A support-chat case on one tab: the chat driver talks to the widget (opened on the first look), and the tab
 * environment keeps the page tools working for forms and buttons the chat opens. Each observation is the transcript,
 * then the page around it; the loop labels both as the other side's words.
 */
export function createChatCaseEnvironment(chat: Pick<ChatDriver, 'open' | 'read' | 'send' | 'wait' | 'choose' | 'end'>, tab: TabEnvironment): ChatCaseEnvironment {
  const chatTab = tab.currentTabId();
  let opened: Promise<string | null> | null = null;
  let last: ChatState | null = null;
  const seen = (state: ChatState): ChatState => (last = state);

  /** Opens the chat once: null when it opened, else why not (in words the model and the user read). */
  const ensureOpen = (): Promise<string | null> => {
    opened ??= chat.open(chatTab).then(
      (result) => (result.opened ? null : result.summary),
      (error: unknown) => (opened = null, error instanceof Error ? error.message : String(error)),
    );
    return opened;
  };

  return {
    currentTabId: () => tab.currentTabId(),
    act: (action, options) => tab.act(action, options),
    // The page tools of a case are guarded like any task's: what they will do is told to the gate, the tab's egress
    // guard follows the case's approved origins, and what it holds is settled the same way.
    ...(tab.gateFacts ? { gateFacts: tab.gateFacts.bind(tab) } : {}),
    ...(tab.setEgressScope ? { setEgressScope: tab.setEgressScope.bind(tab) } : {}),
    ...(tab.resolveBlocked ? { resolveBlocked: tab.resolveBlocked.bind(tab) } : {}),
    async observe(options): Promise<Observation> {
      const problem = await ensureOpen();
      const page = await tab.observe(options);
      let state: ChatState | null = null;
      if (problem === null) state = seen(await chat.read(chatTab));
      const head = state ? renderTranscript(state) : `No support chat could be opened on this page: ${problem ?? 'unknown reason'}.`;
      return {
        ...page,
        kind: 'chat',
        ...(state ? { chat: { lastFromThem: lastFromThem(state.messages), choices: state.choices.map((c) => c.label) } } : {}),
        text: `${head}\n\nThe page around the chat (act on forms and buttons the chat opens by their number):\n${page.text}`,
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
        await chat.read(chatTab).then(seen, () => undefined);
        await chat.end(chatTab);
      },
    },
    async finalState() {
      if (opened === null) return last;
      return chat.read(chatTab).then(seen, () => last);
    },
  };
}
