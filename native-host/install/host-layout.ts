import { NATIVE_HOST_NAME } from '../../shared/constants';
import { appPaths, type OsName } from '../paths';
import { ALL_BROWSERS, browserConfigRoot, browserDataDir, browserLabel, nativeHostsDir, pathApi, registryBase, type BrowserEnv, type BrowserId } from './browsers';
import { launcherFileName } from './launcher';

/** One place the host is registered: a browser's per-user location, or one profile given with --user-data-dir. */
export interface HostTarget {
  id: BrowserId | 'profile';
  label: string;
  /** The browser's user data folder (or the profile folder): whether it exists tells whether the browser is there. */
  dataDir: string;
  manifestPath: string;
  /** Windows only: the HKCU key whose default value names the manifest. */
  registryKey?: string;
  /** Uninstall removes the folders install created up to here, not this one itself, and only when they are empty. */
  pruneAbove: string;
}

export interface LayoutInput extends BrowserEnv {
  browsers: readonly BrowserId[];
  /** A browser profile folder (absolute); the host goes into its NativeMessagingHosts folder, launcher included. */
  userDataDir?: string;
}

export interface HostLayout {
  os: OsName;
  launcherPath: string;
  /** Where pruning stops for the launcher's folder. */
  launcherPruneAbove: string;
  targets: HostTarget[];
}

/**
 * Where everything goes, per OS. Linux and macOS: a manifest in each browser's NativeMessagingHosts folder, all
 * pointing at one launcher in Deputy's data folder. Windows: the manifests live in Deputy's data folder (one per
 * browser, so uninstalling one browser leaves the others whole) and a registry key per browser points at each.
 * With a user data folder, the manifest and the launcher both go inside it, so tests leave the real home alone.
 */
export function hostLayout(input: LayoutInput): HostLayout {
  const { os } = input;
  const path = pathApi(os);
  if (input.userDataDir !== undefined) {
    const hostsDir = path.join(input.userDataDir, 'NativeMessagingHosts');
    return {
      os,
      launcherPath: path.join(hostsDir, launcherFileName(os)),
      launcherPruneAbove: input.userDataDir,
      targets: [
        {
          id: 'profile',
          label: 'Profile',
          dataDir: input.userDataDir,
          manifestPath: path.join(hostsDir, `${NATIVE_HOST_NAME}.json`),
          pruneAbove: input.userDataDir,
        },
      ],
    };
  }
  const dataDir = appPaths({ platform: os, home: input.home, env: input.env }).dataDir;
  const targets = input.browsers.map((id): HostTarget => {
    // Pruning never goes above the folder that holds every app's settings (~/.config, Application Support).
    const common = { id, label: browserLabel(id), dataDir: browserDataDir(id, input), pruneAbove: browserConfigRoot(input) };
    if (os === 'win32') {
      return {
        ...common,
        manifestPath: path.join(dataDir, 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.${id}.json`),
        registryKey: `${registryBase(id)}\\${NATIVE_HOST_NAME}`,
      };
    }
    return { ...common, manifestPath: path.join(nativeHostsDir(id, input), `${NATIVE_HOST_NAME}.json`) };
  });
  return { os, launcherPath: path.join(dataDir, launcherFileName(os)), launcherPruneAbove: path.dirname(dataDir), targets };
}

/** Every known browser other than `browsers`: what uninstall leaves, and checks before it removes the launcher. */
export function otherBrowsers(browsers: readonly BrowserId[]): BrowserId[] {
  return ALL_BROWSERS.filter((id) => !browsers.includes(id));
}
