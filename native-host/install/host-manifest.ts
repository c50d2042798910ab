import { z } from 'zod';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../shared/constants';
import type { OsName } from '../paths';
import { pathApi } from './browsers';

/** The fields of a native-messaging host manifest that Chrome reads. */
export const HostManifest = z.object({
  name: z.string(),
  description: z.string().optional(),
  path: z.string(),
  type: z.string(),
  allowed_origins: z.array(z.string()),
});
export type HostManifest = z.infer<typeof HostManifest>;

/** An extension id as chrome://extensions shows it: 32 letters from a to p. */
export const EXTENSION_ID_PATTERN = /^[a-p]{32}$/;

export const extensionOrigin = (id: string): string => `chrome-extension://${id}/`;

/**
 * The host's manifest. It always allows Deputy's pinned id (a build loaded unpacked); `otherOrigins` adds copies
 * with another id, such as one installed from a store, which assigns the id itself.
 */
export function hostManifest(launcherPath: string, otherOrigins: readonly string[] = []): HostManifest {
  return {
    name: NATIVE_HOST_NAME,
    description: 'Deputy native host: desktop control, the fix loop and shell commands for the Deputy extension',
    path: launcherPath,
    type: 'stdio',
    allowed_origins: [...new Set([EXTENSION_ORIGIN, ...otherOrigins])],
  };
}

/** The extension origins a manifest allows besides the pinned one: what a new install keeps. */
export function otherAllowedOrigins(text: string | undefined, os: OsName): string[] {
  if (text === undefined) return [];
  const check = checkManifest(text, os);
  if (!check.ok) return [];
  return check.manifest.allowed_origins.filter(
    (origin) => origin !== EXTENSION_ORIGIN && /^chrome-extension:\/\/([a-p]{32})\/$/.test(origin),
  );
}

export function manifestText(manifest: HostManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export type ManifestCheck = { ok: true; manifest: HostManifest; problems: string[] } | { ok: false; problems: string[] };

/**
 * Checks a manifest the way Chrome will read it, and says in a sentence each what would stop Deputy from connecting.
 * `ok: false` means the file cannot be used at all (not JSON, fields missing); otherwise `problems` lists the rest.
 */
export function checkManifest(text: string, os: OsName): ManifestCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`the manifest is not valid JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  const parsed = HostManifest.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(file)'))].join(', ');
    return { ok: false, problems: [`the manifest is not a native-messaging host manifest (bad or missing: ${fields})`] };
  }
  const manifest = parsed.data;
  const problems: string[] = [];
  if (manifest.name !== NATIVE_HOST_NAME) {
    problems.push(`the manifest's name is "${manifest.name}"; Chrome only accepts "${NATIVE_HOST_NAME}" in this file`);
  }
  if (manifest.type !== 'stdio') problems.push(`the manifest's type is "${manifest.type}"; it must be "stdio"`);
  if (!manifest.allowed_origins.includes(EXTENSION_ORIGIN)) {
    problems.push(`allowed_origins does not list ${EXTENSION_ORIGIN} (Deputy's pinned extension id), so Chrome refuses the connection`);
  }
  // Chrome resolves a relative path against the manifest's folder only on Windows.
  if (os !== 'win32' && !pathApi(os).isAbsolute(manifest.path)) {
    problems.push(`the manifest's path "${manifest.path}" is not absolute`);
  }
  return { ok: true, manifest, problems };
}
