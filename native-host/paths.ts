import { posix, win32 } from 'node:path';

export type OsName = 'linux' | 'darwin' | 'win32';

export interface PathEnv {
  platform: OsName;
  home: string;
  env: Record<string, string | undefined>;
}

export interface AppPaths {
  /** Where Deputy keeps its own files: the host launcher, the Windows host manifest. */
  dataDir: string;
  /** Where the host writes host.log. */
  logDir: string;
  /** Where state that must survive a crash lives (fix-loop state, runs). */
  stateDir: string;
}

/** Per-OS folders following each platform's convention (XDG on Linux). */
export function appPaths({ platform, home, env }: PathEnv): AppPaths {
  // Joined with the target OS's separator, not the running one's, so the answer is the same on any machine (tests).
  const path = platform === 'win32' ? win32 : posix;
  const join = (...parts: string[]): string => path.join(...parts);
  if (platform === 'darwin') {
    const data = join(home, 'Library', 'Application Support', 'Deputy');
    return { dataDir: data, logDir: join(home, 'Library', 'Logs', 'Deputy'), stateDir: join(data, 'state') };
  }
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA ?? join(home, 'AppData', 'Local');
    const data = join(local, 'Deputy');
    return { dataDir: data, logDir: join(data, 'Logs'), stateDir: join(data, 'State') };
  }
  const dataHome = xdgDir(env.XDG_DATA_HOME) ?? join(home, '.local', 'share');
  const stateHome = xdgDir(env.XDG_STATE_HOME) ?? join(home, '.local', 'state');
  return { dataDir: join(dataHome, 'deputy'), logDir: join(stateHome, 'deputy', 'logs'), stateDir: join(stateHome, 'deputy') };
}

/** The XDG spec says an empty or relative value is to be ignored. */
function xdgDir(value: string | undefined): string | undefined {
  return value !== undefined && posix.isAbsolute(value) ? value : undefined;
}

/** Where the host writes its log: DEPUTY_LOG_FILE when set, else host.log in the log folder. */
export function hostLogFile(pathEnv: PathEnv): string {
  const override = pathEnv.env.DEPUTY_LOG_FILE;
  if (override !== undefined && override !== '') return override;
  const path = pathEnv.platform === 'win32' ? win32 : posix;
  return path.join(appPaths(pathEnv).logDir, 'host.log');
}

export function currentPathEnv(): PathEnv {
  const platform: OsName = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  return { platform, home: process.env.HOME ?? process.env.USERPROFILE ?? '', env: process.env };
}
