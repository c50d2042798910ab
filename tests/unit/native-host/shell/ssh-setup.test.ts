import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addKnownHost, checkHostKey, fingerprint, hostKeyOf, knownHostsName } from '../../../../native-host/shell/ssh/known-hosts';
import { hostMatches, resolveHostConfig } from '../../../../native-host/shell/ssh/ssh-config';
import { parseDestination, resolveSshSettings } from '../../../../native-host/shell/ssh/ssh-destination';

/** A public key blob as SSH sends it: the algorithm name, then the key bytes. */
function blob(type: string, seed: number): Buffer {
  const name = Buffer.from(type);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(name.length);
  return Buffer.concat([length, name, Buffer.alloc(32, seed)]);
}

describe('~/.ssh/config', () => {
  const files: Record<string, string> = {
    '/home/ada/.ssh/config': [
      '# Deputy reads it as ssh does',
      'Host web1 web1.example.com',
      '  HostName 10.0.0.5',
      '  User deploy',
      '  Port 2222',
      '  IdentityFile ~/.ssh/web_ed25519',
      'Host *.internal !bastion.internal',
      '  User ops',
      '  ProxyJump bastion.internal',
      'Match host web1',
      '  User nobody',
      'Include conf.d/*.conf',
      'Host *',
      '  User fallback',
      '  IdentityFile ~/.ssh/id_%h',
      '  ServerAliveInterval 30',
    ].join('\n'),
    '/home/ada/.ssh/conf.d/10-db.conf': 'Host db\n  HostName db.example.org\n  UserKnownHostsFile ~/.ssh/known_db\n',
  };
  const fs = {
    read: (path: string): string | undefined => files[path],
    list: (folder: string): string[] => Object.keys(files).filter((path) => path.startsWith(`${folder}/`)).map((path) => path.slice(folder.length + 1)),
  };
  const home = '/home/ada';

  it('takes the first value of each option from every matching Host block, adds up IdentityFiles, and skips Match blocks', () => {
    expect(resolveHostConfig('web1', { home, fs })).toEqual({
      hostname: '10.0.0.5',
      user: 'deploy',
      port: '2222',
      identityfile: ['~/.ssh/web_ed25519', '~/.ssh/id_%h'],
      serveraliveinterval: '30',
    });
    expect(resolveHostConfig('db', { home, fs })).toMatchObject({ hostname: 'db.example.org', user: 'fallback', userknownhostsfile: '~/.ssh/known_db' });
    expect(resolveHostConfig('bastion.internal', { home, fs }).user).toBe('fallback');
    expect(resolveHostConfig('app.internal', { home, fs })).toMatchObject({ user: 'ops', proxyjump: 'bastion.internal' });
  });

  it('matches host patterns as OpenSSH does: wildcards, and a negated pattern that wins', () => {
    expect(hostMatches(['*.example.com'], 'WEB.example.com')).toBe(true);
    expect(hostMatches(['web?'], 'web1')).toBe(true);
    expect(hostMatches(['*', '!db'], 'db')).toBe(false);
  });
});

