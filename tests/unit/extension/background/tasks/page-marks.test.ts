import { describe, expect, it } from 'vitest';
import { PageMarks, clearAllPageMarks } from '../../../../../extension/background/tasks/page-marks';
import type { TaskRecord } from '../../../../../shared/protocol';

function record(id: string, tabId: number, status: string, approvalId: string | null): TaskRecord {
  return { id, tabId, status, approval: approvalId === null ? null : { id: approvalId } } as unknown as TaskRecord;
}

describe('the page marks of a task', () => {
  const setup = () => {
    const cleared: [number, boolean][] = [];
    const marks = new PageMarks({
      clear: (tabId, all) => {
        cleared.push([tabId, all]);
        return Promise.resolve(true);
      },
      isActive: (r) => r.status === 'running' || r.status === 'awaiting_approval',
    });
    return { marks, cleared };
  };

  it('takes back the card outline when the card is answered or replaced, and everything when the task ends', () => {
    const { marks, cleared } = setup();
    marks.update(record('t', 7, 'running', null));
    marks.update(record('t', 7, 'awaiting_approval', 'a1'));
    expect(cleared).toEqual([]);
    marks.update(record('t', 7, 'awaiting_approval', 'a2'));
    expect(cleared).toEqual([[7, false]]);
    marks.update(record('t', 7, 'running', null));
    expect(cleared).toEqual([[7, false], [7, false]]);
    marks.update(record('t', 7, 'completed', null));
    expect(cleared).toEqual([[7, false], [7, false], [7, true]]);
    // An ended task's later updates (History, a rename) touch no page, and never another task's frame.
    marks.update(record('t', 7, 'completed', null));
    expect(cleared).toHaveLength(3);
  });

  it('cleans the tab a task left as well as the one it ended on', () => {
    const { marks, cleared } = setup();
    marks.update(record('t', 3, 'awaiting_approval', 'a1'));
    marks.update(record('t', 4, 'stopped', null));
    expect(cleared).toEqual([[4, true], [3, true]]);
  });

  it('cleans every tab when a new worker starts', async () => {
    const cleared: number[] = [];
    await clearAllPageMarks(() => Promise.resolve([1, 2, 5]), (tabId) => {
      cleared.push(tabId);
      return Promise.resolve(true);
    });
    expect(cleared).toEqual([1, 2, 5]);
  });
});
