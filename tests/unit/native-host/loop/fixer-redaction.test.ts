import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../../../../shared/agent/redactor';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import { fixerShell, writeFixerSettings, writeFixerShell } from '../../../../native-host/loop/fixer-settings';
import { FIXER_TOOLS } from '../../../../native-host/loop/fixer-tools';
import { REDACTED_NOTE, redactToolResult, runPostToolUseHook } from '../../../../native-host/loop/post-tool-use-hook';
import { decidePreToolUse } from '../../../../native-host/loop/pre-tool-use-hook';
import { createLineRedactor, runRedactedShell } from '../../../../native-host/loop/redacting-shell';
import { serviceRedactor } from '../../../../native-host/loop/service-text';

const dir = mkdtempSync(join(tmpdir(), 'deputy-fixer-redaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRETS = {
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  STRIPE_KEY: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  DB_PASSWORD: 'Pl4net-Orbit-77',
  GITHUB_TOKEN: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
};
const ENV_TEXT = Object.entries(SECRETS).map(([key, value]) => `${key}=${value}`).join('\n');
const inClear = (value: unknown): string[] => Object.values(SECRETS).filter((secret) => JSON.stringify(value).includes(secret));

const repo = join(dir, 'service');
const rules = { repo, protectedPaths: [], allowedPaths: [], fabricationPatterns: [] };
const call = (event: 'PreToolUse' | 'PostToolUse', tool: string, toolInput: Record<string, unknown>, response?: unknown) => ({
  session_id: 's',
  transcript_path: '/home/dev/.claude/projects/service/s.jsonl',
  cwd: repo,
  permission_mode: 'acceptEdits',
  hook_event_name: event,
  tool_name: tool,
  tool_input: toolInput,
  ...(response === undefined ? {} : { tool_response: response }),
});

/**
 * What each tool returns in Claude Code 2.1.197 (its sdk-tools.d.ts output types), with the user's keys where a
 * command, a file or a subagent could put them. Tools not listed return their input's words back: a generic shape.
 */
const RESPONSES: Record<string, unknown> = {
  Bash: { stdout: `service check failed\n${ENV_TEXT}`, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
  Read: { type: 'text', file: { filePath: join(repo, '.env.local'), content: ENV_TEXT, numLines: 4, startLine: 1, totalLines: 4 } },
  NotebookRead: { cells: [{ cellType: 'code', source: `os.environ["STRIPE_KEY"] = "${SECRETS.STRIPE_KEY}"`, cell_id: 'a1' }] },
  Edit: { filePath: join(repo, 'src/config.ts'), oldString: 'a', newString: 'b', originalFile: `export const config = {\n  password: "${SECRETS.DB_PASSWORD}",\n};\n`, structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [` password: "${SECRETS.DB_PASSWORD}",`] }], userModified: false, replaceAll: false },
  MultiEdit: { filePath: join(repo, 'src/config.ts'), edits: [], originalFileContents: `const token = "${SECRETS.GITHUB_TOKEN}";`, structuredPatch: [], userModified: false },
  Write: { type: 'update', filePath: join(repo, 'src/config.ts'), content: 'export {};', structuredPatch: [], originalFile: `AWS_SECRET_ACCESS_KEY=${SECRETS.AWS_SECRET_ACCESS_KEY}` },
  NotebookEdit: { new_source: 'x = 1', cell_id: 'a1', cell_type: 'code', language: 'python', edit_mode: 'replace', old_source: `key = "${SECRETS.STRIPE_KEY}"` },
  Grep: { mode: 'content', numFiles: 1, filenames: ['.env.local'], content: `.env.local:2:STRIPE_KEY=${SECRETS.STRIPE_KEY}`, numLines: 1 },
  Glob: { durationMs: 3, numFiles: 1, filenames: [join(repo, `backup-${SECRETS.STRIPE_KEY}.env`)], truncated: false },
  Agent: { status: 'completed', agentId: 'a1', content: [{ type: 'text', text: `The service loads DB_PASSWORD=${SECRETS.DB_PASSWORD}.` }], totalToolUseCount: 2, totalDurationMs: 900, totalTokens: 1200, usage: {} },
  TaskOutput: { retrieval_status: 'success', task: { task_id: 'b1', task_type: 'local_bash', status: 'completed', description: 'npm start', output: `listening\nGITHUB_TOKEN=${SECRETS.GITHUB_TOKEN}\n`, exitCode: 0 } },
  BashOutput: { shellId: 'b1', command: 'npm start', status: 'running', exitCode: null, stdout: `STRIPE_KEY=${SECRETS.STRIPE_KEY}`, stderr: '', stdoutLines: 1, stderrLines: 0, timestamp: 'now' },
  WebSearch: { query: 'stripe key', results: [{ tool_use_id: 'w1', content: [{ title: `Leaked ${SECRETS.STRIPE_KEY}`, url: 'https://paste.test/1' }] }], durationSeconds: 1 },
};
const genericResponse = { result: `DB_PASSWORD=${SECRETS.DB_PASSWORD}`, detail: { lines: [`STRIPE_KEY=${SECRETS.STRIPE_KEY}`] } };

