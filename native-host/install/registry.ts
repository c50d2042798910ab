import { AppError } from '../../shared/errors';
import type { CommandRunner } from './system';

/**
 * The HKCU keys that register the host on Windows, through `reg.exe` (present on every Windows since XP), so no native
 * module is needed. Each key's default value is the manifest's path.
 */
export function regAddArgs(key: string, value: string): string[] {
  return ['add', key, '/ve', '/t', 'REG_SZ', '/d', value, '/f'];
}

/** The key's default value, or undefined when the key (or its default value) does not exist. */
export async function readRegistryDefault(run: CommandRunner, key: string): Promise<string | undefined> {
  const result = await run('reg', ['query', key, '/ve']);
  if (result.code !== 0) return undefined;
  return parseRegQuery(result.stdout);
}

/** Reads the value from `reg query KEY /ve` output: "    (Default)    REG_SZ    C:\\path". "(Default)" is localized. */
export function parseRegQuery(stdout: string): string | undefined {
  for (const line of stdout.split(/\r?\n/)) {
    const match = /\s(?:REG_SZ|REG_EXPAND_SZ)\s+(.*\S)\s*$/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

export async function addRegistryDefault(run: CommandRunner, key: string, value: string): Promise<void> {
  const result = await run('reg', regAddArgs(key, value));
  if (result.code !== 0) {
    throw new AppError('unavailable', `reg add ${key} failed (exit ${result.code}): ${firstLine(result.stderr || result.stdout)}`);
  }
}

/** Deletes the key; false when it was not there. */
export async function deleteRegistryKey(run: CommandRunner, key: string): Promise<boolean> {
  const query = await run('reg', ['query', key]);
  if (query.code !== 0) return false;
  const result = await run('reg', ['delete', key, '/f']);
  if (result.code !== 0) {
    throw new AppError('unavailable', `reg delete ${key} failed (exit ${result.code}): ${firstLine(result.stderr || result.stdout)}`);
  }
  return true;
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/)[0] ?? '';
}
