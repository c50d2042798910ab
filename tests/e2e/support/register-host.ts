import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const BUILT_HOST = 'dist-host/deputy.mjs';

/** Fails with the command to run when the extension or host has not been built. */
export function requireBuild(): void {
  const missing = ['dist/manifest.json', BUILT_HOST].filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`Missing ${missing.join(', ')}: run \`npm run build\` before the end-to-end tests`);
}

/** Registers the built host in a browser profile with the product's own install command. */
export async function registerHostInProfile(userDataDir: string): Promise<string> {
  const { stdout } = await run(process.execPath, [BUILT_HOST, 'install', '--user-data-dir', userDataDir]);
  return stdout;
}
