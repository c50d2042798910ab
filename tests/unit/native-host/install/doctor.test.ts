import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN, PROTOCOL_VERSION } from '../../../../shared/constants';
import type { BrowserId } from '../../../../native-host/install/browsers';
import { diagnose, type DoctorDeps } from '../../../../native-host/install/doctor';
import type { HostProbe, ProbeResult } from '../../../../native-host/install/host-probe';
import { applyInstall } from '../../../../native-host/install/install-apply';
import { planInstall } from '../../../../native-host/install/install-plan';
import { nodeInstallFs } from '../../../../native-host/install/system';
import { fakeReg, memoryFs } from './fakes';

const ALL: BrowserId[] = ['chrome', 'chromium', 'brave', 'edge'];
const hello = { hostVersion: '0.1.0', protocolVersion: PROTOCOL_VERSION, compatible: true, platform: 'linux', pid: 42, capabilities: ['ping'] };
const answered: ProbeResult = { ok: true, hello, ms: 12, exitCode: 0, stderr: [] };

function recordingProbe(result: ProbeResult = answered): HostProbe & { calls: string[] } {
  const calls: string[] = [];
  return Object.assign(
    (launcher: string) => {
      calls.push(launcher);
      return Promise.resolve(result);
    },
    { calls },
  );
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary home with Chrome installed for real: a Node binary and host script that exist, and the manifest. */
async function installedHome(): Promise<{ home: string; hostScript: string; manifest: string; launcher: string }> {
  const home = mkdtempSync(join(tmpdir(), 'deputy-doctor-'));
  dirs.push(home);
  const hostScript = join(home, 'repo', 'dist-host', 'deputy.mjs');
  mkdirSync(join(home, 'repo', 'dist-host'), { recursive: true });
  writeFileSync(hostScript, '');
  mkdirSync(join(home, '.config', 'google-chrome'), { recursive: true });
  const plan = planInstall({ os: 'linux', home, env: {}, browsers: ['chrome'], nodePath: process.execPath, hostScript, version: '0.1.0' });
  await applyInstall(plan, { fs: nodeInstallFs, run: fakeReg().run });
  return { home, hostScript, manifest: plan.manifests[0]?.path ?? '', launcher: plan.launcher.path };
}

function deps(probe: HostProbe): DoctorDeps {
  return { fs: nodeInstallFs, run: fakeReg().run, probe };
}

describe('diagnose', () => {
  it('reports a working browser with the host version from a real round trip, and the others as not installed', async () => {
    const { home, hostScript, manifest, launcher } = await installedHome();
    const probe = recordingProbe();
    const report = await diagnose({ os: 'linux', home, env: {}, browsers: ALL, currentHostScript: hostScript }, deps(probe));
    expect(report.usable).toBe(true);
    const [chrome, ...others] = report.targets;
    expect(chrome).toMatchObject({
      id: 'chrome',
      state: 'ok',
      browserFound: true,
      manifestPath: manifest,
      launcherPath: launcher,
      runs: { nodePath: process.execPath, hostScript },
      hello: { hostVersion: '0.1.0', protocolVersion: PROTOCOL_VERSION, ms: 12 },
      problems: [],
    });
    expect(others.map((target) => [target.id, target.state, target.browserFound])).toEqual([
      ['chromium', 'not_installed', false],
      ['brave', 'not_installed', false],
      ['edge', 'not_installed', false],
    ]);
    expect(probe.calls).toEqual([launcher]);
  });

  it('says nothing is usable on a machine without the host', async () => {
    const home = mkdtempSync(join(tmpdir(), 'deputy-doctor-'));
    dirs.push(home);
    const report = await diagnose({ os: 'darwin', home, env: {}, browsers: ALL }, deps(recordingProbe()));
    expect(report.usable).toBe(false);
    expect(report.targets.every((target) => target.state === 'not_installed')).toBe(true);
  });

  const brokenCases: Array<[string, (paths: Awaited<ReturnType<typeof installedHome>>) => void, RegExp]> = [
    ['a manifest that is not JSON', ({ manifest }) => writeFileSync(manifest, '{ "name": "dev.deputy.host",'), /not valid JSON/],
    ['a manifest with the wrong name', ({ manifest }) => rewrite(manifest, { name: 'dev.deputy.hots' }), /name is "dev.deputy.hots"/],
    [
      'allowed_origins without the pinned id',
      ({ manifest }) => rewrite(manifest, { allowed_origins: ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'] }),
      new RegExp(`does not list ${EXTENSION_ORIGIN}`),
    ],
    ['a missing launcher', ({ launcher }) => rmSync(launcher), /launcher .* is missing/],
    ['a launcher that is not executable', ({ launcher }) => chmodSync(launcher, 0o644), /not executable/],
    ['a host script that is gone', ({ hostScript }) => rmSync(hostScript), /host script .* is missing/],
  ];

  it.each(brokenCases)('finds %s', async (_, breakIt, expected) => {
    const paths = await installedHome();
    breakIt(paths);
    const report = await diagnose({ os: 'linux', home: paths.home, env: {}, browsers: ['chrome'] }, deps(recordingProbe()));
    expect(report.usable).toBe(false);
    expect(report.targets[0]?.state).toBe('broken');
    expect(report.targets[0]?.problems.join('\n')).toMatch(expected);
  });

  it('finds a Node that is gone, without starting the launcher', async () => {
    const paths = await installedHome();
    const plan = planInstall({
      os: 'linux',
      home: paths.home,
      env: {},
      browsers: ['chrome'],
      nodePath: join(paths.home, '.nvm', 'versions', 'node', 'v18.0.0', 'bin', 'node'),
      hostScript: paths.hostScript,
      version: '0.1.0',
    });
    await applyInstall(plan, { fs: nodeInstallFs, run: fakeReg().run });
    const probe = recordingProbe();
    const report = await diagnose({ os: 'linux', home: paths.home, env: {}, browsers: ['chrome'] }, deps(probe));
    expect(report.targets[0]?.problems).toEqual([expect.stringMatching(/Node is gone from .*v18\.0\.0/)]);
    expect(probe.calls).toEqual([]);
  });

  it('reports a failed round trip with the last lines the host wrote to stderr', async () => {
    const paths = await installedHome();
    const probe = recordingProbe({ ok: false, error: 'the host exited (code 1) before it answered hello', ms: 30, stderr: ['SyntaxError: x'] });
    const report = await diagnose({ os: 'linux', home: paths.home, env: {}, browsers: ['chrome'] }, deps(probe));
    expect(report.targets[0]?.problems).toEqual(['the hello round trip failed: the host exited (code 1) before it answered hello']);
    expect(report.targets[0]?.notes).toContain('host stderr: SyntaxError: x');
  });

  it('reports a host that speaks another protocol', async () => {
    const paths = await installedHome();
    const probe = recordingProbe({ ...answered, hello: { ...hello, protocolVersion: PROTOCOL_VERSION + 1, compatible: false } });
    const report = await diagnose({ os: 'linux', home: paths.home, env: {}, browsers: ['chrome'] }, deps(probe));
    expect(report.targets[0]?.problems).toEqual([expect.stringMatching(/speaks protocol/)]);
  });

  it('notes a launcher that runs another copy of Deputy', async () => {
    const paths = await installedHome();
    const report = await diagnose(
      { os: 'linux', home: paths.home, env: {}, browsers: ['chrome'], currentHostScript: '/elsewhere/dist-host/deputy.mjs' },
      deps(recordingProbe()),
    );
    expect(report.targets[0]?.state).toBe('ok');
    expect(report.targets[0]?.notes).toEqual([expect.stringMatching(/not this copy of Deputy/)]);
  });

  describe('on Windows', () => {
    const home = 'C:\\Users\\ada';
    const env = { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' };
    const nodePath = 'C:\\Program Files\\nodejs\\node.exe';
    const hostScript = 'C:\\src\\deputy\\dist-host\\deputy.mjs';

    async function windowsInstall(): Promise<{ fs: ReturnType<typeof memoryFs>; reg: ReturnType<typeof fakeReg> }> {
      const fs = memoryFs();
      const reg = fakeReg();
      fs.files.set(nodePath, { content: '', mode: 0o755 });
      fs.files.set(hostScript, { content: '', mode: 0o644 });
      await applyInstall(planInstall({ os: 'win32', home, env, browsers: ['edge'], nodePath, hostScript, version: '0.1.0' }), {
        fs,
        run: reg.run,
      });
      return { fs, reg };
    }

    it('follows the registry key to the manifest and round-trips through the .bat', async () => {
      const { fs, reg } = await windowsInstall();
      const probe = recordingProbe();
      const report = await diagnose({ os: 'win32', home, env, browsers: ['chrome', 'edge'] }, { fs, run: reg.run, probe });
      expect(report.targets.map((target) => target.state)).toEqual(['not_installed', 'ok']);
      expect(report.targets[1]?.registryKey).toBe('HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.deputy.host');
      expect(probe.calls).toEqual(['C:\\Users\\ada\\AppData\\Local\\Deputy\\deputy-host.bat']);
    });

    it('finds a registry key that points at a missing manifest, and a manifest whose key is gone', async () => {
      const { fs, reg } = await windowsInstall();
      const manifest = 'C:\\Users\\ada\\AppData\\Local\\Deputy\\NativeMessagingHosts\\dev.deputy.host.edge.json';
      const saved = fs.files.get(manifest);
      fs.files.delete(manifest);
      let report = await diagnose({ os: 'win32', home, env, browsers: ['edge'] }, { fs, run: reg.run, probe: recordingProbe() });
      expect(report.targets[0]?.problems).toEqual([expect.stringMatching(/registry key points at .*edge\.json, which does not exist/)]);
      if (saved) fs.files.set(manifest, saved);
      reg.keys.clear();
      report = await diagnose({ os: 'win32', home, env, browsers: ['edge'] }, { fs, run: reg.run, probe: recordingProbe() });
      expect(report.targets[0]?.problems).toEqual([expect.stringMatching(/registry key .* is missing/)]);
    });
  });
});

function rewrite(path: string, changes: Record<string, unknown>): void {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...manifest, ...changes }));
}
