import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExtensionBrowser } from '../../scripts/lib/launch-browser';
import { launchTestBrowser } from './support/test-hosts';
import { fakeClaudePath } from '../fixtures/fake-claude/build-fake-claude';
import { buildDeckServiceRepo, fixTitleSize } from '../fixtures/repo/deck-service';
import { buildFixRepo, CHECK_COMMAND, FIX_ADD, FIX_MULTIPLY, type FixRepo, type Scenario, NO_DEPLOY_WAIT } from '../fixtures/repo/fix-repo';
import { openDevTool, PANEL, PANEL_WIDTH, screenshotBothSchemes, texts } from './support/panel-harness';
import { registerHostInProfile, requireBuild } from './support/register-host';
import { dovecotMissing, imapSettings, startDovecot, type Dovecot } from './support/dovecot';
import { FORM_CONFIRMATION, startMailingService, type MailingService, type ServiceMode } from '../fixtures/repo/mailing-service';
import { uiCall } from './support/ui-call';

// The host is started by Chromium, so it (and the fake claude it runs) gets its settings from the browser's
// environment: one state folder, one scenario file and one fixer log for the whole file, reset before each loop.
const root = mkdtempSync(join(tmpdir(), 'deputy-panel-loop-'));
const profile = join(root, 'profile');
const stateDir = join(root, 'state');
const scenarioFile = join(root, 'scenario.json');
const claudeLog = join(root, 'claude-runs.jsonl');
const LOOP_WAIT = { timeout: 150_000 };

let ext: ExtensionBrowser;
let repo: FixRepo | undefined;

beforeAll(async () => {
  requireBuild();
  mkdirSync(profile);
  await registerHostInProfile(profile);
  ext = await launchTestBrowser({
    userDataDir: profile,
    // No LibreOffice page images in document-mode reports (deputy compare's tests draw them): the loop says why and goes on.
    env: { DEPUTY_STATE_DIR: stateDir, DEPUTY_LOG_FILE: join(root, 'host.log'), FAKE_CLAUDE_SCENARIO: scenarioFile, FAKE_CLAUDE_LOG: claudeLog, DEPUTY_SOFFICE: join(root, 'no-soffice') },
  });
  await ext.worker();
});
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});
afterAll(async () => {
  await ext?.close();
  rmSync(root, { recursive: true, force: true });
});

function useScenario(scenario: Scenario): void {
  rmSync(claudeLog, { force: true });
  writeFileSync(scenarioFile, JSON.stringify(scenario));
}

/** The side panel's page at the panel's width, on the Fix loop view, once the host is connected. */
async function openLoopView(): Promise<Page> {
  const panel = await ext.openExtensionPage(PANEL);
  await panel.setViewport({ width: PANEL_WIDTH, height: 900 });
  await openDevTool(panel, 'loop');
  await panel.waitForSelector('[data-testid=loop-view]');
  await panel.waitForFunction(() => document.querySelector('[data-testid=host-status]')?.textContent?.includes('host: connected') === true, { timeout: 30_000 });
  return panel;
}

async function replaceText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForSelector(selector);
  await page.focus(selector);
  await page.$eval(selector, (field) => (field as HTMLInputElement | HTMLTextAreaElement).select());
  await page.keyboard.press('Backspace');
  if (text) await page.type(selector, text);
}

async function fillDefinition(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [id, value] of Object.entries(fields)) await replaceText(page, `[data-testid=loop-${id}]`, value);
}

/** Turns a switch of the form on or off, whatever the remembered definition left it at. */
async function setSwitch(page: Page, id: string, on: boolean): Promise<void> {
  const selector = `[data-testid=loop-${id}]`;
  if ((await page.$eval(selector, (input) => (input as HTMLInputElement).checked)) !== on) await page.click(selector);
}

function text(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (element) => element.textContent ?? '');
}

function waitForOutcome(page: Page, outcome: string): Promise<unknown> {
  return page.waitForFunction((wanted) => document.querySelector('[data-testid=loop-outcome]')?.getAttribute('data-outcome') === wanted, LOOP_WAIT, outcome);
}

