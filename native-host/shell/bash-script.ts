/**
 * The text bash reads for one command. The model's code is never put on a command line (no `bash -c`), so no quoting
 * can break it: it goes to bash as a script, after a short prologue Deputy controls.
 *
 * The code sits inside `{ … }`, so bash reads all of it before running any of it: a command in it that reads standard
 * input (apt asking "continue?", `cat`, `read`) finds the end of input, instead of eating the rest of the script as
 * its answer. Pagers are turned into `cat`, so `git log` or `systemctl status` cannot wait for a key in a terminal.
 */

/** The environment every command gets, on this machine and over SSH (where sshd drops most variables we could send). */
export const COMMAND_ENV: Record<string, string> = {
  PAGER: 'cat',
  SYSTEMD_PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  // Credential prompts from git would wait for a terminal nobody types into.
  GIT_TERMINAL_PROMPT: '0',
};

/** Quotes one word for a POSIX shell: everything inside single quotes, and each single quote closed and escaped. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The marker a remote command prints first (with a nonce only Deputy knows), so its process group can be killed later. */
export function pgidMarker(nonce: string): RegExp {
  return new RegExp(`\\x1eDEPUTY-PGID-${nonce} (\\d+)\\x1e\\r?\\n?`);
}

export interface ScriptOptions {
  code: string;
  cwd?: string;
  /** Report the process group (remote commands, where Deputy cannot see the pid itself). */
  reportGroup?: { nonce: string };
  /** The script is a file that removes itself first (pty runs, where standard input is the terminal). */
  selfDeleting?: boolean;
}

export function bashScript(options: ScriptOptions): string {
  const lines: string[] = [];
  if (options.selfDeleting) lines.push('rm -f -- "$0"');
  lines.push(`export ${Object.entries(COMMAND_ENV).map(([key, value]) => `${key}=${shellQuote(value)}`).join(' ')}`);
  if (options.reportGroup) {
    // The process group of this bash: sshd made it the leader of its own session, so the group holds every process the
    // command starts (unless one makes its own). /proc where there is one, ps elsewhere (macOS, BSD).
    // POSIX only, as the target may run plain sh.
    lines.push(
      `__deputy_pgid=$( (cut -d' ' -f5 /proc/$$/stat || ps -o pgid= -p $$) 2>/dev/null | tr -d ' ')`,
      `printf '\\036DEPUTY-PGID-%s %s\\036\\n' ${shellQuote(options.reportGroup.nonce)} "$__deputy_pgid" >&2`,
      'unset __deputy_pgid',
    );
  }
  if (options.cwd !== undefined && options.cwd !== '') lines.push(`cd -- ${shellQuote(options.cwd)} || exit 1`);
  lines.push('{', options.code, '}', '');
  return lines.join('\n');
}

/** The script for a PowerShell target (Windows over SSH): read from standard input too, without a pty. */
export function powershellScript(options: Pick<ScriptOptions, 'code' | 'cwd'>): string {
  const quote = (text: string): string => `'${text.replace(/'/g, "''")}'`;
  const lines = ["$ProgressPreference = 'SilentlyContinue'"];
  if (options.cwd !== undefined && options.cwd !== '') lines.push(`Set-Location -LiteralPath ${quote(options.cwd)}`);
  lines.push(options.code, 'exit $LASTEXITCODE', '');
  return lines.join('\r\n');
}
