import { describe, expect, it, vi } from 'vitest';
import { AttentionNotices, isAttentionNotice, noticeOf, tabOfNotice } from '../../../../../extension/background/tasks/attention-notices';
import type { Notice } from '../../../../../extension/platform/notifications';
import { taskRecord } from '../../ui/task-record-fixture';

function setup(openPage = false) {
  const shown = new Map<string, Notice>();
  const state = { openPage };
  const notices = new AttentionNotices({
    hasOpenUiPage: () => Promise.resolve(state.openPage),
    show: (notice) => {
      shown.set(notice.id, notice);
      return Promise.resolve();
    },
    clear: (id) => {
      shown.delete(id);
      return Promise.resolve();
    },
    log: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
  });
  return { notices, shown, state };
}

const approval = { id: 'a1', step: 0, callId: 'c1', tool: 'click', intent: 'Click [4] button "Pay"', classes: ['money' as const], reason: 'It spends money.', url: 'https://shop.test/', askedAt: 1 };

describe('desktop notices for a task that waits for the user', () => {
  it('announces an approval once while no Deputy page is open, and clears it once answered', async () => {
    const { notices, shown } = setup();
    const waiting = taskRecord({ status: 'awaiting_approval', approval });
    await notices.update(waiting);
    await notices.update({ ...waiting, updatedAt: waiting.updatedAt + 1 });
    expect([...shown.values()]).toEqual([{ id: 'approval:7:a1', title: 'Deputy needs your approval on shop.test', message: 'Click [4] button "Pay"' }]);
    expect(notices.current()).toEqual([...shown.values()]);
    await notices.update({ ...waiting, status: 'running', approval: null });
    expect(shown.size).toBe(0);
  });

  it('announces a question, and replaces the notice when the task asks something else', async () => {
    const { notices, shown } = setup();
    await notices.update(taskRecord({ status: 'awaiting_user', question: { id: 'q1', text: 'Which size?', askedAt: 1 } }));
    expect([...shown.keys()]).toEqual(['question:7:q1']);
    expect(shown.get('question:7:q1')?.message).toBe('Which size?');
    await notices.update(taskRecord({ status: 'awaiting_approval', approval }));
    expect([...shown.keys()]).toEqual(['approval:7:a1']);
    await notices.update(taskRecord({ status: 'stopped' }));
    expect(shown.size).toBe(0);
  });

  it('stays quiet while a panel or popup is open to show the card', async () => {
    const { notices, shown } = setup(true);
    await notices.update(taskRecord({ status: 'awaiting_approval', approval }));
    expect(shown.size).toBe(0);
  });

  it('forgets a clicked notice, and reads the tab back from its id', async () => {
    const { notices, shown } = setup();
    await notices.update(taskRecord({ status: 'awaiting_approval', approval }));
    expect(notices.shownIds).toEqual(new Set(['approval:7:a1']));
    await notices.clicked('approval:7:a1');
    expect(shown.size).toBe(0);
    expect(notices.shownIds.size).toBe(0);
    expect(tabOfNotice('approval:7:a1')).toBe(7);
    expect(tabOfNotice('question:12:q9')).toBe(12);
    expect(tabOfNotice('other:1:x')).toBeUndefined();
    expect(isAttentionNotice('question:12:q9')).toBe(true);
    expect(noticeOf(taskRecord({ status: 'running' }))).toBeNull();
  });
});
