import type { TraceRecord } from '../../../shared/agent/trace';
import type { TaskThinking } from '../../../shared/protocol';

const MAX_CHARS = 4000;
const INTERVAL_MS = 250;

export interface ThinkingFeed {
  /** Sees every trace record: a prompt starts a model call, a reply ends it. */
  trace(record: TraceRecord): void;
  /** A piece of the model's streamed text. */
  text(delta: string): void;
}

/**
 * Turns one task's model calls into 'task.thinking' events for the panel: one when the model is asked, then its
 * streamed text at most every 250 ms (the last piece always follows), then one when the answer is complete. Nothing
 * is stored: the text reaches storage only with the step, once.
 */
export function createThinkingFeed(taskId: string, send: (thinking: TaskThinking) => void, now: () => number): ThinkingFeed {
  let current: TaskThinking | null = null;
  let lastSent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!current) return;
    lastSent = now();
    send({ ...current });
  };
  return {
    trace(record) {
      if (record.type === 'prompt') {
        current = { taskId, step: record.step, since: record.at, text: '', done: false };
        flush();
      } else if (record.type === 'reply' && current) {
        current = { ...current, done: true };
        flush();
        current = null;
      }
    },
    text(delta) {
      if (!current || delta === '') return;
      const text = current.text + delta;
      current = { ...current, text: text.length > MAX_CHARS ? text.slice(-MAX_CHARS) : text };
      const wait = INTERVAL_MS - (now() - lastSent);
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
  };
}
