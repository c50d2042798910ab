import { posix, win32 } from 'node:path';
import { z } from 'zod';
import type { OsName } from '../paths';
import { UsageError } from '../cli/usage-error';

export const BrowserId = z.enum(['chrome', 'chromium', 'brave', 'edge']);
export type BrowserId = z.infer<typeof BrowserId>;

export const ALL_BROWSERS: readonly BrowserId[] = BrowserId.options;

interface BrowserSpec {
  label: string;
  /** The user data folder under ~/.config (or $CHROME_CONFIG_HOME / $XDG_CONFIG_HOME) on Linux. */
  linux: string[];
  /** The user data folder under ~/Library/Application Support on macOS. */
  darwin: string[];
  /** The user data folder under %LOCALAPPDATA% on Windows: only used to tell whether the browser is there. */
  win32Data: string[];
  /** The HKCU key under which this browser looks up native hosts on Windows. */
  win32Registry: string;
}

/**
 * Where each browser looks for per-user native messaging hosts. On Linux and macOS that is a NativeMessagingHosts
 * folder in the browser's user data folder; on Windows it is a registry key whose default value names the manifest.
 * https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-location
 */
const SPECS: Record<BrowserId, BrowserSpec> = {
  chrome: {
    label: 'Chrome',
    linux: ['google-chrome'],
    darwin: ['Google', 'Chrome'],
    win32Data: ['Google', 'Chrome', 'User Data'],
    win32Registry: 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts',
  },
  chromium: {
    label: 'Chromium',
    linux: ['chromium'],
    darwin: ['Chromium'],
    win32Data: ['Chromium', 'User Data'],
    win32Registry: 'HKCU\\Software\\Chromium\\NativeMessagingHosts',
  },
  brave: {
    label: 'Brave',
    linux: ['BraveSoftware', 'Brave-Browser'],
    darwin: ['BraveSoftware', 'Brave-Browser'],
    win32Data: ['BraveSoftware', 'Brave-Browser', 'User Data'],
    win32Registry: 'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts',
  },
  edge: {
    label: 'Edge',
    linux: ['microsoft-edge'],
    darwin: ['Microsoft Edge'],
    win32Data: ['Microsoft', 'Edge', 'User Data'],
    win32Registry: 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts',
  },
};

export interface BrowserEnv {
  os: OsName;
  home: string;
  env: Record<string, string | undefined>;
}

export function browserLabel(id: BrowserId): string {
  return SPECS[id].label;
}

export function pathApi(os: OsName): typeof posix {
  return os === 'win32' ? win32 : posix;
}

/**
 * The browser's user data folder: its existence says the browser has run for this user. On Linux Chrome honours
 * CHROME_CONFIG_HOME, then XDG_CONFIG_HOME (when absolute), then ~/.config.
 */
export function browserDataDir(id: BrowserId, browserEnv: BrowserEnv): string {
  const spec = SPECS[id];
  const root = browserConfigRoot(browserEnv);
  if (browserEnv.os === 'darwin') return posix.join(root, ...spec.darwin);
  if (browserEnv.os === 'win32') return win32.join(root, ...spec.win32Data);
  return posix.join(root, ...spec.linux);
}

/** The folder that holds the browsers' user data folders: ~/.config, ~/Library/Application Support, %LOCALAPPDATA%. */
export function browserConfigRoot({ os, home, env }: BrowserEnv): string {
  if (os === 'darwin') return posix.join(home, 'Library', 'Application Support');
  if (os === 'win32') return env.LOCALAPPDATA ?? win32.join(home, 'AppData', 'Local');
  const configHome = [env.CHROME_CONFIG_HOME, env.XDG_CONFIG_HOME].find((dir) => dir !== undefined && posix.isAbsolute(dir));
  return configHome ?? posix.join(home, '.config');
}

/** The folder the browser reads per-user host manifests from (Linux and macOS only). */
export function nativeHostsDir(id: BrowserId, browserEnv: BrowserEnv): string {
  return pathApi(browserEnv.os).join(browserDataDir(id, browserEnv), 'NativeMessagingHosts');
}

/** The registry key (without the host name) a browser reads on Windows. */
export function registryBase(id: BrowserId): string {
  return SPECS[id].win32Registry;
}

/** Parses `--browser chrome,brave` (also `all`); names are case-insensitive, duplicates are dropped. */
export function parseBrowserList(value: string): BrowserId[] {
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.includes('all')) return [...ALL_BROWSERS];
  const result: BrowserId[] = [];
  for (const name of names) {
    const parsed = BrowserId.safeParse(name);
    if (!parsed.success) {
      throw new UsageError(`unknown browser "${name}"; choose from ${ALL_BROWSERS.join(', ')} (comma-separated), or all`);
    }
    if (!result.includes(parsed.data)) result.push(parsed.data);
  }
  if (result.length === 0) throw new UsageError(`--browser needs at least one of ${ALL_BROWSERS.join(', ')}`);
  return result;
}
