import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../shared/protocol/chat-protocol';
import {
  detectRefusalLoop,
  humanJoined,
  moveKey,
  nextEscalationMove,
  normaliseReply,
  replySimilarity,
} from '../../../../shared/agent/support-loop';

let next = 0;
const msg = (author: ChatMessage['author'], text: string): ChatMessage => ({ id: `m${next++}`, author, text, time: null, seenAt: 1_700_000_000_000 + next });

/** A conversation: our asks and their answers, alternating. */
function talk(answers: readonly string[]): ChatMessage[] {
  const out: ChatMessage[] = [msg('them', 'Hi! I am the virtual assistant. How can I help?')];
  answers.forEach((answer, i) => out.push(msg('us', `Order 4411 arrived broken, I want a refund (try ${i + 1}).`), msg('them', answer)));
  return out;
}

const CANNED = [
  'I understand. You can find our returns policy at shop.test/returns. Is there anything else I can help with?',
  "Sorry, I didn't get that. Could you rephrase your question?",
  'For refunds please visit the Help Centre.',
  'Je comprends. Consultez notre politique de retour sur shop.test/retours.',
];
/** How a bot varies one canned answer between turns without saying anything new. */
const VARIANTS: ReadonlyArray<(text: string) => string> = [
  (t) => t,
  (t) => t.toUpperCase(),
  (t) => `${t} 😊`,
  (t) => t.replace(/\./g, '!'),
  (t) => t.replace(/\s+/g, '  '),
  (t) => `Ticket 1234: ${t}`,
];

describe('refusal-loop detector', () => {
  it('normalises case, digits, punctuation and spacing', () => {
    expect(normaliseReply('Order #123 — REFUND!!  ok')).toBe(normaliseReply('order 987 refund ok'));
  });

  for (const canned of CANNED) {
    for (const [a, variantA] of VARIANTS.entries()) {
      for (const [b, variantB] of VARIANTS.entries()) {
        it(`same canned answer twice is a loop: "${canned.slice(0, 20)}" variants ${a}/${b}`, () => {
          const verdict = detectRefusalLoop(talk([canned, variantA(canned), variantB(canned)]));
          expect(verdict).toMatchObject({ looping: true, kind: 'repeated-answer' });
          expect(replySimilarity(variantA(canned), variantB(canned))).toBeGreaterThanOrEqual(0.8);
        });
      }
    }
  }

  it('one repeat is not yet a loop (it takes twice)', () => {
    expect(detectRefusalLoop(talk([CANNED[0]!, CANNED[0]!])).looping).toBe(false);
    expect(detectRefusalLoop(talk([CANNED[2]!, 'I have opened return RMA-7781 for order 4411; a label is on its way.', CANNED[2]!])).looping).toBe(false);
  });

  it('a conversation that moves forward is not a loop', () => {
    const answers = [
      'Sorry to hear that! Can you give me the order number?',
      'Thanks, I found order 4411 with a blue kettle delivered on Monday.',
      'I have issued a refund of 39.90 to your Visa card ending 1234.',
      'You will get an email confirmation with the refund reference shortly.',
    ];
    for (let n = 1; n <= answers.length; n++) expect(detectRefusalLoop(talk(answers.slice(0, n))).looping).toBe(false);
  });

  it('answers that reword the same nothing twice are "no progress"', () => {
    const verdict = detectRefusalLoop(
      talk([
        'Our returns policy allows returns within 30 days via the returns portal.',
        'Returns are possible within 30 days, just use the returns portal.',
        'Please use the returns portal; returns within 30 days are allowed.',
      ]),
    );
    expect(verdict).toMatchObject({ looping: true, kind: 'no-progress' });
  });

  it('an answer naming new words of the goal is progress', () => {
    const answers = [
      'Our returns policy allows returns within 30 days via the returns portal.',
      'Returns are possible within 30 days, just use the returns portal.',
      'Returns portal: refund for broken kettle approved.',
    ];
    expect(detectRefusalLoop(talk(answers), { goal: 'refund for the broken kettle' }).looping).toBe(false);
  });

  it('ignores the greeting before our first message and chat notices', () => {
    const messages = [msg('them', CANNED[0]!), msg('them', CANNED[0]!), msg('us', 'refund please'), msg('them', 'Sure, which order?')];
    expect(detectRefusalLoop(messages).looping).toBe(false);
  });
});

describe('escalation move', () => {
  const state = (choices: string[], vendor = 'generic', messages: ChatMessage[] = []) => ({
    vendor,
    messages,
    choices: choices.map((label, index) => ({ index, label })),
  });

  for (const label of ['Talk to a person', 'Chat with an agent', 'Speak to someone', 'Live chat with our team', 'Contact a representative', 'Talk to a human']) {
    it(`takes the chat's own quick reply "${label}"`, () => {
      const move = nextEscalationMove(state(['Track my order', label, 'Returns']), new Set());
      expect(move).toEqual({ kind: 'choice', index: 1, label });
    });
  }

  for (const label of ['Track my order', 'Returns', 'Not a person? Ask the bot', 'I am not a bot']) {
    it(`does not mistake "${label}" for a way to a person`, () => {
      expect(nextEscalationMove(state([label]), new Set()).kind).toBe('keyword');
    });
  }

  it('types the vendor keyword, then the plain one, then gives up honestly', () => {
    const tried = new Set<string>();
    const first = nextEscalationMove(state([], 'zendesk'), tried);
    expect(first).toEqual({ kind: 'keyword', text: 'agent' });
    tried.add(moveKey(first));
    const second = nextEscalationMove(state([], 'zendesk'), tried);
    expect(second).toEqual({ kind: 'keyword', text: 'human' });
    tried.add(moveKey(second));
    const third = nextEscalationMove(state([], 'zendesk'), tried);
    expect(third.kind).toBe('none');
  });

  it('never clicks the same quick reply twice', () => {
    const tried = new Set(['choice:talk to a person']);
    expect(nextEscalationMove(state(['Talk to a person']), tried).kind).toBe('keyword');
  });

  it('says no one is reachable when support says so', () => {
    const move = nextEscalationMove(state([], 'generic', [msg('them', 'Our agents are currently unavailable. Opening hours are 9-17.')]), new Set());
    expect(move.kind).toBe('none');
    if (move.kind === 'none') expect(move.reason).toContain('unavailable');
  });

  it('recognises a person joining', () => {
    expect(humanJoined([msg('system', 'You are now chatting with Sam')])).toBe(true);
    expect(humanJoined([msg('them', 'Hi, my name is Priya and I will look into this.')])).toBe(true);
    expect(humanJoined([msg('them', 'I am the virtual assistant.')])).toBe(false);
  });
});
