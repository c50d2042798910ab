/** The logging interface every part of Deputy uses: a message and a few fields (ids, sizes, durations). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * A logger bound to console, so DevTools shows the line that logged, not this file. Scope names the context and
 * module, e.g. "bg:host".
 */
export function createConsoleLogger(scope: string): Logger {
  const prefix = `[${scope}]`;
  return {
    debug: console.debug.bind(console, prefix),
    info: console.info.bind(console, prefix),
    warn: console.warn.bind(console, prefix),
    error: console.error.bind(console, prefix),
  };
}
