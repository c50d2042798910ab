import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOST_INSTALL_COMMAND } from '../../shared/constants';
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

/** The commands that install, check and rebuild this copy of Deputy, as its user types them. */
export interface HostCommands {
  install: string;
  doctor: string;
  /** Where the commands run: "in the Deputy folder" for a checkout, nothing for a global `deputy`. */
  where: string;
  /** Rebuild the host before installing it again (a checkout), or the same install (a package is built already). */
  rebuildAndInstall: string;
  /** The install command with flags for deputy install (npm run needs `--` before them). */
  installWith: (flags: string) => string;
  /** The start benchmark, where this copy has it (a checkout). */
  benchHost?: string;
}

export const CHECKOUT_COMMANDS: HostCommands = {
  install: HOST_INSTALL_COMMAND,
  doctor: 'npm run deputy -- doctor',
  where: ' in the Deputy folder',
  rebuildAndInstall: `npm run build && ${HOST_INSTALL_COMMAND}`,
  installWith: (flags) => `${HOST_INSTALL_COMMAND} -- ${flags}`,
  benchHost: 'npm run bench:host',
};

export const PACKAGE_COMMANDS: HostCommands = {
  install: 'deputy install',
  doctor: 'deputy doctor',
  where: '',
  rebuildAndInstall: 'npm install -g <the new deputy package> && deputy install',
  installWith: (flags) => `deputy install ${flags}`,
};

/**
 * Whether this copy runs from a checkout (the repository's package.json is private: `npm run ...` works there) or
 * from the npm package that `npm run package` builds (`deputy` is on the PATH).
 */
export function hostCommands(root: string): HostCommands {
  try {
    const json = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { private?: unknown };
    return json.private === true ? CHECKOUT_COMMANDS : PACKAGE_COMMANDS;
  } catch {
    return CHECKOUT_COMMANDS;
  }
}
