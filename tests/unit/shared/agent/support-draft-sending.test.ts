import { describe, expect, it } from 'vitest';
import type { CallRecord, CallStatus } from '../../../../shared/agent/agent-state';
import { DRAFT_SENDING, draftSending, draftSendingText } from '../../../../shared/agent/support-draft-sending';

const AT = Date.UTC(2026, 10, 28, 14, 5, 0);
const call = (status: CallStatus, decision: CallRecord['decision'], reason: string, extra: Partial<CallRecord> = {}): CallRecord => ({
  id: `c${Math.random()}`,
  name: 'click',
  arguments: '{}',
  status,
  classes: [],
  decision,
  decisionReason: reason,
  ...extra,
});
const SENDING = `Needs your approval because it sends a message; ${DRAFT_SENDING}:\nSubject: Follow-up`;

describe("where a case's written escalation stands, read from its steps", () => {
  it('follows the last attempt to send the draft, for every state a call can be in', () => {
    const cases: [CallRecord, string][] = [
      [call('awaiting_approval', 'ask', SENDING), 'awaiting_approval'],
      [call('proposed', 'ask', SENDING), 'awaiting_approval'],
      [call('denied', 'ask', SENDING, { finishedAt: AT }), 'declined'],
      [call('denied', 'deny', SENDING, { finishedAt: AT }), 'not_sent'],
      [call('finished', 'ask', SENDING, { finishedAt: AT, result: { ok: true, content: 'Clicked' } }), 'sent'],
      [call('finished', 'ask', SENDING, { finishedAt: AT, result: { ok: false, content: 'The button is gone' } }), 'approved'],
      [call('started', 'ask', SENDING), 'approved'],
      [call('interrupted', 'ask', SENDING), 'approved'],
    ];
    for (const [attempt, status] of cases) {
      // Other calls around it (typing the draft, a plain message to support) say nothing about the sending.
      const calls = [call('finished', 'allow', 'Typing into a field'), attempt, call('finished', 'allow', 'it sends a message')];
      expect(draftSending(calls).status, `${attempt.status}/${attempt.decision}`).toBe(status);
    }
    expect(draftSending([call('finished', 'ask', SENDING, { finishedAt: AT, result: { ok: true, content: '' } })])).toEqual({ status: 'sent', at: AT });
  });

  it('is not sent while no call carried the draft, and a retry after a decline is what counts', () => {
    expect(draftSending([])).toEqual({ status: 'not_sent' });
    expect(draftSending([call('finished', 'ask', 'Needs your approval because it sends a message')])).toEqual({ status: 'not_sent' });
    const declinedThenSent = [call('denied', 'ask', SENDING, { finishedAt: AT }), call('finished', 'ask', SENDING, { finishedAt: AT + 1, result: { ok: true, content: '' } })];
    expect(draftSending(declinedThenSent)).toEqual({ status: 'sent', at: AT + 1 });
  });

  it('says it in words, with the time it was sent or declined, and a mail draft as one the user sends', () => {
    expect(draftSendingText({ via: 'contact_form', sending: { status: 'sent', at: AT } })).toBe('Sent with your approval (2026-11-28 14:05 UTC)');
    expect(draftSendingText({ via: 'contact_form', sending: { status: 'declined', at: AT } })).toBe('Not sent: you declined it (2026-11-28 14:05 UTC)');
    expect(draftSendingText({ via: 'contact_form', sending: { status: 'awaiting_approval' } })).toBe('Waiting for your approval to send');
    expect(draftSendingText({ via: 'contact_form' })).toBe('Not sent');
    expect(draftSendingText({ via: 'email' })).toBe('Not sent: open it in your mail program to send it');
  });
});
