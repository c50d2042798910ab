import { AppError } from '../../shared/errors';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';

export interface WaitDeps {
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onAttempt?: (attempt: number, status: string) => void;
}

type Deploy = LoopConfig['deploy'];

/** Whether a health answer names the commit: its full hash, or any hex word of 7 or more characters it starts with. */
export function namesCommit(body: string, commit: string): boolean {
  if (body.includes(commit)) return true;
  return [...body.matchAll(/\b[0-9a-f]{7,40}\b/gi)].some((match) => commit.startsWith(match[0].toLowerCase()));
}

/** What an answer lacks to count as the deploy being done, or undefined when it counts. */
function missing(deploy: Deploy, body: string, commit: string): string | undefined {
  if (deploy.expectCommit && !namesCommit(body, commit)) return `does not name the pushed commit ${commit.slice(0, 10)} yet`;
  if (deploy.expectText !== undefined && !body.includes(deploy.expectText)) return `does not contain "${deploy.expectText}" yet`;
  return undefined;
}

/**
 * Waits for the deploy after a push of `commit`. Without a health URL it waits a blind delay. With one it polls with a
 * growing pause (15 s, 30 s, 60 s, 60 s, ... by default) until an answer is 2xx and, when asked, names the pushed
 * commit or holds the expected text: right after a push, and during a rolling deploy, the old version still answers
 * and is healthy. Returns how long it took.
 */
export async function waitForDeploy(deploy: Deploy, commit: string, deps: WaitDeps): Promise<number> {
  const started = deps.now();
  if (deploy.healthUrl === undefined) {
    await deps.sleep(deploy.waitSeconds * 1000, deps.signal);
    return deps.now() - started;
  }
  const url = deploy.healthUrl;
  const deadline = started + deploy.timeoutSeconds * 1000;
  let pause = deploy.backoffStartSeconds * 1000;
  let lastStatus = 'not asked yet';
  for (let attempt = 1; ; attempt += 1) {
    await deps.sleep(Math.min(pause, Math.max(0, deadline - deps.now())), deps.signal);
    if (deps.signal?.aborted) throw new AppError('cancelled', 'Stopped while waiting for the deploy');
    try {
      const response = await deps.fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
      const body = deploy.expectCommit || deploy.expectText !== undefined ? (await response.text()).slice(0, 100_000) : '';
      if (!deploy.expectCommit && deploy.expectText === undefined) await response.body?.cancel();
      const lacking = response.ok ? missing(deploy, body, commit) : undefined;
      lastStatus = `HTTP ${response.status}${lacking ? ` but ${lacking}` : ''}`;
      if (response.ok && !lacking) return deps.now() - started;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      lastStatus = `unreachable (${cause?.code ?? (error instanceof Error ? error.message : String(error))})`;
    }
    deps.onAttempt?.(attempt, lastStatus);
    if (deps.now() >= deadline) {
      throw new AppError(
        'timeout',
        `The deploy did not become ready: ${url} was ${lastStatus} after ${deploy.timeoutSeconds} s. Check that the service is running and the URL is right, look at the deploy job's logs, then run deputy loop --resume`,
      );
    }
    pause = Math.min(pause * 2, deploy.backoffMaxSeconds * 1000);
  }
}
