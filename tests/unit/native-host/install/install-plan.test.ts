import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../../../shared/constants';
import type { BrowserId } from '../../../../native-host/install/browsers';
import { applyInstall, applyUninstall } from '../../../../native-host/install/install-apply';
import { detectBrowsers, planInstall, planUninstall } from '../../../../native-host/install/install-plan';
import { nodeInstallFs } from '../../../../native-host/install/system';
import { fakeReg, memoryFs } from './fakes';

const BROWSERS: BrowserId[] = ['chrome', 'chromium', 'brave', 'edge'];

/** Written out here, not derived from the code under test: where each browser reads per-user hosts. */
const POSIX_HOST_DIRS: Record<'linux' | 'darwin', Record<BrowserId, string>> = {
  linux: {
    chrome: '.config/google-chrome/NativeMessagingHosts',
    chromium: '.config/chromium/NativeMessagingHosts',
    brave: '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts',
    edge: '.config/microsoft-edge/NativeMessagingHosts',
  },
  darwin: {
    chrome: 'Library/Application Support/Google/Chrome/NativeMessagingHosts',
    chromium: 'Library/Application Support/Chromium/NativeMessagingHosts',
    brave: 'Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts',
    edge: 'Library/Application Support/Microsoft Edge/NativeMessagingHosts',
  },
};
const POSIX_LAUNCHERS = { linux: '.local/share/deputy/deputy-host', darwin: 'Library/Application Support/Deputy/deputy-host' };

const WINDOWS_KEYS: Record<BrowserId, string> = {
  chrome: 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.deputy.host',
  chromium: 'HKCU\\Software\\Chromium\\NativeMessagingHosts\\dev.deputy.host',
  brave: 'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\dev.deputy.host',
  edge: 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.deputy.host',
};

const homes: string[] = [];
function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'deputy-home-'));
  homes.push(home);
  return home;
}
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const noRegistry = fakeReg();

function readdirRecursive(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? [path, ...readdirRecursive(root, path)] : [path];
  }).sort();
}

