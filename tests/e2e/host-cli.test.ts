import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../shared/constants';
import pkg from '../../package.json';
import { BUILT_HOST, ROOT, ensureBuiltHost } from './host-harness';

/**
 * `deputy install`, `doctor` and `uninstall` run from the built bin against a temporary home, as a user would run
 * them: real files, a real launcher, and doctor's real hello round trip through it.
 */

let home = '';

function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, ...extra };
  for (const name of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'CHROME_CONFIG_HOME', 'DEPUTY_LOG_FILE']) delete env[name];
  return { ...env, ...extra };
}

function deputy(args: string[], extra: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BUILT_HOST, ...args], { env: cleanEnv(extra), encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  ensureBuiltHost();
  home = mkdtempSync(join(tmpdir(), 'deputy-cli-home-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const hostsDirs = ['.config/google-chrome', '.config/chromium', '.config/BraveSoftware/Brave-Browser', '.config/microsoft-edge'].map((dir) =>
  join(dir, 'NativeMessagingHosts'),
);

describe.skipIf(process.platform !== 'linux')('deputy install, doctor and uninstall', () => {
  it('doctor on a machine without the host says exactly what to run, and exits 1', () => {
    const result = deputy(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Result: the Deputy native host is not installed. Run `npm run host:install` in the Deputy folder');
    expect(result.stdout).toContain(`Host log: ${join(home, '.local/state/deputy/logs/host.log')}`);
  });

  it('install registers every browser, and doctor completes a real hello round trip through the launcher', () => {
    const install = deputy(['install']);
    expect(install.code, install.stderr).toBe(0);
    const launcher = join(home, '.local/share/deputy/deputy-host');
    expect(statSync(launcher).mode & 0o777).toBe(0o755);
    expect(readFileSync(launcher, 'utf8')).toContain(`"${BUILT_HOST}" native-host "$@"`);
    for (const dir of hostsDirs) {
      const manifestPath = join(home, dir, `${NATIVE_HOST_NAME}.json`);
      expect(install.stdout).toContain(manifestPath);
      expect(JSON.parse(readFileSync(manifestPath, 'utf8'))).toMatchObject({ name: NATIVE_HOST_NAME, path: launcher, type: 'stdio', allowed_origins: [EXTENSION_ORIGIN] });
    }

    const doctor = deputy(['doctor']);
    expect(doctor.code, doctor.stdout).toBe(0);
    for (const label of ['Chrome', 'Chromium', 'Brave', 'Edge']) {
      expect(doctor.stdout).toMatch(new RegExp(`^${label} +ok: host ${pkg.version.replace(/\./g, '\\.')} answered hello in \\d+ ms \\(protocol 1\\)$`, 'm'));
    }
    // The host doctor started wrote its log where the README says.
    expect(readFileSync(join(home, '.local/state/deputy/logs/host.log'), 'utf8')).toContain('INFO [host] started');

    const json = deputy(['doctor', '--json', '--browser', 'brave']);
    const report = JSON.parse(json.stdout) as { usable: boolean; targets: Array<{ id: string; state: string; hello?: { hostVersion: string } }> };
    expect(report.usable).toBe(true);
    expect(report.targets).toEqual([expect.objectContaining({ id: 'brave', state: 'ok', hello: expect.objectContaining({ hostVersion: pkg.version }) as unknown })]);
  });

  it('doctor calls a host that is slow to start "slow to start (N s)", not BROKEN, and still finds it working', () => {
    expect(deputy(['install', '--browser', 'chrome']).code).toBe(0);
    // The host holds its start back 3.5 s (a test-only knob), as on a busy machine; doctor's probe waits for it.
    const doctor = deputy(['doctor', '--browser', 'chrome'], { DEPUTY_TEST_SLOW_START_MS: '3500' });
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(/^Chrome +ok: host .* answered hello in \d+ ms/m);
    expect(doctor.stdout).toMatch(/^ +slow +slow to start \(\d+\.\d s\), not broken/m);
    expect(doctor.stdout).toContain('Slow to start for Chrome');
    expect(doctor.stdout).not.toContain('BROKEN');
  });

  it('doctor names a launcher that is not executable, and exits 1 when nothing else works', () => {
    const launcher = join(home, '.local/share/deputy/deputy-host');
    chmodSync(launcher, 0o644);
    const doctor = deputy(['doctor']);
    chmodSync(launcher, 0o755);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/^Chrome {4}BROKEN$/m);
    expect(doctor.stdout).toContain(`- the launcher ${launcher} is not executable`);
    expect(doctor.stdout).toContain('run `npm run host:install` in the Deputy folder');
  });

  it('uninstall removes what install wrote, and says there is nothing left the second time', () => {
    const first = deputy(['uninstall']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Removed the Deputy native host:');
    for (const dir of hostsDirs) expect(existsSync(join(home, dir, `${NATIVE_HOST_NAME}.json`))).toBe(false);
    // The folders install created (none of these browsers had one here) are gone too, so nothing looks installed.
    expect(existsSync(join(home, '.local/share/deputy'))).toBe(false);
    for (const dir of ['google-chrome', 'chromium', 'BraveSoftware', 'microsoft-edge']) expect(existsSync(join(home, '.config', dir))).toBe(false);
    const second = deputy(['uninstall']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Nothing to remove');
    expect(deputy(['doctor']).code).toBe(1);
  });

  it('registers in a test profile with `install --user-data-dir <dir>`, leaving the home alone', () => {
    const profile = join(home, 'profile');
    const install = deputy(['install', '--user-data-dir', profile]);
    expect(install.code, install.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(profile, 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`), 'utf8')) as { path: string };
    expect(manifest.path).toBe(join(profile, 'NativeMessagingHosts', 'deputy-host'));
    expect(existsSync(join(home, '.local/share/deputy'))).toBe(false);
    const doctor = deputy(['doctor', '--user-data-dir', profile]);
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(doctor.stdout).toContain('Result: the host works for the profile.');
    expect(deputy(['uninstall', '--user-data-dir', profile]).code).toBe(0);
    expect(existsSync(join(profile, 'NativeMessagingHosts'))).toBe(false);
    expect(existsSync(profile)).toBe(true);
  });

  it('answers usage mistakes with exit 2 and a one-line reason', () => {
    const result = deputy(['install', '--browser', 'firefox']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('deputy: unknown browser "firefox"; choose from chrome, chromium, brave, edge (comma-separated), or all\n');
  });

  it('runs from the repo as `npm run deputy -- doctor`', () => {
    const result = spawnSync('npm', ['run', '--silent', 'deputy', '--', 'doctor'], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('Run `npm run host:install`');
  });
});
