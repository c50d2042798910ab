import { randomBytes } from 'node:crypto';
import type { Client, ClientChannel, PseudoTtyOptions } from 'ssh2';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../log/logger';
import { bashScript, pgidMarker, powershellScript, shellQuote } from '../bash-script';
import { PTY_SIZE } from '../pty';
import { PROBE_SCRIPT, parseProbe, type CommandEnd, type CommandSpec, type RunningCommand, type ShellTarget, type TargetInfo } from '../shell-target';
import { connectSsh, type SshPrompts } from './ssh-connection';
import type { SshSettings } from './ssh-destination';

export interface SshTargetOptions {
  settings: SshSettings;
  prompts: SshPrompts;
  home: string;
  log?: Logger;
  /** How long opening a channel may take before the connection counts as dead. */
  channelTimeoutMs?: number;
}

const SHELLS = { bash: 'exec bash --noprofile --norc -s', sh: 'exec sh -s', powershell: 'powershell -NoProfile -NonInteractive -Command -' } as const;

/** Lets output through once the marker that carries the remote process group has been seen (and removes it). */
class MarkerFilter {
  private held = '';
  private found = false;

  constructor(
    private readonly marker: RegExp,
    private readonly onGroup: (group: number) => void,
    private readonly pass: (chunk: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.found) return this.pass(chunk);
    this.held += chunk.toString('latin1');
    const match = this.marker.exec(this.held);
    if (match?.[1]) {
      this.found = true;
      this.onGroup(Number(match[1]));
      const rest = this.held.slice(0, match.index) + this.held.slice(match.index + match[0].length);
      this.held = '';
      if (rest !== '') this.pass(Buffer.from(rest, 'latin1'));
    } else if (this.held.length > 4096) this.flush();
  }

  /** No marker came (the shell failed before the prologue): whatever was held is output. */
  flush(): void {
    if (this.found || this.held === '') return;
    this.found = true;
    const held = this.held;
    this.held = '';
    this.pass(Buffer.from(held, 'latin1'));
  }
}

function killScript(group: number): string {
  const g = String(group);
  // TERM to the group, up to two seconds for it to go, then KILL.
  return [
    `kill -TERM -- -${g} 2>/dev/null || exit 0`,
    'i=0',
    `while kill -0 -- -${g} 2>/dev/null && [ "$i" -lt 20 ]; do sleep 0.1; i=$((i+1)); done`,
    `kill -KILL -- -${g} 2>/dev/null`,
    'exit 0',
    '',
  ].join('\n');
}

/** A script that writes `content` to `path` on the target: base64 in a here-document, to a temp file renamed into place. */
function writeScript(path: string, content: string, cwd: string | undefined, nonce: string): string {
  const base64 = (Buffer.from(content, 'utf8').toString('base64').match(/.{1,76}/g) ?? []).join('\n');
  return [
    ...(cwd ? [`cd -- ${shellQuote(cwd)} || exit 1`] : []),
    `p=${shellQuote(path)}`,
    'case "$p" in /*) ;; *) p="$PWD/$p" ;; esac',
    'd=$(dirname -- "$p")',
    'mkdir -p -- "$d" || exit 1',
    `t="$d/.deputy-${nonce}.tmp"`,
    `base64 -d > "$t" <<'DEPUTY_${nonce}' || { rm -f -- "$t"; exit 1; }`,
    base64,
    `DEPUTY_${nonce}`,
    '[ -f "$p" ] && chmod "$(stat -c %a -- "$p" 2>/dev/null || stat -f %Lp -- "$p" 2>/dev/null || echo 644)" "$t" 2>/dev/null',
    'mv -f -- "$t" "$p" || exit 1',
    'printf "%s" "$p"',
    '',
  ].join('\n');
}

/**
 * Commands on a host over SSH, through one connection opened on first use with the user's OpenSSH setup. Each command
 * gets its own channel; bash reads it from standard input and first reports its process group, so `kill` reaches
 * everything the command started. A connection that drops is noticed (keepalives) and every running command is told
 * it was lost; the next command reconnects. A command whose channel cannot open is retried once after a fresh connect.
 */
