import { AppError } from '../../shared/errors';

export interface RetryPolicy {
  attempts: number;
  backoffSeconds: number;
}

/**
 * Runs an external step up to `attempts` times with a doubling pause, for failures that are often passing (a service
 * restarting, a network blip). A stop request ends the waiting at once.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  deps: { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; signal?: AbortSignal },
  attempt: () => Promise<T>,
): Promise<T> {
  let pause = policy.backoffSeconds * 1000;
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      const cancelled = error instanceof AppError && error.code === 'cancelled';
      if (cancelled || tried >= policy.attempts || deps.signal?.aborted) throw error;
    }
    await deps.sleep(pause, deps.signal);
    pause *= 2;
  }
}
