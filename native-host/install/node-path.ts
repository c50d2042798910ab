import type { OsName } from '../paths';
import { pathApi } from './browsers';

/**
 * The Node path the launcher should name. process.execPath is already resolved through symlinks, which for Homebrew
 * is a versioned Cellar folder that `brew upgrade` deletes. When a PATH entry is a link to the very same binary
 * (/opt/homebrew/bin/node) and execPath's own folder is not on PATH, that stable name is used instead.
 */
export function stableNodePath(
  execPath: string,
  searchPath: string | undefined,
  os: OsName,
  realpath: (path: string) => string | undefined,
): string {
  const path = pathApi(os);
  const target = realpath(execPath);
  if (target === undefined || searchPath === undefined) return execPath;
  const binary = os === 'win32' ? 'node.exe' : 'node';
  const dirs = searchPath.split(os === 'win32' ? ';' : ':').filter((dir) => dir !== '' && path.isAbsolute(dir));
  // Already a name the user's PATH uses (nvm, /usr/bin): keep it.
  if (dirs.includes(path.dirname(execPath))) return execPath;
  for (const dir of dirs) {
    const candidate = path.join(dir, binary);
    if (candidate !== execPath && realpath(candidate) === target) return candidate;
  }
  return execPath;
}
