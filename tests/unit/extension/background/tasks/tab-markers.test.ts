import { describe, expect, it, vi } from 'vitest';
import { TabMarkers } from '../../../../../extension/background/tasks/tab-markers';
import { isActive } from '../../../../../extension/background/tasks/task-runner';
import type { TabBadge } from '../../../../../extension/platform/tab-marker';
import { taskRecord } from '../../ui/task-record-fixture';

function setup() {
  const badges = new Map<number, TabBadge | null>();
  const outlines: [number, boolean][] = [];
  const markers = new TabMarkers({
    setBadge: (tabId, badge) => {
      badges.set(tabId, badge);
      return Promise.resolve();
    },
    setOutline: (tabId, on) => {
      outlines.push([tabId, on]);
      return Promise.resolve(true);
    },
    isActive,
    log: { warn: vi.fn() },
  });
  return { markers, badges, outlines };
}

const approval = { id: 'a1', step: 0, callId: 'c1', tool: 'click', intent: 'Click', classes: ['money' as const], reason: 'It spends money.', url: 'https://shop.test/', askedAt: 1 };

describe('the marks on the tab a task controls', () => {
  it('marks the tab while the task runs, shows "!" while it waits for the user, and clears both marks when it ends', () => {
    const { markers, badges, outlines } = setup();
    const running = taskRecord({ status: 'running' });
    markers.update(running);
    markers.update({ ...running, updatedAt: running.updatedAt + 1 });
    expect(badges.get(7)?.text).toBe('●');
    expect(outlines).toEqual([[7, true]]);
    markers.update({ ...running, status: 'awaiting_approval', approval });
    expect(badges.get(7)).toMatchObject({ text: '!', title: 'Deputy is waiting for you in this tab' });
    expect(outlines).toEqual([[7, true]]);
    markers.update({ ...running, status: 'completed' });
    expect(badges.get(7)).toBeNull();
    expect(outlines).toEqual([
      [7, true],
      [7, false],
    ]);
    expect(markers.isMarked(7)).toBe(false);
  });

  it('draws the marks again after the tab loads a page while the task runs, and not after it ended', () => {
    const { markers, outlines } = setup();
    const running = taskRecord({ status: 'running' });
    markers.update(running);
    markers.navigated(7);
    expect(outlines).toEqual([
      [7, true],
      [7, true],
    ]);
    markers.update({ ...running, status: 'stopped' });
    markers.navigated(7);
    markers.navigated(8);
    expect(outlines).toHaveLength(3);
  });

  it('moves the marks with a task that goes on in another tab', () => {
    const { markers, badges } = setup();
    const running = taskRecord({ status: 'running' });
    markers.update(running);
    markers.update({ ...running, tabId: 9 });
    expect(badges.get(7)).toBeNull();
    expect(badges.get(9)?.text).toBe('●');
    expect([markers.isMarked(7), markers.isMarked(9)]).toEqual([false, true]);
  });

  it('leaves a tab alone when a different, older task on it ends', () => {
    const { markers, badges } = setup();
    markers.update(taskRecord({ id: 'new', status: 'running' }));
    markers.update(taskRecord({ id: 'old', status: 'failed' }));
    expect(badges.get(7)?.text).toBe('●');
  });
});
