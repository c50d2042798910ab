import { randomUUID } from 'node:crypto';
import { externalTool, serverTools } from '../../shared/agent/external-tool';
import { type AnyTool, quote } from '../../shared/agent/tool';
import type { McpCallResult } from '../../shared/protocol';
import type { Logger } from '../log/logger';
import { BROWSER_PREFIX, mcpToolList } from './mcp-tool-list';
import type { McpServerPool } from './server-pool';

/** A page tool call through the bridge: the extension runs it on the task's tab, through its own policy gate. */
export type PageCall = (name: string, args: Record<string, unknown>, callId: string, signal: AbortSignal | undefined) => Promise<McpCallResult>;

/**
 * The tools a task in the host (or the CLI) borrows: Deputy's own page tools through the bridge to the browser (no
 * second browser: the user's, where they are logged in), and the tools of the user's MCP servers. The page tools are
 * read steps here because the extension's gate decides about them with the page in view, and asks the user there.
 */
export async function taskTools<E>(options: { page?: PageCall; servers?: McpServerPool; log: Logger; taken: string[] }): Promise<{ tools: AnyTool<E>[]; notes: string[] }> {
  const tools: AnyTool<E>[] = [];
  const notes: string[] = [];
  const page = options.page;
  if (page) {
    for (const descriptor of mcpToolList(null).filter((tool) => tool.name.startsWith(BROWSER_PREFIX))) {
      tools.push(
        externalTool<E>({
          name: descriptor.name,
          descriptor,
          risk: 'read',
          describe: (args) => `Browser: ${descriptor.name.slice(BROWSER_PREFIX.length)}${Object.keys(args).length > 0 ? ` ${quote(JSON.stringify(args), 80)}` : ''}`,
          from: 'browser',
          call: (args, signal) => page(descriptor.name, args, randomUUID(), signal),
        }),
      );
    }
  }
  if (options.servers) {
    const listed = await options.servers.list();
    for (const error of listed.errors) {
      options.log.warn('mcp server unavailable', { server: error.server, error: error.message });
      notes.push(`MCP server ${error.server} is not available: ${error.message}`);
    }
    const servers = options.servers;
    tools.push(...serverTools<E>(listed.tools, (server, tool, args, signal) => servers.call(server, tool, args, signal), [...options.taken, ...tools.map((t) => t.name)]));
  }
  return { tools, notes };
}
