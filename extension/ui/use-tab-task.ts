import { useEffect, useState } from 'preact/hooks';
import { TaskRecord } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { followLive } from './follow-live';

/**
 * Which record to show after a change arrives: a newer version of the task shown, or a task started later in the same
 * tab. Events can arrive out of order with a fetch, so an older version never replaces a newer one.
 */
export function nextTask(current: TaskRecord | undefined, incoming: TaskRecord, tabId: number): TaskRecord | undefined {
  if (incoming.tabId !== tabId) return current;
  if (!current) return incoming;
  if (incoming.id === current.id) return incoming.updatedAt >= current.updatedAt ? incoming : current;
  return incoming.createdAt >= current.createdAt ? incoming : current;
}

/**
 * The latest task of a tab, kept current from the background's events and fetched again after every reconnect, so a
 * panel opened (or reopened) mid-task shows the same state as one that watched it all along.
 */
export function useTabTask(client: BackgroundClient, tabId: number | undefined): [TaskRecord | undefined, (record: TaskRecord) => void] {
  const [record, setRecord] = useState<TaskRecord | undefined>(undefined);
  useEffect(() => {
    setRecord(undefined);
    if (tabId === undefined) return undefined;
    return followLive(client, {
      event: 'task.updated',
      schema: TaskRecord,
      fetch: async () => (await client.call('task.list', { tabId, limit: 1 }))[0],
      apply: (incoming) => setRecord((current) => nextTask(current, incoming, tabId)),
    });
  }, [client, tabId]);
  const accept = (incoming: TaskRecord): void => {
    if (tabId !== undefined) setRecord((current) => nextTask(current, incoming, tabId));
  };
  return [record, accept];
}
