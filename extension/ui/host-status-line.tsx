import { HOST_INSTALL_COMMAND } from '../../shared/constants';
import type { HostStatus } from '../../shared/protocol';

export function hostStatusText(status: HostStatus | undefined): string {
  if (!status) return 'host: checking…';
  switch (status.state) {
    case 'connected':
      return `host: connected, version ${status.hostVersion ?? 'unknown'}`;
    case 'connecting':
      return 'host: connecting…';
    case 'not_installed':
      return status.message?.includes('another extension id')
        ? status.message
        : `host not installed: run \`${HOST_INSTALL_COMMAND}\``;
    case 'incompatible':
      return `host: incompatible. ${status.message ?? ''}`.trim();
    case 'disconnected': {
      const retry = status.retryInMs === undefined ? '' : `, retrying in ${Math.ceil(status.retryInMs / 1000)} s`;
      return `host: disconnected${retry}`;
    }
  }
}

export function HostStatusLine(props: { status: HostStatus | undefined; onRetry: () => void }) {
  const state = props.status?.state ?? 'connecting';
  const canRetry = state === 'disconnected' || state === 'not_installed' || state === 'incompatible';
  return (
    <div class={`host-status host-status--${state}`} role="status" aria-live="polite" data-testid="host-status" data-updated-at={props.status?.updatedAt ?? 0}>
      <span class="host-status__dot" aria-hidden="true" />
      <span class="host-status__text">{hostStatusText(props.status)}</span>
      {canRetry ? (
        <button type="button" class="link-button" onClick={props.onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
