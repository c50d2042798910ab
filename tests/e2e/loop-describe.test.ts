import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMessagesServer, type MessagesServer } from '../fixtures/claude-api/messages-server';
import { fakeClaudePath } from '../fixtures/fake-claude/build-fake-claude';
import { buildFixRepo, CHECK_COMMAND, FIX_ADD, FIX_MULTIPLY, type FixRepo } from '../fixtures/repo/fix-repo';
import { DEPUTY_BIN, NO_MODEL_KEYS } from '../fixtures/repo/loop-cli';
import { waitUntil } from './support/wait-until';

// `deputy loop --describe`: the built host drafts a loop with a model served by a local Messages API server (its
// answers scripted as propose_loop calls), validates the draft with the loop file's schema, shows it field by field,
// and starts it only when a user on a terminal says yes (a real pseudo-terminal from script(1)).
const DESCRIPTION = 'the results are emailed to me, compare them with the template and fix the backend';
const propose = (input: Record<string, unknown>) => ({ tools: [{ name: 'propose_loop', input }] });
const hasScript = existsSync('/usr/bin/script');

describe('deputy loop --describe', () => {
  let server: MessagesServer;
  let repo: FixRepo | undefined;
  beforeAll(async () => {
    server = await startMessagesServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    server.clear();
    repo?.cleanup();
    repo = undefined;
  });

  const modelArgs = () => ['--research-provider', 'anthropic', '--research-base-url', server.url, '--research-model', 'claude-draft-test'];
  const env = (fixRepo: FixRepo, extra: Record<string, string> = {}) => ({
    ...process.env,
    ...NO_MODEL_KEYS,
    ANTHROPIC_API_KEY: 'sk-ant-test-0000',
    FAKE_CLAUDE_SCENARIO: fixRepo.scenarioFile,
    FAKE_CLAUDE_LOG: fixRepo.claudeLog,
    ...extra,
  });
  const run = (fixRepo: FixRepo, args: string[], extra: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [DEPUTY_BIN, 'loop', '--repo', fixRepo.work, '--state-dir', fixRepo.stateDir, ...args], { env: env(fixRepo, extra), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  it('without a terminal: drafts with the model, retries once after an invalid draft, shows it field by field, starts nothing', async () => {
    repo = buildFixRepo({ files: { 'backend/make-report.mjs': 'console.log("report");\n', 'templates/report.pptx': 'template\n' } });
    const mail = join(repo.root, 'mail.json');
    writeFileSync(mail, JSON.stringify({ kind: 'imap', host: '127.0.0.1', port: 1143, tls: 'plain', user: 'me', password: { env: 'DESCRIBE_MAIL_PASSWORD' } }));
    const first = server.requests.length;
    server.enqueue(
      // Document mode without an output: the schema refuses it, and the model is told why.
      propose({ document: { template: 'templates/report.pptx' }, allowedPaths: ['backend/**'] }),
      propose({ trigger: { command: 'node backend/make-report.mjs' }, output: { mail: true }, document: { template: 'templates/report.pptx' }, allowedPaths: ['backend/**'] }),
    );
    const result = await run(repo, ['--describe', DESCRIPTION, ...modelArgs()], { DEPUTY_MAIL_CONFIG: mail });

    expect(result.stderr).toBe('Drafting the loop with anthropic/claude-draft-test...\n');
    expect(result.code).toBe(0);
    const requests = server.requests.slice(first);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.body.model).toBe('claude-draft-test');
    expect(JSON.stringify(requests[0]?.body.messages)).toContain(DESCRIPTION);
    expect(JSON.stringify(requests[0]?.body.messages)).toContain('backend/make-report.mjs');
    expect(JSON.stringify(requests[0]?.body.tools)).toContain('"name":"propose_loop"');
    expect(JSON.stringify(requests[1]?.body.messages)).toContain('document mode needs an \\"output\\" section');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^The loop as anthropic\/claude-draft-test drafted it \(/);
    expect(lines.slice(1, 5).map((line) => line.trim().split(/\s{2,}/))).toEqual([
      ['Starts the job', 'trigger.command', 'node backend/make-report.mjs'],
      ['Takes the output', 'output.mail', 'your mail settings (deputy mail)'],
      ['Judges the output document', 'document.template', 'templates/report.pptx'],
      ['The fixer may change only', 'allowedPaths', 'backend/**'],
    ]);
    const file = /^Saved as (.+)$/m.exec(result.stdout)?.[1] ?? '';
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ trigger: { command: 'node backend/make-report.mjs' }, output: { mail: true }, document: { template: 'templates/report.pptx' }, allowedPaths: ['backend/**'] });
    expect(result.stdout).toContain(`Not started: there is no terminal to confirm on. Check the draft, then start it with:\n  deputy loop --repo ${repo.work} --config ${file}\n`);
    expect(existsSync(join(repo.stateDir, 'loops'))).toBe(false);
    expect(repo.fixerRuns()).toHaveLength(0);
  });

  it('a model that drafts an invalid loop twice gets a clear error, and nothing is saved or started', async () => {
    repo = buildFixRepo();
    server.enqueue(propose({ check: 'npm test', budgets: { maxIterations: -3 } }), { text: 'I think you should write the loop yourself.' });
    const result = await run(repo, ['--describe', 'run npm test until it passes', ...modelArgs()]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('anthropic/claude-draft-test did not draft a valid loop definition in two tries (no propose_loop call in the answer)');
    expect(result.stderr).toContain('write deputy.loop.json yourself');
    expect(result.stdout).toBe('');
    expect(existsSync(join(repo.stateDir, 'drafts'))).toBe(false);
    expect(existsSync(join(repo.stateDir, 'loops'))).toBe(false);
  });

  it.skipIf(!hasScript)('on a terminal: the draft waits for y, then the loop runs with it', async () => {
    repo = buildFixRepo();
    repo.writeScenario({ runs: [{ steps: [FIX_ADD, FIX_MULTIPLY], result: 'Fixed add and multiply' }] });
    server.enqueue(propose({ check: CHECK_COMMAND, budgets: { maxIterations: 3 } }));
    const command = [process.execPath, DEPUTY_BIN, 'loop', '--repo', repo.work, '--state-dir', repo.stateDir, '--claude-path', fakeClaudePath(), '--deploy-wait', '0', '--describe', 'run the math test until it passes', ...modelArgs()]
      .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
      .join(' ');
    // script(1) gives the command a real pseudo-terminal; what is written to its stdin is typed there.
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: env(repo), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitUntil('the confirmation prompt', () => output.includes('Start this loop? [y/N]'), { timeoutMs: 30_000 });
    expect(output).toMatch(/Checks with {2}check {18}node test\/math\.test\.mjs\r?\n {2}Stops after {2}budgets\.maxIterations {2}3/);
    expect(repo.fixerRuns()).toHaveLength(0);
    child.stdin.write('y\n');
    expect(await closed).toBe(0);
    expect(repo.remoteCommits()).toHaveLength(1);
    expect(repo.fixerRuns().filter((entry) => entry.event === 'start')).toHaveLength(1);
  });
});
