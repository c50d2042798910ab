import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../../fixtures/fake-provider/fake-provider-server';
import { createProvider } from '../../../../../shared/agent/providers/create-provider';
import { PROVIDER_PRESETS } from '../../../../../shared/agent/providers/provider-presets';
import { AppError } from '../../../../../shared/errors';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const ask = { system: 'S', messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

function configError(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('createProvider', () => {
  it('refuses to start without a key where one is needed, naming the variable to set', () => {
    const error = configError(() => createProvider({ preset: 'openai', model: 'gpt-4o-mini' }, { browser: false }));
    expect(error.code).toBe('bad_config');
    expect(error.message).toBe("No API key for openai. Enter one in Deputy's settings, or set OPENAI_API_KEY (or DEPUTY_API_KEY) for headless runs.");
    expect(configError(() => createProvider({ preset: 'anthropic', model: 'claude-haiku-4-5', apiKey: '  ' }, { browser: false })).message).toContain('ANTHROPIC_API_KEY');
  });

  it('asks for a base URL where the preset has none, and for a model', () => {
    expect(configError(() => createProvider({ preset: 'azure', model: 'gpt-4o', apiKey: 'k' }, { browser: false })).message).toMatch(/needs a base URL.*openai\.azure\.com/);
    expect(configError(() => createProvider({ preset: 'ollama', model: '' }, { browser: false })).message).toMatch(/^The provider settings are incomplete: model:/);
  });

  it('talks to a keyless local server by base URL, with the cost of a local model as zero', async () => {
    fake.enqueue({ text: 'hello', usage: { input: 10, output: 2 } });
    const provider = createProvider({ preset: 'ollama', model: 'qwen2.5:7b', baseUrl: fake.openaiBaseUrl }, { browser: false });
    const reply = await provider.complete(ask);
    expect(reply.text).toBe('hello');
    expect(provider.free).toBe(true);
    expect(fake.requests[0]?.path).toBe('/v1/chat/completions');
    expect((fake.requests[0]?.json as { model: string }).model).toBe('qwen2.5:7b');
  });

  it('sends the key as a bearer token to OpenAI-compatible servers and in api-key to Azure', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });
    await createProvider({ preset: 'openrouter', model: 'x/y', apiKey: 'or-key-1', baseUrl: fake.openaiBaseUrl }, { browser: false }).complete(ask);
    await createProvider({ preset: 'azure', model: 'gpt-4o', apiKey: 'az-key-2', baseUrl: fake.openaiBaseUrl }, { browser: false }).complete(ask);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer or-key-1');
    expect(fake.requests[1]?.headers['api-key']).toBe('az-key-2');
  });

  it('builds an Anthropic provider that sends the key', async () => {
    fake.enqueue({ text: 'hi there' });
    const reply = await createProvider({ preset: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'ant-key', baseUrl: fake.anthropicBaseUrl }, { browser: false }).complete(ask);
    expect(reply.text).toBe('hi there');
    // Anthropic's 1.x client sends the key as a bearer token; older ones used x-api-key.
    const headers = fake.requests[0]?.headers ?? {};
    expect(headers.authorization ?? headers['x-api-key']).toMatch(/^(Bearer )?ant-key$/);
    expect(fake.requests[0]?.path).toBe('/v1/messages');
  });

  it('retries through the settings, and wraps the JSON fallback when tool calling is off', async () => {
    fake.enqueue({ error: { status: 429, message: 'slow', headers: { 'retry-after-ms': '1' } } }, { text: '{"tool": "done", "arguments": {"success": true, "summary": "x"}}' });
    const provider = createProvider(
      { preset: 'custom', model: 'tiny', baseUrl: fake.openaiBaseUrl, toolCalling: 'json', maxRetries: 1 },
      { browser: false, retry: { baseDelayMs: 1 } },
    );
    const reply = await provider.complete({ ...ask, tools: [{ name: 'done', description: 'Finish', parameters: { type: 'object' } }] });
    expect(reply.toolCalls.map((c) => c.name)).toEqual(['done']);
    expect(fake.requests).toHaveLength(2);
  });

  it("sends the reasoning effort in each API's own field, and nothing when it is not set", async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' });
    const openai = { preset: 'openai', model: 'gpt-5-mini', apiKey: 'k', baseUrl: fake.openaiBaseUrl, reasoningEffort: 'low' } as const;
    await createProvider(openai, { browser: false }).complete(ask);
    await createProvider({ ...openai, openaiApi: 'responses' }, { browser: false }).complete(ask);
    await createProvider({ preset: 'anthropic', model: 'claude-opus-4-5', apiKey: 'k', baseUrl: fake.anthropicBaseUrl, reasoningEffort: 'medium' }, { browser: false }).complete(ask);
    await createProvider({ ...openai, reasoningEffort: undefined }, { browser: false }).complete(ask);
    const bodies = fake.requests.map((r) => r.json as Record<string, unknown>);
    expect(bodies[0]).toMatchObject({ reasoning_effort: 'low' });
    expect(bodies[1]).toMatchObject({ reasoning: { effort: 'low' } });
    expect(bodies[2]).toMatchObject({ output_config: { effort: 'medium' } });
    expect(bodies[3]).not.toHaveProperty('reasoning_effort');
  });

  it('uses the Responses API for OpenAI when the settings ask for it', async () => {
    fake.enqueue({ text: 'from responses' });
    const reply = await createProvider({ preset: 'openai', model: 'gpt-4.1-mini', apiKey: 'k', baseUrl: fake.openaiBaseUrl, openaiApi: 'responses' }, { browser: false }).complete(ask);
    expect(reply.text).toBe('from responses');
    expect(fake.requests[0]?.path).toBe('/v1/responses');
  });

  it('knows the documented endpoints of the OpenAI-compatible servers', () => {
    expect(PROVIDER_PRESETS.ollama.baseUrl).toBe('http://localhost:11434/v1');
    expect(PROVIDER_PRESETS.lmstudio.baseUrl).toBe('http://localhost:1234/v1');
    expect(PROVIDER_PRESETS.vllm.baseUrl).toBe('http://localhost:8000/v1');
    expect(PROVIDER_PRESETS.openrouter.baseUrl).toBe('https://openrouter.ai/api/v1');
    expect(PROVIDER_PRESETS.gemini.baseUrl).toBe('https://generativelanguage.googleapis.com/v1beta/openai/');
  });
});
