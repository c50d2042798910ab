import { spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isTaskCliFile } from '../lib/task-bundle';

/**
 * The Node versions the host's own dependencies (not the build tools') all run on: checked against package-lock.json
 * by tests/unit/scripts/package/engines.test.ts.
 */
export const HOST_NODE_ENGINES = '>=20.19';

interface RootPackage {
  name: string;
  version: string;
  description: string;
  license: string;
  dependencies: Record<string, string>;
}

interface LockEntry {
  dev?: boolean;
  [field: string]: unknown;
}

/**
 * The package's npm-shrinkwrap.json: package-lock.json's tree without the packages only the build and the tests use.
 * npm honours a shrinkwrap in an installed package, so `npm install -g` gets exactly the versions the tests ran with
 * (and finds them in the cache `npm ci` filled) instead of resolving every range afresh.
 */
export function hostShrinkwrap(lock: { lockfileVersion: number; packages: Record<string, LockEntry> }, pkg: Record<string, unknown>): Record<string, unknown> {
  const packages: Record<string, unknown> = {};
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '') packages[path] = { name: pkg.name, version: pkg.version, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines };
    else if (entry.dev !== true) packages[path] = Object.fromEntries(Object.entries(entry).filter(([field]) => field !== 'devOptional'));
  }
  return { name: pkg.name, version: pkg.version, lockfileVersion: lock.lockfileVersion, requires: true, packages };
}

/** The package.json of the host's npm package: the root's runtime dependencies, exact, and `deputy` as its bin. */
export function hostPackageJson(root: RootPackage): Record<string, unknown> {
  return {
    name: root.name,
    version: root.version,
    description: root.description,
    license: root.license,
    type: 'module',
    bin: { deputy: 'dist-host/deputy.mjs' },
    engines: { node: HOST_NODE_ENGINES },
    files: ['dist-host', 'dist', 'README.md', 'LICENSE', 'npm-shrinkwrap.json'],
    dependencies: root.dependencies,
  };
}

const HOST_README = (version: string): string => `# Deputy ${version}: the native host and the \`deputy\` command

Deputy is a personal agent that acts for you in the browser and on the desktop, inside limits you set and can see.
This package is its native host and command line; the browser side is the Deputy extension.

\`\`\`sh
deputy install      # registers the host with Chrome, Chromium, Brave and Edge (those found for your user)
deputy doctor       # says what is installed, where, and what is wrong
deputy mcp          # an MCP server for coding agents: claude mcp add deputy -- deputy mcp
deputy --help       # every command: loop, shell, desktop, compare, mail, uninstall
\`\`\`

The unpacked extension is in this package's \`dist/\` folder (for *Load unpacked* in \`chrome://extensions\`).
`;

/**
 * Writes the npm package of the host into \`outDir\` (the built host, the built extension, a README and the licence)
 * and packs it with npm into \`releaseDir\`. Returns the tarball's path.
 */
export async function packHost(rootDir: string, outDir: string, releaseDir: string): Promise<string> {
  const root = JSON.parse(await readFile(join(rootDir, 'package.json'), 'utf8')) as RootPackage;
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  // Source maps stay out: they name sources the package does not carry, and double its size.
  const noMaps = (source: string): boolean => !source.endsWith('.map') && !source.endsWith('.meta.json');
  await cp(join(rootDir, 'dist-host'), join(outDir, 'dist-host'), { recursive: true, filter: (source) => noMaps(source) && !isTaskCliFile(source) });
  await cp(join(rootDir, 'dist'), join(outDir, 'dist'), { recursive: true });
  await cp(join(rootDir, 'LICENSE'), join(outDir, 'LICENSE'));
  await writeFile(join(outDir, 'README.md'), HOST_README(root.version));
  const pkg = hostPackageJson(root);
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const lock = JSON.parse(await readFile(join(rootDir, 'package-lock.json'), 'utf8')) as Parameters<typeof hostShrinkwrap>[0];
  await writeFile(join(outDir, 'npm-shrinkwrap.json'), `${JSON.stringify(hostShrinkwrap(lock, pkg), null, 2)}\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = spawnSync(npm, ['pack', '--json', '--pack-destination', releaseDir], { cwd: outDir, encoding: 'utf8', shell: process.platform === 'win32' });
  if (packed.status !== 0) throw new Error(`npm pack failed in ${outDir}:\n${packed.stderr}`);
  const [result] = JSON.parse(packed.stdout) as { filename: string }[];
  if (!result) throw new Error(`npm pack wrote no tarball:\n${packed.stdout}`);
  return join(releaseDir, result.filename);
}
