import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { pressInPanel, refOf, startMcpClient, waitForMcpApproval, waitForNoMcpApproval, type McpTestClient } from './support/mcp-client';
import { useMcpBrowser } from './support/mcp-browser';
import { screenshotBothSchemes, texts } from './support/panel-harness';
import { BUILT_HOST } from './support/register-host';
import { exportRoutine } from '../../shared/routines/routine-file';
import { serveRoutes, type StaticServer } from './support/static-server';
import { closedPort, siteUrl } from './support/test-hosts';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

const SHOP = `<!doctype html><title>Test shop</title>
<h1>Test shop</h1>
<p id="cart">Cart: 0</p>
<p>Card on file: 4111 1111 1111 1111</p>
<button id="add" onclick="document.getElementById('cart').textContent = 'Cart: ' + (++window.n)">Add to cart</button>
<button id="order" onclick="document.getElementById('cart').textContent = 'Order placed'">Place order</button>
<script>window.n = 0;</script>`;

describe('deputy mcp: the official MCP client SDK drives the built deputy mcp, host and extension in Chromium', () => {
  const browser = useMcpBrowser('mcp');
  let ext: ExtensionBrowser;
  let server: StaticServer;
  let state: string;
  let env: Record<string, string>;
  let panel: Page;
  const clients: McpTestClient[] = [];

  const client = async (name: string): Promise<McpTestClient> => {
    const started = await startMcpClient(name, env);
    clients.push(started);
    return started;
  };
  /** The shop's tab as the browser shows it, found by its address. */
  const shopPage = async (): Promise<Page> => {
    for (const page of await ext.browser.pages()) if (page.url().startsWith(server.url('/', 'shop.test'))) return page;
    throw new Error('The shop is open in no tab');
  };
  const approval = (client: string): Promise<void> => waitForMcpApproval(panel, client);
  const press = (selector: string): Promise<void> => pressInPanel(panel, selector);

  beforeAll(async () => {
    const started = await serveRoutes({ '/': SHOP });
    server = started;
    browser.afterClose(() => started.close());
    ({ ext, panel, state, clientEnv: env } = browser);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  });

  it('refuses every call until the user turns MCP on, saying how', async () => {
    const agent = await client('early-agent');
    const names = (await agent.client.listTools()).tools.map((tool) => tool.name);
    // Generated from the web tools: every page tool is there, with the snapshot and the screenshot.
    expect(names).toEqual(expect.arrayContaining(['browser_snapshot', 'browser_click', 'browser_type', 'browser_select', 'browser_press', 'browser_hover', 'browser_scroll', 'browser_navigate', 'browser_back', 'browser_tabs', 'browser_find', 'browser_wait', 'browser_screenshot']));
    expect(names.some((name) => name.startsWith('shell_'))).toBe(false);
    const refused = await agent.call('browser_snapshot');
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('Let other agents use Deputy');
    await agent.close();
  });

  it('with MCP on: navigation asks in the side panel with the agent named, then snapshot with refs (personal data redacted), click by ref, and a refused step', async () => {
    await uiCall(panel, 'settings.set', { mcp: { enabled: true, mode: 'act', shell: false, desktop: false } });
    const agent = await client('test-agent');

    // No site is approved yet: opening one waits for the user, in the panel, with the agent's name.
    const opening = agent.call('browser_navigate', { url: server.url('/', 'shop.test') });
    await approval('test-agent');
    expect(await panel.$eval('[data-testid=mcp-approval] [data-testid=approval-intent]', (e) => e.textContent ?? '')).toContain(`Open ${server.url('/', 'shop.test')}`);
    expect(await panel.$eval('[data-testid=mcp-approval] [data-testid=approve-site]', (e) => e.textContent ?? '')).toBe('Approve for shop.test (this agent)');
    expect(await screenshotBothSchemes(panel, 'sidepanel-mcp-approval')).toEqual([]);
    await press('[data-testid=mcp-approval] [data-testid=approve-site]');
    const opened = await opening;
    expect(opened.isError).toBe(false);

    const snapshot = await agent.call('browser_snapshot');
    expect(snapshot.isError).toBe(false);
    expect(snapshot.text).toContain('# Test shop');
    expect(snapshot.text).toContain('{{redacted_card_1}}');
    expect(snapshot.text).not.toContain('4111');
    const add = refOf(snapshot.text, 'button', 'Add to cart');

    const clicked = await agent.call('browser_click', { ref: add });
    expect(clicked.isError).toBe(false);
    expect(clicked.text).toMatch(/Clicked|Cart: 1/);
    const shop = await shopPage();
    expect(await shop.$eval('#cart', (e) => e.textContent)).toBe('Cart: 1');

    // Placing an order spends money: it always asks, and a refusal goes back to the agent as an error.
    const order = refOf(snapshot.text, 'button', 'Place order');
    const ordering = agent.call('browser_click', { ref: order });
    await approval('test-agent');
    expect(await panel.$eval('[data-testid=mcp-approval] [data-testid=approval-reason]', (e) => e.textContent ?? '')).toContain('spends money');
    await press('[data-testid=mcp-approval] [data-testid=reject]');
    const refused = await ordering;
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('The user did not approve this action');
    expect(await shop.$eval('#cart', (e) => e.textContent)).toBe('Cart: 1');

    // The Agents view shows the agent and what it did, step by step.
    await panel.bringToFront();
    await press('[data-testid=flow-agents]');
    await panel.waitForSelector('[data-testid=mcp-session][data-state=connected]');
    const log = await texts(panel, '[data-testid=mcp-session][data-state=connected] [data-testid=mcp-log-text]');
    expect(log).toEqual(expect.arrayContaining([`Opened ${server.url('/', 'shop.test')}`, `Clicked [${add}] button "Add to cart"`, `Click [${order}] button "Place order"`]));
    expect(await texts(panel, '[data-testid=mcp-session][data-state=connected] [data-testid=mcp-session-client]')).toContain('test-agent');
    expect(await screenshotBothSchemes(panel, 'sidepanel-mcp-agents')).toEqual([]);
    await agent.close();
  });

  it('bad input: an unknown tool is a JSON-RPC error, invalid arguments a tool error the model can fix', async () => {
    const agent = await client('careless-agent');
    await expect(agent.client.callTool({ name: 'browser_fly', arguments: {} })).rejects.toThrow(/Unknown tool "browser_fly"/);
    const invalid = await agent.call('browser_click', { ref: 'the button' });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/Invalid arguments for click: ref: /);
    await agent.close();
  });

  it('list_routines and run_routine: a saved routine is replayed with no model in a tab of its own, its parameters checked', async () => {
    // No model server at all: a replay that fits the page needs none.
    const down = await closedPort();
    await uiCall(panel, 'settings.set', {
      provider: { preset: 'custom', baseUrl: siteUrl(down, 'models.test', '/v1'), model: 'gpt-4o-mini', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 10_000, maxRetries: 0 },
      defaultMode: 'act',
      mcp: { enabled: true, mode: 'act', shell: false, desktop: false },
    });
    const shop = server.url('/', 'shop.test');
    const file = await exportRoutine({
      format: 'deputy-routine',
      version: 1,
      name: 'Add one',
      sites: [new URL(shop).origin],
      task: 'Add one to the cart',
      startUrl: shop,
      params: [],
      steps: [{ tool: 'click', args: {}, target: { role: 'button', name: 'Add to cart', nth: 0, of: 1 }, url: shop, text: 'Clicked button "Add to cart"' }],
      createdAt: 1,
    });
    expect((await uiCall(panel, 'routine.import', { text: file })).routine.edited).toBe(false);
    const agent = await client('routine-agent');
    expect((await agent.client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_routines', 'run_routine']));
    const listed = await agent.call('list_routines');
    expect(listed.text).toContain('"Add one"');
    expect(listed.text).toContain(`sites: ${new URL(shop).origin}`);
    const wrong = await agent.call('run_routine', { name: 'Add one', params: { colour: 'red' } });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain('has no parameter "colour"');
    const ran = await agent.call('run_routine', { name: 'Add one' });
    expect(ran.text).toMatch(/ended completed: .*Steps done: 1 of 1; model calls: 0/);
    expect(ran.isError).toBe(false);
    const tab = (await ext.browser.pages()).filter((page) => page.url() === shop).at(-1);
    expect(await tab?.$eval('#cart', (e) => e.textContent)).toBe('Cart: 1');
    const log = (await uiCall(panel, 'mcp.current', {})).sessions.flatMap((session) => session.activity);
    expect(log.some((step) => step.tool === 'run_routine' && step.state === 'done')).toBe(true);
    await agent.close();
  });

  it('a tab closed under a running call ends the call with a clear error; navigating then opens a new tab', async () => {
    const agent = await client('closing-agent');
    const opening = agent.call('browser_navigate', { url: server.url('/', 'shop.test') });
    await approval('closing-agent');
    await press('[data-testid=mcp-approval] [data-testid=approve-site]');
    expect((await opening).isError).toBe(false);
    const waiting = agent.call('browser_wait', { text: 'Text that never appears', seconds: 25 });
    // The tab closes under the call once the extension runs it (its record of the call names the tab).
    await waitUntil('the extension to run browser_wait in the agent\'s tab', async () =>
      (await uiCall(panel, 'mcp.current', {})).sessions.some((session) => session.activity.some((step) => step.tool === 'browser_wait' && step.state === 'running' && step.tabId !== undefined)),
    );
    const tabs = (await ext.browser.pages()).filter((page) => page.url().startsWith(server.url('/', 'shop.test')));
    await tabs.at(-1)?.close();
    const ended = await waiting;
    expect(ended.isError).toBe(true);
    expect(ended.text).toMatch(/was closed while browser_wait ran/);
    const after = await agent.call('browser_snapshot');
    expect(after.isError).toBe(true);
    expect(after.text).toMatch(/was closed/);
    const again = await agent.call('browser_navigate', { url: server.url('/', 'shop.test') });
    expect(again.isError).toBe(false);
    expect((await agent.call('browser_snapshot')).text).toContain('# Test shop');
    await agent.close();
  });

  it('two clients at once each get their own tab; one that disconnects mid-call takes its pending approval with it; Stop ends an agent', async () => {
    const first = await client('agent-one');
    const second = await client('agent-two');
    const [a, b] = await Promise.all([first.call('browser_snapshot'), second.call('browser_snapshot')]);
    const tabOf = (text: string): string => /^Tab (\d+)/.exec(text)?.[1] ?? '';
    expect(tabOf(a.text)).not.toBe('');
    expect(tabOf(a.text)).not.toBe(tabOf(b.text));

    // agent-two asks to open a site, then goes away before the user answers: the card goes, nothing is opened.
    void second.call('browser_navigate', { url: server.url('/?from=two', 'shop.test') }).catch(() => undefined);
    await approval('agent-two');
    await second.close();
    await waitForNoMcpApproval(panel, 'agent-two');
    expect((await ext.browser.pages()).some((page) => page.url().includes('from=two'))).toBe(false);
    await press('[data-testid=flow-agents]');
    await panel.waitForFunction(() => [...document.querySelectorAll('[data-testid=mcp-session][data-state=disconnected] [data-testid=mcp-session-client]')].some((e) => e.textContent === 'agent-two'), { timeout: 30_000, polling: 200 });

    // Stop in the Agents view ends agent-one's access.
    const card = await panel.waitForSelector('::-p-xpath(//section[@data-testid="mcp-session" and @data-state="connected"][.//strong[text()="agent-one"]])');
    await (await card?.$('[data-testid=mcp-stop]'))?.click();
    await panel.waitForFunction(() => [...document.querySelectorAll('[data-testid=mcp-session][data-state=stopped] [data-testid=mcp-session-client]')].some((e) => e.textContent === 'agent-one'), { timeout: 30_000, polling: 200 });
    const stopped = await first.call('browser_snapshot');
    expect(stopped.isError).toBe(true);
    expect(stopped.text).toContain('stopped this agent');
  });

  it('malformed JSON-RPC gets a parse error and the server goes on serving', async () => {
    const child = spawn(process.execPath, [BUILT_HOST, 'mcp'], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l.trim() !== ''));
    });
    const next = async (): Promise<Record<string, unknown>> => {
      const deadline = Date.now() + 60_000;
      while (lines.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const line = lines.shift();
      if (line === undefined) throw new Error('deputy mcp did not answer');
      return JSON.parse(line) as Record<string, unknown>;
    };
    child.stdin.write('{"jsonrpc": "2.0", "id": 1, "method": \n');
    expect(await next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    child.stdin.write('{"hello": "world", "id": 7}\n');
    expect(await next()).toMatchObject({ id: 7, error: { code: -32600 } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } })}\n`);
    expect(await next()).toMatchObject({ id: 2, result: { serverInfo: { name: 'deputy' } } });
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
  });

  it('with no browser running, tools are listed and every call says to open the browser', async () => {
    const nobody = await startMcpClient('lonely-agent', { DEPUTY_RUN_DIR: join(state, 'nobody-here') });
    clients.push(nobody);
    expect((await nobody.client.listTools()).tools.map((t) => t.name)).toContain('browser_snapshot');
    const result = await nobody.call('browser_snapshot');
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/Deputy's browser is not running.*Open Chrome, Chromium, Brave or Edge with the Deputy extension/);
    await nobody.close();
  });
});
