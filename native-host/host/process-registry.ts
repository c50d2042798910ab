import type { ChildProcess } from 'node:child_process';

/**
 * Ends a child politely: `ask` asks it to stop (a signal, or closing its IPC channel so it finishes its writes), and it is
 * killed with SIGKILL if it is still there after `graceMs`. Resolves once it is gone; at once if it already was.
 */
export function endChild(child: ChildProcess, graceMs: number, ask: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    ask();
  });
}

/**
 * Children started on the host's behalf (fixers, shell commands). On shutdown each is asked to stop with SIGTERM and
 * killed with SIGKILL if it is still there after the grace period, so no orphan outlives the host.
 */
export class ProcessRegistry {
  private readonly children = new Set<ChildProcess>();
  private readonly cleanups = new Set<(graceMs: number) => Promise<void>>();

  /**
   * Work that ends what a feature started in ways a ChildProcess handle does not cover (a shell command's whole
   * process group, a pty, a remote command over SSH). Run at shutdown beside the children's SIGTERM.
   */
  onShutdown(cleanup: (graceMs: number) => Promise<void>): () => void {
    this.cleanups.add(cleanup);
    return () => this.cleanups.delete(cleanup);
  }

  track(child: ChildProcess): ChildProcess {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  get size(): number {
    return this.children.size;
  }

  async terminateAll(graceMs: number): Promise<void> {
    const cleanups = [...this.cleanups].map(async (cleanup) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([cleanup(graceMs).catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, graceMs + 1000)))]);
      clearTimeout(timer);
    });
    await Promise.all([...this.children].map((child) => endChild(child, graceMs, () => child.kill('SIGTERM'))));
    await Promise.all(cleanups);
  }
}
