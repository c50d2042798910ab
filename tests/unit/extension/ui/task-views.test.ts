import { describe, expect, it } from 'vitest';
import { GOAL_TEMPLATES, goalText } from '../../../../extension/ui/goal-templates';
import { groupBySite, matchingTasks } from '../../../../extension/ui/history-groups';
import { exportFileName, taskReport } from '../../../../extension/ui/task-report';
import { nextTask } from '../../../../extension/ui/use-tab-task';
import { riskLabel } from '../../../../extension/ui/approval-card';
import { approveLabel, isRiskyApproval, placeOf } from '../../../../extension/ui/approval-wording';
import type { PendingApproval } from '../../../../shared/protocol';
import { taskRecord } from './task-record-fixture';

describe('which task the panel shows', () => {
  const shown = taskRecord({ id: 'a', status: 'running', createdAt: 100, updatedAt: 200 });

  it('takes a newer version of the same task and ignores an older one arriving late', () => {
    expect(nextTask(shown, { ...shown, updatedAt: 300, status: 'completed' }, 7)?.status).toBe('completed');
    expect(nextTask(shown, { ...shown, updatedAt: 150, status: 'queued' }, 7)).toBe(shown);
  });

  it('switches to a task started later in the same tab, never to another tab\'s', () => {
    const later = taskRecord({ id: 'b', createdAt: 500, updatedAt: 500 });
    expect(nextTask(shown, later, 7)).toBe(later);
    expect(nextTask(later, shown, 7)).toBe(later);
    expect(nextTask(shown, { ...later, tabId: 8 }, 7)).toBe(shown);
    expect(nextTask(undefined, shown, 7)).toBe(shown);
  });
});

describe('history and exports', () => {
  it('groups tasks by site, newest first', () => {
    const groups = groupBySite([
      taskRecord({ id: '1', site: 'a.test', createdAt: 1 }),
      taskRecord({ id: '2', site: 'b.test', createdAt: 3 }),
      taskRecord({ id: '3', site: 'a.test', createdAt: 2 }),
    ]);
    expect(groups.map((g) => [g.site, g.records.map((r) => r.id)])).toEqual([
      ['b.test', ['2']],
      ['a.test', ['3', '1']],
    ]);
  });

  it('finds tasks by every word of the query, in its words or its site, in any case', () => {
    const records = [taskRecord({ id: '1', text: 'Refund order 1234', site: 'shop.test' }), taskRecord({ id: '2', text: 'Add headphones', site: 'audio.test' })];
    expect(matchingTasks(records, 'REFUND shop').map((r) => r.id)).toEqual(['1']);
    expect(matchingTasks(records, 'audio.test').map((r) => r.id)).toEqual(['2']);
    expect(matchingTasks(records, '  ').map((r) => r.id)).toEqual(['1', '2']);
    expect(matchingTasks(records, 'refund audio')).toEqual([]);
  });

  it('writes a readable report with the outcome, numbers and steps', () => {
    const report = taskReport(taskRecord({}));
    expect(report).toContain('# Deputy task on shop.test');
    expect(report).toContain('- Task: Add the headphones to the cart');
    expect(report).toContain('- Outcome: Done');
    expect(report).toContain('- Duration: 1m 05s');
    expect(report).toContain('- Usage: 1.2k in · 80 out · $0.0030');
    expect(report).toContain('## Result\n\nAdded.');
    expect(report).toContain('No steps were taken.');
  });

  it('names export files after the site and start time, safely', () => {
    expect(exportFileName(taskRecord({ site: '127.0.0.1:8080' }), 'jsonl')).toBe('deputy-127.0.0.1_8080-2026-01-02T03-04-05-000Z.jsonl');
  });
});

describe('approval and chat wording', () => {
  const approval = (extra: Partial<PendingApproval>): PendingApproval => ({
    id: 'a1',
    step: 0,
    callId: 'c1',
    tool: 'click',
    intent: 'Click [4] button "Pay $499.00"',
    classes: ['act'],
    reason: 'Needs your approval.',
    url: 'https://shop.example/checkout',
    askedAt: 0,
    ...extra,
  });

  it("names the exact consequence on Approve in Deputy's words, from what the gate found, not the page's label", () => {
    expect(approveLabel(approval({ classes: ['act', 'money'] }))).toBe('Pay $499.00 on shop.example');
    expect(approveLabel(approval({ classes: ['money', 'irreversible'], intent: 'Click [2] button "Cancel"' }))).toBe('Pay on shop.example (cannot be undone)');
    expect(approveLabel(approval({ classes: ['account', 'irreversible'], intent: 'Click [3] button "Delete my account"' }))).toBe('Change your account on shop.example (cannot be undone)');
    expect(approveLabel(approval({ classes: ['submit'], destination: 'https://evil.example', sends: { method: 'post', fields: ['email', 'card'] } }))).toBe('Send email, card to evil.example');
    expect(approveLabel(approval({ classes: ['navigate'], destination: 'https://docs.example' }))).toBe('Open docs.example');
    expect(approveLabel(approval({ classes: ['act'] }))).toBe('Approve');
    expect(approveLabel(approval({ tool: 'update_plan' }))).toBe('Start');
  });

  it('treats money, account, irreversible, agreeing and sending data elsewhere as risky', () => {
    for (const risk of ['money', 'account', 'irreversible', 'commitment'] as const) expect(isRiskyApproval(approval({ classes: ['act', risk] }))).toBe(true);
    expect(isRiskyApproval(approval({ classes: ['submit'], destination: 'https://evil.example', sends: { method: 'post', fields: [] } }))).toBe(true);
    expect(isRiskyApproval(approval({ classes: ['navigate'], destination: 'https://docs.example' }))).toBe(false);
  });

  it('says risk classes in words and places in short form', () => {
    expect(riskLabel('money')).toBe('spends money');
    expect(riskLabel('send-message')).toBe('sends a message');
    expect(placeOf('https://shop.test/cart?id=3')).toBe('shop.test/cart');
    expect(placeOf('https://shop.test/')).toBe('shop.test');
  });

  it('offers the five goal templates, with blanks to fill in', () => {
    expect(GOAL_TEMPLATES.map((t) => t.id)).toEqual(['refund', 'cancel', 'order_status', 'complaint', 'custom']);
    expect(goalText('refund')).toMatch(/refund for order \[order number\]/);
    expect(goalText('custom')).toBe('');
  });
});
