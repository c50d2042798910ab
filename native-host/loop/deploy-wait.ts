import { AppError } from '../../shared/errors';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';

export interface WaitDeps {
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onAttempt?: (attempt: number, status: string) => void;
}

type Deploy = NonNullable<LoopConfig['deploy']>;

/**
 * Waits for the deploy after a push: a fixed wait, or the health URL polled with a growing pause (15 s, 30 s, 60 s,
 * 60 s, ... by default). The first look comes after the first pause, because right after a push the old version is
 * usually still the one answering, and healthy. Returns how long it took.
 */
export async function waitForDeploy(deploy: Deploy, deps: WaitDeps): Promise<number> {
  const started = deps.now();
  if ('waitSeconds' in deploy) {
    await deps.sleep(deploy.waitSeconds * 1000, deps.signal);
    return deps.now() - started;
  }
  const deadline = started + deploy.timeoutSeconds * 1000;
  let pause = deploy.backoffStartSeconds * 1000;
  let lastStatus = 'not asked yet';
  for (let attempt = 1; ; attempt += 1) {
    await deps.sleep(Math.min(pause, Math.max(0, deadline - deps.now())), deps.signal);
    if (deps.signal?.aborted) throw new AppError('cancelled', 'Stopped while waiting for the deploy');
    try {
      const response = await deps.fetch(deploy.healthUrl, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
      await response.body?.cancel();
      lastStatus = `HTTP ${response.status}`;
      if (response.ok) return deps.now() - started;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      lastStatus = `unreachable (${cause?.code ?? (error instanceof Error ? error.message : String(error))})`;
    }
    deps.onAttempt?.(attempt, lastStatus);
    if (deps.now() >= deadline) {
      throw new AppError(
        'timeout',
        `The deploy did not become healthy: ${deploy.healthUrl} was ${lastStatus} after ${deploy.timeoutSeconds} s. Check that the service is running and the URL is right, look at the deploy job's logs, then run deputy loop --resume`,
      );
    }
    pause = Math.min(pause * 2, deploy.backoffMaxSeconds * 1000);
  }
}
