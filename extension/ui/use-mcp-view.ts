import { useEffect, useState } from 'preact/hooks';
import { McpView } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { followLive } from './follow-live';

/**
 * Connected agents and their pending steps, kept current from `mcp.updated`; `refresh` asks again at once (after the
 * user turned MCP on or off in Settings, which sends no such event).
 */
export function useMcpView(client: BackgroundClient): [McpView | undefined, () => void] {
  const [view, setView] = useState<McpView | undefined>(undefined);
  useEffect(() => followLive(client, { event: 'mcp.updated', schema: McpView, fetch: () => client.call('mcp.current', {}), apply: setView }), [client]);
  const refresh = (): void => {
    client.call('mcp.current', {}).then(setView, () => undefined);
  };
  return [view, refresh];
}
