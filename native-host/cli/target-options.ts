import { ALL_BROWSERS, parseBrowserList, pathApi, type BrowserId } from '../install/browsers';
import type { CliEnv } from './cli-env';
import { UsageError } from './usage-error';

/** The options install, uninstall and doctor share: which browsers, or one browser profile folder. */
export interface TargetOptions {
  browser?: string;
  userDataDir?: string;
}

export interface ChosenTargets {
  /** Undefined when --browser was not given: each command has its own default. */
  browsers: BrowserId[] | undefined;
  userDataDir: string | undefined;
}

export function chooseTargets(options: TargetOptions, cli: Pick<CliEnv, 'os' | 'cwd'>): ChosenTargets {
  if (options.userDataDir === undefined) {
    return { browsers: options.browser === undefined ? undefined : parseBrowserList(options.browser), userDataDir: undefined };
  }
  if (options.browser !== undefined) {
    throw new UsageError('--user-data-dir names one profile folder; it cannot be combined with --browser');
  }
  if (cli.os === 'win32') {
    throw new UsageError('on Windows, browsers find native hosts only through the registry, not in a profile folder: drop --user-data-dir');
  }
  if (options.userDataDir.trim() === '') throw new UsageError('--user-data-dir needs a folder');
  return { browsers: [...ALL_BROWSERS], userDataDir: pathApi(cli.os).resolve(cli.cwd, options.userDataDir) };
}

/** "Chrome", "Chrome and Brave", "Chrome, Brave and Edge" (or "... or Edge"). */
export function listNames(names: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}

/** An indented report line with the label in a fixed column. */
export function row(label: string, value: string): string {
  return `  ${label.padEnd(9)} ${value}`;
}
