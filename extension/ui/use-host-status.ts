import { useEffect, useState } from 'preact/hooks';
import { HostStatus } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { followLive } from './follow-live';

/** The host's connection status, kept current from the background's events and refreshed after every reconnect. */
export function useHostStatus(client: BackgroundClient): HostStatus | undefined {
  const [status, setStatus] = useState<HostStatus | undefined>(undefined);
  useEffect(
    () => followLive(client, { event: 'host.status', schema: HostStatus, fetch: () => client.call('host.status', {}), apply: setStatus }),
    [client],
  );
  return status;
}
