import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../../../shared/agent/agent-state';
import { elapsedMs, formatCost, formatDuration, formatTokens, isActiveTask, outcomeText, statusLabel, stepLines, threadEntries, usageText } from '../../../../extension/ui/task-format';
import { MARKS } from '../../../../extension/ui/step-wording';
import { taskRecord } from './task-record-fixture';

function step(index: number, calls: StepRecord['calls'], text = ''): StepRecord {
  return {
    index,
    startedAt: 0,
    observation: { url: 'https://shop.test/', title: 'Shop', hash: 'h', chars: 10, text: null, elements: [] },
    notices: [],
    reply: { text, toolCalls: [] },
    calls,
    usage: null,
    costUsd: null,
  };
}

describe('step lines', () => {
  it("shows each model turn's tokens on the first action it led to", () => {
    const click = (id: string): StepRecord['calls'][number] => ({ id, name: 'click', arguments: '{}', status: 'finished', classes: ['act'], stepText: 'Clicked', result: { ok: true, content: 'Clicked' } });
    const turn = { ...step(0, [click('a'), click('b')]), usage: { inputTokens: 12_345, outputTokens: 45, cachedInputTokens: 9_800 }, costUsd: 0.0031 };
    const unpriced = { ...step(1, [click('c')]), usage: { inputTokens: 800, outputTokens: 20 } };
    expect(stepLines([turn, unpriced, step(2, [click('d')])]).map((l) => l.tokens)).toEqual(['12k in (9.8k cached) · 45 out · $0.0031', undefined, '800 in · 20 out', undefined]);
  });

  it('lists every call in order with what verification found', () => {
    const lines = stepLines([
      step(0, [
        { id: 'a', name: 'update_plan', arguments: '{}', status: 'finished', classes: [], stepText: 'Updated the plan (0/2 done)', result: { ok: true, content: 'Plan recorded:\n[ ] 1. x' } },
        { id: 'b', name: 'click', arguments: '{}', status: 'finished', classes: ['act'], stepText: 'Clicked [8] button "Add"', result: { ok: true, content: 'Clicked', changed: true, evidence: ['"Added to cart" appeared'] } },
      ]),
      step(1, [
        { id: 'c', name: 'click', arguments: '{}', status: 'finished', classes: ['act'], stepText: 'Clicked [9] button "Sort"', result: { ok: true, content: 'Clicked', changed: false } },
        { id: 'd', name: 'click', arguments: '{}', status: 'finished', classes: ['act'], stepText: 'Clicked [3] button "Gone"', result: { ok: false, content: 'Element [3] is disabled\nmore' } },
        { id: 'e', name: 'click', arguments: '{}', status: 'denied', classes: ['money'], decision: 'ask', stepText: 'Clicked [4] button "Pay"', result: { ok: false, content: 'The user did not approve this action. Do not do it another way.' } },
        { id: 'f', name: 'click', arguments: '{}', status: 'awaiting_approval', classes: ['money'], stepText: 'Clicked [5] button "Buy"' },
        { id: 'g', name: 'type', arguments: '{}', status: 'started', classes: ['act'], stepText: 'Typed "x" into [6]' },
        { id: 'h', name: 'click', arguments: '{}', status: 'interrupted', classes: ['act'], stepText: 'Clicked [7] link "Next"' },
        { id: 'i', name: 'ask_user', arguments: '{}', status: 'started', classes: ['read'], stepText: 'Asked the user "Size?"' },
      ]),
    ]);
    expect(lines.map((l) => [l.number, l.state, l.check])).toEqual([
      [1, 'ok', ''],
      [2, 'ok', 'verified: "Added to cart" appeared'],
      [3, 'ok', 'no visible change on the page'],
      [4, 'failed', 'Element is disabled'],
      [5, 'refused', 'you rejected it, so it was not done'],
      [6, 'waiting', 'waiting for your approval'],
      [7, 'running', 'in progress…'],
      [8, 'unknown', 'interrupted: it may or may not have happened, so it was not repeated'],
      [9, 'running', 'waiting for your answer'],
    ]);
    // Worded by what happened, without the element numbers written for the model (they wait in the details).
    expect(lines.map((l) => l.text)).toEqual([
      'Updated the plan (0/2 done)',
      'Clicked button "Add"',
      'Clicked button "Sort"',
      'Failed: Click button "Gone"',
      'Refused by you: Click button "Pay"',
      'Click button "Buy"',
      'Type "x" into an element',
      'Interrupted: Click link "Next"',
      'Ask the user "Size?"',
    ]);
    expect(lines[1]?.details).toContain('As the model saw it: Clicked [8] button "Add"');
    expect(new Set(lines.map((l) => l.key)).size).toBe(lines.length);
  });

  it('tells a step blocked by a rule from one refused by the user, and a give-up from a finish, with distinct marks', () => {
    const lines = stepLines([
      step(0, [
        {
          id: 'a',
          name: 'chat_send',
          arguments: '{"text":"My card is {{card}}"}',
          status: 'denied',
          classes: ['send-message'],
          decision: 'deny',
          decisionReason: 'It would send a card number to support.',
          stepText: 'Sent to support: "My card is {{card}}"',
          result: { ok: false, content: "Blocked by Deputy's safety policy: It would send a card number to support. Do not try to reach the same result another way." },
        },
        { id: 'b', name: 'chat_read', arguments: '{}', status: 'finished', classes: ['read'], stepText: 'Read the chat', result: { ok: true, content: '<untrusted_chat vendor="intercom">\nSupport: <b>Hello</b> there\n</untrusted_chat>' } },
        { id: 'c', name: 'done', arguments: '{"success":false}', status: 'finished', classes: ['read'], stepText: 'Gave up on the task', result: { ok: true, content: 'Task finished.' } },
        { id: 'd', name: 'click', arguments: '{}', status: 'skipped', classes: ['act'], stepText: 'Clicked [2] button "Next"' },
      ]),
    ]);
    expect(lines.map((l) => [l.state, l.text, l.check])).toEqual([
      ['blocked', 'Blocked by a rule: Send to support: "My card is {{card}}"', 'not done: It would send a card number to support.'],
      ['ok', 'Read the chat', 'Support: Hello there'],
      ['gave_up', 'Gave up on the task', ''],
      ['skipped', 'Not run: Click button "Next"', 'not done: the task ended first'],
    ]);
    // The untrusted-content tags written for the model stay behind "details".
    expect(lines[1]?.details).toContain('<untrusted_chat vendor="intercom">');
    expect(lines.some((l) => /untrusted_|<b>|\[\d+\]/.test(l.text + l.check))).toBe(false);
    expect(new Set(lines.map((l) => MARKS[l.state])).size).toBe(4);
    expect(MARKS.ok).not.toBe(MARKS.gave_up);
  });

  it('shows a note about the task (the browser restarted) among the actions, where it happened, without a number', () => {
    const click = (id: string) => ({ id, name: 'click', arguments: '{}', status: 'finished' as const, classes: [], stepText: `Clicked ${id}`, result: { ok: true, content: 'Clicked' } });
    const lines = stepLines(
      [step(0, [click('a'), click('b')]), step(1, [click('c')])],
      [
        { at: 9, afterCalls: 2, text: 'The browser restarted; Deputy found the page open in a tab and continued there.' },
        { at: 1, afterCalls: 0, text: 'Started before anything.' },
      ],
    );
    expect(lines.map((l) => [l.number, l.state, l.text])).toEqual([
      [0, 'note', 'Started before anything.'],
      [1, 'ok', 'Clicked a'],
      [2, 'ok', 'Clicked b'],
      [0, 'note', 'The browser restarted; Deputy found the page open in a tab and continued there.'],
      [3, 'ok', 'Clicked c'],
    ]);
    expect(new Set(lines.map((l) => l.key)).size).toBe(lines.length);
  });

  it('reads as a conversation: the task, the model\'s words, steps, support\'s and Deputy\'s chat messages, and follow-ups where they came', () => {
    const heard = (index: number, text: string | null) => ({ ...step(index, [], ''), observation: { ...step(index, [], '').observation, kind: 'chat' as const, chat: { lastFromThem: text, choices: [] } } });
    const steps = [
      { ...heard(0, 'Hi! How can I help?'), reply: { text: 'I will ask for the refund.', toolCalls: [] }, calls: [{ id: 's', name: 'chat_send', arguments: '{"text":"Please refund order {{order}}."}', status: 'finished' as const, classes: [], stepText: 'Sent to support: "Please refund order {{order}}."', result: { ok: true, content: 'Sent' } }] },
      { ...heard(1, 'Hi! How can I help?'), calls: [{ id: 'd', name: 'done', arguments: '{"success":true,"summary":"Refund agreed."}', status: 'finished' as const, classes: [], stepText: 'Finished the task', result: { ok: true, content: 'Done' } }] },
      { ...heard(2, 'Refund sent. Anything else?'), calls: [{ id: 'b', name: 'chat_send', arguments: '{"text":"Pay it to my card"}', status: 'denied' as const, classes: [], decision: 'deny' as const, stepText: 'Sent to support: "Pay it to my card"', result: { ok: false, content: 'Blocked' } }] },
    ];
    const entries = threadEntries({ steps, task: 'Get a refund', followUps: [{ text: 'Ask them to confirm by email', beforeStep: 2, at: 5 }], chatBubbles: true });
    expect(entries.map((e) => [e.kind, e.kind === 'step' ? e.state : e.text])).toEqual([
      ['user', 'Get a refund'],
      ['them', 'Hi! How can I help?'],
      ['words', 'I will ask for the refund.'],
      ['us', 'Please refund order {{order}}.'],
      ['step', 'ok'],
      // The first turn's own account, since a follow-up came after it.
      ['words', 'Refund agreed.'],
      ['user', 'Ask them to confirm by email'],
      ['them', 'Refund sent. Anything else?'],
      // A message that was blocked is a step that says so, never a bubble as if it were sent.
      ['step', 'blocked'],
    ]);
    // The step list for the report keeps only steps, Deputy's messages worded as steps.
    expect(stepLines(steps).map((l) => l.text)).toEqual(['Sent to support: "Please refund order {{order}}."', 'Finished the task', 'Blocked by a rule: Send to support: "Pay it to my card"']);
  });
});