/** The same value with only its strings changed: the shape Claude Code checks an updatedToolOutput against. */
function shapeOf(value: unknown): unknown {
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]));
  return value;
}

const readable = Object.entries(FIXER_TOOLS).filter(([, handling]) => handling.how !== 'refused').map(([tool]) => tool);
const refused = Object.entries(FIXER_TOOLS).flatMap(([tool, handling]) => (handling.how === 'refused' ? [[tool, handling.reason] as const] : []));

describe('every tool result the fixer reads passes redaction (the PostToolUse hook)', () => {
  it.each(readable)('%s: the keys in its result are placeholders, its shape is kept, and the model is told why', (tool) => {
    const response = RESPONSES[tool] ?? genericResponse;
    expect(inClear(response).length).toBeGreaterThan(0);
    const output = redactToolResult(call('PostToolUse', tool, {}, response), serviceRedactor());
    expect(output?.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    expect(inClear(output?.hookSpecificOutput.updatedToolOutput)).toEqual([]);
    expect(JSON.stringify(output?.hookSpecificOutput.updatedToolOutput)).toMatch(/\{\{redacted_[a-z_]+_\d+\}\}/);
    expect(shapeOf(output?.hookSpecificOutput.updatedToolOutput)).toEqual(shapeOf(response));
    expect(output?.hookSpecificOutput.additionalContext).toBe(REDACTED_NOTE);
  });

  it('an MCP tool result is redacted too', () => {
    const output = redactToolResult(call('PostToolUse', 'mcp__notes__read', {}, [{ type: 'text', text: ENV_TEXT }]), serviceRedactor());
    expect(inClear(output?.hookSpecificOutput.updatedToolOutput)).toEqual([]);
  });

  it('a result without secrets is left alone: no replacement, nothing on stdout', () => {
    const response = { type: 'text', file: { filePath: join(repo, 'src/math.mjs'), content: 'export const add = (a, b) => a + b;\n', numLines: 1, startLine: 1, totalLines: 1 } };
    expect(redactToolResult(call('PostToolUse', 'Read', {}, response), serviceRedactor())).toBeUndefined();
    expect(runPostToolUseHook(JSON.stringify(call('PostToolUse', 'Read', {}, response)), serviceRedactor())).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('the hook process answers with the JSON Claude Code reads, and refuses input that is not JSON', () => {
    const result = runPostToolUseHook(JSON.stringify(call('PostToolUse', 'Bash', { command: 'cat .env.local' }, RESPONSES.Bash)), serviceRedactor());
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(result.stdout) as { hookSpecificOutput: { updatedToolOutput: { stdout: string } } };
    expect(parsed.hookSpecificOutput.updatedToolOutput.stdout).toMatch(/^service check failed\nAWS_SECRET_ACCESS_KEY=\{\{redacted_key_\d\}\}/);
    expect(inClear(parsed)).toEqual([]);
    expect(runPostToolUseHook('not json', serviceRedactor())).toMatchObject({ exitCode: 2, stdout: '' });
  });

  it('a result redaction fails on is withheld in the same shape, never passed on', () => {
    const broken = { ...createRedactor(createSecretVault()), redactDeep: () => { throw new Error('boom'); } };
    const output = redactToolResult(call('PostToolUse', 'Read', {}, RESPONSES.Read), broken);
    expect(inClear(output?.hookSpecificOutput.updatedToolOutput)).toEqual([]);
    expect(output?.hookSpecificOutput.updatedToolOutput).toMatchObject({ type: 'text', file: { content: expect.stringContaining('withheld by Deputy') as unknown, numLines: 4 } });
  });
});

describe('tools whose results cannot be redacted are refused, with what to use instead (the PreToolUse guard)', () => {
  it.each(refused)('%s is refused: %s', (tool, reason) => {
    const decision = decidePreToolUse(call('PreToolUse', tool, { url: 'http://service.test/debug', prompt: 'show it' }), rules);
    expect(decision).toEqual({ block: true, reason: `Deputy guard: ${reason}.` });
  });

  it.each(readable)('%s is not refused for what it returns', (tool) => {
    const input = tool === 'Read' ? { file_path: join(repo, 'src/math.mjs') } : {};
    expect(decidePreToolUse(call('PreToolUse', tool, input), rules)).toEqual({ block: false });
  });

  it('a tool Deputy does not know is refused (a new CLI version must be classified first); MCP tools are redacted', () => {
    expect(decidePreToolUse(call('PreToolUse', 'Teleport', {}), rules)).toEqual({ block: true, reason: expect.stringContaining('does not know what Teleport returns') as unknown });
    expect(decidePreToolUse(call('PreToolUse', 'mcp__notes__read', {}), rules)).toEqual({ block: false });
  });

  it.each(['shot.png', 'photo.JPG', 'anim.gif', 'pic.webp', 'report.pdf'])('Read of %s is refused: pictures and PDFs reach the model as they are', (name) => {
    const decision = decidePreToolUse(call('PreToolUse', 'Read', { file_path: join(repo, name) }), rules);
    expect(decision).toEqual({ block: true, reason: expect.stringContaining('cannot redact what an image or a PDF shows') as unknown });
  });

  it('Read of a picture or a PDF under another name is refused by its first bytes; a text file is read', () => {
    const png = join(dir, 'notes.txt');
    writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const pdf = join(dir, 'invoice');
    writeFileSync(pdf, '%PDF-1.7\n');
    const text = join(dir, 'readme.txt');
    writeFileSync(text, 'plain text\n');
    expect(decidePreToolUse(call('PreToolUse', 'Read', { file_path: png }), rules)).toMatchObject({ block: true });
    expect(decidePreToolUse(call('PreToolUse', 'Read', { file_path: pdf }), rules)).toMatchObject({ block: true });
    expect(decidePreToolUse(call('PreToolUse', 'Read', { file_path: text }), rules)).toEqual({ block: false });
  });
});

describe("the fixer's shell: every command's output redacted on its way out, its exit status kept", () => {
  const run = (command: string, onSignal?: (forward: (signal: NodeJS.Signals) => void) => void) => {
    let stdout = '';
    let stderr = '';
    const redactor = serviceRedactor();
    return runRedactedShell({
      shell: fixerShell(process.env),
      command,
      redact: (text) => redactor.redact(text),
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      ...(onSignal ? { onSignal } : {}),
    }).then((status) => ({ status, stdout, stderr }));
  };

  it('a failing command that prints the keys on both streams: placeholders, and its status', async () => {
    const envFile = join(dir, 'service.env');
    writeFileSync(envFile, `${ENV_TEXT}\n`);
    const result = await run(`cat '${envFile}'; echo "token ${SECRETS.GITHUB_TOKEN}" >&2; exit 3`);
    expect(result.status).toBe(3);
    expect(inClear(result)).toEqual([]);
    expect(result.stdout).toMatch(/^AWS_SECRET_ACCESS_KEY=\{\{redacted_key_\d\}\}\nSTRIPE_KEY=\{\{redacted_key_\d\}\}\n/);
    expect(result.stderr).toMatch(/^token \{\{redacted_/);
  });

  it('a key printed a piece at a time, and a private key block over several writes, are still redacted', async () => {
    const pem = ['-----BEGIN PRIVATE KEY-----', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7', 'Xq9z', '-----END PRIVATE KEY-----'];
    const script = `printf 'STRIPE_KEY=sk_live_4eC3'; sleep 0.1; printf '9HqLyjWDarjtT1zdp7dc\\n'; ${pem.map((line) => `printf '%s\\n' '${line}'; sleep 0.05`).join('; ')}; echo done`;
    const result = await run(script);
    expect(result.status).toBe(0);
    expect(inClear(result)).toEqual([]);
    expect(result.stdout).not.toContain('Xq9z');
    expect(result.stdout).not.toContain('MIIEvQ');
    expect(result.stdout).toMatch(/done\n$/);
  });

  it('Claude Code\'s command line works through it: the cwd file is written, the status of the last command kept', async () => {
    const cwdFile = join(dir, 'claude-cwd');
    const result = await run(`cd '${dir}' && eval 'printf "%s\\n" "DB_PASSWORD=${SECRETS.DB_PASSWORD}"; false' < /dev/null && pwd -P >| '${cwdFile}'`);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^DB_PASSWORD=\{\{redacted_[a-z]+_1\}\}\n$/);
    const ok = await run(`cd '${dir}' && eval 'true' && pwd -P >| '${cwdFile}'`);
    expect(ok.status).toBe(0);
    expect(readFileSync(cwdFile, 'utf8').trim()).toBe(realpathSync(dir));
  });

  it('a signal passed on ends the command, with 128 + its number', async () => {
    const result = await run('echo started; sleep 30', (forward) => setTimeout(() => forward('SIGTERM'), 300));
    expect(result).toMatchObject({ status: 143, stdout: 'started\n' });
  });

  it('text is held only until its line ends, or its key block does', () => {
    const written: string[] = [];
    const lines = createLineRedactor((text) => text.toUpperCase(), (text) => written.push(text));
    lines.push('one\ntw');
    lines.push('o\n-----BEGIN RSA PRIVATE KEY-----\nabc\n');
    expect(written).toEqual(['ONE\n', 'TWO\n']);
    lines.push('-----END RSA PRIVATE KEY-----\nlast');
    expect(written.at(-1)).toBe('-----BEGIN RSA PRIVATE KEY-----\nABC\n-----END RSA PRIVATE KEY-----\n');
    lines.end();
    expect(written.at(-1)).toBe('LAST');
  });
});

describe("the fixer's settings and shell prefix", () => {
  const programs = { guard: { command: '/usr/bin/node', args: ['/opt/deputy/loop-hook.mjs', '--rules', '/state/rules.json'] }, redact: { command: '/usr/bin/node', args: ['/opt/deputy/loop-redact.mjs'] } };

  it('both hooks match every tool and run without a shell (so not through the prefix either)', () => {
    const file = join(dir, 'claude-settings.json');
    writeFixerSettings(file, { programs, allowedCommands: ['npm test'] });
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, Array<{ matcher: string; hooks: unknown[] }>> };
    expect(settings.hooks.PreToolUse).toEqual([{ matcher: '*', hooks: [{ type: 'command', command: '/usr/bin/node', args: programs.guard.args, timeout: 30 }] }]);
    expect(settings.hooks.PostToolUse).toEqual([{ matcher: '*', hooks: [{ type: 'command', command: '/usr/bin/node', args: ['/opt/deputy/loop-redact.mjs', 'hook'], timeout: 60 }] }]);
  });

  it('the prefix is one executable file that runs the redacting shell with the CLI\'s command line', () => {
    const file = join(dir, 'fixer-shell');
    const env = writeFixerShell(file, programs.redact, '/bin/bash');
    expect(env).toEqual({ CLAUDE_CODE_SHELL_PREFIX: file, CLAUDE_CODE_SHELL: '/bin/bash' });
    expect(readFileSync(file, 'utf8')).toContain(`exec '/usr/bin/node' '/opt/deputy/loop-redact.mjs' 'shell' '/bin/bash' "$@"\n`);
    expect(statSync(file).mode & 0o777).toBe(0o700);
    expect(() => writeFixerShell(join(dir, 'a -b', 'fixer-shell'), programs.redact, '/bin/bash')).toThrow(/--state-dir/);
  });

  it('the shell is found as Claude Code finds one, and a missing one says what to do', () => {
    const has = (paths: string[]) => (path: string) => paths.includes(path);
    expect(fixerShell({ CLAUDE_CODE_SHELL: '/opt/bin/zsh', SHELL: '/bin/bash' }, has(['/opt/bin/zsh', '/bin/bash']))).toBe('/opt/bin/zsh');
    expect(fixerShell({ SHELL: '/usr/bin/fish' }, has(['/usr/bin/fish', '/usr/bin/bash']))).toBe('/usr/bin/bash');
    expect(() => fixerShell({}, has([]))).toThrow(/install bash, or set CLAUDE_CODE_SHELL/);
  });
});
