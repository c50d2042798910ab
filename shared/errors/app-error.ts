import { z } from 'zod';

/** Every error code that can cross a boundary. Handling branches on these, never on message text. */
export const ErrorCode = z.enum([
  'bad_frame',
  'bad_json',
  'bad_request',
  'unknown_method',
  'invalid_params',
  'too_large',
  'timeout',
  'disconnected',
  'host_not_installed',
  'forbidden',
  'not_found',
  'unavailable',
  'cancelled',
  'internal',
  // Model providers and the agent loop.
  'bad_config',
  'auth_failed',
  'quota_exceeded',
  'rate_limited',
  'bad_reply',
  'budget_exceeded',
  'policy_denied',
  // Tasks.
  'busy',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** How an error travels between contexts: plain data, never an Error object. */
export const ErrorShape = z.object({
  code: ErrorCode,
  message: z.string(),
  details: z.unknown().optional(),
});
export type ErrorShape = z.infer<typeof ErrorShape>;

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }

  toShape(): ErrorShape {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromShape(shape: ErrorShape): AppError {
    return new AppError(shape.code, shape.message, { details: shape.details });
  }
}

/** Turns anything thrown into the shape that crosses a boundary, keeping AppError codes. */
export function toErrorShape(error: unknown): ErrorShape {
  if (error instanceof AppError) return error.toShape();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message };
}

/** Formats zod issues as one readable sentence: "params.url: Invalid URL; id: Required". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .flatMap((issue) => closestBranch(issue, []))
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(message)'}: ${issue.message}`)
    .join('; ');
}

/**
 * A value that fits none of a union's shapes ("Invalid input" alone says nothing) is described by the shape it comes
 * closest to: the one with the fewest problems, so a web form trigger without its confirmation text says
 * `trigger.confirm` is missing rather than that it is no command.
 */
function closestBranch(issue: z.core.$ZodIssue, prefix: PropertyKey[]): Array<{ path: PropertyKey[]; message: string }> {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path, message: issue.message }];
  const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
  return closest.flatMap((inner) => closestBranch(inner, path));
}
