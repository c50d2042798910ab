import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** Where Chromium, Chrome, Brave and Edge are usually installed, per OS, in the order they are tried. */
export function candidatePaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => !!root);
    return roots.flatMap((root) => [
      join(root, 'Chromium', 'Application', 'chrome.exe'),
      join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(root, 'BraveSoftware', 'Brave-Browser', 'Application', 'brave.exe'),
      join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
    ]);
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/brave-browser',
    '/opt/brave.com/brave/brave',
    '/usr/bin/microsoft-edge',
    '/opt/microsoft/msedge/msedge',
  ];
}

export class BrowserNotFoundError extends Error {
  constructor(tried: string[]) {
    super(
      [
        'No Chromium, Chrome, Brave or Edge found.',
        'Set CHROME_PATH (or pass --browser) to the browser executable, or install one (on Debian/Ubuntu: `apt-get install chromium`).',
        `Looked in: ${tried.join(', ')}`,
      ].join('\n'),
    );
    this.name = 'BrowserNotFoundError';
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser the user named (`--browser PATH`), checked: a clear error when it is not an executable file. */
export function browserAt(path: string, source: string): string {
  if (isExecutable(path)) return path;
  throw new BrowserNotFoundError([`${source} ${path} (not an executable file)`]);
}

/** Finds a Chromium-family browser: CHROME_PATH first, then the usual install paths. */
export function findBrowser(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const fromEnv = env.CHROME_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    throw new BrowserNotFoundError([`CHROME_PATH=${fromEnv} (not an executable file)`]);
  }
  const candidates = candidatePaths(platform, env);
  const found = candidates.find(isExecutable);
  if (!found) throw new BrowserNotFoundError(candidates);
  return found;
}
