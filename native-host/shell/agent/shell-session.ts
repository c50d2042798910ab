import type { ChildProcess } from 'node:child_process';
import { createRedactor, type Redactor } from '../../../shared/agent/redactor';
import { createSecretVault, type SecretVault } from '../../../shared/agent/secret-vault';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../log/logger';
import type { OutputLimits } from '../command-output';
import { createLocalTarget } from '../local-target';
import { readLog, SessionLog } from '../session-log';
import { ShellService, type ProcessRecord, type ShellEvent } from '../shell-service';
import { describeTarget, type ShellTarget, type TargetInfo, type TargetSpec } from '../shell-target';
import type { SshPrompts } from '../ssh/ssh-connection';
import { resolveSshSettings } from '../ssh/ssh-destination';
import { createSshTarget } from '../ssh/ssh-target';
import { loadSessionFile, newSessionId, sessionPaths, type ShellSessionFile } from './shell-session-file';

/** What only the user may answer during a session: an unknown host key, a password or passphrase. */
export type ShellPrompts = SshPrompts;

export interface ShellSessionOptions {
  target: TargetSpec;
  sessionsRoot: string;
  /** Resume this saved session instead of starting a new one. */
  resume?: string;
  /** The id of a new session, when the caller announced it already. */
  sessionId?: string;
  prompts: ShellPrompts;
  home: string;
  localUser: string;
  env: NodeJS.ProcessEnv;
  /** Where local commands start. */
  cwd: string;
  track?: (child: ChildProcess) => void;
  onEvent?: (event: ShellEvent) => void;
  outputLimits?: Partial<OutputLimits> & { logBytesPerProcess?: number };
  logger?: Logger;
  now: () => number;
}

/** A connected target with its log and service: what a shell task runs on, and what stays after it for its processes. */
export interface ShellSession {
  readonly sessionId: string;
  readonly paths: ReturnType<typeof sessionPaths>;
  readonly target: ShellTarget;
  readonly info: TargetInfo;
  readonly description: string;
  /** Where commands start unless they name a folder: the folder Deputy runs in locally, the login folder over SSH. */
  readonly startDir: string;
  readonly log: SessionLog;
  readonly service: ShellService;
  readonly vault: SecretVault;
  readonly redactor: Redactor;
  /** The saved session being resumed, if any. */
  readonly saved: ShellSessionFile | undefined;
  /** Ends the session: its running processes are killed unless `keepProcesses`, the connection closes. */
  close(options?: { keepProcesses?: boolean }): Promise<void>;
}

export function createTarget(spec: TargetSpec, options: Pick<ShellSessionOptions, 'prompts' | 'home' | 'localUser' | 'env' | 'cwd' | 'track' | 'logger'>): ShellTarget {
  if (spec.kind === 'local') return createLocalTarget({ cwd: options.cwd, env: options.env, ...(options.track ? { track: options.track } : {}) });
  const settings = resolveSshSettings(spec.destination, { home: options.home, localUser: options.localUser, env: options.env });
  return createSshTarget({ settings, prompts: options.prompts, home: options.home, ...(options.logger ? { log: options.logger } : {}) });
}

/**
 * Opens a session: its folder and append-only log first (so even a failed connection leaves a record), then the
 * target, connected and probed. A resumed session continues its log and knows its processes again (their groups can
 * still be killed; their output since the restart is gone).
 */
export async function openShellSession(options: ShellSessionOptions): Promise<ShellSession> {
  const saved = options.resume === undefined ? undefined : await loadSessionFile(sessionPaths(options.sessionsRoot, options.resume).state);
  const spec = saved?.target ?? options.target;
  const sessionId = saved?.sessionId ?? options.sessionId ?? newSessionId(options.now());
  const paths = sessionPaths(options.sessionsRoot, sessionId);
  const vault = createSecretVault();
  const redactor = createRedactor(vault);
  const log = await SessionLog.open(paths.log, { redact: (text) => redactor.redact(text), now: options.now });
  let target: ShellTarget;
  try {
    target = createTarget(spec, options);
  } catch (error) {
    log.append({ type: 'note', text: `Could not set up the target: ${error instanceof Error ? error.message : String(error)}` });
    await log.close();
    throw error;
  }
  let info: TargetInfo;
  try {
    info = await target.connect();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.append({ type: 'note', text: `Could not connect to ${target.label}: ${message}` });
    log.append({ type: 'end', status: 'failed', summary: message });
    await log.close();
    await target.close();
    throw error instanceof AppError ? error : new AppError('unavailable', message);
  }
  const description = describeTarget(target.label, info);
  log.append({ type: 'connected', target: target.label, description });
  const service = new ShellService({
    target,
    log,
    redact: (text) => redactor.redact(text),
    now: options.now,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.prompts.secret
      ? {
          onPasswordPrompt: ({ prompt }: { prompt: string }) => (options.prompts.secret as NonNullable<ShellPrompts['secret']>)({ kind: 'sudo', prompt, target: target.label }),
        }
      : {}),
    ...(options.outputLimits ? { limits: options.outputLimits } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  if (saved) service.restore(await processesOf(saved, paths.log));
  return {
    sessionId,
    paths,
    target,
    info,
    description,
    startDir: spec.kind === 'local' ? options.cwd : info.home,
    log,
    service,
    vault,
    redactor,
    saved,
    close: async (closeOptions = {}) => {
      if (!closeOptions.keepProcesses) await service.closeAll();
      await log.flush().catch(() => undefined);
      await log.close();
      await target.close();
    },
  };
}

/**
 * The processes of a saved session: those in its state file, and any command its log recorded (durably, before it
 * started) that the state file missed because the host died first. Those are listed as unknown, so a resumed session
 * never reuses their ids and the model is not told they did not exist.
 */
async function processesOf(saved: ShellSessionFile, logFile: string): Promise<ProcessRecord[]> {
  const known = new Map(saved.processes.map((record) => [record.id, record]));
  const ended = new Map<string, { exitCode: number | null; signal: string | null; at: number; lost?: string }>();
  const commands: Array<{ id: string; command: string; cwd: string | null; pty: boolean; by: 'agent' | 'user'; at: number }> = [];
  try {
    for await (const line of readLog(logFile)) {
      if (line.type === 'command' && !known.has(line.process)) commands.push({ id: line.process, command: line.command, cwd: line.cwd, pty: line.pty, by: line.by, at: line.at });
      else if (line.type === 'exit' && !known.has(line.process)) ended.set(line.process, { exitCode: line.exitCode, signal: line.signal, at: line.at, ...(line.lost === undefined ? {} : { lost: line.lost }) });
    }
  } catch {
    // A log that cannot be read leaves the state file's list as it is.
  }
  const recovered = commands.map((command): ProcessRecord => {
    const end = ended.get(command.id);
    return {
      id: command.id,
      command: command.command,
      cwd: command.cwd,
      pty: command.pty,
      status: end ? (end.lost === undefined ? 'exited' : 'lost') : 'unknown',
      exitCode: end?.exitCode ?? null,
      signal: end?.signal ?? null,
      lost: end?.lost ?? null,
      startedAt: command.at,
      endedAt: end?.at ?? null,
      background: false,
      group: null,
      by: command.by,
    };
  });
  return [...saved.processes, ...recovered];
}
