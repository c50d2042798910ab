import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startMcpClient, refOf, type McpTestClient } from '../tests/e2e/support/mcp-client';
import { waitForHost } from '../tests/e2e/support/panel-harness';
import { registerHostInProfile, requireBuild } from '../tests/e2e/support/register-host';
import { serveRoutes } from '../tests/e2e/support/static-server';
import { launchTestBrowser } from '../tests/e2e/support/test-hosts';
import { uiCall } from '../tests/e2e/support/ui-call';
import { percentile, timings } from './bench/timings';
import { findBrowser } from './lib/find-browser';

/**
 * `npm run bench:mcp`: what an agent waits for when it drives a browser over MCP. The same page, the same steps (a
 * snapshot, a click by the snapshot's ref) through `deputy mcp` (stdio -> user-only socket -> host -> native messaging
 * -> extension -> policy gate -> the user's browser) and through Playwright MCP (`@playwright/mcp`, stdio -> its own
 * Chromium over CDP), both with the official MCP client SDK, in the same run, on the same Chromium build. Both clicks
 * are checked to have happened; the snapshot's size is shown too, since every character is a token the agent pays.
 * What a click includes differs: Deputy's waits for the page to settle and verifies the change; Playwright MCP's answer
 * carries a fresh snapshot of the page.
 */
const RUNS = 20;
const WARMUP = 3;

// A page that fits one screen, so both snapshots hold all of it (Deputy's lists what is below the screen as a count).
const items = Array.from({ length: 12 }, (_, i) => `<li><a href="#p${i}">Product ${i + 1}</a> <span>€${(9 + i * 1.5).toFixed(2)}</span> <button type="button">Details</button></li>`).join('\n');
const PAGE = `<!doctype html><html lang="en"><title>Bench shop</title>
<header><nav><a href="#home">Home</a> <a href="#deals">Deals</a> <a href="#account">Account</a></nav><input type="search" aria-label="Search products"></header>
<main><h1>Bench shop</h1><p id="count">Clicks: 0</p>
<button id="add" type="button" onclick="document.getElementById('count').textContent = 'Clicks: ' + (++window.clicks)">Add to cart</button>
<form><label>Email <input type="email" name="email"></label><label>Quantity <select name="q"><option>1</option><option>2</option></select></label></form>
<ul>${items}</ul></main><script>window.clicks = 0;</script></html>`;

interface Figure {
  median: number;
  p90: number;
}
const figure = (sorted: number[]): Figure => ({ median: percentile(sorted, 0.5), p90: percentile(sorted, 0.9) });

interface Side {
  snapshot: () => Promise<string>;
  click: () => Promise<void>;
  clicks: () => Promise<number>;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  ((result.content ?? []) as { type: string; text?: string }[])
    .filter((part) => part.type === 'text')
    .map((part) => part.text ?? '')
    .join('\n');

async function measureSide(side: Side): Promise<{ snapshot: Figure; click: Figure; chars: number; complete: boolean; clicks: number }> {
  const first = await side.snapshot();
  const chars = first.length;
  // Sizes compare only if both saw the whole page: the last product and the form's fields.
  const missing = ['Product 12', 'Email', 'Quantity', 'Search products'].filter((text) => !first.includes(text));
  if (missing.length > 0) process.stderr.write(`This snapshot lacks ${missing.join(', ')}:\n${first}\n`);
  const complete = missing.length === 0;
  const snapshot = figure(await timings(side.snapshot, RUNS, WARMUP));
  const click = figure(await timings(side.click, RUNS, WARMUP));
  return { snapshot, click, chars, complete, clicks: await side.clicks() };
}

function deputySide(agent: McpTestClient): Side {
  let ref = 0;
  const snapshot = async (): Promise<string> => {
    const result = await agent.call('browser_snapshot');
    if (result.isError) throw new Error(`deputy mcp: browser_snapshot failed: ${result.text}`);
    ref = refOf(result.text, 'button', 'Add to cart');
    return result.text;
  };
  return {
    snapshot,
    click: async () => {
      const result = await agent.call('browser_click', { ref });
      if (result.isError) throw new Error(`deputy mcp: browser_click failed: ${result.text}`);
    },
    clicks: async () => Number(/Clicks: (\d+)/.exec(await snapshot())?.[1] ?? Number.NaN),
  };
}

function playwrightSide(client: Client): Side {
  let ref = '';
  const snapshot = async (): Promise<string> => {
    const result = await client.callTool({ name: 'browser_snapshot', arguments: {} });
    const text = textOf(result);
    if (result.isError) throw new Error(`Playwright MCP: browser_snapshot failed: ${text}`);
    ref = /button "Add to cart"[^\n]*\[ref=([^\]]+)\]/.exec(text)?.[1] ?? '';
    if (ref === '') throw new Error(`Playwright MCP: no "Add to cart" button in the snapshot:\n${text}`);
    return text;
  };
  return {
    snapshot,
    click: async () => {
      const result = await client.callTool({ name: 'browser_click', arguments: { element: 'Add to cart button', target: ref } });
      if (result.isError) throw new Error(`Playwright MCP: browser_click failed: ${textOf(result)}`);
    },
    clicks: async () => Number(/Clicks: (\d+)/.exec(await snapshot())?.[1] ?? Number.NaN),
  };
}

