import { describe, expect, it } from 'vitest';
import { costOf, priceOf } from '../../../../../shared/agent/providers/pricing';

describe('costOf', () => {
  it('prices a known model by its input and output tokens', () => {
    expect(costOf('gpt-4o-mini-2024-07-18', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(0.75);
  });

  it('prices cached input at the cached price and cache writes above the input price', () => {
    // 600k plain at $3, 300k read from cache at $0.30, 100k written at $3.75, 10k out at $15.
    const cost = costOf('claude-sonnet-4-5', { inputTokens: 1_000_000, outputTokens: 10_000, cachedInputTokens: 300_000, cacheWriteTokens: 100_000 });
    expect(cost).toBeCloseTo(1.8 + 0.09 + 0.375 + 0.15);
  });

  it('takes the longest matching prefix and leaves out a router prefix', () => {
    expect(priceOf('openai/gpt-4.1-mini')?.input).toBe(0.4);
    expect(priceOf('gpt-4.1')?.input).toBe(2);
  });

  it('says unknown (null) for a model it has no price for, and zero for a free local server', () => {
    expect(costOf('my-local-llama', { inputTokens: 10, outputTokens: 10 })).toBeNull();
    expect(costOf('my-local-llama', { inputTokens: 10, outputTokens: 10 }, { free: true })).toBe(0);
    expect(costOf('gpt-4o', null)).toBeNull();
  });
});
