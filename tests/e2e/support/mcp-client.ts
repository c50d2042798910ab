import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'puppeteer-core';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BUILT_HOST } from './register-host';

export interface McpTestClient {
  client: Client;
  /** Every line `deputy mcp` wrote to stderr. */
  stderr: () => string;
  close(): Promise<void>;
  /** The text of a tool result, its parts joined. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; images: number; imageChars: number }>;
}

/** The official MCP client SDK driving the built `deputy mcp` over stdio, as Claude Code or Cursor would start it. */
export async function startMcpClient(name: string, env: Record<string, string>): Promise<McpTestClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_HOST, 'mcp'],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    close: () => client.close(),
    call: async (tool, args = {}) => {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 });
      const parts = (result.content ?? []) as { type: string; text?: string; data?: string }[];
      return {
        text: parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('\n'),
        isError: result.isError === true,
        images: parts.filter((p) => p.type === 'image').length,
        imageChars: parts.reduce((sum, p) => sum + (p.type === 'image' ? (p.data?.length ?? 0) : 0), 0),
      };
    },
  };
}

/** The number in brackets before the element with this role and name in a snapshot's text. */
export function refOf(snapshot: string, role: string, name: string): number {
  const line = snapshot.split('\n').find((l) => l.includes(`] ${role} "${name}"`));
  const match = line ? /\[(\d+)\]/.exec(line) : null;
  if (!match?.[1]) throw new Error(`No ${role} "${name}" in the snapshot:\n${snapshot}`);
  return Number(match[1]);
}

/** Waits until the side panel shows a connected agent's approval card, naming the agent. */
export async function waitForMcpApproval(panel: Page, client: string): Promise<void> {
  // The agent's own tab comes to the front when it opens; the user looks at the panel to answer.
  await panel.bringToFront();
  await panel.waitForFunction((name) => [...document.querySelectorAll('[data-testid=mcp-approval-client]')].some((e) => e.textContent === `${name} asks:`), { timeout: 60_000, polling: 200 }, client);
}

/** Waits until no approval card of that agent is left in the side panel. */
export async function waitForNoMcpApproval(panel: Page, client: string): Promise<void> {
  await panel.waitForFunction((name) => ![...document.querySelectorAll('[data-testid=mcp-approval-client]')].some((e) => e.textContent === `${name} asks:`), { timeout: 30_000, polling: 200 }, client);
}

/** A click as the user's, in the panel even while another tab is in front (puppeteer's mouse waits for frames there). */
export function pressInPanel(panel: Page, selector: string): Promise<void> {
  return panel.$eval(selector, (element) => (element as HTMLElement).click());
}
