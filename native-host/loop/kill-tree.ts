import { spawn } from 'node:child_process';

/**
 * Ends a child and everything it started. Children are spawned as leaders of their own process group (detached) on
 * POSIX, so one signal to the negative pid reaches grandchildren that a plain kill would orphan (a shell running a
 * test runner, or a fixer running tools). On Windows, taskkill walks the tree.
 */
export function killTree(pid: number, signal: NodeJS.Signals = 'SIGKILL', platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.on('error', () => undefined);
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone, or the pid never led one: fall back to the process itself.
    try {
      process.kill(pid, signal);
    } catch {
      // Nothing left to end.
    }
  }
}

/** Whether a process with this pid still exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
