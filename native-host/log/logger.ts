import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { format } from 'node:util';
import type { Logger as SharedLogger } from '../../shared/logger';

export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger extends SharedLogger {
  child(scope: string): Logger;
}

export interface LogSink {
  write(line: string): void;
}

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * The host's logger. stdout belongs to the native-messaging protocol, so log lines go to stderr (which Chrome shows
 * when started with --enable-logging) and to the host's log file. Fields are ids, sizes and durations, never page
 * text or secrets.
 */
export function createLogger(scope: string, sinks: LogSink[], minimum: Level = 'info'): Logger {
  const write = (level: Level, message: string, fields?: Record<string, unknown>): void => {
    if (ORDER[level] < ORDER[minimum]) return;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${format('%j', fields)}` : '';
    const line = `${new Date().toISOString()} ${level.toUpperCase()} [${scope}] ${message}${extra}\n`;
    for (const sink of sinks) sink.write(line);
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    child: (child) => createLogger(`${scope}:${child}`, sinks, minimum),
  };
}

/** A log file sink that never throws: if the file cannot be opened, logging carries on through the other sinks. */
export function fileSink(path: string): LogSink & { close(): Promise<void> } {
  let stream: WriteStream | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    stream = createWriteStream(path, { flags: 'a' });
    stream.on('error', () => {
      stream = undefined;
    });
  } catch {
    stream = undefined;
  }
  return {
    write: (line) => {
      stream?.write(line);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!stream) return resolve();
        stream.end(() => resolve());
      }),
  };
}

export function streamSink(stream: NodeJS.WritableStream): LogSink {
  return { write: (line) => void stream.write(line) };
}

export const silentLogger: Logger = createLogger('silent', []);
