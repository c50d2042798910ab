import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { startWebStatesServer, type WebStatesServer } from '../fixtures/web-states/web-states-server';
import { useE2e } from './support/e2e-fixture';
import { cliEnv, runCli, type Finished } from './support/run-cli';
import { call, lastMessage, refIn } from './support/snapshot-refs';
import { closedPort, launchTestBrowser, siteUrl } from './support/test-hosts';

// `npm run task` as a user runs it, in a child process: help, a model server that is not there, a site and a model
// server reached by their names (not 127.0.0.1) with a kept profile and JSON events, and Ctrl-C at an approval prompt.

const e2e = useE2e({ browser: false, model: true, work: true, dropModelAfterEach: true });
let site: WebStatesServer;

beforeAll(async () => {
  site = await startWebStatesServer();
});
afterAll(async () => {
  await site?.close();
});

/** Runs `npm run task -- args` to its end. */
const npmTask = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Finished> => runCli('npm', ['run', '--silent', 'task', '--', ...args], { env: cliEnv(extra) });

describe('npm run task', () => {
  it('prints its help, options and exit codes for --help, and exits 0', async () => {
    const result = await npmTask(['--help']);
    expect(result.code).toBe(0);
    for (const text of ['--url <url>', '--profile <dir>', '--browser <path>', '--json', 'Exit codes:', '130  interrupted with Ctrl-C']) expect(result.stdout).toContain(text);
  });

  it('stops before starting any browser when the model server is not there, with its own exit code', async () => {
    const down = siteUrl(await closedPort(), 'models.test', '/v1');
    const result = await npmTask(['--url', site.url('/account'), '--base-url', down, '--model', 'llama3.1', 'Look']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`task: Cannot reach the model server at ${new URL(down).origin} (nothing is listening there). Is the server running, and is --base-url right?`);
    expect(result.stdout).toBe('');
    const noBrowser = await npmTask(['--browser', join(e2e.work, 'no-such-browser'), '--base-url', e2e.modelBaseUrl, '--model', 'm', 'Look']);
    expect(noBrowser.code).toBe(4);
    expect(noBrowser.stderr).toMatch(/^task: No Chromium, Chrome, Brave or Edge found\.\nSet CHROME_PATH \(or pass --browser\)/);
  });

  it('reaches a site and a model server by their names with a kept profile whose login works, printing JSON events', async () => {
    // A profile the user signed in with earlier (a cookie of shop.test), made in a browser of its own.
    const profile = join(e2e.work, 'profile');
    const before = await launchTestBrowser({ userDataDir: profile });
    const login = await before.browser.newPage();
    await login.goto(site.url('/login'));
    await before.close();

    e2e.fake.enqueue((r: RecordedRequest) =>
      lastMessage(r).includes('Signed in as Ada Lovelace')
        ? call('done', { success: true, summary: 'Ada Lovelace is signed in.' })
        : call('done', { success: false, summary: 'Nobody is signed in.' }),
    );
    const runs = join(e2e.work, 'runs');
    const result = await npmTask(
      ['--profile', profile, '--json', '--runs-dir', runs, '--url', site.url('/account'), '--base-url', e2e.modelBaseUrl, '--model', 'gpt-4o-mini', 'Who is signed in?'],
      { DEPUTY_API_KEY: 'key-for-this-run' },
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    type Event = { type: string; exitCode?: number; success?: boolean; summary?: string; runDir?: string; screenshots?: number; [key: string]: unknown };
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Event);
    expect(events.map((event) => event.type), result.stdout).toEqual(['start', 'note', 'step', 'end']);
    expect(events[0]).toMatchObject({ type: 'start', site: new URL(site.url('/')).host, url: site.url('/account') });
    const end = events.at(-1);
    expect(end).toMatchObject({ exitCode: 0, success: true, summary: 'Ada Lovelace is signed in.', screenshots: 1 });
    expect((await readdir(end?.runDir ?? '')).sort()).toEqual(['step-001.jpg', 'task.json', 'trace.jsonl']);
    // The model was called by its name from inside the browser, and checked by the same name from Node first.
    const port = new URL(e2e.fake.url).port;
    expect(e2e.fake.probes.map((probe) => probe.headers.host)).toEqual([`models.test:${port}`]);
    expect(e2e.fake.requests.map((request) => request.headers.host)).toEqual([`models.test:${port}`]);
    expect(e2e.fake.requests[0]?.headers.authorization).toBe('Bearer key-for-this-run');
    // The control page the CLI drives the extension through is Deputy's own, not a tab of the user's or the task's:
    // the model is neither shown it nor told of it as another tab open.
    for (const request of e2e.fake.requests) {
      expect(request.text).not.toMatch(/driven from the terminal|chrome-extension:|other tabs? (is|are) open/);
    }

    // The profile keeps its login, and not the key of this run.
    const after = await launchTestBrowser({ userDataDir: profile });
    const panel = await after.openExtensionPage('extension/sidepanel/index.html');
    const stored = await panel.evaluate(async () => JSON.stringify(await chrome.storage.local.get('settings')));
    const cookies = await after.browser.cookies();
    await after.close();
    expect(stored).toBe('{}');
    expect(cookies.map((cookie) => `${cookie.name}=${cookie.value}`)).toContain('session=ada');
  });

  it('sends what the provider flags choose: the Responses API with reasoning effort and a screenshot, or tools as JSON', async () => {
    e2e.fake.enqueue({ toolCalls: [{ name: 'done', arguments: { success: true, summary: 'Looked.' } }] });
    const model = ['--url', site.url('/account'), '--base-url', e2e.modelBaseUrl, '--model', 'gpt-5-mini', '--runs-dir', join(e2e.work, 'runs-options')];
    const responses = await npmTask([...model, '--api', 'responses', '--reasoning-effort', 'high', '--screenshots', 'Look'], { DEPUTY_API_KEY: 'k' });
    expect(responses.code, `${responses.stdout}\n${responses.stderr}`).toBe(0);
    const sent = e2e.fake.requests.at(-1);
    expect(sent?.path).toBe('/v1/responses');
    const body = sent?.json as { reasoning?: { effort?: string }; input?: { content?: unknown }[] };
    expect(body.reasoning).toEqual({ effort: 'high' });
    const parts = (body.input ?? []).flatMap((item) => (Array.isArray(item.content) ? (item.content as { type?: string; image_url?: string }[]) : []));
    expect(parts.find((part) => part.type === 'input_image')?.image_url).toMatch(/^data:image\/(jpeg|png);base64,.{100}/);

    const before = e2e.fake.requests.length;
    e2e.fake.enqueue({ text: '{"tool": "done", "arguments": {"success": true, "summary": "Looked as JSON."}}' });
    const json = await npmTask([...model, '--json-tools', 'Look'], { DEPUTY_API_KEY: 'k' });
    expect(json.code, `${json.stdout}\n${json.stderr}`).toBe(0);
    expect(json.stdout).toContain('Looked as JSON.');
    const chat = e2e.fake.requests[before];
    expect(chat?.path).toBe('/v1/chat/completions');
    expect(chat?.json).not.toHaveProperty('tools');
    expect(chat?.text).toContain('you call tools by writing JSON');
  });

  it.skipIf(!existsSync('/usr/bin/script'))('stops cleanly on Ctrl-C at an approval prompt: exit 130, no stack trace, the trace saved', async () => {
    e2e.fake.enqueue((r: RecordedRequest) => call('click', { ref: refIn(r, 'button', /^Place order$/) }));
    const runs = join(e2e.work, 'runs-ctrl-c');
    const command = [process.execPath, '--import', 'tsx', 'scripts/run-task.ts', '--runs-dir', runs, '--url', site.url('/account'), '--base-url', e2e.modelBaseUrl, '--model', 'gpt-4o-mini', 'Place my order']
      .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    // `script` gives the CLI a terminal, so it asks for the approval as it would a person; Ctrl-C is typed into it.
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: cliEnv({ TERM: 'dumb' }), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const prompted = new Promise<void>((resolve) => {
      const read = (chunk: Buffer): void => {
        output += chunk.toString();
        // A payment is approved once or not at all: the prompt offers no "[s]ite" for it.
        if (output.includes('[y]es / [n]o >')) resolve();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await Promise.race([prompted, exited]);
    expect(output).toContain('Approve "Click [');
    child.stdin.write('\x03');
    const code = await exited;
    expect(code, output).toBe(130);
    expect(output).toContain('Stopping the task (Ctrl-C)');
    expect(output).toMatch(/Not done \(stopped\): Stopped by the user\./);
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
    const [run] = await readdir(runs);
    const dir = join(runs, run ?? '');
    expect(await readdir(dir)).toContain('trace.jsonl');
    // Nothing was clicked: the approval was never given.
    const record = JSON.parse(await readFile(join(dir, 'task.json'), 'utf8')) as { status: string; agent: { steps: { calls: { name: string; status: string }[] }[] } };
    expect(record.status).toBe('stopped');
    expect(record.agent.steps.flatMap((step) => step.calls).map((c) => [c.name, c.status])).toEqual([['click', 'denied']]);
  });
});
