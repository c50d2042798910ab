import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMessagesServer, type MessagesServer } from '../fixtures/claude-api/messages-server';
import { realClaudeEnv, realClaudePath } from '../fixtures/claude-api/real-claude';
import { buildFixRepo, CHECK_COMMAND, MATH_SOURCE, MATH_TEST, type FixRepo } from '../fixtures/repo/fix-repo';
import { finished, killLoopAt, runLoopCli } from '../fixtures/repo/loop-cli';

// The built `deputy loop` with the real Claude Code CLI (the pinned @anthropic-ai/claude-code) pointed at a local
// server that speaks the Messages API. The model's turns are scripted; everything else is the real CLI: its
// permission mode, its hooks and settings, its error results and exit codes, its sessions and its cost.
const claude = realClaudePath();

const read = (repo: FixRepo, file: string) => ({ name: 'Read', input: { file_path: join(repo.work, file) } });
const edit = (repo: FixRepo, file: string, from: string, to: string) => ({ name: 'Edit', input: { file_path: join(repo.work, file), old_string: from, new_string: to, replace_all: false } });
const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'Run a command' } });

describe.skipIf(!claude)('deputy loop with the real Claude Code CLI', () => {
  let server: MessagesServer;
  let repo: FixRepo | undefined;
  beforeAll(async () => {
    server = await startMessagesServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    // A script the loop did not use up would leak into the next test.
    server.clear();
    repo?.cleanup();
    repo = undefined;
  });

  const run = (args: string[], options: { loggedIn?: boolean } = {}) => runLoopCli(repo as FixRepo, args, realClaudeEnv(server.url, options), claude);
  const resultsSince = (from: number): string[] => server.toolResults().slice(from);

  it('an honest fix: the fixer reads, edits, runs the check (allowed under acceptEdits), and the loop pushes it', async () => {
    repo = buildFixRepo();
    const before = server.toolResults().length;
    server.enqueue(
      { tools: [read(repo, 'src/math.mjs')] },
      { tools: [edit(repo, 'src/math.mjs', 'a - b', 'a + b'), edit(repo, 'src/math.mjs', 'multiply = (a, b) => a + b', 'multiply = (a, b) => a * b')] },
      { tools: [bash(CHECK_COMMAND)] },
      { text: 'Fixed add and multiply.' },
    );
    const result = await run(['--check', CHECK_COMMAND]);

    expect(result.stderr).toBe('');
    expect(finished(result)).toMatchObject({ outcome: 'passed' });
    expect(result.code).toBe(0);
    expect(server.remaining()).toBe(0);
    const tools = resultsSince(before);
    // The check ran inside the fixer (no "This command requires approval") and passed there.
    expect(tools[tools.length - 1]).toContain('ok 2 - multiply');
    expect(tools.join('\n')).not.toContain('requires approval');
    expect(repo.remoteCommits()).toHaveLength(1);
    expect(repo.git(['log', '-1', '--format=%s', 'main'], repo.remote)).toBe('Fix: Fixed add and multiply.');
    // The CLI's own cost for the run is the loop's cost.
    const fixer = result.events.find((event) => event.type === 'fixer.finished');
    expect(fixer?.type === 'fixer.finished' && fixer.costUsd).toBeGreaterThan(0);
    expect(finished(result)?.costUsd).toBe(fixer?.type === 'fixer.finished' ? fixer.costUsd : -1);
  });

  it('not logged in: the preflight says so before anything runs; a login that fails mid-run stops as needs_human with the CLI\'s words', async () => {
    repo = buildFixRepo();
    const requestsBefore = server.requests.length;
    const loggedOut = await run(['--check', CHECK_COMMAND], { loggedIn: false });
    expect(loggedOut.code).toBe(1);
    expect(loggedOut.stderr).toContain('is installed but not logged in');
    expect(loggedOut.stderr).toContain('/login');
    expect(server.requests.length).toBe(requestsBefore);

    server.enqueue({ error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } });
    const rejected = await run(['--check', CHECK_COMMAND]);
    expect(finished(rejected)).toMatchObject({ outcome: 'needs_human' });
    expect(finished(rejected)?.reason).toContain('Claude Code cannot work: Invalid API key');
    expect(rejected.events.find((event) => event.type === 'fixer.finished')).toMatchObject({ isError: true, errorKind: 'auth' });
    expect(repo.pushes()).toHaveLength(0);
    expect(repo.git(['status', '--porcelain'])).toBe('');
  });

  it('max turns reached: the half-done edit is rolled back, never committed, and a second time the loop fails clearly', async () => {
    repo = buildFixRepo();
    const half = { name: 'Write', input: { file_path: join(repo.work, 'src/half.mjs'), content: 'export const half = 1;\n' } };
    server.enqueue({ tools: [half] }, { tools: [half] });
    const result = await run(['--check', CHECK_COMMAND, '--max-turns', '1']);

    expect(finished(result)).toMatchObject({ outcome: 'failed' });
    expect(finished(result)?.reason).toContain('reached its turn limit (1) twice in a row');
    const runs = result.events.filter((event) => event.type === 'fixer.finished');
    expect(runs).toHaveLength(2);
    expect(runs.every((event) => event.type === 'fixer.finished' && event.isError && event.errorKind === 'max_turns')).toBe(true);
    expect(result.events.some((event) => event.type === 'commit.created')).toBe(false);
    expect(repo.pushes()).toHaveLength(0);
    expect(existsSync(join(repo.work, 'src/half.mjs'))).toBe(false);
    expect(repo.git(['status', '--porcelain'])).toBe('');
  });

  it('a fixer that rewrites what the test expects is rejected, and the check never counts as passing', async () => {
    repo = buildFixRepo();
    server.enqueue(
      { tools: [read(repo, 'test/math.test.mjs')] },
      { tools: [edit(repo, 'test/math.test.mjs', 'add(2, 3) === 5', 'add(2, 3) === -1'), edit(repo, 'test/math.test.mjs', 'multiply(2, 3) === 6', 'multiply(2, 3) === 5')] },
      { text: 'The tests now pass.' },
    );
    const result = await run(['--check', CHECK_COMMAND, '--max-iterations', '2']);

    expect(finished(result)?.outcome).not.toBe('passed');
    const rejected = result.events.find((event) => event.type === 'fix.rejected');
    expect(rejected?.type === 'fix.rejected' && rejected.reasons).toEqual(['changed the test file test/math.test.mjs (tests must stay as they were)']);
    expect(result.events.filter((event) => event.type === 'check.result').every((event) => event.type === 'check.result' && !event.passed)).toBe(true);
    expect(repo.pushes()).toHaveLength(0);
    expect(readFileSync(join(repo.work, 'test/math.test.mjs'), 'utf8')).toBe(MATH_TEST);
  });

  it('files the check writes stay out of the fix commit and do not block --resume after a crash', async () => {
    repo = buildFixRepo();
    const check = `${CHECK_COMMAND} | tee test-report.tap`;
    server.enqueue(
      { tools: [read(repo, 'src/math.mjs')] },
      { tools: [edit(repo, 'src/math.mjs', 'a - b', 'a + b'), edit(repo, 'src/math.mjs', 'multiply = (a, b) => a + b', 'multiply = (a, b) => a * b')] },
      { tools: [bash(check)] },
      { text: 'Fixed the math.' },
    );
    // Killed as soon as the fixer starts: the first check has written its report by then.
    const { killed } = await killLoopAt(repo, ['--check', check], (event) => event.type === 'step.started' && event.step === 'fix', { env: realClaudeEnv(server.url), claudePath: claude ?? '' });
    expect(killed).toBe(true);
    expect(existsSync(join(repo.work, 'test-report.tap'))).toBe(true);

    const resumed = await runLoopCli(repo, ['--resume'], realClaudeEnv(server.url));
    expect(resumed.stderr).toBe('');
    expect(finished(resumed)?.outcome).toBe('passed');
    expect(repo.remoteCommits()).toHaveLength(1);
    expect(repo.git(['show', '--name-only', '--format=', 'main'], repo.remote)).toBe('src/math.mjs');
    expect(repo.git(['ls-tree', '-r', '--name-only', 'main'], repo.remote)).not.toContain('test-report.tap');
  });

  it("a repository whose .claude settings disable hooks cannot switch off Deputy's guard", async () => {
    repo = buildFixRepo({ files: { '.claude/settings.json': '{ "disableAllHooks": true }\n', '.claude/settings.local.json': '{ "disableAllHooks": true }\n' } });
    const before = server.toolResults().length;
    server.enqueue(
      { tools: [read(repo, '.env')] },
      { tools: [{ name: 'Write', input: { file_path: join(repo.work, '.env'), content: 'SERVICE_MODE=production\n' } }] },
      { tools: [read(repo, '.claude/settings.json')] },
      { tools: [{ name: 'Write', input: { file_path: join(repo.work, '.claude/settings.json'), content: '{}\n' } }] },
      { text: 'Switched the service to production.' },
    );
    const result = await run(['--check', CHECK_COMMAND, '--max-iterations', '1']);

    const tools = resultsSince(before);
    expect(tools[1]).toContain('Deputy guard: .env is a protected path');
    expect(tools[3]).toContain('Deputy guard: .claude/settings.json is a protected path');
    expect(readFileSync(join(repo.work, '.env'), 'utf8')).toBe('SERVICE_MODE=development\n');
    expect(readFileSync(join(repo.work, '.claude/settings.json'), 'utf8')).toBe('{ "disableAllHooks": true }\n');
    expect(repo.pushes()).toHaveLength(0);
    expect(finished(result)?.outcome).toBe('budget');
  });

  it('a protected file written through Bash: the hook stops sed -i, and a script the hook cannot read is undone by the content check', async () => {
    // .env is ignored here, so git alone would neither see nor roll back a change to it.
    repo = buildFixRepo({ files: { '.gitignore': 'node_modules/\n.env\n' } });
    expect(repo.git(['ls-files', '.env'])).toBe('');
    const script = "import { writeFileSync } from 'node:fs';\nwriteFileSync('.env', 'SERVICE_MODE=production\\n');\n";
    const before = server.toolResults().length;
    server.enqueue(
      { tools: [bash("sed -i 's/development/production/' .env")] },
      { tools: [{ name: 'Write', input: { file_path: join(repo.work, 'src/mode.mjs'), content: script } }] },
      { tools: [bash('node src/mode.mjs')] },
      { tools: [read(repo, 'src/math.mjs')] },
      { tools: [edit(repo, 'src/math.mjs', 'a - b', 'a + b')] },
      { text: 'Fixed add and set the mode.' },
    );
    const result = await run(['--check', CHECK_COMMAND, '--max-iterations', '1', '--allow-command', 'node src/mode.mjs']);

    const tools = resultsSince(before);
    expect(tools[0]).toContain('Deputy guard: .env is a protected path, and this command (sed -i) would change it');
    // The script ran (the user allowed it), so the change happened; the content check put .env back.
    const rejected = result.events.find((event) => event.type === 'fix.rejected');
    expect(rejected?.type === 'fix.rejected' && rejected.reasons[0]).toContain('changed protected paths (.env), which were put back');
    expect(readFileSync(join(repo.work, '.env'), 'utf8')).toBe('SERVICE_MODE=development\n');
    expect(readFileSync(join(repo.work, 'src/math.mjs'), 'utf8')).toBe(MATH_SOURCE);
    expect(existsSync(join(repo.work, 'src/mode.mjs'))).toBe(false);
    expect(repo.pushes()).toHaveLength(0);
  });

  it('a command the CLI refused is named with what to allow (flag and settings line), never as "changed nothing"', async () => {
    repo = buildFixRepo();
    const before = server.toolResults().length;
    const perl = "perl -pi -e 's/a - b/a + b/' src/math.mjs";
    // Two runs that try perl -pi (not allowed under acceptEdits, unlike sed -i on a file here) and give up: the same failures three times is stuck.
    server.enqueue({ tools: [bash(perl)] }, { text: 'I could not run perl.' }, { tools: [bash(perl)] }, { text: 'I could not run perl.' });
    const result = await run(['--check', CHECK_COMMAND, '--no-research']);

    // The real CLI refused the call itself (its permission mode), and said so to the model.
    expect(resultsSince(before)[0]).toContain('requires approval');
    const allow = `Claude Code refused Bash ${perl}: allow it with --allow-command "perl -pi" (settings line: "Bash(perl -pi:*)")`;
    const fixed = result.events.filter((event) => event.type === 'step.finished' && event.step === 'validate');
    expect(fixed.map((event) => event.type === 'step.finished' && event.detail)).toEqual([`refused: ${allow}`, `refused: ${allow}`]);
    expect(finished(result)).toMatchObject({ outcome: 'stuck' });
    expect(finished(result)?.reason).toContain(`The fixer runs in between: ${allow}; ${allow}`);
    expect(result.stdout).not.toContain('changed nothing');
    expect(readFileSync(join(repo.work, 'src/math.mjs'), 'utf8')).toBe(MATH_SOURCE);
    // The second run was told its command was refused and what to use instead.
    const second = server.requests.at(-2);
    expect(JSON.stringify(second?.body.messages)).toContain('were REFUSED by the permission mode');
  });

  it("the repository's AGENTS.md and CLAUDE.md reach the model in the fixer's prompt", async () => {
    const agents = 'Agents: numbers in src/math.mjs are plain arrow functions; keep them one line each.';
    const claudeMd = 'Claude: run the check with node, never with a test framework.';
    repo = buildFixRepo({ files: { 'AGENTS.md': `${agents}\n`, 'CLAUDE.md': `${claudeMd}\n` } });
    const first = server.requests.length;
    server.enqueue(
      { tools: [read(repo, 'src/math.mjs')] },
      { tools: [edit(repo, 'src/math.mjs', 'a - b', 'a + b'), edit(repo, 'src/math.mjs', 'multiply = (a, b) => a + b', 'multiply = (a, b) => a * b')] },
      { text: 'Fixed add and multiply.' },
    );
    const result = await run(['--check', CHECK_COMMAND]);

    expect(finished(result)).toMatchObject({ outcome: 'passed' });
    const sent = JSON.stringify(server.requests[first]?.body.messages);
    expect(sent).toContain(agents);
    expect(sent).toContain(claudeMd);
    expect(sent).toContain("The service's guidance (CLAUDE.md and AGENTS.md)");
  });

  it('stuck: the research step asks the model configured for it (not the fixer\'s server), says which, and its analysis reaches the next run', async () => {
    repo = buildFixRepo();
    const research = await startMessagesServer();
    try {
      const analysis = 'Root cause: add subtracts and multiply adds in src/math.mjs.';
      research.enqueue({ text: analysis });
      const before = server.requests.length;
      server.enqueue(
        { text: 'Nothing looks wrong.' },
        { text: 'Still nothing looks wrong.' },
        { tools: [read(repo, 'src/math.mjs')] },
        { tools: [edit(repo, 'src/math.mjs', 'a - b', 'a + b'), edit(repo, 'src/math.mjs', 'multiply = (a, b) => a + b', 'multiply = (a, b) => a * b')] },
        { text: 'Fixed add and multiply.' },
      );
      const result = await run(['--check', CHECK_COMMAND, '--research-provider', 'anthropic', '--research-base-url', research.url, '--research-model', 'claude-research-test']);

      expect(finished(result)).toMatchObject({ outcome: 'passed' });
      expect(research.requests).toHaveLength(1);
      expect(research.requests[0]?.body.model).toBe('claude-research-test');
      expect(JSON.stringify(research.requests[0]?.body.system)).toContain('automated fix loop that is stuck');
      // The fixer's server never saw the research call.
      expect(server.requests.slice(before).some((request) => request.body.model === 'claude-research-test')).toBe(false);
      const notices = result.events.flatMap((event) => (event.type === 'notice' ? [event.message] : []));
      expect(notices).toContain('Stuck on the same failures: asking anthropic/claude-research-test for a root-cause analysis');
      expect(notices.some((message) => message.startsWith('Root-cause analysis by claude-research-test'))).toBe(true);
      expect(JSON.stringify(server.requests.at(-3)?.body.messages)).toContain(analysis);
      expect(research.unknown).toEqual([]);
    } finally {
      await research.close();
    }
  });

  it('asked the server for nothing but messages', () => {
    expect(server.unknown).toEqual([]);
  });
});
