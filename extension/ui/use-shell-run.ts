import { ShellRunRecord } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { nextRun, useLiveRun } from './use-live-run';

const sessionIdOf = (record: ShellRunRecord): string => record.sessionId;

export function nextShellRun(current: ShellRunRecord | undefined, incoming: ShellRunRecord): ShellRunRecord {
  return nextRun(current, incoming, sessionIdOf);
}

/** The latest shell session, from the background's run log, kept current from `shell.updated` events. */
export function useShellRun(client: BackgroundClient): [ShellRunRecord | undefined, (record: ShellRunRecord) => void] {
  return useLiveRun(client, { event: 'shell.updated', schema: ShellRunRecord, fetch: () => client.call('shell.current', {}), idOf: sessionIdOf });
}
