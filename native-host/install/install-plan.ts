import { AppError } from '../../shared/errors';
import { pathApi, type BrowserId } from './browsers';
import { hostLayout, otherBrowsers, type HostTarget, type LayoutInput } from './host-layout';
import { hostManifest, manifestText } from './host-manifest';
import { launcherScript, type LauncherTarget } from './launcher';

export interface InstallInput extends LayoutInput, LauncherTarget {
  /** The host's version, written into the launcher's comment so a stale launcher can be told apart. */
  version: string;
  /** Extension origins allowed besides Deputy's pinned id (a store copy's), in every manifest. */
  otherOrigins?: readonly string[];
}

export interface PlannedFile {
  path: string;
  content: string;
  mode: number;
}

export interface InstallPlan {
  os: InstallInput['os'];
  runs: LauncherTarget;
  launcher: PlannedFile;
  manifests: Array<PlannedFile & { target: HostTarget }>;
  /** Windows: HKCU keys whose default value is set to the manifest path. */
  registry: Array<{ key: string; value: string; target: HostTarget }>;
}

/**
 * What `deputy install` writes, computed without touching the machine: the launcher, a manifest per target, and on
 * Windows a registry value per target. applyInstall carries it out.
 */
export function planInstall(input: InstallInput): InstallPlan {
  const path = pathApi(input.os);
  for (const [name, value] of [
    ['Node path', input.nodePath],
    ['host script', input.hostScript],
    ['user data folder', input.userDataDir],
  ] as const) {
    if (value !== undefined && !path.isAbsolute(value)) {
      throw new AppError('bad_request', `The ${name} must be an absolute path, got "${value}"`);
    }
  }
  const layout = hostLayout(input);
  const runs = { nodePath: input.nodePath, hostScript: input.hostScript };
  const manifest = manifestText(hostManifest(layout.launcherPath, input.otherOrigins));
  return {
    os: input.os,
    runs,
    launcher: { path: layout.launcherPath, content: launcherScript(input.os, runs, input.version), mode: 0o755 },
    manifests: layout.targets.map((target) => ({ path: target.manifestPath, content: manifest, mode: 0o644, target })),
    registry: layout.targets.flatMap((target) =>
      target.registryKey === undefined ? [] : [{ key: target.registryKey, value: target.manifestPath, target }],
    ),
  };
}

export interface UninstallPlan {
  os: InstallInput['os'];
  launcherPath: string;
  launcherPruneAbove: string;
  /** What to remove: each target's manifest and (Windows) registry key. */
  remove: HostTarget[];
  /** Registrations this run leaves in place; the launcher stays if any of them still points at it. */
  keep: HostTarget[];
}

/** What `deputy uninstall` may remove: exactly the places install writes to, for the given browsers or profile. */
export function planUninstall(input: LayoutInput): UninstallPlan {
  const layout = hostLayout(input);
  const keep = input.userDataDir === undefined ? hostLayout({ ...input, browsers: otherBrowsers(input.browsers) }).targets : [];
  return { os: input.os, launcherPath: layout.launcherPath, launcherPruneAbove: layout.launcherPruneAbove, remove: layout.targets, keep };
}

/** Browsers whose user data folder exists, in the order given. */
export async function detectBrowsers(
  input: Omit<LayoutInput, 'userDataDir'>,
  exists: (path: string) => Promise<boolean>,
): Promise<BrowserId[]> {
  const targets = hostLayout(input).targets;
  const found = await Promise.all(targets.map((target) => exists(target.dataDir)));
  return input.browsers.filter((_, index) => found[index]);
}
