import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAVY_PACKAGES, staticInputs, staticPackages } from '../../scripts/lib/host-start-graph';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EXTENSION_ORIGIN } from '../../shared/constants';
import { BUILT_HOST, ROOT, ensureBuiltHost, helloFrame } from './host-harness';
import { waitUntil } from './support/wait-until';

// Not on the shared fixture (tests/e2e/support/e2e-fixture.ts): the host's own start-up is what is tested, over stdio
// under a module hook, with no browser, page or model to share.

/**
 * The starts something waits on (the browser's hello, `deputy --version`, `deputy mcp`'s `initialize`) must not read a
 * heavy library before they answer (issue 25). The built host runs under a module hook that logs every file Node
 * loads; whatever was logged when the answer arrived is what that start cost. The check is by what was loaded, never
 * by time: `npm run bench:host` prints the times beside a bare Node start.
 */
const RECORDER = join(ROOT, 'tests', 'fixtures', 'host-start', 'record-imports.mjs');
let home: string;

beforeAll(() => {
  ensureBuiltHost();
  home = mkdtempSync(join(tmpdir(), 'deputy-host-start-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function environment(log: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_RUNTIME_DIR: home, DEPUTY_IMPORT_LOG: log };
}

/** The heavy packages among the logged module URLs, with the first file of each. */
function heavyLoaded(log: string): Record<string, string> {
  const found: Record<string, string> = {};
  let lines: string[] = [];
  try {
    lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } catch {
    return found;
  }
  for (const url of lines) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    const name = match?.[1];
    if (name && (HEAVY_PACKAGES as readonly string[]).includes(name) && found[name] === undefined) found[name] = url;
  }
  return found;
}

const loggedCount = (log: string): number => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;

describe('host start loads no heavy library before it answers', () => {
  it('the native-messaging hello', async () => {
    const log = join(home, 'hello.log');
    const child = spawn(process.execPath, ['--import', RECORDER, BUILT_HOST, EXTENSION_ORIGIN], { env: environment(log), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => (out = Buffer.concat([out, chunk])));
    child.stdin.write(helloFrame());
    await waitUntil('the answer to hello', () => out.length >= 4 && out.length >= 4 + out.readUInt32LE(0));
    const reply = JSON.parse(out.subarray(4, 4 + out.readUInt32LE(0)).toString('utf8')) as { result?: { compatible?: boolean } };
    const heavy = heavyLoaded(log);
    child.stdin.end();
    await new Promise((resolve) => child.on('exit', resolve));
    expect(reply.result?.compatible).toBe(true);
    expect(loggedCount(log)).toBeGreaterThan(0);
    expect(heavy).toEqual({});
  });

  it('deputy --version', () => {
    const log = join(home, 'version.log');
    const result = spawnSync(process.execPath, ['--import', RECORDER, BUILT_HOST, '--version'], { env: environment(log), encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(loggedCount(log)).toBeGreaterThan(0);
    expect(heavyLoaded(log)).toEqual({});
  });

  it("deputy mcp's initialize", async () => {
    const log = join(home, 'mcp.log');
    const child = spawn(process.execPath, ['--import', RECORDER, BUILT_HOST, 'mcp'], { env: environment(log), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host-start-test', version: '0' } } })}\n`,
    );
    const line = await waitUntil('the answer to initialize', () => out.split('\n').find((item) => item.includes('"id":1')));
    const heavy = heavyLoaded(log);
    child.stdin.end();
    await new Promise((resolve) => child.on('exit', resolve));
    expect((JSON.parse(line) as { result?: { serverInfo?: unknown } }).result?.serverInfo).toBeDefined();
    expect(heavy).toEqual({});
  });

  it('the recorder does see a heavy library when one is loaded (the checks above would fail on one)', () => {
    const log = join(home, 'control.log');
    const result = spawnSync(process.execPath, ['--import', RECORDER, '--input-type=module', '-e', "await import('jszip');"], { cwd: ROOT, env: environment(log), encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(Object.keys(heavyLoaded(log))).toEqual(['jszip']);
  });

  it("the bundle's static import graph from the host's entry names no heavy package (with the chain that would)", () => {
    const metafile = JSON.parse(readFileSync(join(ROOT, 'dist-host', 'deputy.meta.json'), 'utf8')) as Metafile;
    const reached = staticPackages(metafile, 'native-host/index.ts');
    const heavy = Object.fromEntries([...reached].filter(([name]) => (HEAVY_PACKAGES as readonly string[]).includes(name)).map(([name, chain]) => [name, chain.join(' -> ')]));
    expect(Object.keys(metafile.inputs)).toContain('native-host/index.ts');
    expect(heavy).toEqual({});
  });

  it("the host's services, loaded once the hello is answered, reach no heavy package before a command needs it", () => {
    // The hello is answered before wired-host.ts loads, so the checks above no longer see what it imports; a heavy
    // library there would still slow every native-host start's first real request (and each MCP bridge's).
    const metafile = JSON.parse(readFileSync(join(ROOT, 'dist-host', 'deputy.meta.json'), 'utf8')) as Metafile;
    expect(Object.keys(metafile.inputs)).toContain('native-host/host/wired-host.ts');
    const reached = staticPackages(metafile, 'native-host/host/wired-host.ts');
    const heavy = Object.fromEntries([...reached].filter(([name]) => (HEAVY_PACKAGES as readonly string[]).includes(name)).map(([name, chain]) => [name, chain.join(' -> ')]));
    expect(heavy).toEqual({});
  });

  it('the hello and mcp answers reach neither zod nor the MCP SDK, though both are bundled in (with the chain that would)', () => {
    // Bundled libraries are no node_modules file the recorder could see: the metafile says what each start's chunk
    // loads before its first `await import()`.
    const metafile = JSON.parse(readFileSync(join(ROOT, 'dist-host', 'deputy.meta.json'), 'utf8')) as Metafile;
    for (const entry of ['native-host/host/host-command.ts', 'native-host/cli/mcp-command.ts']) {
      expect(Object.keys(metafile.inputs)).toContain(entry);
      const reached = [...staticInputs(metafile, entry)].filter(([file]) => /node_modules\/(zod|@modelcontextprotocol\/sdk)\//.test(file));
      expect({ entry, chains: reached.slice(0, 1).map(([, chain]) => chain.join(' -> ')) }).toEqual({ entry, chains: [] });
    }
    // The control: the server the mcp start hands over to does reach both.
    const server = [...staticInputs(metafile, 'native-host/mcp/mcp-server.ts').keys()];
    expect(server.some((file) => file.includes('node_modules/zod/'))).toBe(true);
    expect(server.some((file) => file.includes('node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
  });

  it('deputy mcp answers initialize once, then serves the official SDK client as before', async () => {
    const child = spawn(process.execPath, [BUILT_HOST, 'mcp'], { env: environment(join(home, 'unused.log')), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const init = { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'host-start-test', version: '0' } } };
    child.stdin.write(`${JSON.stringify(init)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' })}\n`);
    const lines = await waitUntil('the answer to tools/list', () => {
      const parsed = out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id?: number; result?: { tools?: Array<{ name: string }>; protocolVersion?: string } });
      return parsed.some((line) => line.id === 8) ? parsed : undefined;
    });
    child.stdin.end();
    await new Promise((resolve) => child.on('exit', resolve));
    expect(lines.filter((line) => line.id === 7)).toHaveLength(1);
    expect(lines.find((line) => line.id === 7)?.result?.protocolVersion).toBe('2025-06-18');
    expect(lines.find((line) => line.id === 8)?.result?.tools?.map((tool) => tool.name)).toContain('browser_snapshot');

    const client = new Client({ name: 'host-start-sdk', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BUILT_HOST, 'mcp'], env: environment(join(home, 'unused.log')) as Record<string, string>, stderr: 'ignore' }));
    try {
      expect(client.getServerVersion()?.name).toBe('deputy');
      expect(client.getInstructions()).toContain('browser_snapshot');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('browser_snapshot');
      const call = await client.callTool({ name: 'browser_snapshot', arguments: {} });
      expect(call.isError).toBe(true);
      expect(JSON.stringify(call.content)).toMatch(/browser is not running/);
    } finally {
      await client.close();
    }
  });
});
