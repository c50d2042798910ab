import { z } from 'zod';
import { type ChatMessage, matchChoiceLabel } from '../protocol/chat-protocol';
import { askUserTool, updatePlanTool } from './control-tools';
import { type ChatEnvironment, renderTranscript } from './chat-environment';
import { type AnyTool, type PageLookup, type ToolContext, defineTool, quote } from './tool';
import { wrapUntrusted } from './untrusted';
import { webTools } from './web-tools';

type ChatContext = ToolContext<ChatEnvironment>;

/** Waits in a row that heard nothing, after which the case ends: a chat nobody answers is not waited on forever. */
export const SILENT_WAITS_TO_END = 3;
const silentWaits = new WeakMap<ChatEnvironment, number>();

function wrapMessages(vendor: string, messages: readonly ChatMessage[]): string {
  const text = messages.map((m) => `- ${m.author === 'them' ? 'support' : m.author === 'us' ? 'us' : 'chat notice'}: ${m.text}`).join('\n');
  return wrapUntrusted('untrusted_chat', { vendor }, text);
}

export const chatReadTool = defineTool({
  name: 'chat_read',
  description: 'Read the whole support chat as it is now: every message, quick replies, forms and requests for files.',
  input: z.object({}),
  risk: 'read',
  changesPage: false,
  describe: () => 'Read the chat',
  handler: async (_args, context: ChatContext) => {
    const state = await context.environment.chat.read();
    return { ok: true, content: wrapUntrusted('untrusted_chat', { vendor: state.vendor }, renderTranscript(state, Number.MAX_SAFE_INTEGER)) };
  },
});

export const chatSendTool = defineTool({
  name: 'chat_send',
  description:
    'Send one message to support in the chat. Be polite and brief. Use only facts the user allowed you to share. Then call chat_wait for the answer.',
  input: z.object({ text: z.string().min(1).max(2000).describe('The message, exactly as support should read it.') }),
  risk: 'send-message',
  changesPage: true,
  outgoingMessage: (args) => args.text,
  describe: (args) => `Sent to support: ${quote(args.text, 500)}`,
  handler: async (args, context: ChatContext) => {
    const result = await context.environment.chat.send(context.resolveSecrets(args.text));
    if (!result.sent) return { ok: false, content: 'The message could not be sent: the chat has no usable message box right now.', changed: false };
    return { ok: true, content: 'Sent. Call chat_wait for support\'s answer.', changed: true };
  },
});

export const chatWaitTool = defineTool({
  name: 'chat_wait',
  description: 'Wait for support to answer your last message (or to greet you), until their reply settles or the time runs out.',
  input: z.object({ seconds: z.number().int().min(1).max(120).default(30).describe('How long to wait at most, in seconds (default 30).') }),
  risk: 'read',
  changesPage: false,
  describe: (args) => `Waited for support (up to ${args.seconds} s)`,
  handler: async (args, context: ChatContext) => {
    const environment = context.environment;
    const result = await environment.chat.wait(args.seconds * 1000);
    const heard = result.newMessages.filter((m) => m.author !== 'us');
    if (result.status === 'replied' && heard.length > 0) {
      silentWaits.set(environment, 0);
      return { ok: true, content: `Support answered:\n${wrapMessages(result.state.vendor, heard)}`, changed: true };
    }
    const silent = (silentWaits.get(environment) ?? 0) + 1;
    silentWaits.set(environment, silent);
    if (silent >= SILENT_WAITS_TO_END) {
      const summary = `Support did not answer: ${silent} waits in a row heard nothing (the last: ${result.summary}). The chat was left open as it is; try again later or contact support another way.`;
      context.finish(false, summary, { label: 'no_reply' });
      return { ok: false, content: summary, changed: false };
    }
    return { ok: false, content: `${result.summary}. Wait again, or end the chat if support has stopped answering.`, changed: false };
  },
});

const Choice = z.union([z.string().min(1).max(500), z.number().int().nonnegative()]);

/** The label of the offered quick reply the model named, as the chat will send it (the gate judges that text). */
function choiceLabel(choice: string | number, page: PageLookup): string {
  const offered = page.chat?.choices ?? [];
  if (typeof choice === 'string') return offered[matchChoiceLabel(offered, choice)] ?? choice;
  return offered[choice] ?? `quick reply ${choice}`;
}

export const chatChooseTool = defineTool({
  name: 'chat_choose',
  description: 'Click one of the quick replies or options the chat offers, by its label or its number in the list.',
  input: z.object({ choice: Choice.describe('The option\'s label (e.g. "Request a refund") or its number from the list.') }),
  risk: 'send-message',
  changesPage: true,
  outgoingMessage: (args, page) => choiceLabel(args.choice, page),
  describe: (args, page) => `Chose ${quote(choiceLabel(args.choice, page), 200)} in the chat`,
  handler: async (args, context: ChatContext) => {
    const result = await context.environment.chat.choose(args.choice);
    if (!result.taken) {
      return { ok: false, content: `Clicked "${result.chosen}", but the chat did not take it (the choice is still offered and no message of ours shows it). Read the chat, then try again or type the answer with chat_send.`, changed: false };
    }
    return { ok: true, content: `Chose "${result.chosen}". Call chat_wait for support's answer.`, changed: true };
  },
});

export const ChatCaseOutcome = z.enum(['agreed', 'refused', 'needs_user', 'no_reply']);
export type ChatCaseOutcome = z.infer<typeof ChatCaseOutcome>;

export const chatEndTool = defineTool({
  name: 'chat_end',
  description:
    'End the case: agreed (support agreed to what the user wanted), refused (support said no), needs_user (a decision, a file or a fact only the user has; the user takes over), or no_reply (support stopped answering). Summarise exactly what was agreed or where it stands.',
  input: z.object({
    outcome: ChatCaseOutcome.describe('agreed, refused, needs_user or no_reply.'),
    summary: z.string().min(1).max(2000).describe('What was agreed (amounts, references, dates) or why it stopped, for the user.'),
  }),
  risk: 'read',
  changesPage: false,
  describe: (args) => `Ended the chat: ${args.outcome.replace('_', ' ')}`,
  handler: async (args, context: ChatContext) => {
    await context.environment.chat.end();
    context.finish(args.outcome === 'agreed', args.summary, { label: args.outcome, ...(args.outcome === 'needs_user' ? { handedToUser: true } : {}) });
    return { ok: true, content: 'Case ended.' };
  },
});

/** The chat tools, in the order the model sees them. */
export const chatTools: AnyTool<ChatEnvironment>[] = [chatReadTool, chatSendTool, chatWaitTool, chatChooseTool, chatEndTool];

/** Everything a chat case offers: the chat tools, the page tools for forms the chat opens, the plan and questions. */
export function chatAgentTools(): AnyTool<ChatEnvironment>[] {
  return [...chatTools, ...webTools, updatePlanTool, askUserTool];
}
