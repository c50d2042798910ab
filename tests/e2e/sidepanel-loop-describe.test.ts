import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClaudePath } from '../fixtures/fake-claude/build-fake-claude';
import { buildFixRepo, CHECK_COMMAND, FIX_ADD, FIX_MULTIPLY, type FixRepo } from '../fixtures/repo/fix-repo';
import { useE2e } from './support/e2e-fixture';
import { openDevTool, PANEL, PANEL_WIDTH } from './support/panel-harness';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

// "Describe a loop" in the Fix loop view: the model saved in Settings (the scripted model, reached by the host on
// loopback) drafts the loop through the built host, the draft is shown field by field, and only Start starts it.
// The host's own deadline for a draft, short here so the "model too slow" case takes seconds, not minutes.
const DRAFT_DEADLINE_MS = 5_000;
const root = mkdtempSync(join(tmpdir(), 'deputy-panel-describe-'));
const scenarioFile = join(root, 'scenario.json');
const claudeLog = join(root, 'claude-runs.jsonl');
const e2e = useE2e({ host: true, model: true, env: { DEPUTY_STATE_DIR: join(root, 'state'), DEPUTY_LOG_FILE: join(root, 'host.log'), FAKE_CLAUDE_SCENARIO: scenarioFile, FAKE_CLAUDE_LOG: claudeLog, DEPUTY_DESCRIBE_TIMEOUT_MS: String(DRAFT_DEADLINE_MS) } });
e2e.afterClose(() => Promise.resolve(rmSync(root, { recursive: true, force: true })));

let repo: FixRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

const DESCRIPTION = 'run the math test until it passes, at most 3 fixes';

