import { AppError } from '../../shared/errors';

/** Waits `ms`, or rejects with a cancelled AppError as soon as the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AppError('cancelled', 'Stopped by the user.'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AppError('cancelled', 'Stopped by the user.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
