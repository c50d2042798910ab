import { mkdirSync, mkdtempSync } from 'node:fs';
import { copyFile, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import type { FakeProvider } from '../fixtures/fake-provider/fake-provider-server';
import { call, scriptShellModel } from '../fixtures/fake-provider/scripted-shell-model';
import { sshdMissingReason, startSshd, type SshServer } from '../fixtures/ssh/sshd-server';
import { openDevTool, openPanel, screenshotBothSchemes, tabIdOf, texts } from './support/panel-harness';
import type { StaticServer } from './support/static-server';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';

const API_KEY = 'sk-shell-panel-test-key';

describe('the side panel\'s Shell view (the built extension and host, commands on this machine, a scripted model)', () => {
  // The host's state and its HOME (it inherits the browser's environment): its own ~/.ssh, never the real one.
  const state = mkdtempSync(join(tmpdir(), 'deputy-shell-panel-state-'));
  const home = join(state, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true, mode: 0o700 });
  const e2e = useE2e({
    routes: { '/': '<!doctype html><title>Any page</title><p>Deputy shell test</p>' },
    model: true,
    host: true,
    env: { HOME: home, DEPUTY_SHELL_DIR: join(state, 'sessions'), DEPUTY_SHELL_RULES: join(state, 'shell-rules.json'), DEPUTY_LOG_FILE: join(state, 'host.log') },
  });
  e2e.afterClose(() => rm(state, { recursive: true, force: true }));
  let ext: ExtensionBrowser;
  let server: StaticServer;
  let model: FakeProvider;
  let sshd: SshServer | undefined;
  let tabId: number;

  beforeAll(async () => {
    ({ ext, site: server, fake: model } = e2e);
    if (!sshdMissingReason()) {
      sshd = await startSshd();
      await copyFile(join(sshd.home, '.ssh', 'id_ed25519'), join(home, '.ssh', 'id_ed25519'));
    }
    const tab = await ext.browser.newPage();
    await tab.goto(server.url('/'));
    const helper = await ext.openExtensionPage('extension/sidepanel/index.html');
    tabId = await tabIdOf(helper, server.url('/'));
    await uiCall(helper, 'settings.set', {
      provider: { preset: 'custom', baseUrl: model.openaiBaseUrl, model: 'fake-model', apiKey: API_KEY, stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 60_000, maxRetries: 0 },
      defaultMode: 'ask',
    });
    await helper.close();
  });

  afterAll(async () => {
    await sshd?.close();
  });

  it('runs a session typed in the panel: approvals with always-allow, live output without colour codes, a background process killed from the panel, and the log searched', async () => {
    scriptShellModel(model, {
      agent: [
        call('run', { command: "printf '\\033[33mhello from the panel\\033[0m\\n'" }),
        call('run', { command: "printf 'second %s\\n' run" }),
        call('run', { command: "sh -c 'while true; do echo tick; sleep 0.3; done'", background: true }),
        call('wait_for_output', { id: 'p3', pattern: 'tick', timeout_seconds: 20 }),
        call('report', { success: true, summary: 'Said hello; the ticker still runs as p3.' }),
      ],
    });
    const panel = await openPanel(ext, tabId);
    await openDevTool(panel, 'shell');
    await panel.waitForSelector('[data-testid=shell-flow]');
    expect(await panel.$eval('[data-testid=shell-where-local]', (radio) => (radio as HTMLInputElement).checked)).toBe(true);
    await panel.click('[data-testid=shell-objective]');
    await panel.keyboard.type('Say hello and start a ticker');
    // Run stays disabled until the background has finished its handshake with the host it starts with the browser.
    await panel.waitForSelector('[data-testid=shell-run]:not([disabled])');
    await panel.click('[data-testid=shell-run]');

    // Ask first: the first command waits, with an offer to always allow its prefix on this machine.
    await panel.waitForSelector('[data-testid=shell-progress] [data-testid=approval-card]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=approval-intent]', (element) => element.textContent ?? '')).toContain("Run \"printf '\\033[33mhello from the panel");
    expect(await panel.$eval('[data-testid=approve-site]', (element) => element.textContent ?? '')).toBe('Always allow "printf"');
    expect(await panel.$eval('[data-testid=shell-target]', (element) => element.textContent ?? '')).toMatch(/^this machine \(Linux, bash, user /);
    expect(await screenshotBothSchemes(panel, 'sidepanel-shell-approval')).toEqual([]);
    await panel.click('[data-testid=approve-site]');

    // The second printf is allowed by that choice; the ticker asks again.
    await panel.waitForFunction("(document.querySelector('[data-testid=approval-intent]')?.textContent ?? '').includes('while true')", { timeout: 60_000 });
    expect(await texts(panel, '[data-testid=shell-step-text]')).toEqual(["$ printf '\\033[33mhello from the panel\\033[0m\\n'", "$ printf 'second %s\\n' run"]);
    const outputs = await texts(panel, '[data-testid=shell-step-output]');
    expect(outputs[0]).toBe('Exit code 0.\nhello from the panel');
    expect(outputs[1]).toBe('Exit code 0.\nsecond run');
    await panel.click('[data-testid=approve]');

    await panel.waitForSelector('[data-testid=shell-progress][data-status=completed]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=shell-outcome]', (element) => element.textContent ?? '')).toMatch(/Done: Said hello; the ticker still runs as p3\./);
    // The ticker runs on, with its output, and the panel's Kill ends it.
    await panel.waitForSelector('[data-testid=shell-process][data-process-id=p3][data-status=running]');
    await panel.waitForFunction("(document.querySelector('[data-process-id=p3] [data-testid=shell-process-output]')?.textContent ?? '').includes('tick')", { timeout: 30_000 });
    expect(await screenshotBothSchemes(panel, 'sidepanel-shell-finished')).toEqual([]);
    await panel.click('[data-process-id=p3] [data-testid=shell-kill]');
    await panel.waitForSelector('[data-testid=shell-process][data-process-id=p3][data-status=killed]', { timeout: 30_000 });

    // The log search finds the output with its command.
    await panel.click('[data-testid=shell-search-input]');
    await panel.keyboard.type('hello from the panel');
    await panel.click('[data-testid=shell-search-run]');
    await panel.waitForSelector('[data-testid=shell-search-hit]');
    // The command line, its output, and the approval records name it.
    expect((await texts(panel, '[data-testid=shell-search-summary]'))[0]).toMatch(/^\d+ matching lines in \d+\.$/);
    const hits = await panel.$$eval('[data-testid=shell-search-hit]', (elements) => elements.map((element) => element.textContent ?? ''));
    const fromCommand = hits.find((hit) => hit.startsWith("p1 $ printf"));
    expect(fromCommand).toMatch(/\$ printf '\\033\[33mhello from the panel[^\n]*\n\s+\d+ {2}hello from the panel\n/);

    // The choice is in the rules file, for this machine; the key is in no log.
    const rules = JSON.parse(await readFile(join(state, 'shell-rules.json'), 'utf8')) as { targets: Record<string, { alwaysAllow: string[] }> };
    expect(rules.targets.local?.alwaysAllow).toEqual(['printf']);
    const sessionDir = await panel.$eval('[data-testid=shell-session-dir]', (element) => element.textContent ?? '');
    expect(await readFile(join(sessionDir, 'log.jsonl'), 'utf8')).not.toContain(API_KEY);
    expect(await readFile(join(state, 'host.log'), 'utf8')).not.toContain(API_KEY);

    // A panel opened again shows the same session.
    await panel.close();
    const again = await openPanel(ext, tabId);
    await openDevTool(again, 'shell');
    await again.waitForSelector('[data-testid=shell-progress][data-status=completed] [data-testid=shell-process][data-status=killed]');
    await again.close();
  });

  it.skipIf(sshdMissingReason() !== undefined)('over SSH: asks the user to trust the new host key, and takes a password a command asks for without the model seeing it', async () => {
    const server = sshd as SshServer;
    const marker = join(state, 'typed');
    const agent = scriptShellModel(model, {
      agent: [
        call('run', { command: `read -r -s -p "Password: " pw; printf '%s' "$pw" > ${marker}; echo; echo "stored \${#pw} characters"`, pty: true }),
        call('report', { success: true, summary: 'Stored the password the user typed.' }),
      ],
    });
    const panel = await openPanel(ext, tabId);
    await openDevTool(panel, 'shell');
    await panel.waitForSelector('[data-testid=shell-flow]');
    await panel.click('[data-testid=shell-where-ssh]');
    await panel.click('[data-testid=shell-destination]');
    await panel.keyboard.type(server.destination);
    await panel.click('[data-testid=mode-act]');
    await panel.click('[data-testid=shell-objective]');
    await panel.keyboard.type('Store a password');
    // Run stays disabled until the background has finished its handshake with the host it starts with the browser.
    await panel.waitForSelector('[data-testid=shell-run]:not([disabled])');
    await panel.click('[data-testid=shell-run]');

    await panel.waitForSelector('[data-testid=shell-progress][data-status=connecting] [data-testid=hostkey-card]', { timeout: 60_000 });
    const fingerprint = await panel.$eval('[data-testid=hostkey-fingerprint]', (element) => element.textContent ?? '');
    expect(fingerprint).toMatch(/^ssh-ed25519 SHA256:[A-Za-z0-9+/]{43}$/);
    expect(await screenshotBothSchemes(panel, 'sidepanel-shell-hostkey')).toEqual([]);
    await panel.click('[data-testid=hostkey-trust]');

    await panel.waitForSelector('[data-testid=secret-card]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=secret-card] label', (element) => element.textContent ?? '')).toMatch(/asks: Password:$/);
    await panel.click('[data-testid=secret-input]');
    await panel.keyboard.type('correct horse');
    await panel.click('[data-testid=secret-send]');

    await panel.waitForSelector('[data-testid=shell-progress][data-status=completed]', { timeout: 60_000 });
    expect(await panel.$eval('[data-testid=shell-target]', (element) => element.textContent ?? '')).toContain(`${server.user}@127.0.0.1:${server.port} (Linux`);
    expect(await readFile(marker, 'utf8')).toBe('correct horse');
    expect((await texts(panel, '[data-testid=shell-step-output]'))[0]).toContain('stored 13 characters');
    // The key is trusted from now on, as ssh would remember it; the password is nowhere but the file the command wrote.
    expect(await readFile(join(home, '.ssh', 'known_hosts'), 'utf8')).toContain(`[127.0.0.1]:${server.port} ssh-ed25519 `);
    const sessionDir = await panel.$eval('[data-testid=shell-session-dir]', (element) => element.textContent ?? '');
    expect(await readFile(join(sessionDir, 'log.jsonl'), 'utf8')).not.toContain('correct horse');
    expect(agent.agent.map((request) => request.text).join('')).not.toContain('correct horse');
    expect(agent.validator).toHaveLength(1);
    await panel.close();
  });
});
