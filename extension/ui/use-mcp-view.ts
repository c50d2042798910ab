import { useEffect, useState } from 'preact/hooks';
import { McpView } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { followLive } from './follow-live';

/** Connected agents and their pending steps, kept current from `mcp.updated`. */
export function useMcpView(client: BackgroundClient): McpView | undefined {
  const [view, setView] = useState<McpView | undefined>(undefined);
  useEffect(() => followLive(client, { event: 'mcp.updated', schema: McpView, fetch: () => client.call('mcp.current', {}), apply: setView }), [client]);
  return view;
}
