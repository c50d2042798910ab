import { useEffect, useState } from 'preact/hooks';
import { HOST_INSTALL_COMMAND } from '../../shared/constants';
import type { DesktopStatus, HostStatus } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';

export type DesktopAvailability =
  | { state: 'checking'; text: string }
  | { state: 'available'; text: string; status: Extract<DesktopStatus, { available: true }> }
  | { state: 'unavailable'; text: string };

/** One line for the panel: what the host reports about the screen, or why desktop control cannot run here. */
export function availabilityOf(host: HostStatus | undefined, reply: { status?: DesktopStatus; error?: string } | undefined): DesktopAvailability {
  if (host?.state === 'not_installed') return { state: 'unavailable', text: `Desktop control needs the host: run \`${HOST_INSTALL_COMMAND}\`, then Retry.` };
  if (host?.state === 'incompatible') return { state: 'unavailable', text: `Desktop control needs a matching host. ${host.message ?? ''}`.trim() };
  if (host?.state === 'disconnected') return { state: 'unavailable', text: 'Desktop control needs the host, which is not connected; it is being retried.' };
  if (!host || host.state === 'connecting' || !reply) return { state: 'checking', text: 'Checking the desktop…' };
  if (reply.error !== undefined) return { state: 'unavailable', text: `Desktop control is unavailable: ${reply.error}` };
  const status = reply.status;
  if (!status) return { state: 'checking', text: 'Checking the desktop…' };
  if (!status.available) return { state: 'unavailable', text: `Desktop control is unavailable: ${status.reason}` };
  const screens = status.displays.map((d) => `${d.width}x${d.height}`).join(', ');
  const stop = status.stopHotkeyActive ? ` · ${status.stopHotkey} stops a task` : '';
  return { state: 'available', text: `Desktop ready: ${status.displays.length === 1 ? 'display' : 'displays'} ${screens}${stop}`, status };
}

/** Asks the host about the desktop whenever it (re)connects, and again when the user presses Check again. */
export function useDesktopStatus(client: BackgroundClient, host: HostStatus | undefined): [DesktopAvailability, () => void] {
  const [reply, setReply] = useState<{ status?: DesktopStatus; error?: string } | undefined>(undefined);
  const [asked, setAsked] = useState(0);
  const connected = host?.state === 'connected';
  useEffect(() => {
    setReply(undefined);
    if (!connected) return undefined;
    let live = true;
    client.call('desktop.status', { refresh: asked > 0 }).then(
      (status) => live && setReply({ status }),
      (failure: unknown) => live && setReply({ error: errorMessage(failure) }),
    );
    return () => {
      live = false;
    };
  }, [client, connected, asked]);
  return [availabilityOf(host, reply), () => setAsked((n) => n + 1)];
}
