import { AppError } from '../../errors';
import { sleep as realSleep, type Sleep } from '../sleep';
import type { CompleteOptions, Provider, ProviderReply, ProviderRequest } from './provider';
import { providerErrorDetails } from './provider-error';

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A number in [0, 1); jitter spreads retries of many tasks so they do not hit the server together. */
  random?: () => number;
  sleep?: Sleep;
  /** Called before each wait, so the side panel can say "rate limited, retrying in 4 s". */
  onRetry?(info: { attempt: number; delayMs: number; error: AppError }): void;
}

/** The wait before retry `attempt` (1-based): full jitter over an exponential ceiling, or the server's Retry-After. */
export function backoffDelay(attempt: number, retryAfter: number | null, options: Required<Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>>): number {
  if (retryAfter !== null) return Math.min(retryAfter, options.maxDelayMs * 4);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (options.random() * ceiling) / 2);
}

/**
 * Retries 429, 5xx, timeouts and network errors with exponential backoff and jitter, honouring Retry-After. Terminal
 * errors (401, 403, 404, quota, bad request) go straight up with their message.
 */
export function withRetries(provider: Provider, options: RetryOptions = {}): Provider {
  const maxRetries = options.maxRetries ?? 4;
  const timing = { baseDelayMs: options.baseDelayMs ?? 1000, maxDelayMs: options.maxDelayMs ?? 30_000, random: options.random ?? Math.random };
  const wait = options.sleep ?? realSleep;
  return {
    label: provider.label,
    model: provider.model,
    vision: provider.vision,
    ...(provider.free ? { free: true } : {}),
    async complete(request: ProviderRequest, callOptions: CompleteOptions = {}): Promise<ProviderReply> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await provider.complete(request, callOptions);
        } catch (error) {
          const appError = error instanceof AppError ? error : new AppError('internal', String(error), { cause: error });
          const details = providerErrorDetails(appError);
          if (!details.retryable || callOptions.signal?.aborted) throw appError;
          if (attempt > maxRetries) {
            throw new AppError(appError.code, `${appError.message} Gave up after ${maxRetries + 1} attempts; try again later.`, {
              cause: appError,
              details: appError.details,
            });
          }
          const delayMs = backoffDelay(attempt, details.retryAfterMs, timing);
          options.onRetry?.({ attempt, delayMs, error: appError });
          await wait(delayMs, callOptions.signal);
        }
      }
    },
  };
}