export function createSshTarget(options: SshTargetOptions): ShellTarget {
  const { settings } = options;
  const channelTimeoutMs = options.channelTimeoutMs ?? 15_000;
  const label = `${settings.user}@${settings.host}:${settings.port}`;
  let client: Client | undefined;
  let connecting: Promise<Client> | undefined;
  let shell: TargetInfo['shell'] = 'bash';
  let closed = false;
  const losers = new Set<(reason: string) => void>();

  const drop = (reason: string): void => {
    if (!client) return;
    const gone = client;
    client = undefined;
    gone.end();
    options.log?.warn('ssh connection lost', { target: label, reason });
    for (const lose of [...losers]) lose(reason);
  };

  const ensure = (): Promise<Client> => {
    if (closed) return Promise.reject(new AppError('cancelled', `The session with ${label} was closed.`));
    if (client) return Promise.resolve(client);
    connecting ??= connectSsh(settings, options.prompts, { home: options.home, ...(options.log ? { log: options.log } : {}) }).then(
      (ready) => {
        connecting = undefined;
        client = ready;
        ready.on('error', (error: Error) => {
          if (client === ready) drop(error.message);
        });
        ready.on('close', () => {
          if (client === ready) drop('the connection closed');
        });
        return ready;
      },
      (error: unknown) => {
        connecting = undefined;
        throw error;
      },
    );
    return connecting;
  };

  const execOn = (on: Client, command: string, pty: boolean): Promise<ClientChannel> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new AppError('timeout', `${label} did not open a channel within ${Math.round(channelTimeoutMs / 1000)} s.`)), channelTimeoutMs);
      const window: PseudoTtyOptions = { term: 'xterm-256color', ...PTY_SIZE };
      const done = (error: Error | undefined, channel: ClientChannel): void => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(channel);
      };
      try {
        if (pty) on.exec(command, { pty: window }, done);
        else on.exec(command, done);
      } catch (error) {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });

  /** Opens a channel; when that fails and the connection turns out dead, reconnects once and tries again. */
  const open = async (command: string, pty = false): Promise<ClientChannel> => {
    const first = await ensure();
    try {
      return await execOn(first, command, pty);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const dead = client !== first || (error instanceof AppError && error.code === 'timeout') || /not connected|no response|socket|closed/i.test(message);
      if (!dead) throw new AppError('unavailable', `${label} refused to start the command (${message}); too many commands may be running at once (sshd's MaxSessions).`);
      drop(`opening a channel failed: ${message}`);
      options.log?.info('reconnecting after a failed channel', { target: label });
      const again = await ensure();
      return execOn(again, command, pty);
    }
  };

  /** Runs a short script and collects its output (the probe, writes, kills). */
  const runScript = async (script: string, command: string = SHELLS[shell]): Promise<{ code: number | null; out: string; err: string }> => {
    const channel = await open(command);
    let out = '';
    let err = '';
    channel.on('data', (data: Buffer) => (out += data.toString('utf8')));
    channel.stderr.on('data', (data: Buffer) => (err += data.toString('utf8')));
    return new Promise((resolve, reject) => {
      const lose = (reason: string): void => reject(new AppError('disconnected', `The connection to ${label} was lost (${reason}).`));
      losers.add(lose);
      channel.on('close', (code: number | null) => {
        losers.delete(lose);
        resolve({ code: typeof code === 'number' ? code : null, out, err });
      });
      channel.end(script);
    });
  };

  const start = async (spec: CommandSpec): Promise<RunningCommand> => {
    if (shell === 'powershell' && spec.pty) throw new AppError('unavailable', 'Windows targets run commands without a pty: run it again without pty.');
    const nonce = randomBytes(6).toString('hex');
    let channel: ClientChannel;
    if (shell === 'powershell') {
      channel = await open(SHELLS.powershell);
      channel.end(powershellScript(spec));
    } else if (spec.pty) {
      // The terminal is the command's input, so the script goes to a private temp file first (which removes itself).
      const upload = await runScript(
        [
          'umask 077',
          'f=$(mktemp "${TMPDIR:-/tmp}/deputy.XXXXXX") || exit 1',
          `cat > "$f" <<'DEPUTY_${nonce}'`,
          bashScript({ ...spec, reportGroup: { nonce }, selfDeleting: true }),
          `DEPUTY_${nonce}`,
          'printf "%s" "$f"',
          '',
        ].join('\n'),
      );
      const file = upload.out.trim();
      if (upload.code !== 0 || !file.startsWith('/')) throw new AppError('unavailable', `Could not prepare the command on ${label}: ${upload.err.trim() || 'mktemp failed'}`);
      channel = await open(`exec ${shell === 'bash' ? 'bash --noprofile --norc' : 'sh'} ${shellQuote(file)}`, true);
    } else {
      channel = await open(SHELLS[shell]);
      channel.end(bashScript({ ...spec, reportGroup: { nonce } }));
    }

    const listeners: ((chunk: Buffer) => void)[] = [];
    const deliver = (chunk: Buffer): void => listeners.forEach((listener) => listener(chunk));
    let group: number | undefined;
    let groupFound: (group: number | undefined) => void = () => undefined;
    const groupKnown = new Promise<number | undefined>((resolve) => (groupFound = resolve));
    const marker = pgidMarker(nonce);
    const filter = new MarkerFilter(
      marker,
      (found) => {
        group = found;
        groupFound(found);
      },
      deliver,
    );
    if (shell === 'powershell') {
      channel.on('data', deliver);
      channel.stderr.on('data', deliver);
    } else if (spec.pty) {
      channel.on('data', (data: Buffer) => filter.push(data));
    } else {
      channel.on('data', deliver);
      channel.stderr.on('data', (data: Buffer) => filter.push(data));
    }
    let exit: { code: number | null; signal: string | null } | undefined;
    channel.on('exit', (code: number | null, signal?: string) => (exit = { code: typeof code === 'number' ? code : null, signal: signal ?? null }));
    const ended = new Promise<CommandEnd>((resolve) => {
      const lose = (reason: string): void => {
        filter.flush();
        groupFound(group);
        resolve({ exitCode: null, signal: null, lost: `the connection to ${label} was lost (${reason}); the command may or may not have finished` });
      };
      losers.add(lose);
      channel.on('close', () => {
        losers.delete(lose);
        filter.flush();
        groupFound(group);
        if (exit) resolve({ exitCode: exit.code, signal: exit.signal });
        else if (!client) lose('the connection closed');
        else resolve({ exitCode: null, signal: null, lost: `${label} closed the command's channel without an exit status` });
      });
    });
    return {
      get group() {
        return group;
      },
      groupKnown,
      onData: (listener) => void listeners.push(listener),
      ended,
      write: (text) => void channel.write(text),
      kill: async () => {
        if (group !== undefined && client) await runScript(killScript(group)).catch(() => undefined);
        channel.close();
      },
    };
  };

  return {
    spec: { kind: 'ssh', destination: settings.destination },
    label,
    url: `ssh://${label}`,
    connect: async (): Promise<TargetInfo> => {
      const probe = await runScript(PROBE_SCRIPT, SHELLS.bash);
      if (probe.out.includes('os=')) {
        shell = 'bash';
        return parseProbe(probe.out, 'bash');
      }
      const windows = await runScript('', 'echo %OS%');
      if (windows.out.includes('Windows_NT')) {
        shell = 'powershell';
        return { os: 'windows', shell, user: settings.user, home: '', hostname: settings.host, sudo: 'none' };
      }
      const sh = await runScript(PROBE_SCRIPT, SHELLS.sh);
      if (!sh.out.includes('os=')) throw new AppError('unavailable', `${label} runs neither bash nor sh for Deputy: ${(probe.err || sh.err).trim().slice(0, 300)}`);
      shell = 'sh';
      return parseProbe(sh.out, 'sh');
    },
    start,
    writeFile: async (path, content, cwd) => {
      if (shell === 'powershell') throw new AppError('unavailable', 'write_file is not offered for Windows targets yet: write the file with a PowerShell command.');
      const nonce = randomBytes(6).toString('hex');
      const result = await runScript(writeScript(path, content, cwd, nonce));
      if (result.code !== 0) throw new AppError('unavailable', `Could not write ${path} on ${label}: ${result.err.trim().slice(0, 500) || `exit code ${String(result.code)}`}`);
      return { path: result.out.trim() || path, bytes: Buffer.byteLength(content) };
    },
    killGroup: async (group) => {
      await runScript(killScript(group));
    },
    close: () => {
      closed = true;
      client?.end();
      client = undefined;
      return Promise.resolve();
    },
  };
}
