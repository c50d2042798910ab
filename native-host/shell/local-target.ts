import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import { isAlive, killTree } from '../loop/kill-tree';
import { bashScript, COMMAND_ENV, powershellScript } from './bash-script';
import { KILL_GRACE_MS, PROBE_SCRIPT, parseProbe, type CommandEnd, type CommandSpec, type RunningCommand, type ShellTarget, type TargetInfo } from './shell-target';
import { loadPty, PTY_SIZE } from './pty';

export interface LocalTargetOptions {
  /** Where commands start unless they name a folder. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Registers each child with the host, so a host shutdown ends it. */
  track?: (child: ChildProcess) => void;
}

/** How long output may keep arriving after the command's own process ended (its last writes still in the pipe). */
const DRAIN_MS = 200;

/**
 * Whether any process of the group still runs. On Linux /proc tells, and a zombie (ended, not yet reaped by a parent
 * such as a container's first process) does not count; elsewhere signal 0 to the group asks.
 */
export function groupAlive(group: number): boolean {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (fields[2] === String(group) && fields[0] !== 'Z') return true;
      } catch {
        // The process ended while we looked.
      }
    }
    return false;
  } catch {
    return isAlive(-group);
  }
}

/** Waits until nothing of the group is left, up to `ms`; true when it is gone. */
async function groupGone(group: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!groupAlive(group)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !groupAlive(group);
}

/** SIGTERM to the whole group, then SIGKILL to whatever is left after the grace period. */
export async function endGroup(group: number, platform: NodeJS.Platform = process.platform): Promise<void> {
  killTree(group, 'SIGTERM', platform);
  if (platform === 'win32' || (await groupGone(group, KILL_GRACE_MS))) return;
  killTree(group, 'SIGKILL', platform);
  await groupGone(group, 1000);
}

function piped(child: ChildProcess, platform: NodeJS.Platform): RunningCommand {
  const listeners: ((chunk: Buffer) => void)[] = [];
  const deliver = (chunk: Buffer): void => listeners.forEach((listener) => listener(chunk));
  child.stdout?.on('data', deliver);
  child.stderr?.on('data', deliver);
  const ended = new Promise<CommandEnd>((resolveEnd) => {
    let exit: CommandEnd | undefined;
    child.once('error', (error: NodeJS.ErrnoException) => resolveEnd({ exitCode: 127, signal: null, lost: `could not start bash (${error.code ?? error.message})` }));
    child.once('exit', (code, signal) => {
      exit = { exitCode: code, signal };
      // A background child that kept the pipes open must not hold the command's end: it goes on in the group.
      setTimeout(() => resolveEnd(exit as CommandEnd), DRAIN_MS).unref();
    });
    child.once('close', (code, signal) => resolveEnd(exit ?? { exitCode: code, signal }));
  });
  return groupCommand(child.pid, listeners, ended, () => undefined, platform);
}

/** A command that leads its own process group: killing it ends the group. */
function groupCommand(group: number | undefined, listeners: ((chunk: Buffer) => void)[], ended: Promise<CommandEnd>, write: (text: string) => void, platform: NodeJS.Platform): RunningCommand {
  return {
    group,
    groupKnown: Promise.resolve(group),
    onData: (listener) => void listeners.push(listener),
    ended,
    write,
    kill: async () => {
      if (group !== undefined) await endGroup(group, platform);
    },
  };
}

/**
 * Commands on this machine: bash reads each one from its standard input, in its own process group (so a kill reaches
 * everything it started), with the pagers turned off. With a pty the script goes to a private temp file that removes
 * itself, since the terminal is the command's input.
 */
export function createLocalTarget(options: LocalTargetOptions): ShellTarget {
  const platform = options.platform ?? process.platform;
  const windows = platform === 'win32';
  const env = { ...options.env, ...COMMAND_ENV };

  const startPiped = (spec: CommandSpec): RunningCommand => {
    const [file, args, script] = windows
      ? ['powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', '-'], powershellScript(spec)]
      : ['bash', ['--noprofile', '--norc', '-s'], bashScript(spec)];
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: { ...env, TERM: 'dumb' },
      detached: !windows,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    options.track?.(child);
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(script);
    return piped(child, platform);
  };

  const startPty = async (spec: CommandSpec): Promise<RunningCommand> => {
    if (windows) throw new AppError('unavailable', 'A pty is not offered for Windows targets: run the command without pty.');
    const pty = await loadPty();
    const folder = await mkdtemp(join(tmpdir(), 'deputy-pty-'));
    const file = join(folder, 'command.sh');
    await writeFile(file, bashScript({ ...spec, selfDeleting: true }), { mode: 0o600 });
    const terminal = pty.spawn('bash', ['--noprofile', '--norc', file], { name: 'xterm-256color', ...PTY_SIZE, cwd: options.cwd, env });
    const listeners: ((chunk: Buffer) => void)[] = [];
    terminal.onData((data) => listeners.forEach((listener) => listener(Buffer.from(data, 'utf8'))));
    const ended = new Promise<CommandEnd>((resolveEnd) =>
      terminal.onExit(({ exitCode, signal }) => {
        void rm(folder, { recursive: true, force: true });
        resolveEnd({ exitCode: signal ? null : exitCode, signal: signal ? `signal ${signal}` : null });
      }),
    );
    // forkpty makes the child the leader of a new session, so its pid is also its group.
    return groupCommand(terminal.pid, listeners, ended, (text) => terminal.write(text), platform);
  };

  return {
    spec: { kind: 'local' },
    label: 'this machine',
    url: 'local:',
    connect: async (): Promise<TargetInfo> => {
      if (windows) return { os: 'windows', shell: 'powershell', user: userInfo().username, home: options.env.USERPROFILE ?? '', hostname: hostname(), sudo: 'none' };
      const probe = startPiped({ code: PROBE_SCRIPT, pty: false });
      let text = '';
      probe.onData((chunk) => (text += chunk.toString('utf8')));
      const end = await probe.ended;
      if (end.lost !== undefined) throw new AppError('unavailable', `Commands cannot run on this machine: ${end.lost}. Install bash, or put it on the PATH.`);
      return parseProbe(text, 'bash');
    },
    start: (spec) => (spec.pty ? startPty(spec) : Promise.resolve(startPiped(spec))),
    writeFile: async (path, content, cwd) => {
      const target = resolve(cwd ?? options.cwd, path);
      await mkdir(dirname(target), { recursive: true });
      const mode = await stat(target).then((s) => s.mode & 0o777, () => 0o644);
      const temp = join(dirname(target), `.${Date.now().toString(36)}-${process.pid}.deputy-tmp`);
      await writeFile(temp, content, { mode });
      await rename(temp, target);
      return { path: target, bytes: Buffer.byteLength(content) };
    },
    killGroup: (group) => endGroup(group, platform),
    close: () => Promise.resolve(),
  };
}
