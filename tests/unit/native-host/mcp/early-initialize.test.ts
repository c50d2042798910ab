import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { InitializeRequestSchema, JSONRPCRequestSchema, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../native-host/log/logger';
import { bridgePaths } from '../../../../native-host/mcp/bridge-paths';
import { initializeResult, readInitialize, readMcpEarly } from '../../../../native-host/mcp/early-initialize';
import { MCP_PROTOCOL_VERSIONS } from '../../../../native-host/mcp/mcp-identity';
import { createDeputyMcpServer } from '../../../../native-host/mcp/mcp-server';
import { LineStdioServerTransport } from '../../../../native-host/mcp/stdio-server-transport';

const runDir = mkdtempSync(join(tmpdir(), 'deputy-early-mcp-'));
afterAll(() => rmSync(runDir, { recursive: true, force: true }));
const newServer = () => createDeputyMcpServer({ paths: bridgePaths({ platform: 'linux', home: runDir, env: { DEPUTY_RUN_DIR: runDir } }), log: createLogger('test', []) });

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.0' } } };

/** Whether the SDK's own schemas take the message as an initialize request. */
const sdkAccepts = (value: unknown): boolean => JSONRPCRequestSchema.safeParse(value).success && InitializeRequestSchema.safeParse(value).success;

const VALUES: unknown[] = [undefined, null, true, false, 0, 1, 1.5, -3, 2 ** 53, '', 'x', '2025-06-18', [], [{}], {}, { a: {} }, { listChanged: true }, { listChanged: 1 }, { form: {} }, { url: { x: 1 } }, { context: {} }];

function matrix(): unknown[] {
  const all: unknown[] = [INIT, ...VALUES];
  for (const key of ['jsonrpc', 'id', 'method', 'params', 'extra']) for (const value of VALUES) all.push({ ...INIT, [key]: value });
  for (const key of ['protocolVersion', 'capabilities', 'clientInfo', '_meta', 'extra']) for (const value of VALUES) all.push({ ...INIT, params: { ...INIT.params, [key]: value } });
  for (const key of ['roots', 'sampling', 'elicitation', 'experimental', 'extensions', 'tasks', 'unknown']) for (const value of VALUES) all.push({ ...INIT, params: { ...INIT.params, capabilities: { [key]: value } } });
  for (const key of ['name', 'version', 'title', 'websiteUrl', 'icons']) for (const value of VALUES) all.push({ ...INIT, params: { ...INIT.params, clientInfo: { ...INIT.params.clientInfo, [key]: value } } });
  return all;
}

describe("deputy mcp's early answer to initialize", () => {
  it('knows the protocol versions the bundled SDK speaks, newest first', () => {
    expect(MCP_PROTOCOL_VERSIONS).toEqual([...new Set([LATEST_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS])]);
  });

  it('answers early only what the SDK itself accepts as initialize (a generated matrix)', () => {
    const cases = matrix();
    expect(cases.length).toBeGreaterThan(300);
    let early = 0;
    for (const value of cases) {
      if (readInitialize(value) === undefined) continue;
      early += 1;
      expect({ value, sdk: sdkAccepts(value) }).toEqual({ value, sdk: true });
    }
    // What real clients send is answered early: the SDK client's own initialize among them.
    expect(early).toBeGreaterThan(40);
    expect(readInitialize({ ...INIT, params: { ...INIT.params, capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } } } })).toEqual({ id: 1, protocolVersion: '2025-06-18' });
  });

  it("gives the SDK server's own answer, for every version it speaks and one it does not", async () => {
    for (const version of [...MCP_PROTOCOL_VERSIONS, '1999-01-01', '']) {
      const server = newServer();
      const [client, serverSide] = InMemoryTransport.createLinkedPair();
      const answers: JSONRPCMessage[] = [];
      client.onmessage = (message) => void answers.push(message);
      await server.connect(serverSide);
      await client.start();
      await client.send({ ...INIT, params: { ...INIT.params, protocolVersion: version } } as JSONRPCMessage);
      await expect.poll(() => answers.length).toBe(1);
      expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 1, result: initializeResult(version) });
      await server.close();
    }
  });

  it('hands everything read over to the SDK server, which does not answer initialize twice', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const early = readMcpEarly({ stdin, stdout });
    stdin.write(`\n${JSON.stringify(INIT)}\r\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n{"jsonrpc":"2.0","id":2,"method":"pi`);
    await early.firstInput;
    await expect.poll(() => out.split('\n').filter(Boolean).length).toBe(1);
    expect(JSON.parse(out.split('\n')[0] ?? '')).toEqual({ jsonrpc: '2.0', id: 1, result: initializeResult('2025-06-18') });
    const server = newServer();
    const transport = new LineStdioServerTransport(stdin, stdout, early);
    const errors: Error[] = [];
    transport.onerror = (error) => void errors.push(error);
    await server.connect(transport);
    stdin.write('ng"}\n');
    await expect.poll(() => out.split('\n').filter(Boolean).length).toBe(2);
    stdin.end('not json\n');
    await expect.poll(() => out.split('\n').filter(Boolean).length).toBe(3);
    const lines = out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id?: unknown; result?: unknown; error?: { code: number } });
    expect(lines.map((line) => line.id)).toEqual([1, 2, null]);
    expect(lines[1]?.result).toEqual({});
    expect(lines[2]?.error?.code).toBe(-32700);
    expect(errors.map((error) => error.message).filter((message) => message.includes('refused'))).toEqual([]);
    await server.close();
  });

  it('leaves a first line that is not a plain initialize to the SDK, which answers it', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const early = readMcpEarly({ stdin, stdout });
    stdin.write(`${JSON.stringify({ ...INIT, params: { ...INIT.params, capabilities: { roots: { listChanged: 'yes' } } } })}\n`);
    await early.firstInput;
    expect(out).toBe('');
    const server = newServer();
    await server.connect(new LineStdioServerTransport(stdin, stdout, early));
    await expect.poll(() => out.split('\n').filter(Boolean).length).toBe(1);
    expect((JSON.parse(out) as { id: number; error?: unknown }).error).toBeDefined();
    await server.close();
  });
});
