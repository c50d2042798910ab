import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * The shell every command of the fixer runs in. Claude Code runs each Bash command as `$CLAUDE_CODE_SHELL_PREFIX
 * '<its shell command>'` (the command with its snapshot, `eval` and cwd bookkeeping), so Deputy's prefix gets the whole
 * line, runs it in the shell Claude Code would have used, and passes its stdout and stderr through the redactor on the
 * way out, keeping the exit status. The permission rules still judge the command as the model wrote it, the cwd still
 * carries over between calls, and the output is redacted before the CLI sees it: in the result, in an error (a
 * failing check, which no PostToolUse hook can rewrite), in a background task's output file, in the transcript.
 */

/** Largest text kept back waiting for the end of a line or of a key block. */
const MAX_PENDING = 1 << 20;

export interface LineRedactor {
  push(text: string): void;
  end(): void;
}

/**
 * Streamed text cut where redaction can judge it whole: at line ends, and around a `-----BEGIN ...-----` block until
 * its END line. Writes as soon as a piece is complete, so a background process's output file grows as it runs.
 */
export function createLineRedactor(redact: (text: string) => string, write: (text: string) => void, maxPending = MAX_PENDING): LineRedactor {
  let pending = '';
  const emit = (cut: number): void => {
    if (cut <= 0) return;
    const piece = pending.slice(0, cut);
    pending = pending.slice(cut);
    write(redact(piece));
  };
  return {
    push(text) {
      pending += text;
      let cut = pending.lastIndexOf('\n') + 1;
      const begin = pending.lastIndexOf('-----BEGIN ');
      if (begin !== -1 && !pending.includes('-----END ', begin)) cut = Math.min(cut, pending.lastIndexOf('\n', begin) + 1);
      if (pending.length > maxPending) cut = pending.lastIndexOf('\n') + 1 || pending.length;
      emit(cut);
    },
    end() {
      emit(pending.length);
    },
  };
}

export interface RedactedShellRun {
  /** The shell Claude Code was told to use (CLAUDE_CODE_SHELL), which its command line is written for. */
  shell: string;
  command: string;
  redact: (text: string) => string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Registers a handler for the signals to pass on to the command (Ctrl-C, a timeout's SIGTERM). */
  onSignal?: (forward: (signal: NodeJS.Signals) => void) => void;
}

/** How long output may still arrive after the shell exited, from a process it left running with the same pipes. */
const AFTER_EXIT_MS = 200;

/** Runs one command line; resolves with its exit status (128 + the signal's number when a signal ended it). */
export function runRedactedShell(run: RedactedShellRun): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(run.shell, ['-c', run.command], { stdio: ['inherit', 'pipe', 'pipe'] });
    const out = createLineRedactor(run.redact, run.stdout);
    const err = createLineRedactor(run.redact, run.stderr);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text: string) => out.push(text));
    child.stderr.on('data', (text: string) => err.push(text));
    run.onSignal?.((signal) => child.kill(signal));
    let settled = false;
    const finish = (status: number): void => {
      if (settled) return;
      settled = true;
      out.end();
      err.end();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(status);
    };
    child.on('error', (error) => {
      run.stderr(`Deputy: cannot start the shell ${run.shell} (${error.message}).\n`);
      finish(127);
    });
    child.on('exit', (code, signal) => {
      const status = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      let open = 2;
      const closed = (): void => {
        open -= 1;
        if (open === 0) finish(status);
      };
      if (child.stdout.readableEnded) closed();
      else child.stdout.once('end', closed);
      if (child.stderr.readableEnded) closed();
      else child.stderr.once('end', closed);
      // A daemon the command started keeps the pipes open; the command itself is over.
      setTimeout(() => finish(status), AFTER_EXIT_MS).unref();
    });
  });
}