async function benchDeputy(): Promise<Awaited<ReturnType<typeof measureSide>>> {
  requireBuild();
  const server = await serveRoutes({ '/': PAGE });
  const state = await mkdtemp(join(tmpdir(), 'deputy-bench-mcp-'));
  const profile = join(state, 'profile');
  const env = { DEPUTY_RUN_DIR: join(state, 'run') };
  await registerHostInProfile(profile);
  const ext = await launchTestBrowser({ userDataDir: profile, env: { ...env, DEPUTY_LOG_FILE: join(state, 'host.log'), DEPUTY_MCP_CONFIG: join(state, 'mcp.json') } });
  let agent: McpTestClient | undefined;
  try {
    await ext.worker();
    const helper = await ext.openExtensionPage('extension/sidepanel/index.html');
    await waitForHost(helper);
    // The user turned MCP on and allows the bench's site, so no step waits for an approval.
    await uiCall(helper, 'settings.set', { mcp: { enabled: true, mode: 'act', shell: false, desktop: false }, allowedSites: [`shop.test:${server.port}`] });
    agent = await startMcpClient('bench', env);
    const url = server.url('/', 'shop.test');
    const opened = await agent.call('browser_navigate', { url });
    if (opened.isError) throw new Error(`deputy mcp: browser_navigate failed: ${opened.text}`);
    return await measureSide(deputySide(agent));
  } finally {
    await agent?.close().catch(() => undefined);
    await ext.close();
    await server.close();
    await rm(state, { recursive: true, force: true });
  }
}

async function benchPlaywright(): Promise<Awaited<ReturnType<typeof measureSide>>> {
  const server = await serveRoutes({ '/': PAGE });
  // Its bin, as `npx @playwright/mcp` would start it (the package exports no path to it).
  const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js');
  // Its own Chromium: this machine's build (no browser download), headless and in memory, as the bench's Deputy is.
  // It saves each click's snapshot as a file: into a temporary folder, not the repository.
  const output = await mkdtemp(join(tmpdir(), 'deputy-bench-playwright-mcp-'));
  const args = [cli, '--headless', '--isolated', '--executable-path', findBrowser(), '--output-dir', output, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])];
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
  try {
    const opened = await client.callTool({ name: 'browser_navigate', arguments: { url: server.url('/') } });
    if (opened.isError) throw new Error(`Playwright MCP: browser_navigate failed: ${textOf(opened)}`);
    return await measureSide(playwrightSide(client));
  } finally {
    await client.close().catch(() => undefined);
    await server.close();
    await rm(output, { recursive: true, force: true });
  }
}

const rows: [string, Awaited<ReturnType<typeof measureSide>>][] = [];
process.stderr.write('measuring deputy mcp (the built host and extension in Chromium)...\n');
rows.push(['deputy mcp (the user\'s browser through the host and extension)', await benchDeputy()]);
process.stderr.write('measuring Playwright MCP (its own Chromium)...\n');
rows.push(['Playwright MCP 0.0.83 (peer, its own Chromium)', await benchPlaywright()]);

const expected = RUNS + WARMUP;
const out = [`bench:mcp — median and 90th percentile of ${RUNS} round trips after ${WARMUP} warm-ups, official MCP client SDK over stdio; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(2) ?? '?'}`, ''];
out.push(`${''.padEnd(66)}${'snapshot med'.padStart(14)}${'p90'.padStart(10)}${'click med'.padStart(12)}${'p90'.padStart(10)}${'snapshot size'.padStart(16)}`);
const ms = (n: number): string => `${n.toFixed(1)} ms`;
for (const [label, r] of rows) {
  out.push(`${label.padEnd(66)}${ms(r.snapshot.median).padStart(14)}${ms(r.snapshot.p90).padStart(10)}${ms(r.click.median).padStart(12)}${ms(r.click.p90).padStart(10)}${`${r.chars} chars`.padStart(16)}`);
}
out.push('');
for (const [label, r] of rows) {
  const clicks = r.clicks === expected ? `all ${expected} clicks landed` : `${r.clicks} of ${expected} clicks landed (CHECK FAILED)`;
  out.push(`${label}: ${clicks}; ${r.complete ? 'the snapshot holds the whole page' : 'the snapshot misses part of the page (CHECK FAILED)'}`);
}
process.stdout.write(`${out.join('\n')}\n`);
if (rows.some(([, r]) => r.clicks !== expected || !r.complete)) process.exitCode = 1;
