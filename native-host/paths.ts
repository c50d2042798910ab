import { join } from 'node:path';

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
  if (platform === 'darwin') {
    const data = join(home, 'Library', 'Application Support', 'Deputy');
    return { dataDir: data, logDir: join(home, 'Library', 'Logs', 'Deputy'), stateDir: join(data, 'state') };
  }
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA ?? join(home, 'AppData', 'Local');
    const data = join(local, 'Deputy');
    return { dataDir: data, logDir: join(data, 'Logs'), stateDir: join(data, 'State') };
  }
  const dataHome = env.XDG_DATA_HOME ?? join(home, '.local', 'share');
  const stateHome = env.XDG_STATE_HOME ?? join(home, '.local', 'state');
  return { dataDir: join(dataHome, 'deputy'), logDir: join(stateHome, 'deputy', 'logs'), stateDir: join(stateHome, 'deputy') };
}

export function currentPathEnv(): PathEnv {
  const platform: OsName = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  return { platform, home: process.env.HOME ?? process.env.USERPROFILE ?? '', env: process.env };
}
