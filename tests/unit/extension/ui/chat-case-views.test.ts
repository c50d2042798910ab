import { describe, expect, it } from 'vitest';
import { caseOutcomeLabel } from '../../../../extension/ui/chat-case-result';
import { DEFAULT_FACT_ROWS, factsOf } from '../../../../extension/ui/chat-facts-editor';
import { isActiveTask, outcomeText, statusLabel } from '../../../../extension/ui/task-format';
import { taskReport } from '../../../../extension/ui/task-report';
import { taskRecord } from './task-record-fixture';

describe('a support-chat case in the panel and the history', () => {
  const handedOver = taskRecord({
    flow: 'chat',
    status: 'handed_to_user',
    agent: { ...taskRecord({}).agent!, status: 'handed_to_user', outcome: { success: false, summary: 'Support wants the card number.', label: 'needs_user', handedToUser: true }, endReason: 'Support wants the card number.' },
    chat: {
      outcome: 'needs_user',
      summary: 'Support wants the card number.',
      vendor: 'crisp',
      transcript: [
        { author: 'them', text: 'Please send the card number.' },
        { author: 'us', text: 'I cannot share that here.' },
      ],
    },
  });

  it('shows a case handed to the user as finished, in words, with its summary', () => {
    expect(statusLabel(handedOver)).toBe('Handed to you');
    expect(isActiveTask(handedOver)).toBe(false);
    expect(outcomeText(handedOver)).toBe('Support wants the card number.');
    expect(caseOutcomeLabel('agreed')).toBe('Agreed');
    expect(caseOutcomeLabel('no_reply')).toBe('Support did not answer');
  });

  it('puts the outcome, what was agreed and the transcript in the report', () => {
    const report = taskReport(handedOver);
    expect(report).toContain('- Outcome: Handed to you');
    expect(report).toContain('## Case file\n\n- Chat: crisp\n- Outcome: needs_user\n- Agreed: Support wants the card number.');
    expect(report).toContain('- **Support:** Please send the card number.\n- **Deputy:** I cannot share that here.');
  });

  it('sends only the facts the user filled in', () => {
    const rows = DEFAULT_FACT_ROWS.map((row) => (row.name === 'order_number' ? { ...row, value: ' 1234 ' } : row));
    expect(factsOf(rows)).toEqual({ order_number: '1234' });
    expect(factsOf(DEFAULT_FACT_ROWS)).toEqual({});
  });
});
