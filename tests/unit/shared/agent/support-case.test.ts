import { describe, expect, it } from 'vitest';
import { buildCaseFile, factsShared, mergeLedger } from '../../../../shared/agent/support-case';
import type { ChatMessage } from '../../../../shared/protocol';
import { caseFileLines } from '../../../../extension/ui/task-report';

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0); // a Monday
const msg = (id: string, author: ChatMessage['author'], text: string, at = T0): ChatMessage => ({ id, author, text, time: null, seenAt: at });

describe('a support case file', () => {
  const messages = [
    msg('1', 'them', 'Hi! How can I help?'),
    msg('2', 'us', 'My order 1234 arrived damaged; I would like a refund.', T0 + 60_000),
    msg('3', 'them', 'Sorry about that. Your refund will be processed within 5 business days.', T0 + 120_000),
    msg('4', 'us', 'Thanks. My email is JANE@example.org', T0 + 180_000),
  ];
  const file = buildCaseFile({
    goal: 'Get a refund for order 1234',
    messages,
    vendor: 'crisp',
    facts: { order_number: '1234', email: 'jane@example.org', card_last4: '4242' },
    escalations: ['Deputy asked for a person by typing "agent".'],
    promiseShots: new Map([['3', 2]]),
    redact: (text) => text.replace(/[\w.]+@[\w.]+/g, '[email]'),
    outcome: 'agreed',
    summary: 'Refund within 5 business days.',
    open: false,
  });

  it('names the facts that went into the chat, and only those', () => {
    expect(file.factsShared).toEqual(['order_number', 'email']);
    expect(factsShared(messages, { card_last4: '4242' })).toEqual([]);
  });

  it('keeps every message with the time it was seen, redacted', () => {
    expect(file.transcript.map((m) => m.at)).toEqual(messages.map((m) => m.seenAt));
    expect(file.transcript[3]!.text).toBe('Thanks. My email is [email]');
  });

  it('quotes the dated promise with its due day, the time it was made and its screenshot', () => {
    expect(file.promises).toHaveLength(1);
    const promise = file.promises![0]!;
    expect(promise.quote).toBe('Your refund will be processed within 5 business days.');
    expect(promise.madeAt).toBe(T0 + 120_000);
    expect(promise.shotStep).toBe(2);
    // Five business days after Monday 23 November is Monday 30 November.
    expect(new Date(promise.dueAt).getDate()).toBe(30);
  });

  it('reads as Markdown with the goal, the promise, the escalation and a timed transcript', () => {
    const text = caseFileLines(file).join('\n');
    expect(text).toContain('- Goal: Get a refund for order 1234');
    expect(text).toContain('- Facts shared: order_number, email');
    expect(text).toContain('"Your refund will be processed within 5 business days." — due 2026-11-30');
    expect(text).toContain('### Reaching a person\n\n- Deputy asked for a person by typing "agent".');
    expect(text).toContain('- 2026-11-23 10:02:00 UTC **Support:** Sorry about that.');
    expect(text).not.toContain('still running');
    expect(caseFileLines({ ...file, open: true }).join('\n')).toContain('still running');
  });

  it('keeps messages the chat has dropped from its own list, and a streamed one in its place', () => {
    const ledger = new Map<string, ChatMessage>();
    mergeLedger(ledger, messages.slice(0, 3));
    mergeLedger(ledger, [msg('3', 'them', 'Sorry about that. Your refund will be processed within 5 business days. Anything else?', T0 + 999_000), messages[3]!]);
    expect([...ledger.keys()]).toEqual(['1', '2', '3', '4']);
    expect(ledger.get('3')!.text).toMatch(/Anything else\?$/);
    expect(ledger.get('3')!.seenAt).toBe(T0 + 120_000);
  });

  it('takes the promises already found instead of reading the transcript for them again', () => {
    const again = buildCaseFile({ goal: 'g', messages, vendor: null, facts: {}, escalations: [], promises: [], redact: (t) => t, outcome: 'x', summary: 'y', open: true });
    expect(again.promises).toEqual([]);
  });
});
