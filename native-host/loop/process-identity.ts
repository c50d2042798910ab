import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAlive } from './kill-tree';

/**
 * When a process started, as the system records it: on Linux the start time in clock ticks after boot from
 * /proc/PID/stat, elsewhere the start date `ps` prints. A pid is reused once its process ends, so a saved pid names
 * the same process only while its start time is the same.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[19];
    if (ticks) return `linux:${ticks}`;
  } catch {
    // No /proc: ask ps.
  }
  if (process.platform === 'win32') return undefined;
  const result = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 });
  const started = result.status === 0 ? result.stdout.trim() : '';
  return started ? `ps:${started}` : undefined;
}

/**
 * Whether `pid` is still the process that was saved with `startTime`. Without a saved start time nothing can be
 * proven, so the answer is no: Deputy never ends a process it cannot tell is its own.
 */
export function isSameProcess(pid: number, startTime: string | undefined): boolean {
  if (!isAlive(pid) || startTime === undefined) return false;
  return processStartTime(pid) === startTime;
}
