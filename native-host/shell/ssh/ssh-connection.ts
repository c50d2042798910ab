import { existsSync, readFileSync } from 'node:fs';
import type { AnyAuthMethod, AuthenticationType, Client, utils as Ssh2Utils } from 'ssh2';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../log/logger';
import { addKnownHost, checkHostKey, fingerprint, hostKeyOf, knownHostsName, readKnownHosts } from './known-hosts';
import type { SshSettings } from './ssh-destination';

/** An unknown host key, as the user is asked about it: OpenSSH's first-connect question. */
export interface HostKeyPrompt {
  destination: string;
  host: string;
  port: number;
  keyType: string;
  fingerprint: string;
  /** Where the key is added when the user trusts it. */
  knownHostsFile: string;
}

/** A password or passphrase only the user may type; the model never sees the question's answer. */
export interface SecretPrompt {
  kind: 'password' | 'passphrase' | 'sudo';
  prompt: string;
  target: string;
}

export interface SshPrompts {
  confirmHostKey(request: HostKeyPrompt): Promise<boolean>;
  /** Null when nobody can answer (a headless run): the method is skipped. */
  secret?(request: SecretPrompt): Promise<string | null>;
}

const SYSTEM_KNOWN_HOSTS = ['/etc/ssh/ssh_known_hosts', '/etc/ssh/ssh_known_hosts2'];

