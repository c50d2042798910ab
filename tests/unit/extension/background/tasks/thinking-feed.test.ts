import { afterEach, describe, expect, it, vi } from 'vitest';
import { createThinkingFeed } from '../../../../../extension/background/tasks/thinking-feed';
import type { TaskThinking } from '../../../../../shared/protocol';

afterEach(() => {
  vi.useRealTimers();
});

describe("the model's live text", () => {
  it('announces the call, sends text at most every 250 ms with the last piece always following, then says done', () => {
    vi.useFakeTimers({ now: 10_000 });
    const sent: TaskThinking[] = [];
    const feed = createThinkingFeed('t1', (thinking) => sent.push(thinking), () => Date.now());
    feed.text('ignored: no call yet');
    feed.trace({ type: 'prompt', at: 10_000, step: 2, chars: 100, messages: 3, maskedObservations: 0, trimmed: false });
    expect(sent).toEqual([{ taskId: 't1', step: 2, since: 10_000, text: '', done: false }]);
    feed.text('The count ');
    feed.text('is 1');
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(250);
    expect(sent.at(-1)).toMatchObject({ text: 'The count is 1', done: false });
    vi.advanceTimersByTime(1000);
    feed.text(': one more.');
    expect(sent.at(-1)).toMatchObject({ text: 'The count is 1: one more.', done: false });
    feed.trace({ type: 'reply', at: 11_500, step: 2, durationMs: 1500, text: '', toolCalls: [], inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, costUsd: 0, model: 'm' });
    expect(sent.at(-1)).toMatchObject({ done: true });
    expect(sent).toHaveLength(4);
  });
});
