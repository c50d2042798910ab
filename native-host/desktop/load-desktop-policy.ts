import { readFile } from 'node:fs/promises';
import { AppError, describeZodError } from '../../shared/errors';
import { DesktopPolicy, validatePolicy } from './desktop-policy';

/**
 * Reads the user's blocked lists from a JSON file ({"blockedApps": [...], "blockedCommands": [...], "blockedUrls":
 * [...]}); a list left out keeps its defaults, and a missing file means the defaults. A file that cannot be read or
 * parsed is an error that names the file and the fix, never a silent fallback to no blocking.
 */
export async function loadDesktopPolicy(path: string | undefined, read = (p: string) => readFile(p, 'utf8')): Promise<DesktopPolicy> {
  if (path === undefined) return DesktopPolicy.parse({});
  let text: string;
  try {
    text = await read(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DesktopPolicy.parse({});
    throw new AppError('bad_config', `Cannot read the desktop policy ${path}: ${String(error)}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('bad_config', `The desktop policy ${path} is not valid JSON; fix it or delete it to use the defaults.`);
  }
  const parsed = DesktopPolicy.safeParse(json);
  if (!parsed.success) throw new AppError('bad_config', `The desktop policy ${path} is invalid (${describeZodError(parsed.error)}); fix it or delete it to use the defaults.`);
  try {
    validatePolicy(parsed.data);
  } catch (error) {
    throw new AppError('bad_config', `The desktop policy ${path} has a bad pattern: ${String(error)}`);
  }
  return parsed.data;
}
