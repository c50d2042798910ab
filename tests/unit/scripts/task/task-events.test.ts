import { describe, expect, it } from 'vitest';
import { formatEvent } from '../../../../scripts/task/event-format';
import { type TaskEvent, taskEvents } from '../../../../scripts/task/task-events';
import { taskRecord } from '../../extension/ui/task-record-fixture';

describe('npm run task events', () => {
  it('turns successive task records into one event per happening, each once', () => {
    const events: TaskEvent[] = [];
    const source = taskEvents((event) => events.push(event));
    const base = taskRecord({ status: 'running' });
    const agent = base.agent!;
    const step = {
      index: 0,
      startedAt: 0,
      observation: { url: 'https://shop.test/', title: 'Shop', hash: 'h', chars: 1, text: null, elements: [] },
      notices: [],
      reply: { text: '', toolCalls: [] },
      calls: [{ id: 'c1', name: 'click', arguments: '{"ref":3}', status: 'finished' as const, classes: [], stepText: 'Clicked [3] button "Add"', result: { ok: true, content: 'Clicked [3] button "Add"' } }],
      usage: null,
      costUsd: null,
    };
    const plan = { explanation: '', steps: [{ step: 'Add it', status: 'in_progress' as const }] };
    const first = { ...base, agent: { ...agent, plan, steps: [step] }, notes: [{ at: 5, afterCalls: 0, text: 'Opened https://shop.test/ to start the task.' }] };
    source.update(first);
    source.update(first);
    const approval = { id: 'a1', step: 1, callId: 'c2', tool: 'click', intent: 'Click [9] button "Pay"', classes: ['money' as const], reason: 'it spends money', url: 'https://shop.test/', askedAt: 6 };
    source.update({ ...first, approval, status: 'awaiting_approval' });
    expect(events).toEqual([
      { type: 'plan', steps: [{ step: 'Add it', status: 'in_progress' }] },
      { type: 'step', step: 1, callId: 'c1', tool: 'click', text: 'Clicked [3] button "Add"', status: 'finished', ok: true, result: 'Clicked [3] button "Add"' },
      { type: 'note', text: 'Opened https://shop.test/ to start the task.' },
      { type: 'approval', id: 'a1', intent: 'Click [9] button "Pay"', reason: 'it spends money', classes: ['money'] },
    ]);
    expect(formatEvent(events[1] as TaskEvent)).toEqual(['  1. Clicked [3] button "Add"']);
  });

  it('prints the same events as text lines', () => {
    expect(formatEvent({ type: 'step', step: 2, callId: 'c', tool: 'click', text: 'Clicked [3] button "Go"', status: 'finished', ok: false, result: 'Element is covered\nmore' })).toEqual([
      '  2. Clicked [3] button "Go" -> failed: Element is covered',
    ]);
    expect(formatEvent({ type: 'decision', approvalId: 'a', intent: 'Click [2]', decision: 'reject', by: 'nobody' })[0]).toMatch(/^ {2}nobody at the terminal to approve: rejected/);
    const end = formatEvent({
      type: 'end',
      taskId: 't',
      status: 'completed',
      success: true,
      summary: 'Saved.',
      usage: { inputTokens: 10, outputTokens: 2, costUsd: 0 },
      chat: null,
      downloads: [
        { id: 'd1', name: 'report.pdf', mime: 'application/pdf', size: 1200, state: 'complete', path: '/home/u/Downloads/Deputy/report.pdf', executable: false, url: 'https://a.example/r.pdf' },
        { id: 'd2', name: 'setup.exe', mime: '', state: 'held', note: 'a program, kept only with your approval', executable: true, url: 'https://a.example/s.exe' },
      ],
      runDir: 'runs/x',
      trace: 'runs/x/trace.jsonl',
      records: 9,
      screenshots: 3,
      exitCode: 0,
    });
    expect(end).toEqual([
      'Done: Saved.',
      'Downloaded report.pdf (application/pdf, 1200 bytes): /home/u/Downloads/Deputy/report.pdf',
      'Not downloaded: setup.exe (held: a program, kept only with your approval)',
      'Tokens: 10 in, 2 out; cost: none (a local model)',
      'Trace: runs/x/trace.jsonl (9 records, 3 screenshots beside it)',
    ]);
  });
});
