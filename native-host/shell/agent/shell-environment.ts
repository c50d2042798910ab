import type { AgentEnvironment, Observation } from '../../../shared/agent/environment';
import type { SessionLog } from '../session-log';
import type { ProcessInfo, ShellService } from '../shell-service';
import { describeTarget, type ShellTarget, type TargetInfo } from '../shell-target';

/** The shell as the agent drives it: the service, its log, the target, and the foreground wait set_timeout changes. */
export interface ShellAgentEnvironment extends AgentEnvironment {
  readonly service: ShellService;
  readonly log: SessionLog;
  readonly target: ShellTarget;
  readonly info: TargetInfo;
  /** How long a command runs in the foreground before it goes on in the background. */
  waitMs: number;
}

/** "1 min 5 s", "12 s", "350 ms". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** One line of the command as lists show it: the first line, shortened. */
export function commandLine(command: string, max = 100): string {
  const lines = command.trim().split('\n');
  const first = lines[0] ?? '';
  const text = lines.length > 1 ? `${first} … (${lines.length} lines)` : first;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A process's state in words: "running for 35 s", "exited 0 after 2 s", "killed", "lost with the connection". */
export function processState(process: ProcessInfo, now: number): string {
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

/**
 * What the model sees each step: the target, where commands start, the foreground wait, and the processes that are
 * running in the background or have output it has not read. The commands' output itself comes in tool results.
 */
export function createShellEnvironment(options: {
  service: ShellService;
  log: SessionLog;
  target: ShellTarget;
  info: TargetInfo;
  /** Where commands start unless run gets a cwd. */
  startDir: string;
  waitMs: number;
  now: () => number;
}): ShellAgentEnvironment {
  const environment: ShellAgentEnvironment = {
    service: options.service,
    log: options.log,
    target: options.target,
    info: options.info,
    waitMs: options.waitMs,
    observe: (): Promise<Observation> => {
      const now = options.now();
      const shown = options.service
        .list()
        .filter((p) => p.background || p.status === 'unknown')
        .filter((p, i, all) => p.status === 'running' || p.status === 'unknown' || p.unread || i >= all.length - 3);
      const lines = shown.map((p) => `- ${p.id} ${processState(p, now)}: ${commandLine(p.command)}${p.unread ? ' (new output: check or wait_for_output)' : ''}`);
      const home = options.startDir || 'the login folder';
      const text = [
        `Target: ${describeTarget(options.target.label, options.info)}`,
        `Commands start in ${home} unless run gets a cwd; each command is a fresh shell (cd and variables do not carry over).`,
        `A command runs in the foreground for up to ${duration(environment.waitMs)}, then goes on in the background with its id (set_timeout changes the wait).`,
        `Background processes:\n${lines.length > 0 ? lines.join('\n') : '(none)'}`,
      ].join('\n');
      return Promise.resolve({ kind: 'shell', url: options.target.url, title: options.target.label, text });
    },
  };
  return environment;
}
