import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launcherScript, parseLauncher } from '../../../../native-host/install/launcher';

const root = mkdtempSync(join(tmpdir(), 'deputy-launcher-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('launcherScript', () => {
  it.skipIf(process.platform === 'win32')(
    'runs Node by absolute path with the host script, passing the browser arguments through, even from awkward folders',
    () => {
      // Every character that stays special inside double quotes in sh, plus a space and a single quote. Node cannot
      // load an ES module from a path with a backslash, so that one goes into the Node path, through a symlink.
      const dir = join(root, `we"ird $HOME \`id\` it's`);
      const nodeDir = join(root, 'back\\slash $PATH');
      mkdirSync(dir, { recursive: true });
      mkdirSync(nodeDir, { recursive: true });
      const node = join(nodeDir, 'node');
      symlinkSync(process.execPath, node);
      const script = join(dir, 'host.mjs');
      writeFileSync(script, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
      const launcher = join(dir, 'deputy-host');
      writeFileSync(launcher, launcherScript('linux', { nodePath: node, hostScript: script }, '1.0.0'));
      chmodSync(launcher, 0o755);
      // A browser started from a desktop menu may have next to nothing in PATH.
      const output = execFileSync(launcher, ['chrome-extension://abc/', '--parent-window=0'], { env: { PATH: '/nonexistent' } });
      expect(JSON.parse(output.toString())).toEqual(['native-host', 'chrome-extension://abc/', '--parent-window=0']);
      expect(parseLauncher('linux', launcherScript('linux', { nodePath: node, hostScript: script }, '1'))).toEqual({
        nodePath: node,
        hostScript: script,
      });
    },
  );

  it('writes a .bat for Windows that cmd will not mangle, and reads it back', () => {
    const target = { nodePath: 'C:\\Program Files\\nodejs\\node.exe', hostScript: 'C:\\Users\\a\\100%\\dist-host\\deputy.mjs' };
    const bat = launcherScript('win32', target, '1.0.0');
    expect(bat).toContain('"C:\\Users\\a\\100%%\\dist-host\\deputy.mjs" native-host %*');
    expect(bat.split('\r\n')[0]).toBe('@echo off');
    expect(parseLauncher('win32', bat)).toEqual(target);
  });

  it('does not claim scripts it did not write', () => {
    expect(parseLauncher('linux', '#!/bin/sh\nnode /x/deputy.mjs native-host "$@"\n')).toBeUndefined();
    expect(parseLauncher('win32', '@echo off\r\nnode x.mjs\r\n')).toBeUndefined();
  });
});
