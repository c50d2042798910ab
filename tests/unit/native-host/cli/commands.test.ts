import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN } from '../../../../shared/constants';
import { AppError } from '../../../../shared/errors';
import type { CliEnv } from '../../../../native-host/cli/cli-env';
import { doctorCommand } from '../../../../native-host/cli/doctor-command';
import { installCommand } from '../../../../native-host/cli/install-command';
import { uninstallCommand } from '../../../../native-host/cli/uninstall-command';
import { UsageError } from '../../../../native-host/cli/usage-error';
import type { HostProbe } from '../../../../native-host/install/host-probe';
import { nodeInstallFs } from '../../../../native-host/install/system';
import { fakeReg, memoryFs } from '../install/fakes';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const probe: HostProbe = () =>
  Promise.resolve({
    ok: true,
    hello: { hostVersion: '0.1.0', protocolVersion: 1, compatible: true, platform: 'linux', pid: 7, capabilities: [] },
    ms: 5,
    exitCode: 0,
    stderr: [],
  });

/** A CLI environment over a temporary home with a built host script; output lines are collected. */
function testCli(overrides: Partial<CliEnv> = {}): CliEnv & { lines: string[]; text: () => string } {
  const home = mkdtempSync(join(tmpdir(), 'deputy-cli-'));
  dirs.push(home);
  const hostScript = join(home, 'repo', 'dist-host', 'deputy.mjs');
  mkdirSync(join(home, 'repo', 'dist-host'), { recursive: true });
  writeFileSync(hostScript, '');
  const lines: string[] = [];
  return {
    os: 'linux',
    home,
    env: {},
    cwd: join(home, 'repo'),
    nodePath: process.execPath,
    hostScript,
    version: '0.1.0',
    fs: nodeInstallFs,
    run: fakeReg().run,
    probe,
    out: (line) => lines.push(line),
    lines,
    text: () => lines.join('\n'),
    ...overrides,
  };
}

describe('deputy install --extension-id', () => {
  it('allows a copy with another id (from a store) beside the pinned one, and a later plain install keeps it', async () => {
    const cli = testCli();
    mkdirSync(join(cli.home, '.config', 'google-chrome'), { recursive: true });
    const storeId = 'abcdefghijklmnopabcdefghijklmnop';
    expect(await installCommand({ extensionId: storeId }, cli)).toBe(0);
    const manifestPath = join(cli.home, '.config/google-chrome/NativeMessagingHosts/dev.deputy.host.json');
    const origins = (): unknown => (JSON.parse(readFileSync(manifestPath, 'utf8')) as { allowed_origins: string[] }).allowed_origins;
    expect(origins()).toEqual([EXTENSION_ORIGIN, `chrome-extension://${storeId}/`]);
    expect(cli.text()).toContain(`allows    chrome-extension://${storeId}/`);
    expect(await installCommand({}, cli)).toBe(0);
    expect(origins()).toEqual([EXTENSION_ORIGIN, `chrome-extension://${storeId}/`]);
  });

  it('refuses what is not an extension id, saying what one looks like', async () => {
    const cli = testCli();
    const error = await installCommand({ extensionId: 'chrome-extension://abc/' }, cli).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('--extension-id takes extension ids (32 letters a to p, as chrome://extensions shows them), comma-separated; got "chrome-extension://abc/"');
    expect(existsSync(join(cli.home, '.local'))).toBe(false);
  });
});

