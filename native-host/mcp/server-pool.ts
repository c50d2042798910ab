import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AppError } from '../../shared/errors';
import type { McpCallResult, McpServerTool, McpToolDescriptor } from '../../shared/protocol';
import type { Logger } from '../log/logger';
import { HOST_VERSION } from '../version';
import { loadMcpConfig, type McpServerConfig } from './mcp-config';

export interface McpServerPool {
  /** Every configured server's tools, connecting to each on first use; servers that fail are listed with why. */
  list(): Promise<{ tools: McpServerTool[]; errors: { server: string; message: string }[] }>;
  call(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult>;
  close(): Promise<void>;
}

interface Connected {
  client: Client;
  tools: McpToolDescriptor[];
}

const CONNECT_TIMEOUT_MS = 20_000;
const CALL_TIMEOUT_MS = 5 * 60_000;

/**
 * Deputy as an MCP client: the servers in the user's mcp.json, each connected once (a stdio server started as a child
 * of this process, ended with it; an HTTP server reached at its URL) and kept for later calls. The file is read again
 * when a list is asked for, so a server added there is picked up without a restart.
 */
export function createServerPool(options: { configFile: string; log: Logger; track?: (pid: number) => void }): McpServerPool {
  const connected = new Map<string, { config: string; ready: Promise<Connected> }>();
  const connect = async (name: string, config: McpServerConfig): Promise<Connected> => {
    // The MCP client SDK is loaded when the first of the user's servers is connected, not at the host's start.
    const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
    const client = new Client({ name: 'deputy', version: HOST_VERSION });
    const transport =
      'command' in config
        ? new StdioClientTransport({ command: config.command, args: config.args, env: config.env, ...(config.cwd ? { cwd: config.cwd } : {}), stderr: 'pipe' })
        : new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on('data', (chunk: Buffer) => options.log.debug('mcp server stderr', { server: name, bytes: chunk.length }));
    }
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    if (transport instanceof StdioClientTransport && transport.pid !== null) options.track?.(transport.pid);
    const listed = await client.listTools(undefined, { timeout: CONNECT_TIMEOUT_MS });
    const tools = listed.tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    }));
    options.log.info('mcp server connected', { server: name, tools: tools.length });
    return { client, tools };
  };
  const servers = async (): Promise<Record<string, McpServerConfig>> => (await loadMcpConfig(options.configFile)).mcpServers;
  const get = (name: string, config: McpServerConfig): Promise<Connected> => {
    const key = JSON.stringify(config);
    const known = connected.get(name);
    if (known && known.config === key) return known.ready;
    if (known) void known.ready.then((c) => c.client.close()).catch(() => undefined);
    const ready = connect(name, config);
    connected.set(name, { config: key, ready });
    // A server that failed is tried again next time, not remembered as failed.
    ready.catch(() => connected.get(name)?.ready === ready && connected.delete(name));
    return ready;
  };
  return {
    async list() {
      const tools: McpServerTool[] = [];
      const errors: { server: string; message: string }[] = [];
      let configured: Record<string, McpServerConfig>;
      try {
        configured = await servers();
      } catch (error) {
        return { tools, errors: [{ server: '(mcp.json)', message: error instanceof Error ? error.message : String(error) }] };
      }
      await Promise.all(
        Object.entries(configured).map(async ([name, config]) => {
          try {
            for (const tool of (await get(name, config)).tools) tools.push({ server: name, tool });
          } catch (error) {
            errors.push({ server: name, message: error instanceof Error ? error.message : String(error) });
          }
        }),
      );
      tools.sort((a, b) => a.server.localeCompare(b.server) || a.tool.name.localeCompare(b.tool.name));
      return { tools, errors };
    },
    async call(server, tool, args, signal) {
      const config = (await servers())[server];
      if (!config) throw new AppError('not_found', `There is no MCP server "${server}" in ${options.configFile}.`);
      const { client } = await get(server, config);
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, ...(signal ? { signal } : {}) });
      const parts = Array.isArray(result.content) ? (result.content as { type: string; text?: string; data?: string; mimeType?: string }[]) : [];
      return {
        isError: result.isError === true,
        content: parts.flatMap((part): McpCallResult['content'] => {
          if (part.type === 'text' && typeof part.text === 'string') return [{ type: 'text', text: part.text }];
          if (part.type === 'image' && typeof part.data === 'string') return [{ type: 'image', data: part.data, mimeType: part.mimeType ?? 'image/png' }];
          return [{ type: 'text', text: `(a ${part.type} part Deputy does not read)` }];
        }),
      };
    },
    async close() {
      const all = [...connected.values()];
      connected.clear();
      await Promise.all(all.map(async (entry) => (await entry.ready.catch(() => undefined))?.client.close().catch(() => undefined)));
    },
  };
}

