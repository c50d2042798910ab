import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../shared/errors';

/** The built host, relative to the package root: what the launcher runs. */
export const HOST_SCRIPT = join('dist-host', 'deputy.mjs');

/**
 * The package root of this copy of Deputy: the nearest folder above `moduleUrl` whose package.json is Deputy's. It
 * works from the bundle (dist-host/deputy.mjs) and from the sources (run through tsx) alike.
 */
export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isDeputyPackage(manifest)) return realpathSync(dir);
    const parent = dirname(dir);
    if (parent === dir) throw new AppError('not_found', `Cannot find Deputy's package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
}

function isDeputyPackage(path: string): boolean {
  try {
    const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof json === 'object' && json !== null && 'name' in json && json.name === 'deputy';
  } catch {
    return false;
  }
}
