import type { AgentEnvironment, Observation } from '../../../shared/agent/environment';
import type { SessionLog } from '../session-log';
import { commandLine, duration, processState } from '../../../shared/shell-text';
import type { ShellService } from '../shell-service';
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
