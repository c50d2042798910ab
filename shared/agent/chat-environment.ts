import type { ChatMessage, ChatState, WaitStatus } from '../protocol/chat-protocol';
import type { WebEnvironment } from './web-environment';

/** What waiting for support reports back to a chat tool. */
export interface ChatWaitOutcome {
  status: WaitStatus;
  newMessages: ChatMessage[];
  summary: string;
  state: ChatState;
}

/** The support chat of a case: the background implements it over the chat driver of the tab the case runs on. */
export interface ChatPort {
  read(): Promise<ChatState>;
  /** Sends the real text (placeholders already resolved). */
  send(text: string): Promise<{ sent: boolean; state: ChatState }>;
  wait(timeoutMs: number): Promise<ChatWaitOutcome>;
  /** Clicks an offered quick reply; `taken` says whether the chat took it. */
  choose(choice: string | number): Promise<{ chosen: string; taken: boolean; state: ChatState }>;
  /** Stops driving the chat; the widget stays as it is for the user. */
  end(): Promise<void>;
}

/**
 * A support-chat case: the page tools still work on the tab (for forms and buttons the chat opens), and `chat` talks
 * to the widget. Its observation is the transcript, labelled as the other side's words.
 */
export interface ChatEnvironment extends WebEnvironment {
  chat: ChatPort;
}

/** How many of the latest messages the model sees in every turn; older ones are summarised, like old pages. */
export const TRANSCRIPT_KEEP = 30;

const WHO: Record<ChatMessage['author'], string> = { us: 'us (Deputy, for the user)', them: 'support', system: 'chat notice' };

/** The transcript as the model reads it: who said what, the quick replies, forms and uploads the chat shows. */
export function renderTranscript(state: ChatState, keep = TRANSCRIPT_KEEP): string {
  const lines = [`Support chat (${state.vendor}), ${state.open ? 'open' : 'closed'}. Transcript, oldest first:`];
  const hidden = Math.max(0, state.messages.length - keep);
  if (hidden > 0) lines.push(`[${hidden} earlier message${hidden === 1 ? '' : 's'} not shown; chat_read shows them all]`);
  if (state.messages.length === 0) lines.push('(no messages yet)');
  for (const message of state.messages.slice(hidden)) lines.push(`- ${WHO[message.author]}: ${message.text}`);
  if (state.typing) lines.push('[support is typing…]');
  if (state.choices.length > 0) {
    lines.push(`Quick replies (chat_choose): ${state.choices.map((choice) => `${choice.index}. "${choice.label}"`).join('  ')}`);
  }
  for (const form of state.forms) {
    const fields = form.fields.map((field) => `${field.label}${field.required ? ' (required)' : ''}`).join(', ');
    lines.push(`Form in the chat${form.title ? ` "${form.title}"` : ''}: ${fields}${form.submitLabel ? `; button "${form.submitLabel}"` : ''} (fill it with the page tools)`);
  }
  for (const upload of state.uploads) lines.push(`Support asks for a file: "${upload.label}". Deputy never picks files: that needs the user.`);
  if (!state.composer.found) lines.push('No message box found in the chat.');
  else if (state.composer.disabled) lines.push('The message box is disabled right now.');
  return lines.join('\n');
}

/** What the other side said since our last message: the message an outgoing one answers. */
export function lastFromThem(messages: readonly ChatMessage[]): string | null {
  const texts: string[] = [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (!message || message.author === 'us') break;
    if (message.author === 'them') texts.unshift(message.text);
  }
  return texts.length > 0 ? texts.join('\n') : null;
}
