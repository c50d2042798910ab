import { spawn, type ChildProcess } from 'node:child_process';
import { killTree } from './kill-tree';

export interface CommandSpec {
  /** A shell command line when `args` is absent; otherwise the executable. */
  command: string;
  args?: string[];
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  timeoutMs: number;
  /** Called for each complete stdout line, for streaming formats. */
  onStdoutLine?: (line: string) => void;
  /** Called once the child exists, with its pid, so a crash-safe caller can record it. */
  onSpawn?: (pid: number) => void;
  signal?: AbortSignal;
  /** Keep at most this many characters of each stream (the tail). */
  maxOutputChars?: number;
}

export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** Set when the executable could not be started at all (ENOENT, EACCES). */
  spawnError?: NodeJS.ErrnoException;
}

export type CommandRunner = (spec: CommandSpec) => Promise<CommandResult>;

const DEFAULT_MAX_OUTPUT = 200_000;

/**
 * Runs a command with a timeout that kills its whole process tree. `track` lets the native host register the child
 * with its ProcessRegistry, so a host shutdown ends it too.
 */
export function createCommandRunner(track: (child: ChildProcess) => void = () => undefined): CommandRunner {
  return (spec) =>
    new Promise<CommandResult>((resolve) => {
      const max = spec.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
      const useShell = spec.args === undefined;
      const child = spawn(spec.command, spec.args ?? [], {
        cwd: spec.cwd,
        env: spec.env ? { ...process.env, ...spec.env } : process.env,
        shell: useShell,
        detached: process.platform !== 'win32',
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      let stdout = '';
      let stderr = '';
      let pending = '';
      let timedOut = false;
      let aborted = false;
      let settled = false;
      const finish = (result: Omit<CommandResult, 'stdout' | 'stderr' | 'timedOut' | 'aborted'>): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        spec.signal?.removeEventListener('abort', onAbort);
        if (pending.length > 0) spec.onStdoutLine?.(pending);
        resolve({ ...result, stdout, stderr, timedOut, aborted });
      };
      const stop = (): void => {
        if (child.pid !== undefined) killTree(child.pid, 'SIGKILL');
      };
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, spec.timeoutMs);
      const onAbort = (): void => {
        aborted = true;
        stop();
      };
      if (spec.signal?.aborted) onAbort();
      else spec.signal?.addEventListener('abort', onAbort, { once: true });

      child.on('error', (error: NodeJS.ErrnoException) => finish({ exitCode: null, signal: null, spawnError: error }));
      if (child.pid !== undefined) {
        track(child);
        spec.onSpawn?.(child.pid);
      }
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        stdout = (stdout + chunk).slice(-max);
        if (!spec.onStdoutLine) return;
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) spec.onStdoutLine(line);
      });
      child.stderr.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-max);
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(spec.input ?? '');
      child.on('close', (code, signal) => finish({ exitCode: code, signal }));
    });
}