describe('describe a loop in the side panel', () => {
  it('drafts with the saved model, shows each field, and starts the draft only on Start', async () => {
    // The fixer and the deploy wait come from the repository's loop file, as for any loop the panel starts.
    repo = buildFixRepo({ loopFile: { deploy: { waitSeconds: 0 }, fixer: { claudePath: fakeClaudePath() } } });
    writeFileSync(scenarioFile, JSON.stringify({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fixed add and multiply' }] }));
    const helper = await e2e.helper();
    // The host calls the model itself, so the saved address is the loopback one (models.test is the browser's name).
    const settings = e2e.modelSettings();
    if (!settings.provider) throw new Error('the fixture gave no model settings');
    await uiCall(helper, 'settings.set', { ...settings, provider: { ...settings.provider, preset: settings.provider.preset ?? 'custom', baseUrl: e2e.fake.openaiBaseUrl } });
    const before = e2e.fake.requests.length;
    e2e.fake.enqueue({ toolCalls: [{ name: 'propose_loop', arguments: { check: CHECK_COMMAND, budgets: { maxIterations: 3 } } }] });

    const panel = await e2e.ext.openExtensionPage(PANEL);
    await panel.setViewport({ width: PANEL_WIDTH, height: 900 });
    await openDevTool(panel, 'loop');
    await panel.waitForFunction(() => document.querySelector('[data-testid=host-status]')?.textContent?.includes('host: connected') === true, { timeout: 30_000 });
    await panel.type('[data-testid=loop-repo]', repo.work);
    await panel.type('[data-testid=loop-describe-text]', DESCRIPTION);
    await panel.click('[data-testid=loop-describe-draft]');
    await panel.waitForSelector('[data-testid=loop-draft-field]', { timeout: 60_000 });

    const rows = await panel.$$eval('[data-testid=loop-draft-field]', (items) => items.map((item) => [item.querySelector('dt')?.textContent ?? '', item.querySelector('dd')?.textContent ?? '']));
    expect(rows).toEqual([
      ['Checks with check', CHECK_COMMAND],
      ['Stops after budgets.maxIterations', '3'],
    ]);
    expect(await panel.$eval('[data-testid=loop-draft-model]', (element) => element.textContent)).toBe('Drafted by custom/gpt-4o-mini. Check each field, then Start.');
    const request = JSON.stringify(e2e.fake.requests[before]?.json);
    expect(request).toContain(DESCRIPTION);
    expect(request).toContain('propose_loop');
    // Drafted, not started.
    expect((await uiCall(helper, 'loop.status', {})).loops).toEqual([]);

    await panel.click('[data-testid=loop-draft-start]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=loop-outcome]')?.getAttribute('data-outcome') === 'passed', { timeout: 120_000 });
    const fixed = repo;
    await waitUntil('the fix on the remote', () => fixed.remoteCommits().length === 1);
    expect(e2e.fake.remaining()).toBe(0);
    await panel.close();
  });

  async function describeIn(): Promise<Page> {
    repo ??= buildFixRepo({ loopFile: { deploy: { waitSeconds: 0 }, fixer: { claudePath: fakeClaudePath() } } });
    const settings = e2e.modelSettings();
    if (!settings.provider) throw new Error('the fixture gave no model settings');
    await uiCall(await e2e.helper(), 'settings.set', { ...settings, provider: { ...settings.provider, preset: settings.provider.preset ?? 'custom', baseUrl: e2e.fake.openaiBaseUrl } });
    const panel = await e2e.ext.openExtensionPage(PANEL);
    await panel.setViewport({ width: PANEL_WIDTH, height: 900 });
    await openDevTool(panel, 'loop');
    await panel.waitForFunction(() => document.querySelector('[data-testid=host-status]')?.textContent?.includes('host: connected') === true, { timeout: 30_000 });
    await panel.type('[data-testid=loop-repo]', repo.work);
    await panel.type('[data-testid=loop-describe-text]', DESCRIPTION);
    return panel;
  }

  it('shows the time a slow model takes, and Cancel stops the draft; the next draft works', async () => {
    e2e.fake.enqueue({ hang: true });
    const panel = await describeIn();
    await panel.click('[data-testid=loop-describe-draft]');
    // The seconds count up while the model is silent, with Cancel beside the button.
    await panel.waitForFunction(() => /draft the loop… [1-9]\d* s$/.test(document.querySelector('[data-testid=loop-describe-progress]')?.textContent ?? ''), { timeout: 60_000 });
    await panel.click('[data-testid=loop-describe-cancel]');
    await panel.waitForSelector('[data-testid=loop-describe-notice]');
    expect(await panel.$eval('[data-testid=loop-describe-notice]', (element) => element.textContent)).toBe('Drafting cancelled; nothing was started.');
    expect(await panel.$('[data-testid=loop-describe-progress]')).toBeNull();
    expect(await panel.$('[data-testid=loop-describe-error]')).toBeNull();
    expect(await panel.$eval('[data-testid=loop-describe-draft]', (element) => (element as HTMLButtonElement).disabled)).toBe(false);

    e2e.fake.enqueue({ toolCalls: [{ name: 'propose_loop', arguments: { check: CHECK_COMMAND } }] });
    await panel.click('[data-testid=loop-describe-draft]');
    await panel.waitForSelector('[data-testid=loop-draft-field]', { timeout: 60_000 });
    expect(await panel.$$eval('[data-testid=loop-draft-field] dd', (items) => items.map((item) => item.textContent))).toEqual([CHECK_COMMAND]);
    expect(await panel.$('[data-testid=loop-describe-error]')).toBeNull();
    expect(e2e.fake.remaining()).toBe(0);
    await panel.close();
  });

  it('says which model was too slow and what to do, when the draft passes its deadline', async () => {
    e2e.fake.enqueue({ hang: true });
    const panel = await describeIn();
    await panel.click('[data-testid=loop-describe-draft]');
    await panel.waitForSelector('[data-testid=loop-describe-progress]');
    await panel.waitForSelector('[data-testid=loop-describe-error]', { timeout: DRAFT_DEADLINE_MS + 30_000 });
    expect(await panel.$eval('[data-testid=loop-describe-error]', (element) => element.textContent)).toBe(
      `custom/gpt-4o-mini did not finish the draft within ${DRAFT_DEADLINE_MS / 1000} s. Try again, choose a faster model in Settings, or write deputy.loop.json yourself (deputy loop --help lists its fields)`,
    );
    expect(await panel.$('[data-testid=loop-describe-progress]')).toBeNull();
    expect(await panel.$eval('[data-testid=loop-describe-draft]', (element) => (element as HTMLButtonElement).disabled)).toBe(false);
    await panel.close();
  });

  it("shows the model's refusal as it is (a rejected key), not a timeout", async () => {
    e2e.fake.enqueue({ error: { status: 401, message: 'Incorrect API key provided' } });
    const panel = await describeIn();
    await panel.click('[data-testid=loop-describe-draft]');
    await panel.waitForSelector('[data-testid=loop-describe-error]', { timeout: 30_000 });
    expect(await panel.$eval('[data-testid=loop-describe-error]', (element) => element.textContent)).toBe('The model provider did not accept the API key. Check the key in Settings.');
    await panel.close();
  });
});
