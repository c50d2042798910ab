import { AppError } from '../../shared/errors';
import type { HostMethods } from '../../shared/protocol';
import type { Handlers } from '../host/router';
import type { McpBroker } from './mcp-broker';

type McpMethodNames = 'mcp.stop' | 'mcp.servers.tools' | 'mcp.servers.call';

/** The host channel's MCP methods, served by the broker; a host without one says so. */
export function mcpHandlers(broker: McpBroker | undefined): Pick<Handlers<HostMethods>, McpMethodNames> {
  if (broker) return broker.handlers();
  const unavailable = (): never => {
    throw new AppError('unavailable', 'MCP is not part of this host build.');
  };
  return { 'mcp.stop': unavailable, 'mcp.servers.tools': unavailable, 'mcp.servers.call': unavailable };
}
