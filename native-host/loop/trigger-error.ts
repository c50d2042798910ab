import { AppError, type ErrorCode } from '../../shared/errors';

/**
 * A trigger that failed, saying whether it may have reached the service. Handling differs from other errors: a
 * request that was never sent (refused, unresolvable) can be sent again safely, one that was sent may have started
 * the job already, so repeating it could start a second job.
 */
export class TriggerError extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    /** The request (or the form) may have reached the service. */
    readonly sent: boolean,
    /** Trying again cannot help (a bad certificate, a field the page does not have, no browser to fill a form in). */
    readonly final = false,
  ) {
    super(code, message);
  }
}

/**
 * Whether a failed trigger may be tried again: never a final failure; one that may have reached the service only
 * when the user said repeating it is harmless (or the method is repeatable by definition).
 */
export function mayRetryTrigger(error: unknown, repeatable: boolean): boolean {
  if (!(error instanceof TriggerError)) return true;
  if (error.final) return false;
  return !error.sent || repeatable;
}
