import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPUTY_BIN } from '../fixtures/repo/loop-cli';

const dir = mkdtempSync(join(tmpdir(), 'deputy-hook-'));
const repo = join(dir, 'service');
const rulesFile = join(dir, 'guard-rules.json');
writeFileSync(rulesFile, JSON.stringify({ repo, protectedPaths: ['CLAUDE.md', 'data/**'], allowedPaths: [], fabricationPatterns: ['TODO: real numbers'] }));

/** Runs the built hook the way Claude Code does: the PreToolUse input as JSON on stdin. */
function hook(toolName: string, toolInput: Record<string, unknown>, rules = rulesFile): { status: number | null; stderr: string } {
  const input = {
    session_id: 'b2b5e2b7-0f2c-4a55-9d1a-6c3c1b8f0e11',
    transcript_path: join(dir, 'transcript.jsonl'),
    cwd: repo,
    permission_mode: 'acceptEdits',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
  };
  const result = spawnSync(process.execPath, [DEPUTY_BIN, 'loop-hook', '--rules', rules], { input: JSON.stringify(input), encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

// Every rule is covered in-process by tests/unit/native-host/loop/pre-tool-use-hook.test.ts; this file checks the
// built hook end to end: stdin in, exit code and stderr out.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the PreToolUse guard hook, run as Claude Code runs it', () => {
  it('allows ordinary edits, reads and commands', () => {
    expect(hook('Edit', { file_path: join(repo, 'src/app.ts'), old_string: 'a - b', new_string: 'a + b' })).toEqual({ status: 0, stderr: '' });
    expect(hook('Write', { file_path: join(repo, 'src/new.ts'), content: 'export const total = 3;\n' }).status).toBe(0);
    expect(hook('Bash', { command: 'npm test -- --run', description: 'Run tests' }).status).toBe(0);
  });

  it.each([
    ['Write', { file_path: join(repo, '.env'), content: 'KEY=1' }, '.env is a protected path'],
    ['Bash', { command: 'git push --force origin main' }, '"git push --force"'],
    ['Write', { file_path: join(repo, 'src/revenue.ts'), content: 'export const revenue = "4.2M (estimated)";' }, 'an "(estimated)" figure'],
  ])('blocks %s %j with exit code 2 and the reason on stderr', (tool, input, reason) => {
    const result = hook(tool, input);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Deputy guard:');
    expect(result.stderr).toContain(reason);
  });

  it('fails closed on input it cannot read and on a missing rules file', () => {
    const garbage = spawnSync(process.execPath, [DEPUTY_BIN, 'loop-hook', '--rules', rulesFile], { input: 'not json', encoding: 'utf8' });
    expect(garbage.status).toBe(2);
    expect(garbage.stderr).toContain('the hook input is not JSON');
    const noRules = hook('Edit', { file_path: join(repo, 'src/a.ts'), old_string: 'a', new_string: 'b' }, join(dir, 'missing.json'));
    expect(noRules.status).toBe(2);
    expect(noRules.stderr).toContain('cannot read the rules file');
  });
});

const KEYS = 'STRIPE_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc\nGITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a\n';

// The fixer's redaction as Claude Code starts it: the small built file (dist-host/loop-redact.mjs) and the host's own
// hidden command where that file is missing. Every case is covered in-process by fixer-redaction.test.ts.
describe.each([
  ['dist-host/loop-redact.mjs', [join(dirname(DEPUTY_BIN), 'loop-redact.mjs')]],
  ['deputy loop-redact', [DEPUTY_BIN, 'loop-redact']],
])('the fixer redaction through %s', (_name, program) => {
  it('as the PostToolUse hook: the result with placeholders on stdout, in the shape it came in', () => {
    const input = { hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: join(repo, '.env.local') }, tool_response: { type: 'text', file: { filePath: join(repo, '.env.local'), content: KEYS, numLines: 3, startLine: 1, totalLines: 3 } } };
    const result = spawnSync(process.execPath, [...program, 'hook'], { input: JSON.stringify(input), encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain('sk_live_');
    expect(result.stdout).not.toContain('ghp_');
    expect(JSON.parse(result.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { type: 'text', file: { content: expect.stringMatching(/^STRIPE_KEY=\{\{redacted_key_1\}\}\nGITHUB_TOKEN=\{\{/) as unknown, numLines: 3 } } } });
  });

  it("as the shell prefix: the command line's output redacted on both streams, its exit status kept", () => {
    const keys = join(dir, 'keys.env');
    writeFileSync(keys, KEYS);
    const result = spawnSync(process.execPath, [...program, 'shell', '/bin/sh', `cat '${keys}'; cat '${keys}' >&2; exit 5`], { encoding: 'utf8' });
    expect(result.status).toBe(5);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/sk_live_|ghp_/);
    expect(result.stdout).toMatch(/^STRIPE_KEY=\{\{redacted_key_1\}\}\n/);
    expect(result.stderr).toMatch(/^STRIPE_KEY=\{\{redacted_key_1\}\}\n/);
  });

  it('says how it is used when called wrongly', () => {
    const result = spawnSync(process.execPath, [...program, 'shell'], { encoding: 'utf8' });
    expect(result.status).not.toBe(0);
  });
});
