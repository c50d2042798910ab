import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ProcessRegistry } from '../../../../native-host/host/process-registry';

const exited = (child: ReturnType<typeof spawn>): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

describe.skipIf(process.platform === 'win32')('ProcessRegistry', () => {
  it('runs the shutdown work features registered (a shell session ending its process groups), and not after it was removed', async () => {
    const registry = new ProcessRegistry();
    const done: string[] = [];
    registry.onShutdown(async (graceMs) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      done.push(`shell ${graceMs}`);
    });
    const remove = registry.onShutdown(() => Promise.resolve(void done.push('removed')));
    remove();
    // One that never settles cannot hold shutdown past its grace period.
    registry.onShutdown(() => new Promise(() => undefined));
    const started = Date.now();
    await registry.terminateAll(200);
    expect(done).toEqual(['shell 200']);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('ends a running child with SIGTERM and forgets it', async () => {
    const registry = new ProcessRegistry();
    const child = registry.track(spawn('sleep', ['30']));
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(registry.size).toBe(1);
    const started = Date.now();
    await registry.terminateAll(5000);
    expect(await exited(child)).toEqual({ code: null, signal: 'SIGTERM' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(registry.size).toBe(0);
  });

  it('kills a child that ignores SIGTERM once the grace period is over', async () => {
    const registry = new ProcessRegistry();
    const child = registry.track(
      spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); process.stdout.write('ready'); setInterval(() => {}, 1000);"]),
    );
    await new Promise((resolve) => child.stdout?.once('data', resolve));
    await registry.terminateAll(300);
    expect(await exited(child)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('skips children that have already exited', async () => {
    const registry = new ProcessRegistry();
    const child = registry.track(spawn('true'));
    await exited(child);
    await registry.terminateAll(100);
    expect(registry.size).toBe(0);
  });
});
