/** The sentence to show for a failed call: errors cross the channel as `{code, message}` data. */
export function errorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' && error.message) {
    return error.message;
  }
  return String(error);
}
