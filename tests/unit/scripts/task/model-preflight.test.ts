import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkModelServer, modelsUrl } from '../../../../scripts/task/model-preflight';

let server: Server | undefined;
const seen: { url: string; auth: string | undefined; host: string | undefined }[] = [];

async function serve(status: number, body: unknown): Promise<number> {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization, host: req.headers.host });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

afterEach(async () => {
  seen.length = 0;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('the model-server check before the browser starts', () => {
  it('asks for the model list where each provider keeps it', () => {
    expect(modelsUrl({ preset: 'openai', model: 'gpt-4o-mini' })).toBe('https://api.openai.com/v1/models');
    expect(modelsUrl({ preset: 'anthropic', model: 'claude-haiku-4-5' })).toBe('https://api.anthropic.com/v1/models');
    expect(modelsUrl({ preset: 'custom', baseUrl: 'http://localhost:11434/v1/', model: 'llama3.1' })).toBe('http://localhost:11434/v1/models');
  });

  it('passes a server that answers, by a mapped host name, with the key', async () => {
    const port = await serve(200, { data: [{ id: 'llama3.1:latest' }] });
    const result = await checkModelServer(
      { preset: 'custom', baseUrl: `http://models.test:${port}/v1`, model: 'llama3.1', apiKey: 'k-1' },
      { hostRules: 'MAP *.test 127.0.0.1' },
    );
    expect(result).toEqual({ url: `http://models.test:${port}/v1/models` });
    expect(seen).toEqual([{ url: '/v1/models', auth: 'Bearer k-1', host: `models.test:${port}` }]);
  });

  it('warns, without failing, when the server does not list the model', async () => {
    const port = await serve(200, { data: [{ id: 'qwen2.5' }, { id: 'mistral' }] });
    const result = await checkModelServer({ preset: 'custom', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'llama3.1' });
    expect(result.warning).toMatch(/lists no model named "llama3\.1" \(it lists qwen2\.5, mistral\): the task may fail\. Choose one with --model\./);
  });

  it('passes a server without a model list, and refuses a key the server refuses', async () => {
    const port = await serve(404, { error: 'no route' });
    await expect(checkModelServer({ preset: 'custom', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' })).resolves.toEqual({ url: `http://127.0.0.1:${port}/v1/models` });
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    const refused = await serve(401, { error: 'bad key' });
    await expect(checkModelServer({ preset: 'anthropic', baseUrl: `http://127.0.0.1:${refused}`, model: 'm', apiKey: 'wrong' })).rejects.toThrow(
      `The model server at http://127.0.0.1:${refused} refused the API key (HTTP 401): check ANTHROPIC_API_KEY.`,
    );
  });

  it('says plainly when nothing listens there or the name does not resolve', async () => {
    const port = await serve(200, {});
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    await expect(checkModelServer({ preset: 'custom', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' })).rejects.toThrow(
      new RegExp(`^Cannot reach the model server at http://127\\.0\\.0\\.1:${port} \\(nothing is listening there\\)\\. Is the server running, and is --base-url right\\?`),
    );
    await expect(checkModelServer({ preset: 'openai', model: 'gpt-4o-mini', apiKey: 'k' }, { hostRules: 'MAP * ~NOTFOUND' })).rejects.toThrow(
      /^Cannot reach the model server at https:\/\/api\.openai\.com \(the name api\.openai\.com does not resolve\)\. Check the network connection/,
    );
  });
});
