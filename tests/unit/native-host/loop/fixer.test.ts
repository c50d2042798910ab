import { describe, expect, it } from 'vitest';
import { createCostMeter, priceOf } from '../../../../native-host/loop/claude-pricing';
import { describeToolUse, parseStreamLine, ResultEvent } from '../../../../native-host/loop/claude-stream';
import { classifyFixerError } from '../../../../native-host/loop/fixer-error';
import { claudeArgs, runFixer, withPrefix, type FixerConfig } from '../../../../native-host/loop/fixer';
import { preflightFixer } from '../../../../native-host/loop/fixer-preflight';
import type { CommandResult, CommandSpec } from '../../../../native-host/loop/run-command';
import { LoopConfig } from '../../../../shared/protocol/loop-protocol';

const config = (fixer: Record<string, unknown> = {}): FixerConfig => LoopConfig.parse({ repo: '/srv/app', check: 'npm test', fixer }).fixer;

/** A session as `claude -p --output-format stream-json --verbose` prints it. */
const SESSION = [
  { type: 'system', subtype: 'init', cwd: '/srv/app', session_id: 'f3a1c2d4-0000-4a1b-9c8d-1234567890ab', tools: ['Read', 'Edit', 'Bash'], mcp_servers: [], model: 'claude-sonnet-4-5-20250929', permissionMode: 'acceptEdits', apiKeySource: 'none' },
  { type: 'assistant', message: { id: 'msg_01', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Looking at the cart.' }, { type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/srv/app/src/cart.ts' } }] }, parent_tool_use_id: null, session_id: 'f3a1c2d4-0000-4a1b-9c8d-1234567890ab' },
  { type: 'user', message: { role: 'user', content: [{ tool_use_id: 'toolu_01', type: 'tool_result', content: 'export const total = ...' }] }, parent_tool_use_id: null, session_id: 'f3a1c2d4-0000-4a1b-9c8d-1234567890ab' },
  { type: 'assistant', message: { id: 'msg_02', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'npm test -- --run src/cart.test.ts', description: 'Run the cart tests' } }] }, session_id: 'f3a1c2d4-0000-4a1b-9c8d-1234567890ab' },
  { type: 'user', message: { role: 'user', content: [{ tool_use_id: 'toolu_02', type: 'tool_result', content: 'PreToolUse:Bash hook error: blocked', is_error: true }] }, session_id: 'f3a1c2d4-0000-4a1b-9c8d-1234567890ab' },
  { type: 'result', subtype: 'success', is_error: false, duration_ms: 5321, duration_api_ms: 4100, num_turns: 4, result: 'Fixed the cart total to sum prices in cents.\nDetails follow.', session_id: 'f3a1c2d4-0000-4a1b-9c8d-1234567890ab', total_cost_usd: 0.0731, usage: { input_tokens: 10, output_tokens: 5 } },
].map((event) => JSON.stringify(event));

function fakeRun(lines: string[], outcome: Partial<CommandResult> = {}) {
  const calls: CommandSpec[] = [];
  const run = (spec: CommandSpec): Promise<CommandResult> => {
    calls.push(spec);
    spec.onSpawn?.(4242);
    for (const line of lines) spec.onStdoutLine?.(line);
    return Promise.resolve({ exitCode: 0, signal: null, stdout: lines.join('\n'), stderr: '', timedOut: false, aborted: false, ...outcome });
  };
  return { run, calls };
}

const request = (progress: string[] = [], sessions: string[] = []) => ({
  prompt: 'Fix the check',
  repo: '/srv/app',
  settingsFile: '/state/claude-settings.json',
  onProgress: (action: string) => progress.push(action),
  onSessionId: (id: string) => sessions.push(id),
  onSpawn: () => undefined,
});

describe('claude stream-json', () => {
  it('turns events into progress, session and result', () => {
    const items = SESSION.flatMap(parseStreamLine);
    expect(items.map((item) => item.kind)).toEqual(['init', 'text', 'action', 'action', 'tool-error', 'result']);
    expect(items[2]).toEqual({ kind: 'action', action: 'Read /srv/app/src/cart.ts' });
    expect(parseStreamLine('not json')).toEqual([]);
    expect(parseStreamLine('{"type":"stream_event"}')).toEqual([{ kind: 'other' }]);
    expect(describeToolUse('Grep', { pattern: 'total', path: 'src' })).toBe('Grep src');
    expect(describeToolUse('TodoWrite', {})).toBe('TodoWrite');
  });
});