function tildePath(path: string, home: string): string {
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** The key-based methods to offer, in OpenSSH's order: the agent's keys, then each identity file that exists. */
function keyMethods(sshUtils: typeof Ssh2Utils, settings: SshSettings, prompts: SshPrompts, home: string, skipped: string[]): (() => Promise<{ method: AnyAuthMethod; label: string } | undefined>)[] {
  const methods: (() => Promise<{ method: AnyAuthMethod; label: string } | undefined>)[] = [];
  if (settings.agent && existsSync(settings.agent)) {
    methods.push(() => Promise.resolve({ method: { type: 'agent', username: settings.user, agent: settings.agent as string }, label: 'ssh-agent' }));
  }
  for (const file of settings.identityFiles) {
    if (!existsSync(file)) continue;
    methods.push(async () => {
      const label = tildePath(file, home);
      let data: Buffer;
      try {
        data = readFileSync(file);
      } catch (error) {
        skipped.push(`${label} (unreadable: ${(error as NodeJS.ErrnoException).code ?? 'error'})`);
        return undefined;
      }
      let key = sshUtils.parseKey(data);
      if (key instanceof Error && /encrypted|passphrase/i.test(key.message)) {
        const passphrase = await prompts.secret?.({ kind: 'passphrase', prompt: `Passphrase for ${label}`, target: settings.destination });
        if (!passphrase) {
          skipped.push(`${label} (protected by a passphrase: load it with ssh-add)`);
          return undefined;
        }
        key = sshUtils.parseKey(data, passphrase);
      }
      if (key instanceof Error) {
        skipped.push(`${label} (${key.message})`);
        return undefined;
      }
      return { method: { type: 'publickey', username: settings.user, key }, label };
    });
  }
  return methods;
}

/** Turns a socket or handshake failure into a sentence that says what to check. */
export function connectError(error: Error & { code?: string; level?: string }, settings: SshSettings, extra: { hostKey?: string; tried: string[]; skipped: string[] }): AppError {
  const where = `${settings.host}:${settings.port}`;
  if (extra.hostKey !== undefined) return new AppError('forbidden', extra.hostKey);
  if (error.level === 'client-authentication') {
    const tried = extra.tried.length > 0 ? extra.tried.join(', ') : 'no key: none was found in ~/.ssh and no ssh-agent is running';
    const skipped = extra.skipped.length > 0 ? `; skipped ${extra.skipped.join(', ')}` : '';
    return new AppError(
      'auth_failed',
      `Permission denied for ${settings.user}@${where} (tried ${tried}${skipped}). Add one of your public keys to ~/.ssh/authorized_keys for ${settings.user} on the server, or load the right key into ssh-agent (ssh-add).`,
    );
  }
  switch (error.code) {
    case 'ECONNREFUSED':
      return new AppError('unavailable', `Nothing answers on ${where} (connection refused): check that sshd runs there and that the port is right.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new AppError('unavailable', `The host name "${settings.host}" cannot be resolved: check its spelling, or the Host entry in ~/.ssh/config.`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new AppError('unavailable', `${where} cannot be reached from this machine (${error.code}): check the network, a VPN, or the address.`);
    case 'ETIMEDOUT':
      return new AppError('timeout', `No answer from ${where} in time: the host may be down or a firewall drops the connection.`);
    case 'ECONNRESET':
      return new AppError('unavailable', `${where} closed the connection during the handshake: it may not be an SSH server, or it refuses this client.`);
    default:
      break;
  }
  if (/timed out while waiting for handshake/i.test(error.message)) {
    return new AppError('timeout', `No SSH handshake from ${where} within ${Math.round(settings.connectTimeoutMs / 1000)} s: the host may be down, or something other than sshd listens there.`);
  }
  return new AppError('unavailable', `Could not connect to ${settings.user}@${where}: ${error.message}`);
}

/**
 * Opens one SSH connection the way OpenSSH would: the host key checked against known_hosts (an unknown key asks the
 * user, a changed key is refused with OpenSSH's warning), then the user's keys offered, then a password if the user
 * can be asked. Resolves once the connection is ready; every failure is an AppError that says what to do.
 */
export async function connectSsh(settings: SshSettings, prompts: SshPrompts, context: { home: string; log?: Logger }): Promise<Client> {
  // The SSH library is loaded on the first remote command, not at the host's start.
  const { default: ssh2 } = await import('ssh2');
  const client = new ssh2.Client();
  const tried: string[] = [];
  const skipped: string[] = [];
  let hostKeyProblem: string | undefined;
  const name = knownHostsName(settings.keyName, settings.port);
  const userFile = settings.knownHostsFiles[0] ?? `${context.home}/.ssh/known_hosts`;

  const verify = async (blob: Buffer): Promise<boolean> => {
    const key = hostKeyOf(blob);
    const files = await readKnownHosts([...settings.knownHostsFiles, ...SYSTEM_KNOWN_HOSTS]);
    const check = checkHostKey(files, name, key);
    const print = fingerprint(blob);
    if (check.result === 'match') return true;
    if (check.result === 'mismatch' || check.result === 'revoked') {
      hostKeyProblem =
        check.result === 'revoked'
          ? `The host key of ${name} (${key.type} ${print}) is marked as revoked in ${tildePath(check.file, context.home)}:${check.line}: Deputy will not connect.`
          : `WARNING: the host key of ${name} has changed (now ${key.type} ${print}; ${tildePath(check.file, context.home)}:${check.line} has another one). Someone could be intercepting the connection, or the server was reinstalled. Deputy did not connect. If you know why the key changed, remove the old one with: ssh-keygen -R "${name}"`;
      return false;
    }
    if (settings.strictHostKeyChecking === 'yes') {
      hostKeyProblem = `${name} is not in your known_hosts and StrictHostKeyChecking is yes: connect once with ssh to check and add its key (${key.type} ${print}).`;
      return false;
    }
    const trusted =
      settings.strictHostKeyChecking === 'ask'
        ? await prompts.confirmHostKey({ destination: settings.destination, host: settings.host, port: settings.port, keyType: key.type, fingerprint: print, knownHostsFile: userFile })
        : true;
    if (!trusted) {
      hostKeyProblem = `The authenticity of ${name} (${key.type} ${print}) was not confirmed, so Deputy did not connect.`;
      return false;
    }
    await addKnownHost(userFile, name, key);
    context.log?.info('host key added', { host: name, type: key.type });
    return true;
  };

  const methods = keyMethods(ssh2.utils, settings, prompts, context.home, skipped);
  let passwordTried = false;
  const nextMethod = async (left: AuthenticationType[] | null): Promise<AnyAuthMethod | false> => {
    while (methods.length > 0) {
      const candidate = await (methods.shift() as (typeof methods)[number])();
      if (!candidate) continue;
      if (left !== null && !left.includes(candidate.method.type === 'agent' ? 'publickey' : candidate.method.type)) continue;
      tried.push(candidate.label);
      return candidate.method;
    }
    if (!passwordTried && prompts.secret && (left === null || left.includes('password'))) {
      passwordTried = true;
      const password = await prompts.secret({ kind: 'password', prompt: `Password for ${settings.user}@${settings.host}`, target: settings.destination });
      if (password) {
        tried.push('a password');
        return { type: 'password', username: settings.user, password };
      }
    }
    return false;
  };

  return new Promise<Client>((resolve, reject) => {
    let settled = false;
    client.once('ready', () => {
      settled = true;
      resolve(client);
    });
    client.once('error', (error: Error & { code?: string; level?: string }) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(connectError(error, settings, { ...(hostKeyProblem === undefined ? {} : { hostKey: hostKeyProblem }), tried, skipped }));
    });
    client.once('close', () => {
      if (settled) return;
      settled = true;
      reject(connectError(new Error('the connection closed before it was ready'), settings, { ...(hostKeyProblem === undefined ? {} : { hostKey: hostKeyProblem }), tried, skipped }));
    });
    client.connect({
      host: settings.host,
      port: settings.port,
      username: settings.user,
      readyTimeout: settings.connectTimeoutMs,
      keepaliveInterval: settings.keepaliveMs,
      keepaliveCountMax: settings.keepaliveCountMax,
      hostVerifier: (blob: Buffer, callback: (ok: boolean) => void) => {
        verify(blob).then(callback, (error: unknown) => {
          hostKeyProblem = `The host key of ${name} could not be checked: ${error instanceof Error ? error.message : String(error)}`;
          callback(false);
        });
      },
      authHandler: (left, _partial, next) => {
        // ssh2 takes false for "no more methods"; its type declarations leave that out.
        const done = next as (method: AnyAuthMethod | false) => void;
        nextMethod(left).then(done, () => done(false));
      },
    });
  });
}
