import { describe, expect, it } from 'vitest';
import { findUnsharedPersonalData } from '../../../../shared/agent/chat-gate';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import { caseTime, chatStalled, draftNote, draftWrittenEscalation } from '../../../../shared/agent/support-draft';
import type { ChatMessage, ChatState } from '../../../../shared/protocol';

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const msg = (id: string, author: ChatMessage['author'], text: string, at = T0): ChatMessage => ({ id, author, text, time: null, seenAt: at });
const state = (messages: ChatMessage[]): ChatState => ({
  vendor: 'crisp',
  open: true,
  messages,
  typing: false,
  choices: [],
  forms: [],
  uploads: [],
  composer: { found: true, kind: 'textarea', disabled: false },
});

describe('a written escalation when the chat cannot carry the case', () => {
  it('knows a chat has ended by its own words, and a chat with no person to reach, and not otherwise', () => {
    const ended = ['This conversation has ended.', 'We are closing this chat now.', 'Your chat session has expired.', 'The chat was closed by the agent.', 'This chat is over.'];
    for (const text of ended) expect(chatStalled(state([msg('1', 'us', 'Hi'), msg('2', 'system', text)])), text).toMatch(/support closed the chat/);
    const open = ['Your order has shipped.', 'Closing hours are 9 to 5.', 'I ended up checking your order.'];
    for (const text of open) expect(chatStalled(state([msg('1', 'them', text)])), text).toBeNull();
    // Our own words never close the chat.
    expect(chatStalled(state([msg('1', 'us', 'Is this chat closed?')]))).toBeNull();
    expect(chatStalled(state([msg('1', 'them', 'Hello')]), { noHuman: true })).toBe('no person could be reached in the chat');
  });

  const messages = [
    msg('1', 'them', 'Hi! How can I help?'),
    msg('2', 'us', 'My order 1234 arrived damaged; I would like a refund.', T0 + 60_000),
    msg('3', 'them', 'Your refund will be processed within 5 business days.', T0 + 120_000),
    msg('4', 'system', 'This conversation has ended.', T0 + 180_000),
  ];
  const facts = { order_number: '1234', email: 'jane@example.org', phone: '+1 555 0100' };

  it('holds the goal, the facts the user gave that went into the chat, the promises quoted with times — nothing else', () => {
    const draft = draftWrittenEscalation({ goal: 'Get a refund for order 1234', messages, facts, reason: 'support closed the chat', to: { via: 'contact_form', url: 'https://shop.example/contact' }, now: T0 + 200_000 });
    expect(draft).toMatchObject({ via: 'contact_form', to: 'https://shop.example/contact', factsUsed: ['order_number'], draftedAt: T0 + 200_000 });
    expect(draft.subject).toBe('Follow-up to my support chat: Get a refund for order 1234');
    expect(draft.body).toContain('I am writing about this: Get a refund for order 1234');
    expect(draft.body).toContain(`on ${caseTime(T0)}, but support closed the chat before it was resolved`);
    expect(draft.body).toContain('- Order number: 1234');
    expect(draft.body).toContain(`- "Your refund will be processed within 5 business days." (23 Nov 2026, 10:02 UTC)`);
    // Facts the user gave but that never went into the chat stay out; so does anything the user never gave.
    expect(draft.body).not.toContain(facts.email);
    expect(draft.body).not.toContain('555');
    // Every number in it is the user's order number or a time Deputy saw.
    const numbers = draft.body.replace(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/g, '').match(/\d+/g) ?? [];
    expect(new Set(numbers)).toEqual(new Set(['1234', '5']));
    // The gate, which judges what is typed for support, finds nothing in it the user did not give.
    expect(findUnsharedPersonalData(draft.body, facts, createSecretVault())).toEqual([]);
  });

  it('for a support address, makes a mailto: link that opens the same draft', () => {
    const draft = draftWrittenEscalation({ goal: 'Refund order 1234', messages, facts, reason: 'support closed the chat', to: { via: 'email', address: 'help@shop.example' }, now: T0 });
    const link = new URL(draft.mailto!);
    expect(link.protocol).toBe('mailto:');
    expect(link.pathname).toBe('help@shop.example');
    expect(link.searchParams.get('subject')).toBe(draft.subject);
    expect(link.searchParams.get('body')).toBe(draft.body);
    expect(draftNote(draft, undefined)).toMatch(/for help@shop\.example: the user can open it in their mail program/);
  });

  it('tells the model where to send it, with the reply address only when the user gave one, and that the user approves first', () => {
    const draft = draftWrittenEscalation({ goal: 'Refund', messages, facts: {}, reason: 'support closed the chat', to: { via: 'contact_form', url: 'https://shop.example/contact' }, now: T0 });
    expect(draft.factsUsed).toEqual([]);
    expect(draft.body).not.toContain('details I gave');
    expect(draftNote(draft, 'jane@example.org')).toMatch(/Open the site's contact page \(https:\/\/shop\.example\/contact\).*and jane@example\.org as the address to reply to.*approves the sending first/s);
    expect(draftNote(draft, undefined)).not.toMatch(/reply to,/);
  });
});
