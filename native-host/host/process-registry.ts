import type { ChildProcess } from 'node:child_process';

/**
 * Children started on the host's behalf (fixers, shell commands). On shutdown each is asked to stop with SIGTERM and
 * killed with SIGKILL if it is still there after the grace period, so no orphan outlives the host.
 */
export class ProcessRegistry {
  private readonly children = new Set<ChildProcess>();

  track(child: ChildProcess): ChildProcess {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  get size(): number {
    return this.children.size;
  }

  async terminateAll(graceMs: number): Promise<void> {
    const running = [...this.children].filter((child) => child.exitCode === null && child.signalCode === null);
    await Promise.all(
      running.map(
        (child) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, graceMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
