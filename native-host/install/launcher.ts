import type { OsName } from '../paths';

/** What a launcher runs: Node by absolute path, and the built host script. */
export interface LauncherTarget {
  nodePath: string;
  hostScript: string;
}

export function launcherFileName(os: OsName): string {
  return os === 'win32' ? 'deputy-host.bat' : 'deputy-host';
}

/**
 * The script the browser starts. It names Node by absolute path because a browser started from a desktop menu or the
 * Dock does not get the PATH that nvm, fnm or Homebrew set up in a shell profile. Chrome passes the caller's origin
 * (and on Windows --parent-window) as arguments; they are handed on to the host.
 */
export function launcherScript(os: OsName, target: LauncherTarget, version: string): string {
  if (os === 'win32') {
    return [
      '@echo off',
      `rem Deputy native-messaging host launcher, written by "deputy install" ${version}. Run "deputy uninstall" to remove it.`,
      `${batQuote(target.nodePath)} ${batQuote(target.hostScript)} native-host %*`,
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    `# Deputy native-messaging host launcher, written by "deputy install" ${version}. Run "deputy uninstall" to remove it.`,
    `exec ${shQuote(target.nodePath)} ${shQuote(target.hostScript)} native-host "$@"`,
    '',
  ].join('\n');
}

/** Reads back what a launcher written by launcherScript runs; undefined for any other script. */
export function parseLauncher(os: OsName, text: string): LauncherTarget | undefined {
  if (os === 'win32') {
    const match = /^"([^"]*)" "([^"]*)" native-host %\*\s*$/m.exec(text);
    if (!match) return undefined;
    return { nodePath: batUnquote(match[1] ?? ''), hostScript: batUnquote(match[2] ?? '') };
  }
  const match = /^exec "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)" native-host "\$@"\s*$/m.exec(text);
  if (!match) return undefined;
  return { nodePath: shUnquote(match[1] ?? ''), hostScript: shUnquote(match[2] ?? '') };
}

/** Double quotes with the four characters that stay special inside them escaped. */
function shQuote(value: string): string {
  return `"${value.replace(/["\\$`]/g, (char) => `\\${char}`)}"`;
}

function shUnquote(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/** Windows paths cannot hold a double quote; a percent sign would be expanded by cmd unless doubled. */
function batQuote(value: string): string {
  return `"${value.replace(/%/g, '%%')}"`;
}

function batUnquote(value: string): string {
  return value.replace(/%%/g, '%');
}