describe('the fix loop in the side panel, over native messaging to the built host', () => {
  it('sits behind Developer tools with an introduction, and says plainly that it commits and pushes', async () => {
    const panel = await openLoopView();
    // The main views come first; the developer tools are one tab, not three in front of every user.
    expect(await texts(panel, '[role=tablist][aria-label=Views] [role=tab]')).toEqual(['Task', 'Support chat', 'History', 'Settings', 'Developer tools']);
    expect(await text(panel, '[data-testid=dev-tool-intro]')).toMatch(/^Keeps running your project's check/);
    expect(await text(panel, '[data-testid=loop-pushes-warning]')).toMatch(/^It commits and pushes\. Each fix that passes validation is committed and pushed to the branch/);
    await panel.click('[data-testid=flow-desktop]');
    await panel.waitForSelector('[data-testid=desktop-flow]');
    expect(await text(panel, '[data-testid=dev-tool-intro]')).toMatch(/^Works on this computer's screen/);
    expect(await panel.$('[data-testid=loop-pushes-warning]')).toBeNull();
    await panel.close();
  });

  it('a bad definition gets the host error next to the field, and nothing starts', async () => {
    const panel = await openLoopView();
    await panel.click('[data-testid=loop-start]');
    await panel.waitForSelector('[data-testid=error-loop-repo]');
    expect(await text(panel, '[data-testid=error-loop-repo]')).toMatch(/^Enter the folder of the git checkout to fix/);
    expect(await text(panel, '[data-testid=error-loop-check]')).toMatch(/^Enter the command that checks the service/);

    const missing = join(root, 'no-such-repo');
    await fillDefinition(panel, { repo: missing, check: CHECK_COMMAND, 'max-iterations': '3' });
    await panel.click('[data-testid=loop-start]');
    await panel.waitForFunction(() => document.querySelector('[data-testid=error-loop-repo]')?.textContent?.startsWith('The repository folder') === true, { timeout: 30_000 });
    expect(await text(panel, '[data-testid=error-loop-repo]')).toBe(`The repository folder ${missing} does not exist: choose the folder of a git checkout`);
    expect(await panel.$('[data-testid=error-loop-check]')).toBeNull();
    expect(await panel.$('[data-testid=loop-state]')).toBeNull();
    // What the user typed stays in the form.
    expect(await panel.$eval('[data-testid=loop-check]', (input) => (input as HTMLInputElement).value)).toBe(CHECK_COMMAND);
    expect((await uiCall(panel, 'loop.status', {})).loops).toEqual([]);

    await replaceText(panel, '[data-testid=loop-max-cost-usd]', 'lots');
    await panel.click('[data-testid=loop-start]');
    await panel.waitForSelector('[data-testid=error-loop-max-cost-usd]');
    expect(await screenshotBothSchemes(panel, 'panel-loop-errors')).toEqual([]);
    await panel.close();
  });

  it('starts a loop typed into the form, shows both fixes and the pass, and the remote gets two commits', async () => {
    repo = buildFixRepo(NO_DEPLOY_WAIT);
    useScenario({
      runs: [
        { steps: [{ tool: 'Read', file: 'src/math.mjs' }, FIX_ADD], result: 'Return the sum from add', costUsd: 0.12 },
        { steps: [FIX_MULTIPLY], result: 'Return the product from multiply', costUsd: 0.2 },
      ],
    });
    const panel = await openLoopView();
    await fillDefinition(panel, { repo: repo.work, check: CHECK_COMMAND, 'max-iterations': '5', 'max-cost-usd': '', 'protected-paths': '.env', 'claude-path': fakeClaudePath() });
    await panel.click('[data-testid=loop-start]');
    await panel.waitForSelector('[data-testid=loop-state]');
    await waitForOutcome(panel, 'passed');

    expect(await text(panel, '[data-testid=loop-reason]')).toBe('The check passes after 2 pushed fix(es)');
    expect(await text(panel, '[data-testid=loop-status]')).toMatch(/^Iteration 3 · check · \d+:\d\d · \$0\.32$/);
    const iterations = await panel.$$eval('[data-testid=loop-iteration]', (items) => items.map((item) => `${item.getAttribute('data-iteration')}:${item.getAttribute('data-state')}`));
    expect(iterations).toEqual(['1:pushed', '2:pushed', '3:passed']);
    expect(await texts(panel, '[data-testid=loop-iteration-check]')).toEqual(['2 failure(s)', '1 failure(s)', 'check passed']);
    expect(await texts(panel, '[data-testid=loop-fix]')).toEqual(['Fix: Return the sum from add', 'Fix: Return the product from multiply']);
    expect(await texts(panel, '[data-testid=loop-diff]')).toEqual(['Diff: 1 file(s), +1 -1', 'Diff: 1 file(s), +1 -1']);
    expect(await texts(panel, '[data-testid=loop-cost]')).toEqual(['$0.12, 3 turns', '$0.20, 2 turns']);
    const failures = await texts(panel, '[data-testid=loop-failures] li');
    expect(failures[0]).toBe('add add returned the wrong value');

    const commits = repo.remoteCommits();
    expect(commits).toHaveLength(2);
    expect(await texts(panel, '[data-testid=loop-commit]')).toEqual(commits.map((commit) => `Pushed ${commit.slice(0, 10)}`));
    const report = await text(panel, '[data-testid=loop-report]');
    expect(readFileSync(report, 'utf8')).toContain('Outcome: **passed**');
    expect(await screenshotBothSchemes(panel, 'panel-loop-passed')).toEqual([]);
    await panel.close();

    // A reopened panel remembers the definition and shows the last loop's outcome.
    const again = await openLoopView();
    await waitForOutcome(again, 'passed');
    expect(await again.$eval('[data-testid=loop-repo]', (input) => (input as HTMLInputElement).value)).toBe(repo.work);
    expect(await again.$eval('[data-testid=loop-protected-paths]', (input) => (input as HTMLTextAreaElement).value)).toBe('.env');
    expect(await again.$eval('[data-testid=loop-max-iterations]', (input) => (input as HTMLInputElement).value)).toBe('5');
    // The outcome comes with loop.status and the iterations with the background's log a moment later.
    await again.waitForFunction(() => document.querySelectorAll('[data-testid=loop-iteration]').length === 3, { timeout: 60_000 });
    await again.close();
  });

  it('a panel reopened mid-loop shows the running loop; Stop ends it with the state saved, and Resume finishes it', async () => {
    repo = buildFixRepo(NO_DEPLOY_WAIT);
    // The fixer edits, then works on: it is still running whatever the machine's speed when the panel stops it.
    useScenario({ runs: [{ steps: [FIX_ADD], result: 'never finishes', hang: true }] });
    const first = await openLoopView();
    await fillDefinition(first, { repo: repo.work, check: CHECK_COMMAND, 'max-iterations': '', 'claude-path': fakeClaudePath() });
    await first.click('[data-testid=loop-start]');
    await first.waitForSelector('[data-testid=loop-action]', LOOP_WAIT);
    expect(await text(first, '[data-testid=loop-action]')).toBe('Edit src/math.mjs');
    await first.close();

    // The failures of iteration 1 came before this panel opened: they come from the background's log.
    const panel = await openLoopView();
    await panel.waitForSelector('[data-testid=loop-stop]');
    await panel.waitForSelector('[data-testid=loop-failures]');
    expect(await texts(panel, '[data-testid=loop-failures] li')).toEqual(['add add returned the wrong value', 'multiply multiply returned the wrong value']);
    expect(await text(panel, '[data-testid=loop-status]')).toMatch(/^Iteration 1 · fix · \d+:\d\d · \$0\.00$/);
    expect(await text(panel, '[data-testid=loop-action]')).toBe('Edit src/math.mjs');
    expect(await screenshotBothSchemes(panel, 'panel-loop-running')).toEqual([]);

    await panel.click('[data-testid=loop-stop]');
    await waitForOutcome(panel, 'stopped');
    expect(await text(panel, '[data-testid=loop-reason]')).toMatch(/^Stopped by the user during the fix step/);
    const [saved] = (await uiCall(panel, 'loop.status', {})).loops.filter((loop) => loop.repo === repo?.work);
    expect(saved).toMatchObject({ running: false, outcome: 'stopped', step: 'fix', iteration: 1 });
    expect(JSON.parse(readFileSync(saved?.stateFile ?? '', 'utf8'))).toMatchObject({ outcome: 'stopped', step: 'fix' });
    expect(repo.git(['status', '--porcelain'])).toBe('');
    expect(repo.pushes()).toHaveLength(0);

    // Starting again is refused while the stopped loop can be resumed; Resume continues it to a pass.
    await panel.waitForSelector('[data-testid=loop-resume]');
    expect(await text(panel, '[data-testid=loop-resume-hint]')).toContain('stopped at iteration 1, step fix');
    await panel.click('[data-testid=loop-start]');
    await panel.waitForSelector('[data-testid=loop-form-error]');
    expect(await text(panel, '[data-testid=loop-form-error]')).toMatch(/^An unfinished loop exists for .* \(iteration 1, step fix\): continue it with --resume/);
    useScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fix add and multiply' }] });
    await panel.click('[data-testid=loop-resume]');
    await waitForOutcome(panel, 'passed');
    expect(repo.remoteCommits()).toHaveLength(1);
    expect(await texts(panel, '[data-testid=loop-fix]')).toEqual(['Fix: Fix add and multiply']);
    await panel.close();
  });

  it('Discard sets a stopped loop aside and starts the definition in the form', async () => {
    repo = buildFixRepo(NO_DEPLOY_WAIT);
    useScenario({ runs: [{ steps: [FIX_ADD], result: 'never finishes', hang: true }] });
    const panel = await openLoopView();
    await fillDefinition(panel, { repo: repo.work, check: CHECK_COMMAND, 'claude-path': fakeClaudePath() });
    await panel.click('[data-testid=loop-start]');
    await panel.waitForSelector('[data-testid=loop-action]', LOOP_WAIT);
    const stoppedId = await panel.$eval('[data-testid=loop-state]', (element) => element.getAttribute('data-loop-id'));
    await panel.click('[data-testid=loop-stop]');
    await waitForOutcome(panel, 'stopped');
    const stateFile = (await uiCall(panel, 'loop.status', {})).loops.find((loop) => loop.loopId === stoppedId)?.stateFile ?? '';

    useScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fix add and multiply' }] });
    await panel.waitForSelector('[data-testid=loop-restart]');
    await panel.click('[data-testid=loop-restart]');
    await waitForOutcome(panel, 'passed');
    expect(await panel.$eval('[data-testid=loop-state]', (element) => element.getAttribute('data-loop-id'))).not.toBe(stoppedId);
    expect(await texts(panel, '[data-testid=loop-iteration-check]')).toEqual(['2 failure(s)', 'check passed']);
    expect(repo.remoteCommits()).toHaveLength(1);
    // The stopped loop's state was set aside, not deleted.
    expect(readFileSync(`${stateFile}.ended-${stoppedId ?? ''}`, 'utf8')).toContain('"outcome": "stopped"');
    await panel.close();
  });
});

describe('the fix loop in document mode, from the side panel', () => {
  it('judges each deck against the template: counts by severity, the top findings and the report per iteration', async () => {
    const service = buildDeckServiceRepo({ titleSize: 36, loopFile: { deploy: { waitSeconds: 0 } } });
    repo = service;
    useScenario({ runs: [{ steps: [fixTitleSize(36)], result: 'Draw titles at the template size', costUsd: 0.1 }] });
    const panel = await openLoopView();
    await fillDefinition(panel, {
      repo: service.work,
      check: '',
      'max-iterations': '3',
      trigger: service.triggerCommand,
      output: `${service.outbox}/deck-*.pptx`,
      'output-template': service.template,
      'claude-path': fakeClaudePath(),
    });
    const before = await panel.$eval('[data-testid=loop-state]', (element) => element.getAttribute('data-loop-id')).catch(() => null);
    await panel.click('[data-testid=loop-start]');
    // The last loop's outcome is on screen until the new loop replaces it.
    await panel.waitForFunction((old) => document.querySelector('[data-testid=loop-state]')?.getAttribute('data-loop-id') !== old, LOOP_WAIT, before);
    await waitForOutcome(panel, 'passed');

    expect(await text(panel, '[data-testid=loop-reason]')).toBe('The output matches its template after 1 pushed fix(es)');
    expect(await texts(panel, '[data-testid=loop-iteration-check]')).toEqual(['output differs from the template', 'output matches the template']);
    expect(await texts(panel, '[data-testid=loop-severity-counts]')).toEqual(['0 critical4 high0 medium', '0 critical0 high0 medium']);
    expect(await texts(panel, '[data-testid=loop-count-high]')).toEqual(['4 high', '0 high']);
    const findings = await texts(panel, '[data-testid=loop-failures] li');
    expect(findings[0]).toBe('high slide 2, shape "Title" [format.title-size] The title\'s font size differs from the template. Expected 28 pt; found 36 pt. Fix: Set the title\'s font size to 28 pt.');
    const reports = await texts(panel, '[data-testid=loop-document-report]');
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatch(/iteration-1\/report\.html$/);
    expect(readFileSync(reports[0] ?? '', 'utf8')).toContain('Page images skipped');
    expect(service.remoteCommits()).toHaveLength(1);
    expect(await screenshotBothSchemes(panel, 'panel-loop-document')).toEqual([]);
    await panel.close();
  });
});

describe.skipIf(dovecotMissing)('the fix loop with its output by mail, from the side panel', () => {
  let dovecot: Dovecot;
  let site: MailingService | undefined;
  beforeAll(async () => {
    dovecot = await startDovecot();
  });
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });
  afterAll(async () => {
    await dovecot?.close();
  });

  /**
   * A deck service in a git repo that mails its deck to Dovecot, and the panel fields of a loop on it. The host was
   * started by the browser, so the password comes from a file rather than its environment.
   */
  async function mailingLoop(mode: ServiceMode, timeoutSeconds: number) {
    const service = buildDeckServiceRepo({ titleSize: 36, loopFile: { deploy: { waitSeconds: 0 } } });
    repo = service;
    site = await startMailingService(service, dovecot, mode);
    const passwordFile = join(root, 'imap-password');
    writeFileSync(passwordFile, `${dovecot.password}\n`, { mode: 0o600 });
    const settings = join(root, `mail-${timeoutSeconds}.json`);
    writeFileSync(settings, JSON.stringify(imapSettings(dovecot, 'UNUSED', { password: { file: passwordFile }, timeoutSeconds })));
    const fields = { repo: service.work, check: '', 'max-iterations': '3', output: '', 'output-mail': settings, 'output-template': service.template, 'claude-path': fakeClaudePath() };
    return { service, site, fields };
  }

  // Two iterations, each waiting for the job's mail over IMAP: minutes on a busy machine, hence a longer cap than 2.
  it('a web form trigger: the host asks the extension to fill the form; the panel shows the trigger, the wait ticking and the mail that arrived', async () => {
    // The job takes a few seconds to mail its deck, so the wait can be watched.
    const { service, site, fields } = await mailingLoop({ mailDelayMs: 3000 }, 60);
    useScenario({ runs: [{ steps: [fixTitleSize(36)], result: 'Draw titles at the template size', costUsd: 0.1 }] });
    const panel = await openLoopView();
    await fillDefinition(panel, { ...fields, trigger: site.formUrl, 'trigger-fields': 'Client=acme\nEmail=ops@acme.test\nFormat=PowerPoint\nInclude appendix=true' });
    await setSwitch(panel, 'trigger-page', true);
    await fillDefinition(panel, { 'trigger-submit': 'Request report', 'trigger-confirm': 'your report is on its way' });
    await panel.click('[data-testid=loop-start]');

    // While the job works, the wait shows and its time goes on.
    await panel.waitForSelector('[data-testid=loop-job-waiting]', LOOP_WAIT);
    const waiting = await text(panel, '[data-testid=loop-job-waiting]');
    expect(waiting).toMatch(new RegExp(`^Waiting for mail in alice@127\\.0\\.0\\.1:${dovecot.port}/INBOX from \\*@service\\.test with "report" in the subject: 0:0\\d of 1:00$`));
    await panel.waitForFunction((first) => { const now = document.querySelector('[data-testid=loop-job-waiting]')?.textContent; return now !== first && now !== undefined; }, { timeout: 60_000 }, waiting);
    expect(await texts(panel, '[data-testid=loop-job-trigger]')).toEqual([`Triggered: the form on ${site.formUrl} (4 fields): form accepted: "${FORM_CONFIRMATION}"`]);
    expect(await screenshotBothSchemes(panel, 'panel-loop-mail-waiting')).toEqual([]);
    await waitForOutcome(panel, 'passed');

    expect(await texts(panel, '[data-testid=loop-job-trigger]')).toHaveLength(2);
    const received = await texts(panel, '[data-testid=loop-job-received]');
    expect(received).toHaveLength(2);
    expect(received[0]).toMatch(/^Received deck-\d+-\d+\.pptx \(\d+ KB\) in the mail "Market map report #1 for acme" from Deck service <reports@service\.test> after \d+ s$/);
    expect(received[1]).toContain('"Market map report #2 for acme"');
    expect(await panel.$('[data-testid=loop-job-waiting]')).toBeNull();
    expect(await texts(panel, '[data-testid=loop-iteration-check]')).toEqual(['output differs from the template', 'output matches the template']);
    // The browser sent the form twice, as the page encodes it; the tabs it used are closed again.
    expect(site.requests.map((request) => request.body)).toEqual(['client=acme&email=ops%40acme.test&format=pptx&appendix=yes', 'client=acme&email=ops%40acme.test&format=pptx&appendix=yes']);
    expect((await ext.browser.pages()).map((page) => page.url()).filter((url) => url.includes('/request'))).toEqual([]);
    expect(service.remoteCommits()).toHaveLength(1);
    const [loop] = (await uiCall(panel, 'loop.status', {})).loops.filter((entry) => entry.repo === service.work);
    expect(readFileSync(loop?.stateFile ?? '', 'utf8')).not.toContain(dovecot.password);
    await panel.close();
  }, 360_000);

  it('a form-encoded POST whose mail never comes: the panel shows the request sent, then says clearly that nothing came and what to check', async () => {
    const { site, fields } = await mailingLoop({ silent: true }, 4);
    useScenario({ runs: [] });
    const panel = await openLoopView();
    await fillDefinition(panel, { ...fields, trigger: site.runUrl, 'trigger-fields': 'client=acme\nregion=eu' });
    await setSwitch(panel, 'trigger-page', false);
    await panel.click('[data-testid=loop-start]');
    await waitForOutcome(panel, 'failed');

    expect(await texts(panel, '[data-testid=loop-job-trigger]')).toEqual([`Triggered: POST ${site.runUrl} (form, 2 field(s)): HTTP 202 Accepted`]);
    expect(site.requests.map((request) => [request.contentType, request.body])).toEqual([['application/x-www-form-urlencoded;charset=UTF-8', 'client=acme&region=eu']]);
    const nothing = await texts(panel, '[data-testid=loop-job-nothing]');
    expect(nothing).toHaveLength(1);
    expect(nothing[0]).toMatch(
      new RegExp(`^Nothing usable came \\(0:0\\d waited\\): no mail from \\*@service\\.test with "report" in the subject arrived in alice@127\\.0\\.0\\.1:${dovecot.port}/INBOX within 4 s\\. Check that the job ran \\(POST `),
    );
    expect(nothing[0]).toContain('then run deputy loop --resume to wait again');
    expect(await panel.$('[data-testid=loop-job-waiting]')).toBeNull();
    expect(await text(panel, '[data-testid=loop-iteration-check]')).toBe('no output to check');
    // Said once in the iteration, not again as the mailbox's own line or the failed step's. (Reports mailed by an
    // earlier test are in the box: those are passed over as older, and said so.)
    const mailLines = await texts(panel, '[data-testid=loop-job-mail] li');
    expect(mailLines.filter((line) => !line.startsWith('Passed over "Market map report #'))).toEqual([]);
    for (const line of mailLines) expect(line).toMatch(/: an older mail, in the mailbox before the job was started \(or the wait began\): only newer mails count$/);
    expect(await panel.$('[data-testid=loop-step-error]')).toBeNull();
    expect(await screenshotBothSchemes(panel, 'panel-loop-mail-nothing')).toEqual([]);
    await panel.close();
  });
});

describe('the fix loop view without the host', () => {
  it('says how to install the host, and cannot start', async () => {
    const bare = await launchTestBrowser();
    try {
      await bare.worker();
      const panel = await bare.openExtensionPage(PANEL);
      await panel.setViewport({ width: PANEL_WIDTH, height: 800 });
      await openDevTool(panel, 'loop');
      await panel.waitForFunction(() => document.querySelector('[data-testid=host-status]')?.textContent?.includes('host not installed') === true, { timeout: 30_000 });
      expect(await text(panel, '[data-testid=host-install]')).toBe(
        "Fix loops run in Deputy's helper on this computer (the native host). Install it once from the Deputy folder with npm run host:install (or deputy install where Deputy was installed with npm install -g), then click Check again.",
      );
      expect(await panel.$eval('[data-testid=loop-start]', (button) => (button as HTMLButtonElement).disabled)).toBe(true);
      expect(await screenshotBothSchemes(panel, 'panel-loop-no-host')).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
