import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { expandPath, resolveHostConfig } from './ssh-config';

/** Everything needed to connect, resolved from what the user typed and ~/.ssh/config, as OpenSSH would. */
export interface SshSettings {
  /** What the user typed (an alias or user@host[:port]): the target's key for rules and labels. */
  destination: string;
  host: string;
  port: number;
  user: string;
  /** The name host keys are looked up under (HostKeyAlias, or the host). */
  keyName: string;
  identityFiles: string[];
  /** Whether to offer the keys of the user's ssh-agent, and where it listens. */
  agent: string | undefined;
  knownHostsFiles: string[];
  /** ask (the default): ask the user about an unknown key; yes: refuse it; accept-new / no: trust it and note it. */
  strictHostKeyChecking: 'ask' | 'yes' | 'accept-new' | 'no';
  keepaliveMs: number;
  keepaliveCountMax: number;
  connectTimeoutMs: number;
}

export interface Destination {
  user?: string;
  host: string;
  port?: number;
}

const usage = (message: string): AppError => new AppError('bad_request', message);

/** Reads `alias`, `host`, `user@host`, `user@host:port`, `[v6]:port` and `ssh://user@host:port`. */
export function parseDestination(text: string): Destination {
  const raw = text.trim().replace(/^ssh:\/\//, '').replace(/\/$/, '');
  if (raw === '' || /\s/.test(raw)) throw usage(`"${text}" is not an SSH destination: write user@host, user@host:port, or a Host alias from ~/.ssh/config.`);
  const at = raw.lastIndexOf('@');
  const user = at > 0 ? raw.slice(0, at) : undefined;
  const rest = at >= 0 ? raw.slice(at + 1) : raw;
  let host = rest;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(rest);
  if (bracketed?.[1]) {
    host = bracketed[1];
    portText = bracketed[2];
  } else if ((rest.match(/:/g) ?? []).length === 1) {
    [host = '', portText] = rest.split(':');
  }
  if (host === '') throw usage(`"${text}" names no host: write user@host[:port].`);
  let port: number | undefined;
  if (portText !== undefined) {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw usage(`"${portText}" in "${text}" is not a port (1-65535).`);
  }
  return { host, ...(user ? { user } : {}), ...(port === undefined ? {} : { port }) };
}

function seconds(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/**
 * The connection settings for a destination: the user's ~/.ssh/config (HostName, User, Port, IdentityFile,
 * IdentitiesOnly, IdentityAgent, UserKnownHostsFile, StrictHostKeyChecking, ServerAlive*, ConnectTimeout,
 * HostKeyAlias), the default keys under ~/.ssh, the ssh-agent from SSH_AUTH_SOCK. What the user typed wins over the
 * config. ProxyJump and ProxyCommand are refused with a clear message rather than silently ignored.
 */
export function resolveSshSettings(destination: string, context: { home: string; localUser: string; env: Record<string, string | undefined> }): SshSettings {
  const parsed = parseDestination(destination);
  const config = resolveHostConfig(parsed.host, { home: context.home });
  if (config.proxyjump !== undefined && config.proxyjump.toLowerCase() !== 'none') {
    throw new AppError('unavailable', `~/.ssh/config sets ProxyJump for ${parsed.host}, which Deputy does not follow yet: run Deputy on the jump host, or give the final host's address directly.`);
  }
  if (config.proxycommand !== undefined && config.proxycommand.toLowerCase() !== 'none') {
    throw new AppError('unavailable', `~/.ssh/config sets ProxyCommand for ${parsed.host}, which Deputy does not run: give the host's address directly.`);
  }
  const host = config.hostname ?? parsed.host;
  const user = parsed.user ?? config.user ?? context.localUser;
  const port = parsed.port ?? (config.port === undefined ? 22 : Number(config.port));
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw usage(`~/.ssh/config gives ${parsed.host} the port "${config.port ?? ''}", which is not a port.`);
  const tokens = { home: context.home, localUser: context.localUser, host, remoteUser: user };
  const ssh = join(context.home, '.ssh');
  const configured = config.identityfile.map((file) => expandPath(file, tokens));
  const onlyConfigured = config.identitiesonly?.toLowerCase() === 'yes' && configured.length > 0;
  const defaults = ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => join(ssh, name));
  const identityFiles = [...new Set(onlyConfigured ? configured : [...configured, ...defaults])];
  const agentSetting = config.identityagent;
  const agent =
    onlyConfigured || agentSetting?.toLowerCase() === 'none'
      ? undefined
      : agentSetting === undefined || agentSetting === 'SSH_AUTH_SOCK'
        ? context.env.SSH_AUTH_SOCK || undefined
        : expandPath(agentSetting.replace(/^\$\{?SSH_AUTH_SOCK\}?$/, context.env.SSH_AUTH_SOCK ?? ''), tokens) || undefined;
  const knownHostsFiles = config.userknownhostsfile
    ? config.userknownhostsfile.split(/\s+/).map((file) => expandPath(file, tokens))
    : [join(ssh, 'known_hosts'), join(ssh, 'known_hosts2')];
  const strict = (config.stricthostkeychecking ?? 'ask').toLowerCase();
  const strictHostKeyChecking = strict === 'yes' ? 'yes' : strict === 'accept-new' ? 'accept-new' : strict === 'no' || strict === 'off' ? 'no' : 'ask';
  return {
    destination: destination.trim(),
    host,
    port,
    user,
    keyName: config.hostkeyalias ?? host,
    identityFiles,
    agent,
    knownHostsFiles,
    strictHostKeyChecking,
    // OpenSSH sends no keepalives by default; a command that waits in silence for minutes must still notice a dead link.
    keepaliveMs: seconds(config.serveraliveinterval, 15) * 1000,
    keepaliveCountMax: seconds(config.serveralivecountmax, 3),
    connectTimeoutMs: seconds(config.connecttimeout, 15) * 1000,
  };
}