describe('SSH destinations', () => {
  it('reads user@host:port, [IPv6]:port, ssh:// addresses and aliases, and says what is wrong with the rest', () => {
    expect(parseDestination('deploy@web1:2222')).toEqual({ user: 'deploy', host: 'web1', port: 2222 });
    expect(parseDestination('ssh://root@10.0.0.5')).toEqual({ user: 'root', host: '10.0.0.5' });
    expect(parseDestination('admin@[::1]:22')).toEqual({ user: 'admin', host: '::1', port: 22 });
    expect(parseDestination('web1')).toEqual({ host: 'web1' });
    expect(() => parseDestination('deploy@web1:99999')).toThrow('"99999" in "deploy@web1:99999" is not a port (1-65535).');
    expect(() => parseDestination('two words')).toThrow(/is not an SSH destination/);
  });

  describe('resolved with the user\'s ~/.ssh', () => {
    let home: string;
    beforeEach(async () => {
      home = await mkdtemp(join(tmpdir(), 'deputy-ssh-home-'));
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(home, '.ssh'));
      await writeFile(
        join(home, '.ssh', 'config'),
        'Host web1\n  HostName 10.0.0.5\n  User deploy\n  Port 2222\n  IdentityFile ~/.ssh/web\n  IdentitiesOnly yes\n  StrictHostKeyChecking accept-new\nHost jump\n  ProxyJump bastion\n',
      );
    });
    afterEach(async () => rm(home, { recursive: true, force: true }));

    it('follows the config for an alias, lets what the user typed win, and uses the agent and default keys otherwise', () => {
      const alias = resolveSshSettings('web1', { home, localUser: 'ada', env: { SSH_AUTH_SOCK: '/tmp/agent.sock' } });
      expect(alias).toMatchObject({ host: '10.0.0.5', user: 'deploy', port: 2222, identityFiles: [join(home, '.ssh', 'web')], agent: undefined, strictHostKeyChecking: 'accept-new' });
      expect(resolveSshSettings('root@web1:22', { home, localUser: 'ada', env: {} })).toMatchObject({ user: 'root', port: 22 });
      const plain = resolveSshSettings('other.example', { home, localUser: 'ada', env: { SSH_AUTH_SOCK: '/tmp/agent.sock' } });
      expect(plain).toMatchObject({
        host: 'other.example',
        user: 'ada',
        port: 22,
        agent: '/tmp/agent.sock',
        strictHostKeyChecking: 'ask',
        keepaliveMs: 15_000,
        knownHostsFiles: [join(home, '.ssh', 'known_hosts'), join(home, '.ssh', 'known_hosts2')],
      });
      expect(plain.identityFiles).toEqual(['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => join(home, '.ssh', name)));
    });

    it('refuses ProxyJump with a message rather than connecting somewhere else', () => {
      expect(() => resolveSshSettings('jump', { home, localUser: 'ada', env: {} })).toThrow(/ProxyJump for jump, which Deputy does not follow yet/);
    });
  });
});

describe('known_hosts', () => {
  const key = hostKeyOf(blob('ssh-ed25519', 1));
  const other = hostKeyOf(blob('ssh-ed25519', 2));
  const rsa = hostKeyOf(blob('ssh-rsa', 3));
  const line = (name: string, k = key): string => `${name} ${k.type} ${k.blob.toString('base64')}`;
  const hashed = (name: string): string => {
    const salt = randomBytes(20);
    return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
  };

  it('finds a host by plain, bracketed-port, wildcard and hashed names', () => {
    expect(key.type).toBe('ssh-ed25519');
    expect(knownHostsName('web1', 22)).toBe('web1');
    expect(knownHostsName('10.0.0.5', 2222)).toBe('[10.0.0.5]:2222');
    const files = [{ path: '/k', text: `# comment\n${line('web1,10.0.0.5')}\n${line('[10.0.0.5]:2222')}\n${line('*.example.org')}\n${line(hashed('[db]:2200'))}\n` }];
    expect(checkHostKey(files, 'web1', key)).toEqual({ result: 'match', file: '/k', line: 2 });
    expect(checkHostKey(files, '[10.0.0.5]:2222', key)).toMatchObject({ result: 'match', line: 3 });
    expect(checkHostKey(files, 'a.example.org', key)).toMatchObject({ result: 'match', line: 4 });
    expect(checkHostKey(files, '[db]:2200', key)).toMatchObject({ result: 'match', line: 5 });
    expect(checkHostKey(files, 'new.host', key)).toEqual({ result: 'unknown' });
  });

  it('tells a changed key (same kind, other key) from a host known only with another kind of key, and honours @revoked', () => {
    const files = [{ path: '/k', text: `${line('web1', other)}\n${line('web2', rsa)}\n@revoked * ${key.type} ${key.blob.toString('base64')}\n` }];
    expect(checkHostKey(files, 'web1', key)).toMatchObject({ result: 'revoked' });
    const noRevoked = [{ path: '/k', text: `${line('web1', other)}\n${line('web2', rsa)}\n` }];
    expect(checkHostKey(noRevoked, 'web1', key)).toEqual({ result: 'mismatch', file: '/k', line: 1, knownType: 'ssh-ed25519' });
    expect(checkHostKey(noRevoked, 'web2', key)).toEqual({ result: 'unknown' });
    expect(fingerprint(key.blob)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it('adds an accepted key on a line of its own, creating the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deputy-kh-'));
    try {
      const file = join(dir, '.ssh', 'known_hosts');
      await addKnownHost(file, '[h]:2', key);
      await writeFile(file, `${await readFile(file, 'utf8')}no-newline-at-end ssh-rsa AAAA`);
      await addKnownHost(file, 'h2', other);
      const lines = (await readFile(file, 'utf8')).split('\n');
      expect(lines[0]).toBe(line('[h]:2'));
      expect(lines[2]).toBe(line('h2', other));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
