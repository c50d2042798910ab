import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpConfig, mcpConfigPath } from '../../../../native-host/mcp/mcp-config';

describe('mcp.json, the user\'s MCP servers', () => {
  let dir: string;
  const write = async (name: string, text: string): Promise<string> => {
    const file = join(dir, name);
    await writeFile(file, text);
    return file;
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'deputy-mcp-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lives in Deputy\'s data folder unless DEPUTY_MCP_CONFIG names another file', () => {
    expect(mcpConfigPath({ platform: 'linux', env: { HOME: '/home/ann' }, home: '/home/ann' } as never)).toBe('/home/ann/.local/share/deputy/mcp.json');
    expect(mcpConfigPath({ platform: 'linux', env: { DEPUTY_MCP_CONFIG: '/etc/x.json' }, home: '/home/ann' } as never)).toBe('/etc/x.json');
  });

  it('reads the format the common clients share, stdio and HTTP servers, with defaults', async () => {
    const file = await write('good.json', JSON.stringify({ mcpServers: { notes: { command: 'npx', args: ['notes-mcp'] }, docs: { url: 'http://127.0.0.1:3000/mcp', type: 'http' } } }));
    expect(await loadMcpConfig(file)).toEqual({
      mcpServers: { notes: { command: 'npx', args: ['notes-mcp'], env: {} }, docs: { url: 'http://127.0.0.1:3000/mcp', type: 'http', headers: {} } },
    });
  });

  it('means no servers when the file does not exist', async () => {
    expect(await loadMcpConfig(join(dir, 'absent.json'))).toEqual({ mcpServers: {} });
  });

  it('says where and what is wrong, with the expected shape, for broken JSON, a bad entry or a bad name', async () => {
    const broken = await write('broken.json', '{"mcpServers": {');
    await expect(loadMcpConfig(broken)).rejects.toThrow(new RegExp(`${broken} is not valid JSON .*It should look like \\{"mcpServers"`));
    const neither = await write('neither.json', JSON.stringify({ mcpServers: { odd: { args: ['x'] } } }));
    await expect(loadMcpConfig(neither)).rejects.toThrow(/is not a valid MCP settings file: .*odd.*Each server has either "command" .* or "url"/);
    const named = await write('named.json', JSON.stringify({ mcpServers: { 'no spaces please': { command: 'x' } } }));
    await expect(loadMcpConfig(named)).rejects.toThrow(/server names are letters, digits/);
  });
});
