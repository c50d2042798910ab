import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adviceFor } from '../../../../native-host/cli/doctor-command';
import type { DoctorReport, TargetReport } from '../../../../native-host/install/doctor';
import { CHECKOUT_COMMANDS, PACKAGE_COMMANDS, hostCommands } from '../../../../native-host/install/host-script';

const target = (id: TargetReport['id'], label: string, state: TargetReport['state'], browserFound = true): TargetReport => ({
  id,
  label,
  state,
  browserFound,
  manifestPath: `/home/u/.config/${id}/NativeMessagingHosts/dev.deputy.host.json`,
  problems: state === 'broken' ? ['the host script /old/deputy/dist-host/deputy.mjs is missing (deleted, or the checkout moved)'] : [],
  notes: [],
  ...(state === 'ok' ? { hello: { hostVersion: '0.1.0', protocolVersion: 1, compatible: true, pid: 1, ms: 40 } } : {}),
});
const report = (...targets: TargetReport[]): DoctorReport => ({ targets, usable: targets.some((item) => item.state === 'ok') });

describe('doctor advice names the fix for this copy of Deputy', () => {
  it('a browser that is here but was not registered (the host is installed for another): the install line for it alone', () => {
    const here = report(target('chrome', 'Chrome', 'ok'), target('brave', 'Brave', 'not_installed'), target('edge', 'Edge', 'not_installed', false));
    expect(adviceFor(here)).toContain(
      'Not registered for Brave, which is on this machine: Deputy in that browser cannot start the host. Run `npm run host:install -- --browser brave` in the Deputy folder.',
    );
    expect(adviceFor(here, PACKAGE_COMMANDS)).toContain(
      'Not registered for Brave, which is on this machine: Deputy in that browser cannot start the host. Run `deputy install --browser brave`.',
    );
    // A browser that is not on this machine is no problem, and nothing registered at all has its own line.
    expect(adviceFor(report(target('chrome', 'Chrome', 'ok'), target('edge', 'Edge', 'not_installed', false))).join('\n')).not.toContain('Not registered');
    expect(adviceFor(report(target('brave', 'Brave', 'not_installed')), PACKAGE_COMMANDS)).toEqual([
      'Result: the Deputy native host is not installed. Run `deputy install`, then reload the extension.',
    ]);
  });

  it('a registration that points at a moved folder: rewrite it with the command this copy has', () => {
    const moved = report(target('chrome', 'Chrome', 'broken'), target('chromium', 'Chromium', 'broken'));
    expect(adviceFor(moved, CHECKOUT_COMMANDS)).toEqual([
      'Problems for Chrome and Chromium: run `npm run host:install` in the Deputy folder to rewrite the launcher and manifests, then run doctor again.',
    ]);
    expect(adviceFor(moved, PACKAGE_COMMANDS)).toEqual([
      'Problems for Chrome and Chromium: run `deputy install` to rewrite the launcher and manifests, then run doctor again.',
    ]);
  });
});

describe('hostCommands', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const root = (pkg: unknown): string => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-root-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    return dir;
  };

  it("a checkout (the repository's private package.json) gets npm scripts; the npm package gets deputy", () => {
    expect(hostCommands(root({ name: 'deputy', private: true }))).toBe(CHECKOUT_COMMANDS);
    expect(hostCommands(root({ name: 'deputy', bin: { deputy: 'dist-host/deputy.mjs' } }))).toBe(PACKAGE_COMMANDS);
    expect(hostCommands(join(tmpdir(), 'no-such-deputy-folder'))).toBe(CHECKOUT_COMMANDS);
  });
});