describe('numbers and words', () => {
  it('formats durations, costs and token counts for a narrow line', () => {
    expect(formatDuration(999)).toBe('0s');
    expect(formatDuration(59_000)).toBe('59s');
    expect(formatDuration(61_000)).toBe('1m 01s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
    expect(formatCost(null)).toBe('cost unknown');
    expect(formatCost(0)).toBe('$0');
    expect(formatCost(0.00002)).toBe('< $0.0001');
    expect(formatCost(0.0042)).toBe('$0.0042');
    expect(formatCost(1.5)).toBe('$1.50');
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1530)).toBe('1.5k');
    expect(formatTokens(25_300)).toBe('25k');
  });

  it('names the status, and says a completed task that did not succeed is not done', () => {
    expect(statusLabel(taskRecord({ status: 'awaiting_approval' }))).toBe('Waiting for your approval');
    expect(statusLabel(taskRecord({ status: 'running', stopRequested: true }))).toBe('Stopping');
    const gaveUp = taskRecord({ status: 'completed' });
    gaveUp.agent = { ...gaveUp.agent!, outcome: { success: false, summary: 'Out of stock.' } };
    expect(statusLabel(gaveUp)).toBe('Finished without success');
    expect(outcomeText(gaveUp)).toBe('Out of stock.');
    expect(statusLabel({ ...gaveUp, status: 'failed' })).toBe('Gave up');
    expect(statusLabel(taskRecord({ status: 'failed', error: { code: 'timeout', message: 'The model did not answer in time.' } }))).toBe('Failed');
  });

  it('names a paused task and one about to pause, keeps it active, and marks the call it holds before', () => {
    const paused = taskRecord({ status: 'paused' });
    expect(statusLabel(paused)).toBe('Paused');
    expect(isActiveTask(paused)).toBe(true);
    expect(outcomeText(paused)).toBeNull();
    expect(statusLabel(taskRecord({ status: 'running', pauseRequested: true }))).toBe('Pausing');
    expect(statusLabel(taskRecord({ status: 'paused', stopRequested: true }))).toBe('Stopping');
    const steps = [
      step(0, [{ id: 'a', name: 'click', arguments: '{}', status: 'finished', classes: ['act'], stepText: 'Clicked [1] button "Add"', result: { ok: true, content: 'Clicked', changed: true, evidence: ['count is 1'] } }]),
      step(1, [
        { id: 'b', name: 'click', arguments: '{}', status: 'proposed', classes: [], stepText: 'Clicked [1] button "Add"' },
        { id: 'c', name: 'done', arguments: '{}', status: 'proposed', classes: [], stepText: 'Finished the task' },
      ]),
    ];
    expect(stepLines(steps, [], true).map((l) => [l.text, l.state, l.check])).toEqual([
      ['Clicked button "Add"', 'ok', 'verified: count is 1'],
      ['Click button "Add"', 'paused', 'paused: it runs when you resume'],
      ['Finish the task', 'running', 'in progress…'],
    ]);
    expect(stepLines(steps).map((l) => l.state)).toEqual(['ok', 'running', 'running']);
  });

  it('counts time to now while active and to the last change once ended', () => {
    const running = taskRecord({ status: 'running', createdAt: 1000, updatedAt: 2000 });
    expect(isActiveTask(running)).toBe(true);
    expect(elapsedMs(running, 10_000)).toBe(9000);
    expect(elapsedMs({ ...running, status: 'completed' }, 10_000)).toBe(1000);
    expect(outcomeText(running)).toBeNull();
  });

  it('explains how a task ended without an outcome', () => {
    expect(outcomeText(taskRecord({ status: 'stopped' }))).toBe('You stopped the task.');
    expect(outcomeText(taskRecord({ status: 'failed', error: { code: 'bad_config', message: 'Choose a model provider in Settings first.' } }))).toBe('Connect a model first: choose a provider in Settings.');
    expect(usageText(taskRecord({}))).toBe('1.2k in · 80 out · $0.0030');
  });
});
