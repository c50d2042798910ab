import { useEffect, useState } from 'preact/hooks';
import { TaskThinking } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';

/** The model's text as it streams for one task's current step, from the background's transient events. */
export function useThinking(client: BackgroundClient, taskId: string): TaskThinking | undefined {
  const [thinking, setThinking] = useState<TaskThinking | undefined>(undefined);
  useEffect(() => {
    setThinking(undefined);
    return client.onEvent((event, data) => {
      if (event !== 'task.thinking') return;
      const parsed = TaskThinking.safeParse(data);
      if (parsed.success && parsed.data.taskId === taskId) setThinking(parsed.data);
    });
  }, [client, taskId]);
  return thinking;
}
