import { useEffect, useState } from 'preact/hooks';
import { HostStatus } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';

/** The host's connection status, kept current from the background's events and refreshed after every reconnect. */
export function useHostStatus(client: BackgroundClient): HostStatus | undefined {
  const [status, setStatus] = useState<HostStatus | undefined>(undefined);
  useEffect(() => {
    const refresh = (): void => {
      client.call('host.status', {}).then(setStatus, () => undefined);
    };
    const offEvent = client.onEvent((event, data) => {
      if (event !== 'host.status') return;
      const parsed = HostStatus.safeParse(data);
      if (parsed.success) setStatus(parsed.data);
    });
    const offConnect = client.onConnect(refresh);
    refresh();
    return () => {
      offEvent();
      offConnect();
    };
  }, [client]);
  return status;
}
