import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import type { SecretRef } from '../../shared/protocol/mail-protocol';

export interface SecretEnv {
  env: Record<string, string | undefined>;
  /** Folder a relative secret file is resolved against (the config file's folder). */
  baseDir: string;
  readFile?: (path: string) => string;
}

/** Where a secret comes from, in words that never include the secret itself. */
export function describeSecretRef(ref: SecretRef): string {
  return 'env' in ref ? `the environment variable ${ref.env}` : `the file ${ref.file}`;
}

/**
 * Reads a secret named by `ref`: an environment variable, or the first line of a file (a trailing newline from an
 * editor or `echo` is not part of a password). A missing or empty secret is a clear error naming where it was looked.
 */
export function readSecret(ref: SecretRef, what: string, secretEnv: SecretEnv): string {
  if ('env' in ref) {
    const value = secretEnv.env[ref.env];
    if (value === undefined || value === '')
      throw new AppError(
        'bad_config',
        `The ${what} is read from the environment variable ${ref.env}, which is not set: set it before starting Deputy`,
      );
    return value;
  }
  const path = isAbsolute(ref.file) ? ref.file : resolve(secretEnv.baseDir, ref.file);
  let text: string;
  try {
    text = (secretEnv.readFile ?? ((file: string) => readFileSync(file, 'utf8')))(path);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new AppError(
      'bad_config',
      `The ${what} is read from ${path}, which could not be read (${code}): check the path in the settings that name it`,
    );
  }
  const value = text.split(/\r?\n/, 1)[0] ?? '';
  if (value === '')
    throw new AppError('bad_config', `The ${what} file ${path} is empty: put the ${what} on its first line`);
  return value;
}

/**
 * Replaces every secret in a text with "[redacted]". Everything a mail wait reports (events, errors, logs) passes
 * through it, so a server or library that echoes a credential back cannot carry it into a log or report.
 */
export function secretScrubber(secrets: Iterable<string | undefined>): (text: string) => string {
  const list = [...secrets]
    .filter((secret): secret is string => secret !== undefined && secret.length >= 4)
    .sort((a, b) => b.length - a.length);
  return (text) => list.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/** Whether other users can read a file that holds a secret (a password file, the Gmail sign-in); it should be 0600. */
export function readableByOthers(path: string): boolean {
  try {
    return process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}
