import { describe, expect, it } from 'vitest';
import { TranscriptLedger, baselineAfterAction, baselineOf, messagesSince } from '../../../../../extension/content/chat/transcript-ledger';

const them = (text: string) => ({ author: 'them' as const, text, time: null });
const us = (text: string) => ({ author: 'us' as const, text, time: null });

describe('TranscriptLedger', () => {
  it('keeps a message id while the message grows, and stamps new messages when first seen', () => {
    let now = 1000;
    const ledger = new TranscriptLedger(() => now);
    const first = ledger.update([them('Hi!'), them('I can help')]);
    now = 2000;
    const second = ledger.update([them('Hi!'), them('I can help with a refund'), us('Thanks')]);
    expect(second.map((message) => message.id)).toEqual([first[0]?.id, first[1]?.id, 'm3']);
    expect(second[1]).toMatchObject({ text: 'I can help with a refund', seenAt: 1000 });
    expect(second[2]?.seenAt).toBe(2000);
  });

  it('gives a new id when a message at the same place is a different one', () => {
    const ledger = new TranscriptLedger(() => 0);
    ledger.update([them('Hi!'), us('Hello')]);
    const next = ledger.update([them('Hi!'), them('Hello')]);
    expect(next.map((message) => message.id)).toEqual(['m1', 'm3']);
  });

  it('keeps ids when a virtual list drops the oldest messages', () => {
    const ledger = new TranscriptLedger(() => 0);
    ledger.update([them('one'), us('two'), them('three')]);
    const next = ledger.update([us('two'), them('three'), us('four')]);
    expect(next.map((message) => message.id)).toEqual(['m2', 'm3', 'm4']);
  });
});

describe('messagesSince', () => {
  const messages = [them('Hi!'), us('Refund please'), them('Sure'), them('Order number?')];

  it('returns what came after the baseline', () => {
    expect(messagesSince(messages, { count: 2, lastText: 'Refund please' }).map((m) => m.text)).toEqual(['Sure', 'Order number?']);
    expect(messagesSince(messages, { count: 0, lastText: '' })).toHaveLength(4);
  });

  it('finds its place again by text when earlier messages were dropped', () => {
    const shifted = messages.slice(1);
    expect(messagesSince(shifted, { count: 2, lastText: 'Refund please' }).map((m) => m.text)).toEqual(['Sure', 'Order number?']);
  });
});

describe('baselineAfterAction', () => {
  it('ends at our own new message, so a reply that came in while we confirmed the send still counts', () => {
    const before = [them('Hi!')];
    const after = [them('Hi!'), us('Refund please'), them('Sure')];
    expect(baselineAfterAction(before, after)).toEqual(baselineOf(after.slice(0, 2)));
  });

  it('ends where the transcript was before the action when the action left no message of ours', () => {
    const before = [them('Hi!'), us('Earlier')];
    const after = [them('Hi!'), us('Earlier'), them('Form received')];
    expect(baselineAfterAction(before, after)).toEqual({ count: 2, lastText: 'Earlier' });
  });
});
