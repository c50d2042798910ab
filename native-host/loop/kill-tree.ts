import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

/**
 * Whether a process with this pid is still running (signal 0 checks without sending anything). A zombie, one that has
 * ended but that nobody reaped yet (its parent was killed, and a container's first process may never reap it), still
 * answers signal 0 but runs nothing, so on Linux /proc says which it is.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // The state letter follows the command name in parentheses, which may itself contain spaces or parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
