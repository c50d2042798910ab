import type { ShellProcess } from './protocol/shell-protocol';

/**
 * How shell sessions are put into words, the same for the model, the terminal and the side panel.
 */

/** "1 min 5 s", "12 s", "350 ms". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** One line of a command as lists show it: the first line, shortened, saying how many lines it had. */
export function commandLine(command: string, max = 100): string {
  const lines = command.trim().split('\n');
  const first = lines[0] ?? '';
  const text = lines.length > 1 ? `${first} … (${lines.length} lines)` : first;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A process's state in words: "running for 35 s", "exited 0 after 2 s", "killed after 4 s", ... */
export function processState(process: Pick<ShellProcess, 'status' | 'exitCode' | 'signal' | 'startedAt' | 'endedAt'>, now: number): string {
  const took = duration((process.endedAt ?? now) - process.startedAt);
  switch (process.status) {
    case 'running':
      return `running for ${took}`;
    case 'exited':
      return process.exitCode === null ? `ended by ${process.signal ?? 'a signal'} after ${took}` : `exited ${process.exitCode} after ${took}`;
    case 'killed':
      return `killed after ${took}`;
    case 'lost':
      return 'lost with the connection (it may or may not have finished)';
    case 'unknown':
      return 'was running when Deputy restarted; its output since then is lost (kill still works)';
  }
}
