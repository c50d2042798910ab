import { AppError } from '../../shared/errors';

export interface RetryPolicy {
  attempts: number;
  backoffSeconds: number;
}

export interface RetryHooks {
  /** Whether this failure may be tried again; by default every failure but a stop request may. */
  retryable?: (error: unknown) => boolean;
  /** Told before each pause, so the user sees why the step takes longer. */
  onRetry?: (error: unknown, attempt: number, pauseMs: number) => void;
}

/**
 * Runs an external step up to `attempts` times with a doubling pause, for failures that are often passing (a service
 * restarting, a network blip). A stop request ends the waiting at once; a failure the hooks call final ends it too.
 * Resolves with the result and the attempt that gave it.
 */
export async function withAttempts<T>(
  policy: RetryPolicy,
  deps: { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; signal?: AbortSignal },
  attempt: () => Promise<T>,
  hooks: RetryHooks = {},
): Promise<{ result: T; attempts: number }> {
  let pause = policy.backoffSeconds * 1000;
  for (let tried = 1; ; tried += 1) {
    try {
      return { result: await attempt(), attempts: tried };
    } catch (error) {
      const cancelled = error instanceof AppError && error.code === 'cancelled';
      if (cancelled || tried >= policy.attempts || deps.signal?.aborted || hooks.retryable?.(error) === false) throw error;
      hooks.onRetry?.(error, tried, pause);
    }
    await deps.sleep(pause, deps.signal);
    pause *= 2;
  }
}

/** withAttempts for callers that only need the result. */
export async function withRetries<T>(
  policy: RetryPolicy,
  deps: { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; signal?: AbortSignal },
  attempt: () => Promise<T>,
  hooks: RetryHooks = {},
): Promise<T> {
  return (await withAttempts(policy, deps, attempt, hooks)).result;
}
