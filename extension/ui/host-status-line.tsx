import { useEffect, useState } from 'preact/hooks';
import { GLOBAL_HOST_INSTALL_COMMAND, HOST_INSTALL_COMMAND } from '../../shared/constants';
import type { HostStatus } from '../../shared/protocol';

function clock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** `now` is when the text is shown: a starting host's wait is counted from its `since` to then. */
export function hostStatusText(status: HostStatus | undefined, now: number = Date.now()): string {
  if (!status) return 'host: checking…';
  switch (status.state) {
    case 'connected':
      return `host: connected, version ${status.hostVersion ?? 'unknown'}`;
    case 'connecting':
      return 'host: connecting…';
    case 'starting': {
      const since = status.since ?? status.updatedAt;
      const waited = Math.max(0, Math.round((now - since) / 1000));
      return `host: starting (slow, not broken), waiting ${waited} s since ${clock(since)} for ${status.waitingFor ?? 'its answer'}`;
    }
    case 'not_installed':
      return status.message?.includes('another extension id') ? status.message : 'host not installed';
    case 'incompatible':
      return `host: incompatible. ${status.message ?? ''}`.trim();
    case 'disconnected': {
      const retry = status.retryInMs === undefined ? '' : `, retrying in ${Math.ceil(status.retryInMs / 1000)} s`;
      return `host: disconnected${retry}${status.message && status.message.includes(' run ') ? `. ${status.message}` : ''}`;
    }
  }
}

/**
 * The native host's state, shown only in the views whose feature needs it (Fix loop, Desktop, Shell, and Settings'
 * helper section): web and chat tasks run without it. When it is missing, the one install instruction used everywhere
 * says what to run and where; "Check again" asks the background to connect once more.
 */
export function HostStatusLine(props: { status: HostStatus | undefined; onRetry: () => void; feature: string }) {
  const state = props.status?.state ?? 'connecting';
  // While the host starts, the waited seconds count up once a second.
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (state !== 'starting') return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [state]);
  const canRetry = state === 'disconnected' || state === 'not_installed' || state === 'incompatible';
  return (
    <div class={`host-status host-status--${state}`} role="status" data-testid="host-status" data-updated-at={props.status?.updatedAt ?? 0}>
      <span class="host-status__dot" aria-hidden="true" />
      <span class="host-status__text" data-testid="host-status-text">
        {hostStatusText(props.status, Math.max(now, props.status?.updatedAt ?? 0))}
      </span>
      {canRetry ? (
        <button type="button" class="link-button" data-testid="host-recheck" onClick={props.onRetry}>
          Check again
        </button>
      ) : null}
      {state === 'not_installed' ? <HostInstallHint feature={props.feature} /> : null}
    </div>
  );
}

/** The one install instruction for the native host, the same in every view that needs it. */
export function HostInstallHint(props: { feature: string }) {
  return (
    <p class="host-status__install" data-testid="host-install">
      {props.feature} run in Deputy&apos;s helper on this computer (the native host). Install it once from the Deputy
      folder with <code data-testid="install-command">{HOST_INSTALL_COMMAND}</code> (or{' '}
      <code data-testid="global-install-command">{GLOBAL_HOST_INSTALL_COMMAND}</code> where Deputy was installed with
      npm install -g), then click Check again.
    </p>
  );
}
