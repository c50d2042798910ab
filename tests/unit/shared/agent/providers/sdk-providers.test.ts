import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../../fixtures/fake-provider/fake-provider-server';
import { AppError } from '../../../../../shared/errors';
import type { ProviderRequest } from '../../../../../shared/agent/providers/provider';
import OpenAI from 'openai';
import { createOpenAiChatProvider } from '../../../../../shared/agent/providers/openai-chat-provider';
import { FLAVOURS, TEST_KEY, providerFor } from '../support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const request: ProviderRequest = {
  system: 'You are Deputy.',
  messages: [
    { role: 'user', content: 'Add the red mug to the cart.' },
    { role: 'assistant', content: 'Clicking.', toolCalls: [{ id: 'call_a', name: 'click', arguments: '{"ref":3}' }] },
    { role: 'tool', toolCallId: 'call_a', name: 'click', content: 'Clicked [3].', isError: false },
    { role: 'user', content: 'Page now: [4] button "Checkout"' },
  ],
  tools: [{ name: 'click', description: 'Click', parameters: { type: 'object', properties: { ref: { type: 'integer' } }, required: ['ref'] } }],
};

describe.each(FLAVOURS)('%s adapter over the real SDK', (flavour) => {
  it('returns the text, the tool calls with their joined arguments, and the usage', async () => {
    fake.enqueue({
      text: 'I will open the checkout now.',
      toolCalls: [{ name: 'click', arguments: { ref: 4, double: false } }, { name: 'done', arguments: { success: true, summary: 'ok' } }],
      usage: { input: 321, output: 45 },
    });
    const reply = await providerFor(flavour, fake).complete(request);
    expect(reply.text).toBe('I will open the checkout now.');
    expect(reply.toolCalls.map((c) => [c.name, JSON.parse(c.arguments) as unknown])).toEqual([
      ['click', { ref: 4, double: false }],
      ['done', { success: true, summary: 'ok' }],
    ]);
    expect(reply.toolCalls.every((c) => c.id.length > 0)).toBe(true);
    expect(reply.usage).toEqual({ inputTokens: 321, outputTokens: 45 });
  });

  it('counts input read from the prompt cache in the input and names it, whichever way the wire reports it', async () => {
    fake.enqueue({ text: 'ok', usage: { input: 1000, output: 10, cached: 600 } });
    const reply = await providerFor(flavour, fake).complete(request);
    expect(reply.usage).toEqual({ inputTokens: 1000, outputTokens: 10, cachedInputTokens: 600 });
  });

  it('sends the system prompt, the history with the tool result paired to its call, and the tool schema', async () => {
    fake.enqueue({ text: 'ok' });
    await providerFor(flavour, fake).complete(request);
    const body = fake.requests[0]?.json as Record<string, unknown>;
    const wire = JSON.stringify(body);
    expect(wire).toContain('You are Deputy.');
    expect(wire).toContain('call_a');
    expect(wire).toContain('Clicked [3].');
    expect(wire).toContain('Page now: [4] button \\"Checkout\\"');
    expect(body.stream).toBe(flavour.endsWith('stream'));
    if (flavour.startsWith('openai')) {
      const messages = body.messages as { role: string; tool_call_id?: string }[];
      expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
      expect(messages[3]?.tool_call_id).toBe('call_a');
      expect((body.tools as { function: { name: string } }[])[0]?.function.name).toBe('click');
    } else if (flavour.startsWith('responses')) {
      const input = body.input as { role?: string; type?: string; call_id?: string }[];
      expect(input.map((item) => item.role ?? item.type)).toEqual(['user', 'assistant', 'function_call', 'function_call_output', 'user']);
      expect(input[3]?.call_id).toBe('call_a');
      expect(body.instructions).toBe('You are Deputy.');
      // Page content is not stored on the provider's side beyond the call.
      expect(body.store).toBe(false);
      expect((body.tools as { type: string; name: string }[])[0]).toMatchObject({ type: 'function', name: 'click' });
    } else {
      const messages = body.messages as { role: string; content: { type: string }[] }[];
      // The tool result and the next observation share one user turn, as Anthropic requires alternation.
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(messages[2]?.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
      // The system prompt (and the tools before it) is the first cache breakpoint; the latest observation the second.
      expect(body.system).toEqual([{ type: 'text', text: 'You are Deputy.', cache_control: { type: 'ephemeral' } }]);
      expect((body.tools as { name: string; input_schema: unknown }[])[0]?.input_schema).toMatchObject({ type: 'object' });
    }
  });

  it('keeps arguments that are not JSON as raw text for the loop to report', async () => {
    fake.enqueue({ toolCalls: [{ name: 'click', arguments: '{"ref": 4' }] });
    const reply = await providerFor(flavour, fake).complete(request);
    if (flavour === 'anthropic-plain') {
      // A non-streamed Anthropic reply carries parsed input objects, so broken JSON cannot arrive that way.
      expect(reply.toolCalls[0]?.arguments).toBe('{}');
    } else {
      expect(reply.toolCalls[0]?.arguments).toBe('{"ref": 4');
    }
  });

  it('turns a 401 into a terminal auth_failed error that says to check the key', async () => {
    fake.enqueue({ error: { status: 401, message: 'Incorrect API key provided' } });
    const error = await providerFor(flavour, fake).complete(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('auth_failed');
    expect((error as AppError).message).toMatch(/rejected the API key \(401\).*Check the key/);
    expect((error as AppError).details).toMatchObject({ retryable: false, status: 401 });
  });

  it('turns a 404 into not_found naming the model', async () => {
    fake.enqueue({ error: { status: 404, message: 'model not found' } });
    const error = (await providerFor(flavour, fake, 'no-such-model').complete(request).catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('"no-such-model"');
  });

  it('marks 429 as retryable and reads Retry-After', async () => {
    fake.enqueue({ error: { status: 429, message: 'Slow down', headers: { 'retry-after': '2' } } });
    const error = (await providerFor(flavour, fake).complete(request).catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('rate_limited');
    expect(error.details).toMatchObject({ retryable: true, retryAfterMs: 2000 });
  });

  it.each(['<html><body>Welcome to nginx</body></html>', '{"unexpected": true}'])('reports a reply it cannot read (%s) as bad_reply, saying to check the base URL', async (body) => {
    fake.enqueue({ raw: { status: 200, contentType: flavour.endsWith('stream') ? 'text/event-stream' : 'application/json', body } });
    const error = (await providerFor(flavour, fake).complete(request).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('bad_reply');
    expect(error.message).toMatch(/Check that the base URL points at/);
  });

  it('reports a connection failure as unavailable and retryable, naming the base URL', async () => {
    const url = fake.url;
    await fake.close();
    const error = (await providerFor(flavour, fake).complete(request).catch((e: unknown) => e)) as AppError;
    fake = await startFakeProvider();
    expect(['unavailable', 'timeout']).toContain(error.code);
    expect(error.message).toContain(url);
    expect(error.details).toMatchObject({ retryable: true });
  });
});

describe('OpenAI-compatible servers that stream tool calls without an index', () => {
  it('still separates the calls by their ids', async () => {
    fake.enqueue({ omitToolCallIndex: true, toolCalls: [{ name: 'click', arguments: { ref: 1 } }, { name: 'click', arguments: { ref: 2 } }] });
    const reply = await providerFor('openai-stream', fake).complete(request);
    expect(reply.toolCalls.map((c) => c.arguments)).toEqual(['{"ref":1}', '{"ref":2}']);
  });
});

describe('timeouts', () => {
  it('reports a server that never answers as a retryable timeout', async () => {
    fake.enqueue({ hang: true });
    const provider = createOpenAiChatProvider({ client: new OpenAI({ apiKey: TEST_KEY, baseURL: fake.openaiBaseUrl, maxRetries: 0, timeout: 200 }), model: 'gpt-4o-mini' });
    const error = (await provider.complete(request).catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/^Could not reach openai \(http:\/\/127\.0\.0\.1:\d+\/v1\): Request timed out\./);
    expect(error.details).toMatchObject({ retryable: true });
  });
});

describe('quota', () => {
  it('treats an OpenAI 429 insufficient_quota as terminal with a message about credit', async () => {
    fake.enqueue({ error: { status: 429, message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } });
    const error = (await providerFor('openai-plain', fake).complete(request).catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('quota_exceeded');
    expect(error.message).toMatch(/Add credit/);
  });
});
