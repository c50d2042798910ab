/** How `npm run task` ends, for scripts that run it. The README lists the same codes. */
export const EXIT = {
  /** The task was done and the model said it succeeded. */
  success: 0,
  /** The task ended any other way: failed, refused, a budget ran out, handed to the user, stopped. */
  notDone: 1,
  /** A mistake in the command line. */
  usage: 2,
  /** The model server could not be reached or refused the key (checked before the browser starts). */
  modelServer: 3,
  /** The browser could not be started: none found, the profile is in use, or the extension is not built. */
  browser: 4,
  /** Interrupted with Ctrl-C: the task was stopped and what it did so far was saved. */
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = [
  'Exit codes:',
  '  0    the task succeeded',
  '  1    the task ended without success (failed, a budget ran out, handed to you, stopped)',
  '  2    a mistake in the command line',
  '  3    the model server could not be reached or refused the key',
  '  4    the browser could not be started (none found, profile in use, extension not built)',
  '  130  interrupted with Ctrl-C (the task was stopped and its trace saved)',
].join('\n');

/** An ending with a known exit code and a message that says what to do; printed without a stack trace. */
export class ExitError extends Error {
  override readonly name = 'ExitError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The exit code for an error that ended a run before it could report on its own. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof Error && 'exitCode' in error && typeof error.exitCode === 'number') return error.exitCode;
  const name = error instanceof Error ? error.name : '';
  if (name === 'ModelServerError') return EXIT.modelServer;
  if (name === 'BrowserNotFoundError' || name === 'ProfileInUseError') return EXIT.browser;
  return EXIT.notDone;
}
