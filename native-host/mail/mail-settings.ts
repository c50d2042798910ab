import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppError, describeZodError } from '../../shared/errors';
import { MailboxConfig } from '../../shared/protocol/mail-protocol';
import { appPaths, type PathEnv } from '../paths';
import { createGmailSource } from './gmail-source';
import type { GmailEnv } from './gmail-token';
import { createImapSource } from './imap-source';
import type { MailSource } from './mail-source';

export interface MailSettings {
  config: MailboxConfig;
  /** The file it came from; relative paths in it (password file, CA file, OAuth client file) are relative to it. */
  file: string;
}

/** Where mail settings are read from: --mail-config, else DEPUTY_MAIL_CONFIG, else mail.json in Deputy's data folder. */
export function mailSettingsFile(pathEnv: PathEnv, explicit?: string): { file: string; explicit: boolean } {
  if (explicit !== undefined) return { file: resolve(explicit), explicit: true };
  const fromEnv = pathEnv.env.DEPUTY_MAIL_CONFIG;
  if (fromEnv !== undefined && fromEnv !== '') return { file: resolve(fromEnv), explicit: true };
  return { file: join(appPaths(pathEnv).dataDir, 'mail.json'), explicit: false };
}

/** Reads and validates a mail settings file; every problem says which file and which field. */
export function loadMailSettings(file: string): MailSettings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new AppError(
      'bad_config',
      `The mail settings file ${file} could not be read (${(error as { code?: string }).code ?? 'unreadable'})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError(
      'bad_config',
      `The mail settings file ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  refuseInlinePassword(json, `The mail settings file ${file}`);
  const parsed = MailboxConfig.safeParse(json);
  if (!parsed.success)
    throw new AppError('bad_config', `The mail settings in ${file} are not valid: ${describeZodError(parsed.error)}`);
  return { config: parsed.data, file };
}

/** The environment the mail sources read secrets and the Gmail sign-in from, for settings loaded from `file`. */
export function mailEnv(pathEnv: PathEnv, file: string): GmailEnv {
  return { env: pathEnv.env, baseDir: dirname(file), dataDir: appPaths(pathEnv).dataDir };
}

/** Opens the right source for a mailbox. */
export function mailSourceFactory(env: GmailEnv): (config: MailboxConfig) => MailSource {
  return (config) => (config.kind === 'imap' ? createImapSource(config, env) : createGmailSource(config, env));
}

/**
 * A password written into the settings would end up in backups, logs and the loop's saved state: said before
 * validation, without repeating the value.
 */
export function refuseInlinePassword(json: unknown, where: string): void {
  if (typeof json === 'object' && json !== null && 'password' in json && typeof json.password === 'string') {
    throw new AppError(
      'bad_config',
      `${where} has the password written in it: use "password": {"env": "NAME"} or {"file": "path"} and remove it from the file`,
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The mailbox settings with every file they name (password, CA, OAuth client, sign-in) made absolute against
 * `baseDir`, the folder of the file they were written in. A loop keeps its definition in its state, and a resumed
 * loop or the host may run from another folder. Works on settings as written (before validation) and after.
 */
export function absoluteMailPaths<T>(box: T, baseDir: string): T {
  if (!isObject(box)) return box;
  const at = (path: unknown): unknown => (typeof path === 'string' ? resolve(baseDir, path) : path);
  const withFile = (ref: unknown): unknown => (isObject(ref) && 'file' in ref ? { ...ref, file: at(ref.file) } : ref);
  const copy: Record<string, unknown> = { ...box };
  if ('password' in copy) copy.password = withFile(copy.password);
  if ('caFile' in copy) copy.caFile = at(copy.caFile);
  if ('tokenFile' in copy) copy.tokenFile = at(copy.tokenFile);
  if (isObject(copy.client)) {
    const client = withFile(copy.client) as Record<string, unknown>;
    copy.client = 'secret' in client ? { ...client, secret: withFile(client.secret) } : client;
  }
  return copy as T;
}
