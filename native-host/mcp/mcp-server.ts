import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { toErrorShape } from '../../shared/errors';
import type { McpToolDescriptor } from '../../shared/protocol';
import type { Logger } from '../log/logger';
import type { BridgePaths } from './bridge-paths';
import { MCP_INSTRUCTIONS, MCP_SERVER_CAPABILITIES, MCP_SERVER_INFO } from './mcp-identity';
import type { BridgeConnection } from './bridge-client';
import type * as ToolListModule from './mcp-tool-list';


/**
 * The tool list and the bridge client are loaded by the first request that needs them: `initialize` is answered
 * before their schemas (every browser, shell and desktop tool's) are built, as a client gives up on a slow start.
 */
const toolList = (): Promise<typeof ToolListModule> => import('./mcp-tool-list');
let allNames: Set<string> | undefined;

/** Every tool Deputy can offer, to tell an unknown name from one the user has not switched on. */
async function allToolNames(): Promise<Set<string>> {
  const { mcpToolList } = await toolList();
  return (allNames ??= new Set(mcpToolList({ shell: true, desktop: true }).map((tool) => tool.name)));
}

/** browser_upload's paths as the client meant them: relative to the folder it started `deputy mcp` in, not the host's. */
function withAbsolutePaths(name: string, args: Record<string, unknown>): Record<string, unknown> {
  if (name !== 'browser_upload' || !Array.isArray(args.files)) return args;
  return { ...args, files: args.files.map((file: unknown) => (typeof file === 'string' && file !== '' ? resolve(file) : file)) };
}

/**
 * `deputy mcp`: an MCP server over stdio for coding agents and other MCP clients. It holds nothing itself: each request
 * goes over the user's bridge socket to the Deputy host the browser runs, connecting on first use (with the client's
 * name from initialize, shown to the user in the side panel) and again after the browser restarts. With no browser
 * running, tools are listed and every call says to open the browser.
 */
export function createDeputyMcpServer(options: { paths: BridgePaths; log: Logger }): { connect(transport: Transport): Promise<void>; close(): Promise<void> } {
  const { paths, log } = options;
  const server = new Server({ ...MCP_SERVER_INFO }, { capabilities: structuredClone(MCP_SERVER_CAPABILITIES), instructions: MCP_INSTRUCTIONS });
  let bridge: Promise<BridgeConnection> | undefined;
  let stopped: string | undefined;
  let listed: string | undefined;

  const announceTools = (): void => {
    void server.sendToolListChanged().catch(() => undefined);
  };
  const connection = (): Promise<BridgeConnection> => {
    if (stopped !== undefined) return Promise.reject(new Error(stopped));
    if (!bridge) {
      const client = server.getClientVersion();
      const attempt = import('./bridge-client').then(({ connectBridge }) =>
        connectBridge({
          paths,
          client: { name: client?.title ?? client?.name ?? 'an MCP client', version: client?.version ?? '' },
          kind: 'mcp',
          onEvent: (event, data) => {
            if (event === 'bridge.tools_changed') announceTools();
            if (event === 'bridge.stopped') stopped = (data as { reason: string }).reason;
          },
        }),
      );
      bridge = attempt;
      attempt.then(
        (connected) => {
          log.info('connected to the Deputy host', { session: connected.sessionId, hostVersion: connected.hostVersion });
          void connected.ended.then((why) => {
            log.info('the Deputy host connection ended', { why });
            if (bridge === attempt) bridge = undefined;
          });
        },
        () => {
          if (bridge === attempt) bridge = undefined;
        },
      );
    }
    return bridge;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    let tools: McpToolDescriptor[];
    try {
      tools = (await (await connection()).call('bridge.tools', {}, { timeoutMs: 15_000 })).tools;
    } catch (error) {
      log.info('listing the browser tools only', { why: toErrorShape(error).message });
      tools = (await toolList()).mcpToolList(null);
    }
    listed = tools.map((tool) => tool.name).join(',');
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    if (!(await allToolNames()).has(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}". Deputy's tools are listed by tools/list (browser_snapshot, browser_click, ...).`);
    if (stopped !== undefined) return { content: [{ type: 'text', text: stopped }], isError: true };
    let bridgeNow: BridgeConnection;
    try {
      const before = listed;
      bridgeNow = await connection();
      // The first connection after the browser came up may offer more (shell, desktop): tell the client to list again.
      if (before !== undefined && before === (await toolList()).mcpToolList(null).map((tool) => tool.name).join(',')) announceTools();
    } catch (error) {
      return { content: [{ type: 'text', text: toErrorShape(error).message }], isError: true };
    }
    const callId = randomUUID();
    const onAbort = (): void => void bridgeNow.call('bridge.cancel', { callId }).catch(() => undefined);
    extra.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await bridgeNow.call('bridge.call', { callId, name, arguments: withAbsolutePaths(name, request.params.arguments ?? {}) });
      return { content: result.content, isError: result.isError };
    } catch (error) {
      return { content: [{ type: 'text', text: toErrorShape(error).message }], isError: true };
    } finally {
      extra.signal.removeEventListener('abort', onAbort);
    }
  });

  return {
    connect: (transport) => server.connect(transport),
    close: async () => {
      void bridge?.then((b) => b.close()).catch(() => undefined);
      await server.close();
    },
  };
}
