import { DesktopRunRecord } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { nextRun, useLiveRun } from './use-live-run';

const runIdOf = (record: DesktopRunRecord): string => record.runId;

/** Which record to show: a newer version of the run shown, or a run started later. Never an older one. */
export function nextDesktopRun(current: DesktopRunRecord | undefined, incoming: DesktopRunRecord): DesktopRunRecord {
  return nextRun(current, incoming, runIdOf);
}

/** The latest desktop run, from the background's run log, kept current from `desktop.updated` events. */
export function useDesktopRun(client: BackgroundClient): [DesktopRunRecord | undefined, (record: DesktopRunRecord) => void] {
  return useLiveRun(client, { event: 'desktop.updated', schema: DesktopRunRecord, fetch: () => client.call('desktop.current', {}), idOf: runIdOf });
}
