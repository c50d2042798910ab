import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { buildExtensionZip } from './package/extension-zip';
import { packHost } from './package/host-package';
import { buildStoreListing } from './package/store-listing';

/**
 * `npm run package` (after `npm run build`): writes to release/
 *   deputy-extension-<version>.zip      the Chrome Web Store upload (the built extension, PRIVACY.md at its root)
 *   deputy-store-listing-<version>.zip  the listing: 1280x800 screenshots, the 128 px icon, privacy text, description
 *   deputy-<version>.tgz                the host as an npm package: npm install -g it for the `deputy` command
 * DEPUTY_RELEASE_DIR writes them elsewhere (the packaging test uses a temporary folder).
 */
const root = resolve(import.meta.dirname, '..');
const releaseDir = resolve(process.env.DEPUTY_RELEASE_DIR ?? join(root, 'release'));
await mkdir(releaseDir, { recursive: true });
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string; description: string };

const extension = await buildExtensionZip(join(root, 'dist'), pkg.version, { 'PRIVACY.md': await readFile(join(root, 'docs', 'privacy.md')) });
const extensionZip = join(releaseDir, `deputy-extension-${pkg.version}.zip`);
await writeFile(extensionZip, extension.zip);

const listing = await buildStoreListing(root, pkg.version, pkg.description);
const listingZip = join(releaseDir, `deputy-store-listing-${pkg.version}.zip`);
await writeFile(listingZip, listing.zip);

const tarball = await packHost(root, join(releaseDir, 'host-package'), releaseDir);

const shown = (path: string): string => relative(process.cwd(), path) || path;
const size = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
process.stdout.write(
  [
    `${shown(extensionZip)}  ${size(extension.zip.length)}  the store upload (${extension.files.length} files; manifest version ${extension.manifest.version}, no "key")`,
    `${shown(listingZip)}  ${size(listing.zip.length)}  the store listing (${listing.files.length} files)`,
    `${shown(tarball)}  ${size((await readFile(tarball)).length)}  the host: npm install -g ${shown(tarball)} && deputy install`,
    '',
  ].join('\n'),
);
