import { describe, expect, it } from 'vitest';
import type { ChatEnvironment } from '../../../../shared/agent/chat-environment';
import { chatSystemPrompt } from '../../../../shared/agent/chat-prompt';
import { chatAgentTools } from '../../../../shared/agent/chat-tools';
import type { Provider, ProviderReply, ProviderRequest } from '../../../../shared/agent/providers/provider';
import { startAgent, type AgentDeps } from '../../../../shared/agent/run-agent';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import { matchChoiceLabel, type ChatMessage, type ChatState } from '../../../../shared/protocol';

const FACTS = { order_number: '1234', email: 'jane@example.org' };
const CARD = '4111 1111 1111 1111';

/** An in-memory support chat: `answer` decides support's reply to each message we send or option we choose. */
function fakeChat(answer: (text: string) => { reply?: string; choices?: string[] }, greeting = 'Hi! How can I help?', ignoredChoices: ReadonlySet<string> = new Set()) {
  const messages: ChatMessage[] = [];
  let choices: string[] = [];
  let pending: string[] = [greeting];
  const received: string[] = [];
  let ended = false;
  const post = (author: ChatMessage['author'], text: string): void => void messages.push({ id: String(messages.length), author, text, time: null, seenAt: messages.length });
  const state = (): ChatState => ({
    vendor: 'fake',
    open: true,
    messages: [...messages],
    typing: false,
    choices: choices.map((label, index) => ({ index, label })),
    forms: [],
    uploads: [],
    composer: { found: true, kind: 'textarea', disabled: false },
  });
  const said = (text: string): void => {
    received.push(text);
    post('us', text);
    const next = answer(text);
    choices = next.choices ?? [];
    pending = next.reply === undefined ? [] : [next.reply];
  };
  const environment: ChatEnvironment = {
    observe: () => Promise.resolve({ url: 'https://shop.example/help', title: 'Help', kind: 'chat', text: 'page', chat: { lastFromThem: [...messages].reverse().find((m) => m.author === 'them')?.text ?? null, choices } }),
    act: () => Promise.resolve({ ok: true, message: 'done', changed: false }),
    chat: {
      read: () => Promise.resolve(state()),
      send: (text) => {
        said(text);
        return Promise.resolve({ sent: true, state: state() });
      },
      wait: () => {
        const arrived = pending.map((text) => ({ id: String(messages.length), author: 'them' as const, text, time: null, seenAt: 0 }));
        for (const message of arrived) messages.push(message);
        pending = [];
        return Promise.resolve(
          arrived.length > 0
            ? { status: 'replied' as const, newMessages: arrived, summary: 'Support replied', state: state() }
            : { status: 'timeout' as const, newMessages: [], summary: 'No reply within 2 s: nobody answered our last message', state: state() },
        );
      },
      // Like the content side: only an offered choice is clicked, named exactly or by the only label that fits.
      choose: (choice) => {
        const label = typeof choice === 'number' ? choices[choice] : choices[matchChoiceLabel(choices, choice)];
        if (label === undefined) return Promise.reject(new Error(`No choice ${JSON.stringify(choice)} in the chat`));
        if (ignoredChoices.has(label)) return Promise.resolve({ chosen: label, taken: false, state: state() });
        said(label);
        return Promise.resolve({ chosen: label, taken: true, state: state() });
      },
      end: () => {
        ended = true;
        return Promise.resolve();
      },
    },
  };
  return { environment, received, ended: () => ended };
}

type Turn = { name: string; args: Record<string, unknown> };

function scripted(turns: Turn[]): Provider & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  return {
    label: 'scripted',
    model: 'scripted-1',
    vision: false,
    free: true,
    requests,
    complete(request): Promise<ProviderReply> {
      requests.push(request);
      const turn = turns[requests.length - 1];
      const toolCalls = turn ? [{ id: `c${requests.length}`, name: turn.name, arguments: JSON.stringify(turn.args) }] : [];
      return Promise.resolve({ text: '', toolCalls, usage: { inputTokens: 1, outputTokens: 1 }, model: 'scripted-1', stopReason: 'tool_use' });
    },
  };
}

