import { AppError } from '../errors';

/** Waits `ms`, or rejects with a cancelled AppError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AppError('cancelled', 'Stopped.'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AppError('cancelled', 'Stopped.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export type Sleep = typeof sleep;
