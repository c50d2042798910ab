import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShellRunRecord } from '../../shared/protocol';
import { notesServerPath } from '../fixtures/mcp/build-notes-server';
import { type FakeProvider, type RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { call, scriptShellModel } from '../fixtures/fake-provider/scripted-shell-model';
import { openPanel, tabIdOf, waitForHost } from './support/panel-harness';
import { closedPort } from './support/test-hosts';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

/** What the model was told after its last tool call: the newest request's text. */
const lastSeen = (requests: RecordedRequest[]): string => requests.at(-1)?.text ?? '';

describe('MCP in Deputy\'s own tasks (the built extension and host, a scripted model): servers from mcp.json and the browser as tools of a shell task', () => {
  // The host's state folders and its mcp.json, made before the fixture starts the browser (and so the host) with them.
  const state = mkdtempSync(join(tmpdir(), 'deputy-mcp-tasks-'));
  writeFileSync(
    join(state, 'mcp.json'),
    JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [notesServerPath()], env: { NOTES_FILE: join(state, 'notes.jsonl') } } } }, null, 2),
  );
  const e2e = useE2e({
    model: true,
    host: true,
    env: {
      DEPUTY_RUN_DIR: join(state, 'run'),
      DEPUTY_LOG_FILE: join(state, 'host.log'),
      DEPUTY_SHELL_DIR: join(state, 'sessions'),
      DEPUTY_SHELL_RULES: join(state, 'shell-rules.json'),
      DEPUTY_MCP_CONFIG: join(state, 'mcp.json'),
    },
  });
  let model: FakeProvider;
  let panel: Page;

  const current = async (): Promise<ShellRunRecord> => {
    const record = await uiCall(panel, 'shell.current', {});
    if (!record) throw new Error('No shell task in the panel');
    return record;
  };
  const waitFor = async (what: string, test: (record: ShellRunRecord) => boolean): Promise<ShellRunRecord> => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const record = await current();
      if (test(record)) return record;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(record, null, 1).slice(0, 3000)}`);
      await new Promise((done) => setTimeout(done, 250));
    }
  };

  beforeAll(async () => {
    model = e2e.fake;
    const helper = await e2e.ext.openExtensionPage('extension/sidepanel/index.html');
    await waitForHost(helper);
    // Shell tasks use the model chosen in Settings.
    await uiCall(helper, 'settings.set', {
      provider: { preset: 'custom', baseUrl: model.openaiBaseUrl, model: 'fake-model', apiKey: 'sk-mcp-tasks', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 },
    });
    panel = await openPanel(e2e.ext, await tabIdOf(helper, helper.url()));
    await helper.close();
  });
  e2e.afterClose(() => rm(state, { recursive: true, force: true }));

  it('a shell task uses a reference MCP server (written with the SDK) from mcp.json: a write asks the user, a read does not, bad arguments never reach the server', async () => {
    const agent = scriptShellModel(model, {
      agent: [
        call('mcp_notes_add_note', { title: '' }),
        call('mcp_notes_add_note', { title: 'Deploy', body: 'Ship on Friday' }),
        call('mcp_notes_list_notes', {}),
        call('report', { success: true, summary: 'Noted the deploy.' }),
      ],
    });
    // The panel sends no provider: the background puts in the one from Settings.
    const started = await uiCall(panel, 'shell.run', { objective: 'Note that we deploy on Friday', target: { kind: 'local' }, mode: 'ask', provider: null });
    expect(started.sessionId).toBeTruthy();

    // The server's tools are offered to the model under Deputy's names, with their schema and where they come from.
    const waiting = await waitFor('the approval of add_note', (record) => record.approval !== null);
    const offered = JSON.stringify(agent.agent[0]?.json);
    expect(offered).toContain('mcp_notes_add_note');
    expect(offered).toContain('a tool of the user\'s MCP server \\"notes\\"');
    // Invalid arguments went back to the model with the reason; nothing was written.
    expect(agent.agent[1]?.text).toMatch(/Invalid arguments for mcp_notes_add_note[^"]*body/);
    expect(waiting.approval?.intent).toBe('Call notes tool add_note with "{"title":"Deploy","body":"Ship on Friday"}"');
    await expect(readFile(join(state, 'notes.jsonl'), 'utf8')).rejects.toThrow(/ENOENT/);

    await uiCall(panel, 'shell.answer', { sessionId: started.sessionId, id: waiting.approval?.id ?? '', approved: true });
    const done = await waitFor('the end of the task', (record) => record.status === 'completed' || record.status === 'failed');
    expect(done.status).toBe('completed');
    expect(done.steps.map((step) => [step.tool, step.ok])).toEqual([
      ['mcp_notes_add_note', false],
      ['mcp_notes_add_note', true],
      ['mcp_notes_list_notes', true],
      ['report', true],
    ]);
    // The server did the work, and its answers reached the model marked as untrusted output.
    expect(await readFile(join(state, 'notes.jsonl'), 'utf8')).toBe('{"title":"Deploy","body":"Ship on Friday"}\n');
    expect(agent.agent[2]?.text).toContain('Saved note \\"Deploy\\".');
    expect(lastSeen(agent.agent)).toMatch(/untrusted_output[^]*- Deploy: Ship on Friday/);
  });

  it('shell and browser in one task: it starts a server with a /health route in the background and checks it in the user\'s browser through Deputy\'s page tools', async () => {
    const port = await closedPort();
    const project = join(state, 'app');
    const serverJs = `const http = require('node:http');