describe('runFixer with Claude Code', () => {
  it('passes the real flags, the prompt on stdin, and reads cost, session and turns', async () => {
    const { run, calls } = fakeRun(SESSION);
    const progress: string[] = [];
    const sessions: string[] = [];
    const early: unknown[] = [];
    const result = await runFixer(
      config({ model: 'sonnet', maxTurns: 30, allowedTools: ['Read', 'Edit'], disallowedTools: ['WebFetch'] }),
      { ...request(progress, sessions), onResult: (value) => early.push(value) },
      run,
    );
    expect(calls[0]?.command).toBe('claude');
    expect(calls[0]?.args).toEqual([
      '-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '--permission-mode', 'acceptEdits',
      '--settings', '/state/claude-settings.json', '--setting-sources', 'user', '--strict-mcp-config',
      '--model', 'sonnet', '--max-turns', '30', '--allowedTools', 'Read,Edit', '--disallowedTools', 'WebFetch',
    ]);
    expect(calls[0]?.input).toBe('Fix the check');
    expect(calls[0]?.timeoutMs).toBe(600_000);
    expect(progress).toEqual(['Read /srv/app/src/cart.ts', 'Bash npm test -- --run src/cart.test.ts']);
    expect(sessions).toEqual(['f3a1c2d4-0000-4a1b-9c8d-1234567890ab']);
    // The result is handed over as soon as its line is read, before the process has exited.
    expect(early).toEqual([result]);
    expect(result).toEqual({ costUsd: 0.0731, sessionId: 'f3a1c2d4-0000-4a1b-9c8d-1234567890ab', turns: 4, isError: false, summary: 'Fixed the cart total to sum prices in cents.', completed: true, permissionDenials: 0 });
  });

  it("hands the CLI the shell prefix that redacts every command's output; a command fixer gets none", async () => {
    const env = { CLAUDE_CODE_SHELL_PREFIX: '/state/fixer-shell', CLAUDE_CODE_SHELL: '/bin/bash' };
    const claude = fakeRun(SESSION);
    await runFixer(config(), { ...request(), env }, claude.run);
    expect(claude.calls[0]?.env).toEqual(env);
    const command = fakeRun([]);
    await runFixer(config({ kind: 'command', command: './fix.sh' }), { ...request(), env }, command.run);
    expect(command.calls[0]?.env).toBeUndefined();
  });

  it('names each command the CLI refused, with the flag and the settings line that allow it', async () => {
    const refusedSession = [
      ...SESSION.slice(0, -1),
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        num_turns: 3,
        result: 'I could not edit the file: the sed command needs approval.',
        session_id: 'f3a1c2d4-0000-4a1b-9c8d-1234567890ab',
        total_cost_usd: 0.02,
        permission_denials: [
          { tool_name: 'Bash', tool_use_id: 'toolu_03', tool_input: { command: "sed -i 's/price/priceCents/' src/cart.ts" } },
          { tool_name: 'Bash', tool_use_id: 'toolu_04', tool_input: { command: 'npx prettier --write src/cart.ts' } },
          { tool_name: 'WebFetch', tool_use_id: 'toolu_05', tool_input: { url: 'https://docs.shop.test/cart' } },
        ],
      }),
    ];
    const { run } = fakeRun(refusedSession);
    const result = await runFixer(config(), request(), run);
    expect(result.permissionDenials).toBe(3);
    expect(result.refused).toBe(
      "Claude Code refused Bash sed -i 's/price/priceCents/' src/cart.ts: allow it with --allow-command \"sed -i\" (settings line: \"Bash(sed -i:*)\"); " +
        'Claude Code refused Bash npx prettier --write src/cart.ts: allow it with --allow-command "npx" (settings line: "Bash(npx:*)"); ' +
        'Claude Code refused WebFetch https://docs.shop.test/cart: allow the tool in the fixer\'s settings ("WebFetch" under permissions.allow) or with --permission-mode',
    );
  });

  it('runs through a command prefix, for example WSL', () => {
    expect(withPrefix(config({ commandPrefix: ['wsl', '--'], claudePath: '/home/me/.local/bin/claude' }), ['-p'])).toEqual({ command: 'wsl', args: ['--', '/home/me/.local/bin/claude', '-p'] });
    expect(claudeArgs(config({ permissionMode: 'plan' }), { settingsFile: 's.json' })).toContain('plan');
    expect(claudeArgs(config(), { settingsFile: 's.json', resumeSession: 'abc', maxBudgetUsd: 1.5 })).toEqual(expect.arrayContaining(['--resume', 'abc', '--max-budget-usd', '1.5000']));
  });

  it('reports a timeout and a run without a result as not completed', async () => {
    const timedOut = await runFixer(config(), request(), fakeRun(SESSION.slice(0, 2), { timedOut: true, exitCode: null, signal: 'SIGKILL' }).run);
    expect(timedOut).toMatchObject({ completed: false, interruption: 'timeout', costUsd: 0 });
    const killed = await runFixer(config(), request(), fakeRun(SESSION.slice(0, 2), { exitCode: null, signal: 'SIGTERM' }).run);
    expect(killed).toMatchObject({ completed: false, interruption: 'killed' });
    const crashed = await runFixer(config(), request(), fakeRun([], { exitCode: 1, stderr: 'Invalid API key' }).run);
    expect(crashed).toMatchObject({ completed: false, interruption: 'crashed' });
    expect(crashed.summary).toContain('Invalid API key');
  });

  it('says how to install Claude Code when the binary is missing', async () => {
    const missing = fakeRun([], { exitCode: null, spawnError: Object.assign(new Error('spawn claude ENOENT'), { code: 'ENOENT' }) });
    await expect(preflightFixer(config(), '/srv/app', missing.run)).rejects.toThrow(/Could not start the Claude Code CLI at "claude" \(ENOENT\): install Claude Code/);
    await expect(runFixer(config(), request(), missing.run)).rejects.toThrow(/--claude-path/);
  });

  it('runs another fixer as a command that gets the prompt on stdin', async () => {
    const { run, calls } = fakeRun(['patched 2 files', 'done: use cents'], {});
    const result = await runFixer(config({ kind: 'command', command: 'my-fixer --apply' }), request(), run);
    expect(calls[0]).toMatchObject({ command: 'my-fixer --apply', input: 'Fix the check' });
    expect(calls[0]?.args).toBeUndefined();
    expect(result).toMatchObject({ costUsd: 0, isError: false, completed: true, summary: 'patched 2 files done: use cents' });
  });
});