describe.each(['linux', 'darwin'] as const)('install on %s', (os) => {
  it.each(BROWSERS)('registers, then unregisters, the host for %s in a temporary home', async (browser) => {
    const home = tempHome();
    const plan = planInstall({
      os,
      home,
      env: {},
      browsers: [browser],
      nodePath: '/opt/node/bin/node',
      hostScript: '/src/deputy/dist-host/deputy.mjs',
      version: '9.9.9',
    });
    const changes = await applyInstall(plan, { fs: nodeInstallFs, run: noRegistry.run });
    expect(changes.map((change) => change.kind)).toEqual(['launcher', 'manifest']);

    const manifestPath = join(home, POSIX_HOST_DIRS[os][browser], `${NATIVE_HOST_NAME}.json`);
    const launcherPath = join(home, POSIX_LAUNCHERS[os]);
    const manifest: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
    expect(manifest).toEqual({
      name: NATIVE_HOST_NAME,
      description: expect.any(String) as unknown,
      path: launcherPath,
      type: 'stdio',
      allowed_origins: [EXTENSION_ORIGIN],
    });
    expect(statSync(launcherPath).mode & 0o777).toBe(0o755);
    const launcher = readFileSync(launcherPath, 'utf8');
    expect(launcher.startsWith('#!/bin/sh\n')).toBe(true);
    expect(launcher).toContain('exec "/opt/node/bin/node" "/src/deputy/dist-host/deputy.mjs" native-host "$@"');
    expect(noRegistry.commands).toEqual([]);

    const uninstall = planUninstall({ os, home, env: {}, browsers: BROWSERS });
    const first = await applyUninstall(uninstall, { fs: nodeInstallFs, run: noRegistry.run });
    expect(first.removed.map((change) => ('path' in change ? change.path : change.key)).sort()).toEqual([launcherPath, manifestPath].sort());
    expect(existsSync(manifestPath) || existsSync(launcherPath)).toBe(false);
    // The folders install created are pruned back to the shared roots it found empty.
    const left = os === 'linux' ? ['.config', '.local/share'] : ['Library/Application Support'];
    expect(readdirRecursive(home)).toEqual(left.flatMap((dir) => dir.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/'))).sort());
    const second = await applyUninstall(uninstall, { fs: nodeInstallFs, run: noRegistry.run });
    expect(second.removed).toEqual([]);
  });
});

describe('install on win32', () => {
  const home = 'C:\\Users\\ada';
  const env = { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' };

  it.each(BROWSERS)('writes a manifest in the app data folder and its HKCU key for %s, and removes both', async (browser) => {
    const fs = memoryFs();
    const reg = fakeReg();
    const plan = planInstall({
      os: 'win32',
      home,
      env,
      browsers: [browser],
      nodePath: 'C:\\Program Files\\nodejs\\node.exe',
      hostScript: 'C:\\src\\deputy\\dist-host\\deputy.mjs',
      version: '9.9.9',
    });
    await applyInstall(plan, { fs, run: reg.run });

    const manifestPath = `C:\\Users\\ada\\AppData\\Local\\Deputy\\NativeMessagingHosts\\dev.deputy.host.${browser}.json`;
    const launcherPath = 'C:\\Users\\ada\\AppData\\Local\\Deputy\\deputy-host.bat';
    expect(reg.commands).toEqual([['reg', 'add', WINDOWS_KEYS[browser], '/ve', '/t', 'REG_SZ', '/d', manifestPath, '/f']]);
    const manifest = JSON.parse(fs.files.get(manifestPath)?.content ?? 'null') as { path: string; allowed_origins: string[] };
    expect(manifest.path).toBe(launcherPath);
    expect(manifest.allowed_origins).toEqual([EXTENSION_ORIGIN]);
    const bat = fs.files.get(launcherPath)?.content ?? '';
    expect(bat).toContain('\r\n"C:\\Program Files\\nodejs\\node.exe" "C:\\src\\deputy\\dist-host\\deputy.mjs" native-host %*\r\n');
    expect(bat.startsWith('@echo off\r\n')).toBe(true);

    reg.commands.length = 0;
    const result = await applyUninstall(planUninstall({ os: 'win32', home, env, browsers: BROWSERS }), { fs, run: reg.run });
    expect(result.removed.map((change) => change.kind).sort()).toEqual(['launcher', 'manifest', 'registry']);
    expect(reg.commands).toContainEqual(['reg', 'delete', WINDOWS_KEYS[browser], '/f']);
    expect(reg.keys.size).toBe(0);
    expect(fs.files.size).toBe(0);
    expect([...fs.dirs].filter((dir) => dir.includes('Deputy'))).toEqual([]);
    expect(fs.dirs.has('C:\\Users\\ada\\AppData\\Local')).toBe(true);

    const again = await applyUninstall(planUninstall({ os: 'win32', home, env, browsers: BROWSERS }), { fs, run: reg.run });
    expect(again.removed).toEqual([]);
  });

  it('falls back to %USERPROFILE%\\AppData\\Local when LOCALAPPDATA is unset', () => {
    const plan = planInstall({ os: 'win32', home, env: {}, browsers: ['chrome'], nodePath: 'C:\\n\\node.exe', hostScript: 'C:\\d\\deputy.mjs', version: '1' });
    expect(plan.launcher.path).toBe('C:\\Users\\ada\\AppData\\Local\\Deputy\\deputy-host.bat');
  });
});

describe('planInstall', () => {
  const base = { env: {}, nodePath: '/usr/bin/node', hostScript: '/repo/dist-host/deputy.mjs', version: '1.2.3' };

  it('follows XDG_DATA_HOME and XDG_CONFIG_HOME on Linux, and CHROME_CONFIG_HOME before them', () => {
    const plan = planInstall({
      ...base,
      os: 'linux',
      home: '/home/ada',
      env: { XDG_DATA_HOME: '/data', XDG_CONFIG_HOME: '/conf' },
      browsers: ['chrome'],
    });
    expect(plan.launcher.path).toBe('/data/deputy/deputy-host');
    expect(plan.manifests[0]?.path).toBe('/conf/google-chrome/NativeMessagingHosts/dev.deputy.host.json');
    const chromeHome = planInstall({ ...base, os: 'linux', home: '/home/ada', env: { CHROME_CONFIG_HOME: '/cc', XDG_CONFIG_HOME: '/conf' }, browsers: ['chrome'] });
    expect(chromeHome.manifests[0]?.path).toBe('/cc/google-chrome/NativeMessagingHosts/dev.deputy.host.json');
    const relative = planInstall({ ...base, os: 'linux', home: '/home/ada', env: { XDG_CONFIG_HOME: 'conf', XDG_DATA_HOME: '' }, browsers: ['chrome'] });
    expect(relative.manifests[0]?.path).toBe('/home/ada/.config/google-chrome/NativeMessagingHosts/dev.deputy.host.json');
    expect(relative.launcher.path).toBe('/home/ada/.local/share/deputy/deputy-host');
  });

  it('puts the manifest and the launcher inside the profile folder given with a user data dir', () => {
    const plan = planInstall({ ...base, os: 'linux', home: '/home/ada', browsers: BROWSERS, userDataDir: '/tmp/profile' });
    expect(plan.manifests.map((file) => file.path)).toEqual(['/tmp/profile/NativeMessagingHosts/dev.deputy.host.json']);
    expect(plan.launcher.path).toBe('/tmp/profile/NativeMessagingHosts/deputy-host');
    expect(JSON.parse(plan.manifests[0]?.content ?? '{}')).toMatchObject({ path: '/tmp/profile/NativeMessagingHosts/deputy-host' });
    expect(plan.registry).toEqual([]);
  });

  it('refuses relative paths, which a browser started from the desktop would resolve elsewhere', () => {
    expect(() => planInstall({ ...base, os: 'linux', home: '/h', browsers: ['chrome'], nodePath: 'node' })).toThrow(/absolute/);
    expect(() => planInstall({ ...base, os: 'linux', home: '/h', browsers: ['chrome'], hostScript: 'dist-host/deputy.mjs' })).toThrow(/absolute/);
  });
});

describe('applyUninstall', () => {
  it('keeps the shared launcher while a browser it leaves registered still uses it', async () => {
    const home = tempHome();
    const input = { os: 'linux' as const, home, env: {}, nodePath: '/n/node', hostScript: '/d/deputy.mjs', version: '1' };
    await applyInstall(planInstall({ ...input, browsers: ['chrome', 'brave'] }), { fs: nodeInstallFs, run: noRegistry.run });
    const launcher = join(home, POSIX_LAUNCHERS.linux);

    const partial = await applyUninstall(planUninstall({ ...input, browsers: ['chrome'] }), { fs: nodeInstallFs, run: noRegistry.run });
    expect(partial.removed.map((change) => change.kind)).toEqual(['manifest']);
    expect(partial.launcherKeptFor.map((target) => target.id)).toEqual(['brave']);
    expect(existsSync(launcher)).toBe(true);

    const rest = await applyUninstall(planUninstall({ ...input, browsers: ['brave'] }), { fs: nodeInstallFs, run: noRegistry.run });
    expect(rest.removed.map((change) => change.kind)).toEqual(['manifest', 'launcher']);
    expect(existsSync(launcher)).toBe(false);
  });

  it('leaves files it did not write alone', async () => {
    const home = tempHome();
    const other = join(home, POSIX_HOST_DIRS.linux.chrome, 'com.example.other.json');
    mkdirSync(join(home, POSIX_HOST_DIRS.linux.chrome), { recursive: true });
    await nodeInstallFs.writeAtomic(other, '{}', 0o644);
    await applyInstall(planInstall({ os: 'linux', home, env: {}, browsers: ['chrome'], nodePath: '/n', hostScript: '/d', version: '1' }), {
      fs: nodeInstallFs,
      run: noRegistry.run,
    });
    await applyUninstall(planUninstall({ os: 'linux', home, env: {}, browsers: BROWSERS }), { fs: nodeInstallFs, run: noRegistry.run });
    expect(existsSync(other)).toBe(true);
  });
});

describe('detectBrowsers', () => {
  it('lists the browsers whose user data folder exists', async () => {
    const home = tempHome();
    mkdirSync(join(home, '.config', 'BraveSoftware', 'Brave-Browser'), { recursive: true });
    mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
    const found = await detectBrowsers({ os: 'linux', home, env: {}, browsers: BROWSERS }, (path) => Promise.resolve(existsSync(path)));
    expect(found).toEqual(['chromium', 'brave']);
  });
});