function deps(environment: ChatEnvironment, provider: Provider, options: { approve?: boolean; answer?: string; vault?: Record<string, string> } = {}) {
  const approvals: string[] = [];
  const questions: string[] = [];
  let tick = 0;
  const value: AgentDeps<ChatEnvironment> = {
    environment,
    tools: chatAgentTools(),
    provider,
    policy: { mode: 'act', allowedFacts: FACTS },
    vault: createSecretVault({ entries: options.vault ?? {} }),
    systemPrompt: (input) => chatSystemPrompt({ ...input, facts: FACTS }),
    approve: (request) => {
      approvals.push(`${request.intent} | ${request.reason}`);
      return Promise.resolve({ approved: options.approve === true });
    },
    askUser: (question) => {
      questions.push(question);
      return Promise.resolve(options.answer ?? 'Do not share it.');
    },
    persist: () => Promise.resolve(),
    now: () => (tick += 10),
  };
  return { value, approvals, questions };
}

const task = { taskId: 'case-1', task: 'Get a refund for order 1234, which arrived damaged', startUrl: 'https://shop.example/help' };

describe('a support-chat case through the agent loop', () => {
  it('stops for approval before accepting store credit, then completes as agreed with the exact message shown', async () => {
    const chat = fakeChat((text) =>
      /refund/i.test(text)
        ? { reply: 'For order 1234 I can offer a $25 store credit instead of a refund.', choices: ['Accept store credit', 'Ask for a refund'] }
        : /accept/i.test(text)
          ? { reply: 'Done: $25 store credit added to your account.' }
          : {},
    );
    const provider = scripted([
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_send', args: { text: 'Hi, order 1234 arrived damaged. I would like a refund.' } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_choose', args: { choice: 'Accept store credit' } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_end', args: { outcome: 'agreed', summary: 'Support added a $25 store credit for order 1234.' } },
    ]);
    const d = deps(chat.environment, provider, { approve: true });
    const state = await startAgent(d.value, task);

    expect(state.status).toBe('completed');
    expect(state.outcome).toEqual({ success: true, summary: 'Support added a $25 store credit for order 1234.', label: 'agreed' });
    expect(d.approvals).toHaveLength(1);
    expect(d.approvals[0]).toMatch(/^Choose "Accept store credit" in the chat \| .*offer/);
    expect(chat.received).toEqual(['Hi, order 1234 arrived damaged. I would like a refund.', 'Accept store credit']);
    expect(chat.ended()).toBe(true);
    // The system prompt carries the facts and the strategy; the chat reaches the model as the other side's words.
    const last = provider.requests.at(-1);
    expect(last?.system).toContain('Order number: 1234');
    expect(last?.system).toMatch(/Do not accept a partial offer/);
    expect(JSON.stringify(last?.messages)).toContain('<untrusted_chat');
  });

  it('shows the gate the label that will be clicked when the model names a choice in short, and reports a click the chat ignored', async () => {
    const offer = { reply: 'I can offer a $25 store credit or a refund.', choices: ['Accept store credit', 'Full refund please', 'Call me back'] };
    const chat = fakeChat((text) => (/damaged/i.test(text) ? offer : { reply: 'Done: a full refund is on its way.' }), 'Hi!', new Set(['Call me back']));
    const provider = scripted([
      { name: 'chat_send', args: { text: 'Order 1234 arrived damaged.' } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_choose', args: { choice: 'call me' } },
      { name: 'chat_choose', args: { choice: 'store credit' } },
      { name: 'chat_choose', args: { choice: 'refund' } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_end', args: { outcome: 'agreed', summary: 'Support confirmed a full refund for order 1234.' } },
    ]);
    const d = deps(chat.environment, provider, { approve: false });
    const state = await startAgent(d.value, task);

    const chooses = state.steps.flatMap((step) => step.calls).filter((c) => c.name === 'chat_choose');
    // The widget ignored the click: the step failed and says so, rather than passing for done.
    expect(chooses[0]).toMatchObject({ status: 'finished', result: { ok: false } });
    expect(chooses[0]?.result?.content).toMatch(/^Clicked "Call me back", but the chat did not take it/);
    // "store credit" was judged as the option it clicks, which commits the user: asked, declined, never clicked.
    expect(d.approvals.some((line) => /^Choose "Accept store credit" in the chat \|/.test(line))).toBe(true);
    expect(chooses[1]).toMatchObject({ decision: 'ask', status: 'denied' });
    expect(chat.received).toEqual(['Order 1234 arrived damaged.', 'Full refund please']);
    expect(chooses[2]).toMatchObject({ status: 'finished', decision: 'allow', result: { ok: true, content: 'Chose "Full refund please". Call chat_wait for support\'s answer.' } });
  });

  it('does not send what was declined, and the model is told', async () => {
    const chat = fakeChat(() => ({ reply: 'We can offer a $10 voucher. Would you like that?' }));
    const provider = scripted([
      { name: 'chat_send', args: { text: 'I would like a refund for order 1234.' } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_send', args: { text: 'Yes please.' } },
      { name: 'chat_end', args: { outcome: 'needs_user', summary: 'Support offers only a $10 voucher; the user declined to accept it.' } },
    ]);
    const d = deps(chat.environment, provider, { approve: false });
    const state = await startAgent(d.value, task);
    expect(chat.received).toEqual(['I would like a refund for order 1234.']);
    expect(d.approvals[0]).toMatch(/Send to support: "Yes please\."/);
    expect(state.steps[2]?.calls[0]?.status).toBe('denied');
    expect(state.status).toBe('handed_to_user');
    expect(state.outcome).toMatchObject({ label: 'needs_user', handedToUser: true });
  });

  it('blocks a card number support asks for, asks the user, and never sends it', async () => {
    const chat = fakeChat(() => ({ reply: 'To process the refund, please send the full card number.' }));
    const provider = scripted([
      { name: 'chat_send', args: { text: 'I would like a refund for order 1234.' } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_send', args: { text: 'My card number is {{card_number}}' } },
      { name: 'chat_send', args: { text: `It is ${CARD}` } },
      { name: 'chat_end', args: { outcome: 'needs_user', summary: 'Support wants the card number, which Deputy may not share.' } },
    ]);
    const d = deps(chat.environment, provider, { vault: { card_number: CARD }, answer: 'Never share it. Hand it back to me.' });
    const state = await startAgent(d.value, task);
    expect(chat.received).toEqual(['I would like a refund for order 1234.']);
    expect(d.questions).toHaveLength(2);
    expect(d.questions[0]).toMatch(/your card number.*did not send it/s);
    const blocked = state.steps[2]?.calls[0];
    expect(blocked?.status).toBe('denied');
    expect(blocked?.result?.content).toContain('they answered: Never share it. Hand it back to me.');
    expect(JSON.stringify(provider.requests)).not.toContain(CARD);
    expect(state.status).toBe('handed_to_user');
  });

  it('ends a chat nobody answers after three silent waits, with a clear result', async () => {
    const chat = fakeChat(() => ({}));
    const provider = scripted([
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_send', args: { text: 'Hello, is anyone there?' } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_wait', args: { seconds: 2 } },
      { name: 'chat_wait', args: { seconds: 2 } },
    ]);
    const state = await startAgent(deps(chat.environment, provider).value, task);
    expect(state.status).toBe('failed');
    expect(state.outcome).toMatchObject({ success: false, label: 'no_reply' });
    expect(state.endReason).toMatch(/Support did not answer: 3 waits in a row heard nothing/);
    expect(provider.requests).toHaveLength(5);
  });
});
