import { describe, expect, it } from 'vitest';
import { backoffDelay, withRetries } from '../../../../../shared/agent/providers/retrying-provider';
import type { Provider, ProviderReply } from '../../../../../shared/agent/providers/provider';
import { AppError } from '../../../../../shared/errors';

const ok: ProviderReply = { text: 'ok', toolCalls: [], usage: null, model: 'm', stopReason: 'stop' };

function flaky(errors: AppError[]): Provider & { calls: number } {
  const provider = {
    label: 'test',
    model: 'm',
    vision: false,
    calls: 0,
    complete(): Promise<ProviderReply> {
      provider.calls += 1;
      const error = errors.shift();
      return error ? Promise.reject(error) : Promise.resolve(ok);
    },
  };
  return provider;
}

const retryable = (retryAfterMs: number | null = null): AppError => new AppError('rate_limited', 'limited', { details: { status: 429, retryable: true, retryAfterMs } });

describe('backoffDelay', () => {
  const timing = { baseDelayMs: 100, maxDelayMs: 1000 };
  it('grows exponentially with full jitter between half and all of the ceiling, capped', () => {
    expect(backoffDelay(1, null, { ...timing, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, null, { ...timing, random: () => 0.999 })).toBe(100);
    expect(backoffDelay(3, null, { ...timing, random: () => 0 })).toBe(200);
    expect(backoffDelay(10, null, { ...timing, random: () => 0.999 })).toBe(1000);
  });
  it("uses the server's Retry-After instead, within reason", () => {
    expect(backoffDelay(1, 2500, { ...timing, random: () => 0.5 })).toBe(2500);
    expect(backoffDelay(1, 3_600_000, { ...timing, random: () => 0.5 })).toBe(4000);
  });
});

describe('withRetries', () => {
  it('waits as the server asked, then succeeds', async () => {
    const waits: number[] = [];
    const inner = flaky([retryable(1234), retryable()]);
    const reply = await withRetries(inner, { baseDelayMs: 10, random: () => 0, sleep: (ms) => (waits.push(ms), Promise.resolve()) }).complete({ system: '', messages: [], tools: [] });
    expect(reply).toEqual(ok);
    expect(waits).toEqual([1234, 10]);
    expect(inner.calls).toBe(3);
  });

  it('does not retry terminal errors', async () => {
    const inner = flaky([new AppError('auth_failed', 'bad key', { details: { status: 401, retryable: false, retryAfterMs: null } })]);
    await expect(withRetries(inner, { sleep: () => Promise.resolve() }).complete({ system: '', messages: [], tools: [] })).rejects.toMatchObject({ code: 'auth_failed' });
    expect(inner.calls).toBe(1);
  });

  it('gives up after the configured retries and says so', async () => {
    const inner = flaky([retryable(), retryable(), retryable()]);
    const error = await withRetries(inner, { maxRetries: 2, sleep: () => Promise.resolve() }).complete({ system: '', messages: [], tools: [] }).catch((e: unknown) => e);
    expect((error as AppError).message).toBe('limited Gave up after 3 attempts; try again later.');
    expect(inner.calls).toBe(3);
  });
});
