import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuiltHost } from './host-harness';
import { docLine } from './support/doc-lines';
import { waitUntil } from './support/wait-until';

// Not on the shared fixture (tests/e2e/support/e2e-fixture.ts): the README's registration lines run in bash with a
// home of their own; no browser, page or model is involved.

/**
 * The README's lines that register `deputy mcp` with Claude Code, Codex, Cursor and VS Code work as typed (issue 25):
 * each is taken from the README verbatim and run in bash from the repository, as a user pastes it, and the server it
 * registers is started exactly as written and must answer MCP's `initialize`. Where the agent's own CLI is not on
 * this machine (Codex, VS Code), the line's server part is what is run; the Claude Code CLI is a dev dependency, so its
 * line runs for real against a temporary home.
 */
let home = '';
beforeAll(() => {
  ensureBuiltHost();
  home = mkdtempSync(join(tmpdir(), 'deputy-mcp-register-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The registration line marked `# <marker>` in the README or a docs page (docs/mcp.md), as a user copies it. */
const readmeLine = (marker: string): string => docLine(ROOT, marker);

const env = (): NodeJS.ProcessEnv => ({ ...process.env, HOME: home, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` });

/** Starts a server command (argv) and returns the serverInfo it answers `initialize` with. */
async function initialize(command: string, args: string[]): Promise<unknown> {
  const child = spawn(command, args, { cwd: ROOT, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'registration-test', version: '0' } } })}\n`);
  const line = await waitUntil('the answer to initialize', () => out.split('\n').find((item) => item.includes('"id":1')));
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  return (JSON.parse(line) as { result?: { serverInfo?: unknown } }).result?.serverInfo;
}

/** A shell command string, expanded by bash as the user's shell would, into argv. */
function argv(shellText: string): string[] {
  const result = spawnSync('bash', ['-c', `for a in ${shellText}; do printf '%s\\0' "$a"; done`], { cwd: ROOT, env: env(), encoding: 'utf8' });
  return result.stdout.split('\0').filter(Boolean);
}

describe.skipIf(process.platform === 'win32')("the README's MCP registration lines", () => {
  it('Claude Code: the line registers deputy with the real claude CLI, and the registered command answers initialize', async () => {
    const line = readmeLine('Claude Code');
    expect(line).toMatch(/^claude mcp add deputy -- /);
    const added = spawnSync('bash', ['-c', line], { cwd: ROOT, env: env(), encoding: 'utf8', timeout: 60_000 });
    expect(added.status, `${added.stdout}${added.stderr}`).toBe(0);
    type Entry = { command: string; args: string[] };
    const config = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as { projects?: Record<string, { mcpServers?: Record<string, Entry> }>; mcpServers?: Record<string, Entry> };
    // Claude Code files a local server under the project it was added in (the git repository's main checkout).
    const server = Object.values(config.projects ?? {}).find((project) => project.mcpServers?.deputy)?.mcpServers?.deputy ?? config.mcpServers?.deputy;
    expect(added.stdout).toContain('Added stdio MCP server deputy');
    expect(server?.args).toEqual([join(ROOT, 'dist-host', 'deputy.mjs'), 'mcp']);
    expect(await initialize(server?.command ?? '', server?.args ?? [])).toMatchObject({ name: expect.any(String) as unknown });
  });

  it('Codex: the server part of the line answers initialize', async () => {
    const line = readmeLine('Codex');
    expect(line).toMatch(/^codex mcp add deputy -- /);
    const [command, ...args] = argv(line.slice(line.indexOf(' -- ') + 4));
    expect(await initialize(command ?? '', args)).toMatchObject({ name: expect.any(String) as unknown });
  });

  it('Cursor: the line writes ~/.cursor/mcp.json, and the entry answers initialize', async () => {
    const line = readmeLine('Cursor (or add the entry to the file you have)');
    spawnSync('mkdir', ['-p', join(home, '.cursor')]);
    const written = spawnSync('bash', ['-c', line], { cwd: ROOT, env: env(), encoding: 'utf8' });
    expect(written.status, written.stderr).toBe(0);
    const entry = (JSON.parse(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.deputy;
    expect(await initialize(entry?.command ?? '', entry?.args ?? [])).toMatchObject({ name: expect.any(String) as unknown });
  });

  it("VS Code: the JSON that `code --add-mcp` gets is valid, and its server answers initialize", async () => {
    const line = readmeLine('VS Code (Copilot agent mode)');
    expect(line).toMatch(/^code --add-mcp /);
    const [json] = argv(line.slice('code --add-mcp '.length));
    const entry = JSON.parse(json ?? '') as { name: string; command: string; args: string[] };
    expect(entry.name).toBe('deputy');
    expect(await initialize(entry.command, entry.args)).toMatchObject({ name: expect.any(String) as unknown });
  });
});
