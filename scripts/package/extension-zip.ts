import { readFile, readdir } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import JSZip from 'jszip';

/** The fields of a built MV3 manifest that name files in the package. */
interface BuiltManifest {
  version: string;
  version_name?: string;
  key?: string;
  icons?: Record<string, string>;
  action?: { default_icon?: Record<string, string> | string; default_popup?: string };
  background?: { service_worker?: string };
  side_panel?: { default_path?: string };
  options_page?: string;
  options_ui?: { page?: string };
  devtools_page?: string;
  content_scripts?: { js?: string[]; css?: string[] }[];
  web_accessible_resources?: { resources: string[] }[];
}

/** Every file path the manifest names (globs in web_accessible_resources are left out: they name no one file). */
export function filesNamedByManifest(manifest: BuiltManifest): string[] {
  const icon = manifest.action?.default_icon;
  const named = [
    ...Object.values(manifest.icons ?? {}),
    ...(typeof icon === 'string' ? [icon] : Object.values(icon ?? {})),
    manifest.action?.default_popup,
    manifest.background?.service_worker,
    manifest.side_panel?.default_path,
    manifest.options_page,
    manifest.options_ui?.page,
    manifest.devtools_page,
    ...(manifest.content_scripts ?? []).flatMap((script) => [...(script.js ?? []), ...(script.css ?? [])]),
    ...(manifest.web_accessible_resources ?? []).flatMap((entry) => entry.resources).filter((path) => !path.includes('*')),
  ];
  return [...new Set(named.filter((path): path is string => typeof path === 'string').map((path) => path.replace(/^\//, '')))];
}

/** The files an HTML page of the extension loads by absolute or relative path (scripts, styles, icons). */
export function filesNamedByPage(pagePath: string, html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/\b(?:src|href)="([^"#?]+)"/g)) {
    const ref = match[1] ?? '';
    if (/^[a-z]+:/i.test(ref) || ref.startsWith('//')) continue;
    found.push(ref.startsWith('/') ? ref.slice(1) : posix.join(posix.dirname(pagePath), ref));
  }
  return found;
}

/**
 * Chrome takes 1 to 4 dot-separated integers as an extension's version; a package version with a pre-release part
 * (0.2.0-beta.1) cannot be one, and the store refuses an upload whose version is not above the last.
 */
export function chromeVersion(packageVersion: string): string {
  if (!/^\d+(\.\d+){0,3}$/.test(packageVersion)) {
    throw new Error(`package.json's version ${packageVersion} is not a Chrome extension version (1 to 4 dot-separated integers): set one such as 0.2.0`);
  }
  return packageVersion;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * The Chrome Web Store's upload: the built extension with manifest.json at the zip's root. The store refuses a
 * manifest with a "key" (it assigns the published item's id itself), so the pinned development key is left out; the
 * unpacked build in dist/ keeps it, so the host's allowed_origins still names a loaded-unpacked copy.
 */
export async function buildExtensionZip(
  distDir: string,
  packageVersion: string,
  extra: Record<string, Buffer> = {},
): Promise<{ zip: Buffer; files: string[]; manifest: BuiltManifest }> {
  const manifest = JSON.parse(await readFile(join(distDir, 'manifest.json'), 'utf8')) as BuiltManifest;
  if (manifest.version !== chromeVersion(packageVersion)) {
    throw new Error(`dist/manifest.json says version ${manifest.version}, package.json ${packageVersion}: run npm run build again`);
  }
  const files = await listFiles(distDir);
  const missing = filesNamedByManifest(manifest).filter((path) => !files.includes(path));
  if (missing.length > 0) throw new Error(`dist/ lacks files its manifest names: ${missing.join(', ')}; run npm run build again`);
  const zip = new JSZip();
  const storeManifest: BuiltManifest = { ...manifest };
  delete storeManifest.key;
  for (const file of files) {
    if (file === 'manifest.json') zip.file(file, `${JSON.stringify(storeManifest, null, 2)}\n`);
    else zip.file(file, await readFile(join(distDir, file)));
  }
  for (const [name, content] of Object.entries(extra)) zip.file(name, content);
  const buffer = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
  return { zip: buffer, files: [...files, ...Object.keys(extra)].sort(), manifest: storeManifest };
}