describe('deputy install', () => {
  it('refuses, naming the command to run, when the host has not been built', async () => {
    const cli = testCli();
    rmSync(cli.hostScript);
    const error = await installCommand({}, cli).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(String((error as AppError).message)).toMatch(/dist-host\/deputy\.mjs is missing: run npm run build first/);
    expect(existsSync(join(cli.home, '.local'))).toBe(false);
  });

  it('registers the browsers that have a user data folder and says which it skipped', async () => {
    const cli = testCli();
    mkdirSync(join(cli.home, '.config', 'BraveSoftware', 'Brave-Browser'), { recursive: true });
    expect(await installCommand({}, cli)).toBe(0);
    expect(existsSync(join(cli.home, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.deputy.host.json'))).toBe(true);
    expect(existsSync(join(cli.home, '.config/google-chrome'))).toBe(false);
    expect(cli.text()).toContain('for Brave:');
    expect(cli.text()).toContain('Skipped Chrome, Chromium and Edge');
    expect(cli.text()).toContain(`Host log: ${join(cli.home, '.local/state/deputy/logs/host.log')}`);
  });

  it('registers all four browsers when none has a user data folder yet', async () => {
    const cli = testCli();
    await installCommand({}, cli);
    for (const dir of ['google-chrome', 'chromium', 'BraveSoftware/Brave-Browser', 'microsoft-edge']) {
      expect(existsSync(join(cli.home, '.config', dir, 'NativeMessagingHosts', 'dev.deputy.host.json'))).toBe(true);
    }
    expect(cli.text()).toMatch(/registered for all four; a browser installed later will find it/);
  });

  it('writes nothing on a dry run, but prints the paths and the files', async () => {
    const cli = testCli();
    await installCommand({ dryRun: true, browser: 'chrome' }, cli);
    expect(existsSync(join(cli.home, '.config'))).toBe(false);
    expect(existsSync(join(cli.home, '.local'))).toBe(false);
    expect(cli.text()).toContain('Dry run: nothing was written');
    expect(cli.text()).toContain('"allowed_origins": [');
    expect(cli.text()).toContain(`exec "${process.execPath}" "${cli.hostScript}" native-host "$@"`);
  });

  it('registers in a profile folder given relative to the working folder', async () => {
    const cli = testCli();
    await installCommand({ userDataDir: '../profile' }, cli);
    const dir = join(cli.home, 'profile', 'NativeMessagingHosts');
    expect(existsSync(join(dir, 'dev.deputy.host.json'))).toBe(true);
    expect(existsSync(join(dir, 'deputy-host'))).toBe(true);
    expect(existsSync(join(cli.home, '.local'))).toBe(false);
  });

  it('rejects option combinations that cannot work', async () => {
    await expect(installCommand({ userDataDir: '/p', browser: 'chrome' }, testCli())).rejects.toThrow(UsageError);
    await expect(installCommand({ userDataDir: '/p' }, testCli({ os: 'win32' }))).rejects.toThrow(/registry/);
    await expect(installCommand({ browser: 'safari' }, testCli())).rejects.toThrow(/unknown browser "safari"/);
  });

  it('on Windows, prints each registry key with the manifest it points at', async () => {
    const fs = memoryFs();
    const reg = fakeReg();
    const cli = testCli({
      os: 'win32',
      home: 'C:\\Users\\ada',
      env: { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' },
      hostScript: 'C:\\deputy\\dist-host\\deputy.mjs',
      nodePath: 'C:\\nodejs\\node.exe',
      fs,
      run: reg.run,
    });
    fs.files.set('C:\\deputy\\dist-host\\deputy.mjs', { content: '', mode: 0o644 });
    fs.dirs.add('C:\\Users\\ada\\AppData\\Local\\Microsoft\\Edge\\User Data');
    await installCommand({}, cli);
    expect(cli.text()).toContain(
      'registry HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.deputy.host = C:\\Users\\ada\\AppData\\Local\\Deputy\\NativeMessagingHosts\\dev.deputy.host.edge.json',
    );
    expect(reg.keys.size).toBe(1);
  });
});

describe('deputy uninstall', () => {
  it('says what it removed, then that there is nothing left to remove', async () => {
    const cli = testCli();
    await installCommand({ browser: 'chrome,edge' }, cli);
    cli.lines.length = 0;
    expect(await uninstallCommand({}, cli)).toBe(0);
    expect(cli.lines[0]).toBe('Removed the Deputy native host:');
    expect(cli.lines).toHaveLength(4);
    cli.lines.length = 0;
    expect(await uninstallCommand({}, cli)).toBe(0);
    expect(cli.lines).toEqual(['Nothing to remove: the Deputy native host (dev.deputy.host) is not registered for Chrome, Chromium, Brave or Edge.']);
  });

  it('removes nothing on a dry run', async () => {
    const cli = testCli();
    await installCommand({ browser: 'chrome' }, cli);
    cli.lines.length = 0;
    await uninstallCommand({ dryRun: true }, cli);
    expect(cli.lines[0]).toMatch(/would remove/);
    expect(existsSync(join(cli.home, '.config/google-chrome/NativeMessagingHosts/dev.deputy.host.json'))).toBe(true);
  });
});

describe('deputy doctor', () => {
  it('on a machine without the host, says exactly what to run and exits 1', async () => {
    const cli = testCli();
    expect(await doctorCommand({}, cli)).toBe(1);
    expect(cli.text()).toContain('Result: the Deputy native host is not installed. Run `npm run host:install` in the Deputy folder');
    expect(cli.text()).toMatch(/^Chrome {4}not installed/m);
  });

  it('exits 0 when a browser can use the host, and says where everything is', async () => {
    const cli = testCli();
    await installCommand({ browser: 'chromium' }, cli);
    cli.lines.length = 0;
    expect(await doctorCommand({}, cli)).toBe(0);
    expect(cli.text()).toMatch(/^Chromium {2}ok: host 0\.1\.0 answered hello in 5 ms \(protocol 1\)$/m);
    expect(cli.text()).toContain(`launcher  ${join(cli.home, '.local/share/deputy/deputy-host')}`);
    expect(cli.text()).toContain('Result: the host works for Chromium.');
  });

  it('prints JSON with --json', async () => {
    const cli = testCli();
    await installCommand({ browser: 'edge' }, cli);
    cli.lines.length = 0;
    expect(await doctorCommand({ json: true }, cli)).toBe(0);
    const report = JSON.parse(cli.text()) as { usable: boolean; targets: Array<{ id: string; state: string }> };
    expect(report.usable).toBe(true);
    expect(report.targets.map((target) => `${target.id}:${target.state}`)).toEqual([
      'chrome:not_installed',
      'chromium:not_installed',
      'brave:not_installed',
      'edge:ok',
    ]);
  });

  it('calls a host that answers late "slow to start (N s)", not BROKEN, and says why and what to run', async () => {
    const late: HostProbe = async (launcher) => ({ ...(await probe(launcher)), ms: 14_200 });
    const cli = testCli({ probe: late });
    await installCommand({ browser: 'chrome' }, cli);
    cli.lines.length = 0;
    expect(await doctorCommand({}, cli)).toBe(0);
    expect(cli.text()).toMatch(/^Chrome {4}ok: host 0\.1\.0 answered hello in 14200 ms \(protocol 1\)$/m);
    expect(cli.text()).toMatch(/^ +slow +slow to start \(14\.2 s\), not broken/m);
    expect(cli.text()).not.toContain('BROKEN');
    expect(cli.text()).toContain('Slow to start for Chrome');
    expect(cli.text()).toContain('npm run bench:host');
  });

  it('calls a host still starting when doctor stops waiting "slow to start", not BROKEN', async () => {
    const starting: HostProbe = () =>
      Promise.resolve({ ok: false, error: 'no answer to hello within 60 s, though the host was still running', ms: 60_000, stderr: [], stillStarting: true });
    const cli = testCli({ probe: starting });
    await installCommand({ browser: 'chrome' }, cli);
    cli.lines.length = 0;
    expect(await doctorCommand({}, cli)).toBe(1);
    expect(cli.text()).toMatch(/^Chrome {4}slow to start: still starting when doctor stopped waiting/m);
    expect(cli.text()).not.toContain('BROKEN');
    expect(cli.text()).not.toContain('Problems for Chrome');
    expect(cli.text()).toContain('Slow to start for Chrome');
  });

  it('tells how to repair a broken registration', async () => {
    const cli = testCli();
    await installCommand({ browser: 'chrome' }, cli);
    rmSync(join(cli.home, '.local/share/deputy/deputy-host'));
    cli.lines.length = 0;
    expect(await doctorCommand({}, cli)).toBe(1);
    expect(cli.text()).toMatch(/^Chrome {4}BROKEN$/m);
    expect(cli.text()).toContain('Problems for Chrome: run `npm run host:install` in the Deputy folder');
  });
});
