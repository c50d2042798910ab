import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../../fixtures/fake-provider/fake-provider-server';
import { costOf } from '../../../../../shared/agent/providers/pricing';
import type { ProviderRequest } from '../../../../../shared/agent/providers/provider';
import { FLAVOURS, providerFor } from '../support/provider-clients';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
});

const REQUEST: ProviderRequest = {
  system: 'You are Deputy.',
  messages: [
    { role: 'user', content: 'Task: find the cheapest plan.' },
    { role: 'user', content: '<untrusted_page>Basic 5 EUR</untrusted_page>', cacheBreakpoint: true },
    { role: 'user', content: 'Plan: none yet.' },
  ],
  tools: [],
};

describe.each(FLAVOURS)('prompt caching over %s', (flavour) => {
  it('reads the cached tokens from the usage the API reports and prices them at the cached rate', async () => {
    const anthropic = flavour.startsWith('anthropic');
    fake.enqueue({ text: 'ok', usage: { input: 5000, output: 10, cached: 4096, ...(anthropic ? { cacheWrite: 512 } : {}) } });
    const reply = await providerFor(flavour, fake).complete(REQUEST);
    expect(reply.usage).toEqual({ inputTokens: 5000, outputTokens: 10, cachedInputTokens: 4096, ...(anthropic ? { cacheWriteTokens: 512 } : {}) });
    const full = costOf(reply.model, { inputTokens: 5000, outputTokens: 10 });
    expect(costOf(reply.model, reply.usage)).toBeLessThan(full ?? 0);
    if (anthropic) {
      // Breakpoints on the system prompt and at the end of the turn later requests repeat; none on the volatile tail.
      const body = fake.requests.at(-1)?.json as { system: { cache_control?: unknown }[]; messages: { content: { text: string; cache_control?: unknown }[] }[] };
      expect(body.system[0]?.cache_control).toEqual({ type: 'ephemeral' });
      const blocks = body.messages[0]?.content ?? [];
      expect(blocks.map((b) => b.cache_control ?? null)).toEqual([null, { type: 'ephemeral' }, null]);
    }
  });
});

describe('cost with caching', () => {
  it('bills Anthropic cache reads at a tenth of the input price and writes at 1.25x', () => {
    // claude-haiku-4-5: 1 USD per million input tokens, 5 per million output.
    expect(costOf('claude-haiku-4-5', { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 600_000, cacheWriteTokens: 400_000 })).toBeCloseTo(0.06 + 0.5);
    expect(costOf('gpt-4.1-mini', { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 1_000_000 })).toBeCloseTo(0.1);
  });
});
