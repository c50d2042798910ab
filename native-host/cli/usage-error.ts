import { AppError } from '../../shared/errors';

/** A mistake in how the CLI was called: printed as its message alone, without a stack, with exit code 2. */
export class UsageError extends AppError {
  constructor(message: string) {
    super('bad_request', message);
  }
}