http.createServer((req, res) => {
  if (req.url === '/health') { res.setHeader('content-type', 'text/html'); res.end('<!doctype html><title>Health</title><h1>Service health</h1><p>status: ok</p>'); return; }
  res.statusCode = 404; res.end('not found');
}).listen(${port}, '127.0.0.1', () => console.log('listening on ${port}'));`;
    const url = `http://app.test:${port}/health`;
    const agent = scriptShellModel(model, {
      agent: [
        call('run', { command: `mkdir -p ${project} && cat > ${project}/server.js <<'EOF'\n${serverJs}\nEOF` }),
        call('run', { command: `node ${project}/server.js`, background: true }),
        call('wait_for_output', { id: 'p2', pattern: 'listening', timeout_seconds: 30 }),
        call('browser_navigate', { url }),
        call('browser_snapshot', {}),
        call('report', { success: true, summary: 'The server answers /health with status ok.' }),
      ],
    });
    const started = await uiCall(panel, 'shell.run', { objective: 'Create a web server with a /health route and check it in the browser', target: { kind: 'local' }, mode: 'act', provider: null });

    // The site is not on the allow list: opening it asks the user in the panel, naming the shell task.
    await panel.bringToFront();
    await panel.waitForFunction(() => [...document.querySelectorAll('[data-testid=mcp-approval-client]')].some((e) => e.textContent === 'Deputy shell task asks:'), { timeout: 90_000, polling: 200 });
    expect(await panel.$eval('[data-testid=mcp-approval] [data-testid=approval-intent]', (e) => e.textContent ?? '')).toContain(`Open ${url}`);
    await panel.$eval('[data-testid=mcp-approval] [data-testid=approve-site]', (element) => (element as HTMLElement).click());

    const done = await waitFor('the end of the task', (record) => record.status === 'completed' || record.status === 'failed');
    expect(done.status).toBe('completed');
    expect(done.steps.map((step) => [step.tool, step.ok])).toEqual([
      ['run', true],
      ['run', true],
      ['wait_for_output', true],
      ['browser_navigate', true],
      ['browser_snapshot', true],
      ['report', true],
    ]);
    // The page the model read came from the server the task started, in the user's browser (no second browser).
    expect(lastSeen(agent.agent)).toContain('Service health');
    expect(lastSeen(agent.agent)).toContain('status: ok');
    const tabs = (await e2e.ext.browser.pages()).map((page) => page.url());
    expect(tabs).toContain(url);
    expect(done.processes.find((p) => p.id === 'p2')?.status).toBe('running');
    await uiCall(panel, 'shell.kill', { sessionId: started.sessionId, processId: 'p2' });
  });
});
