import { runPostToolUseHook } from './post-tool-use-hook';
import { runRedactedShell } from './redacting-shell';
import { serviceRedactor } from './service-text';

export interface RedactIo {
  stdin: () => string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Registers a handler for the signals the shell passes on to its command. */
  onSignal?: (forward: (signal: NodeJS.Signals) => void) => void;
}

/**
 * What keeps secrets out of the fixer's model; Claude Code starts it for every tool call and every shell command:
 *   loop-redact shell <shell> <command line>   the shell prefix: runs the line, its output redacted, its status kept
 *   loop-redact hook                           the PostToolUse hook: the call on stdin, the redacted result on stdout
 */
export async function loopRedact(argv: string[], io: RedactIo): Promise<number> {
  const [mode, ...rest] = argv;
  const redactor = serviceRedactor();
  if (mode === 'hook') {
    const result = runPostToolUseHook(io.stdin(), redactor);
    io.stdout(result.stdout);
    io.stderr(result.stderr);
    return result.exitCode;
  }
  const [shell, ...words] = rest;
  if (mode === 'shell' && shell && words.length > 0) {
    return runRedactedShell({ shell, command: words.join(' '), redact: (text) => redactor.redact(text), stdout: io.stdout, stderr: io.stderr, ...(io.onSignal ? { onSignal: io.onSignal } : {}) });
  }
  io.stderr('Deputy: loop-redact expects "hook" (a PostToolUse call on stdin) or "shell <shell> <command line>".\n');
  return 2;
}
