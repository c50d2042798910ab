import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * The `*.test` names the browser maps to this machine through its host resolver rules (test-hosts.ts), for the
 * programs outside the browser: the native host the browser starts, its shell commands (bash's /dev/tcp, curl) and its
 * Node children (an MCP server). A `/etc/hosts` file cannot say `*.test`, so these are the names the attacks and
 * their sites use.
 */
export const PROCESS_TEST_NAMES = ['shop.test', 'evil.test', 'cdn.test', 'models.test', 'support.test', 'service.test'];

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Writes an executable that runs `command` (with the arguments it is given) seeing a `/etc/hosts` of its own: the
 * machine's, plus the test names on 127.0.0.1. The real file is never touched: the command runs in a private mount
 * namespace (util-linux's `unshare`) where a copy is bound over it, and every process it starts inherits that view,
 * so a browser started through it starts a host whose commands resolve `evil.test` as the browser does. glibc's
 * HOSTALIASES cannot do this (it only aliases names without a dot, and looks the alias up in DNS). As root the
 * namespace is a mount namespace alone; otherwise a user namespace maps the user to root for the mount, and a nested
 * one maps them back, so the command runs as the user it was started by.
 */
export function withTestNames(dir: string, command: string): string {
  mkdirSync(dir, { recursive: true });
  const hosts = join(dir, 'hosts');
  writeFileSync(hosts, `${readFileSync('/etc/hosts', 'utf8').trimEnd()}\n127.0.0.1 ${PROCESS_TEST_NAMES.join(' ')}\n`);
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const [outer, inner] = uid === 0 ? ['unshare --mount', 'exec'] : ['unshare --mount --map-root-user', `exec unshare --map-user=${uid} --map-group=${gid} --`];
  const script = join(dir, `${basename(command)}-with-test-names`);
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `# Runs ${basename(command)} with the test names on 127.0.0.1 in a /etc/hosts of its own (tests only; see process-test-names.ts).`,
      `exec ${outer} -- /bin/sh -c ${quote(`mount --bind "$0" /etc/hosts && ${inner} "$@"`)} ${quote(hosts)} ${quote(command)} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return script;
}

let missing: string | undefined | null = null;

/**
 * Why programs cannot be given the test names here (not Linux, no `unshare`, no user namespaces), or undefined. Found
 * by running Node through the wrapper and resolving evil.test, once per process.
 */
export function processTestNamesMissing(dir: string): string | undefined {
  if (missing !== null) return missing;
  if (process.platform !== 'linux') return (missing = `mapping evil.test for the host's commands needs Linux's mount namespaces (this is ${process.platform})`);
  const node = withTestNames(join(dir, 'probe'), process.execPath);
  const probe = spawnSync(node, ['-e', "require('node:dns').lookup('evil.test', (e, a) => process.stdout.write(e ? e.code : a))"], { encoding: 'utf8', timeout: 60_000 });
  missing =
    probe.stdout === '127.0.0.1'
      ? undefined
      : `mapping evil.test for the host's commands needs util-linux's unshare and user namespaces (sysctl kernel.unprivileged_userns_clone=1); the probe said: ${(probe.stderr || probe.stdout || String(probe.error ?? '')).trim().slice(0, 300)}`;
  return missing;
}