describe('error results and cost', () => {
  const result = (extra: Record<string, unknown>) => ResultEvent.parse({ type: 'result', is_error: true, ...extra });
  it('classifies the CLI error results by what the loop must do', () => {
    expect(classifyFixerError({ result: result({ subtype: 'success', result: 'Not logged in · Please run /login' }), apiError: { error: 'authentication_failed', text: 'Not logged in' } })).toEqual({ kind: 'auth', message: 'Not logged in · Please run /login' });
    expect(classifyFixerError({ result: result({ subtype: 'success', api_error_status: 401, result: 'Invalid API key · Fix external API key' }) }).kind).toBe('auth');
    expect(classifyFixerError({ result: result({ subtype: 'success', result: 'Credit balance is too low' }) }).kind).toBe('auth');
    expect(classifyFixerError({ result: result({ subtype: 'error_max_turns' }) }).kind).toBe('max_turns');
    expect(classifyFixerError({ result: result({ subtype: 'error_max_budget_usd' }) }).kind).toBe('budget');
    expect(classifyFixerError({ result: result({ subtype: 'success', api_error_status: 529, result: 'API Error: 529 Overloaded' }) }).kind).toBe('api');
    expect(classifyFixerError({ result: result({ subtype: 'error_during_execution' }), stderr: 'No conversation found with session ID: abc' }).kind).toBe('session_missing');
    expect(classifyFixerError({ result: result({ subtype: 'error_during_execution' }) }).kind).toBe('execution');
  });

  it('counts a run cut short from the usage of each reply, deduplicated, and prices an unknown model as the dearest', () => {
    const meter = createCostMeter();
    meter.start('m1', 'claude-sonnet-4-5', { input_tokens: 1000, output_tokens: 1, cache_read_input_tokens: 10_000 });
    meter.delta({ output_tokens: 200 });
    meter.delta({ output_tokens: 400 });
    // 1000 * 3 + 10000 * 0.3 + 400 * 15 = 12000 per million.
    expect(meter.total()).toBeCloseTo(0.012, 6);
    expect(meter.guessed()).toBe(false);
    meter.start('m2', 'some-other-model', { input_tokens: 1_000_000 });
    expect(meter.total()).toBeCloseTo(15.012, 6);
    expect(meter.guessed()).toBe(true);
    expect(priceOf('claude-opus-4-8[1m]').price).toEqual({ input: 5, output: 25 });
    expect(priceOf('claude-opus-4-1-20250805').price).toEqual({ input: 15, output: 75 });
  });

  it('reads the usage of a killed run from the partial messages, and a max-turns result as an error', async () => {
    const partial = [
      { type: 'system', subtype: 'init', session_id: 's1' },
      { type: 'stream_event', event: { type: 'message_start', message: { id: 'm1', model: 'claude-sonnet-4-5', usage: { input_tokens: 2000, output_tokens: 1 } } } },
      { type: 'stream_event', event: { type: 'message_delta', usage: { output_tokens: 100 } } },
    ].map((event) => JSON.stringify(event));
    const killed = await runFixer(config(), request(), fakeRun(partial, { exitCode: null, signal: 'SIGKILL' }).run);
    expect(killed).toMatchObject({ completed: false, interruption: 'killed', costEstimated: true, sessionId: 's1' });
    expect(killed.costUsd).toBeCloseTo(0.0075, 6);
    const turns = await runFixer(config(), request(), fakeRun([JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 2, session_id: 's2', total_cost_usd: 0.01 })], { exitCode: 1 }).run);
    expect(turns).toMatchObject({ isError: true, errorKind: 'max_turns', completed: true, costUsd: 0.01 });
  });
});
