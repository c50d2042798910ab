import { z } from 'zod';

/** Where commands run: this machine, or a host over SSH (as the user wrote it: an alias or user@host[:port]). */
export const TargetSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({ kind: z.literal('ssh'), destination: z.string().min(1).max(300) }),
]);
export type TargetSpec = z.infer<typeof TargetSpec>;

/** What a target told about itself when Deputy connected: shown to the model and the user. */
export interface TargetInfo {
  os: 'linux' | 'darwin' | 'windows' | 'other';
  /** The interpreter commands go to. */
  shell: 'bash' | 'sh' | 'powershell';
  user: string;
  home: string;
  hostname: string;
  /** root: already root; passwordless: sudo -n works; password: sudo asks for one (run it with a pty); none. */
  sudo: 'root' | 'passwordless' | 'password' | 'none' | 'unknown';
}

export interface CommandSpec {
  code: string;
  cwd?: string;
  /** Run in a pseudo-terminal (sudo prompts, tools that insist on a terminal); output arrives as one stream. */
  pty: boolean;
}

export interface CommandEnd {
  exitCode: number | null;
  signal: string | null;
  /** Set when the connection to the target was lost while the command ran: it may or may not have finished. */
  lost?: string;
}

/** A command that was started. Output arrives through `onData`; `ended` settles once, when it is over. */
export interface RunningCommand {
  /** The process group that holds the command and its children (local pid, or the remote group), when known. */
  readonly group: number | undefined;
  /** Settles once the group is known (at once locally; when the remote shell reports it over SSH). */
  readonly groupKnown: Promise<number | undefined>;
  onData(listener: (chunk: Buffer) => void): void;
  readonly ended: Promise<CommandEnd>;
  /** Types into the command's terminal (pty only): a password the user entered, never the model. */
  write(text: string): void;
  /** Ends the command and everything it started: SIGTERM to the group, SIGKILL after a grace period. */
  kill(): Promise<void>;
}

/** A place commands run. The shell service is written against this, so local and SSH behave the same. */
export interface ShellTarget {
  readonly spec: TargetSpec;
  /** "this machine", "deploy@web1:22". */
  readonly label: string;
  /** "local:", "ssh://deploy@web1:22": the task's start address in traces and approvals. */
  readonly url: string;
  /** Connects (SSH) and looks at the target; throws an AppError that says what to fix. */
  connect(): Promise<TargetInfo>;
  start(spec: CommandSpec): Promise<RunningCommand>;
  /** Writes a file atomically (a temp file renamed into place), creating its folder; relative paths from `cwd`. */
  writeFile(path: string, content: string, cwd?: string): Promise<{ path: string; bytes: number }>;
  /** Ends a process group known from before a restart (no handle to it is left). */
  killGroup(group: number): Promise<void>;
  close(): Promise<void>;
}

/** How long a killed group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

/** The probe every POSIX target runs once connected: who, where, which OS, and whether sudo works without a password. */
export const PROBE_SCRIPT = [
  'printf "os=%s\\n" "$(uname -s 2>/dev/null)"',
  'printf "user=%s\\n" "$(id -un 2>/dev/null || whoami)"',
  'printf "home=%s\\n" "$HOME"',
  'printf "host=%s\\n" "$(hostname 2>/dev/null || uname -n)"',
  'if [ "$(id -u)" = 0 ]; then echo sudo=root',
  'elif command -v sudo >/dev/null 2>&1; then if sudo -n true >/dev/null 2>&1; then echo sudo=passwordless; else echo sudo=password; fi',
  'else echo sudo=none; fi',
  '',
].join('\n');

/** Reads the probe's `key=value` lines. */
export function parseProbe(text: string, shell: TargetInfo['shell']): TargetInfo {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const uname = (values.get('os') ?? '').toLowerCase();
  const sudo = values.get('sudo');
  return {
    os: uname === 'linux' ? 'linux' : uname === 'darwin' ? 'darwin' : 'other',
    shell,
    user: values.get('user') ?? '',
    home: values.get('home') ?? '',
    hostname: values.get('host') ?? '',
    sudo: sudo === 'root' || sudo === 'passwordless' || sudo === 'password' || sudo === 'none' ? sudo : 'unknown',
  };
}

/** One line for the model and the panel: "deploy@web1:22 (Linux, user deploy, sudo asks for a password)". */
export function describeTarget(label: string, info: TargetInfo | undefined): string {
  if (!info) return label;
  const os = { linux: 'Linux', darwin: 'macOS', windows: 'Windows', other: 'Unix' }[info.os];
  const sudo = {
    root: 'running as root',
    passwordless: 'sudo works without a password',
    password: 'sudo asks for a password (run it with pty: true; the user types it)',
    none: 'no sudo',
    unknown: 'sudo unknown',
  }[info.sudo];
  return `${label} (${os}, ${info.shell}, user ${info.user || '?'}${info.hostname ? ` on ${info.hostname}` : ''}, ${sudo})`;
}
