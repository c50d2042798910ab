import { useEffect, useState } from 'preact/hooks';
import { DesktopRunRecord } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { followLive } from './follow-live';

/** Which record to show: a newer version of the run shown, or a run started later. Never an older one. */
export function nextDesktopRun(current: DesktopRunRecord | undefined, incoming: DesktopRunRecord): DesktopRunRecord {
  if (!current) return incoming;
  if (incoming.runId === current.runId) return incoming.updatedAt >= current.updatedAt ? incoming : current;
  return incoming.startedAt >= current.startedAt ? incoming : current;
}

/**
 * The latest desktop run, from the background's run log: fetched on open and after every reconnect, then kept current
 * from `desktop.updated` events, so a panel opened mid-run shows what a panel that watched it all along shows.
 */
export function useDesktopRun(client: BackgroundClient): [DesktopRunRecord | undefined, (record: DesktopRunRecord) => void] {
  const [record, setRecord] = useState<DesktopRunRecord | undefined>(undefined);
  const apply = (incoming: DesktopRunRecord): void => setRecord((current) => nextDesktopRun(current, incoming));
  useEffect(
    () => followLive(client, { event: 'desktop.updated', schema: DesktopRunRecord, fetch: () => client.call('desktop.current', {}), apply }),
    [client],
  );
  return [record, apply];
}
