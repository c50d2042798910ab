import { describe, expect, it } from 'vitest';
import { authorFromWords, wordsOf } from '../../../../../extension/content/chat/author-tokens';
import { matchLabel } from '../../../../../extension/content/chat/chat-frame';
import { widgetControlLabel } from '../../../../../extension/content/chat/chat-controls';
import { matchChoiceLabel } from '../../../../../shared/protocol';

describe('author words in markup', () => {
  it('splits kebab, snake and camel case class names into words', () => {
    expect(wordsOf('user-message-text')).toEqual(['user', 'message', 'text']);
    expect(wordsOf('nlux-comp-chatItem--received')).toEqual(['nlux', 'comp', 'chat', 'item', 'received']);
    expect(wordsOf('nlux_msg_rcvd')).toEqual(['nlux', 'msg', 'rcvd']);
  });

  it('names the author when the markup names exactly one kind', () => {
    expect(authorFromWords(['message-bubble user-message-text'])).toBe('us');
    expect(authorFromWords(['message-bubble ai-message-text'])).toBe('them');
    expect(authorFromWords(['chatItem chatItem--received'])).toBe('them');
    expect(authorFromWords(['event-divider'])).toBe('system');
    expect(authorFromWords(['message-bubble'])).toBeNull();
    // Both kinds named: the markup does not decide.
    expect(authorFromWords(['user-avatar bot-message'])).toBeNull();
  });
});

describe('matchLabel', () => {
  const labels = ['Track my order', 'Request a refund', 'Talk to a human'];

  it('prefers an exact label, then one ignoring case, then one that contains the words', () => {
    expect(matchLabel(labels, 'Request a refund')).toBe(1);
    expect(matchLabel(labels, 'talk to a HUMAN')).toBe(2);
    expect(matchLabel(labels, 'refund')).toBe(1);
    expect(matchLabel(labels, 'cancel')).toBe(-1);
  });
});

describe('matchChoiceLabel', () => {
  const labels = ['Accept store credit', 'Full refund please', 'Talk to a human', 'Talk to sales'];

  it('names a quick reply exactly, then ignoring case and spacing, then by the only label that contains the words', () => {
    expect(matchChoiceLabel(labels, 'Full refund please')).toBe(1);
    expect(matchChoiceLabel(labels, '  full   REFUND please ')).toBe(1);
    expect(matchChoiceLabel(labels, 'refund')).toBe(1);
    expect(matchChoiceLabel(labels, 'human')).toBe(2);
  });

  it('picks none when the words fit several choices or none, or are blank', () => {
    expect(matchChoiceLabel(labels, 'talk to')).toBe(-1);
    expect(matchChoiceLabel(labels, 'cancel my order')).toBe(-1);
    expect(matchChoiceLabel(labels, '   ')).toBe(-1);
    expect(matchChoiceLabel([], 'refund')).toBe(-1);
  });
});

describe('widgetControlLabel', () => {
  it("knows the widget's own controls by their words, icons and branding", () => {
    for (const label of ['Close chat', 'Minimize', 'Attach a file', 'More options', 'Thumbs up', 'Send message', '×', 'Powered by Tidio', 'Go back']) {
      expect(widgetControlLabel(label), label).toBe(true);
    }
  });

  it('keeps replies that use such a word among others', () => {
    for (const label of ['Call me back', 'Close my account', 'Tell me more', 'Shipping options', 'Get my money back', 'Full refund please']) {
      expect(widgetControlLabel(label), label).toBe(false);
    }
  });
});
