import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';

/**
 * Debian's Dovecot, started per test file on 127.0.0.1 with its own config, base_dir and state in a temp folder, so
 * tests, other engineers' runs and a system Dovecot never clash. Mail is delivered with dovecot-lda as root (the real
 * local delivery path, which also works while the IMAP server is down), else with IMAP APPEND.
 */

const DOVECOT = '/usr/sbin/dovecot';
const LDA = '/usr/lib/dovecot/dovecot-lda';

/** Why the mailbox tests cannot run here, or undefined when they can. */
export const dovecotMissing: string | undefined =
  process.platform !== 'linux'
    ? 'Dovecot tests run on Linux'
    : !existsSync(DOVECOT) || !existsSync('/usr/lib/dovecot/imap')
      ? 'Dovecot is not installed (apt-get install dovecot-imapd; .ci/run does it)'
      : undefined;

export interface DovecotOptions {
  /** Advertise IDLE (default); false makes the server look like one without it, so clients must poll. */
  idle?: boolean;
  /** Serve STARTTLS with a certificate made for 127.0.0.1; `caFile` is then the file to trust. */
  starttls?: boolean;
}

export interface Dovecot {
  port: number;
  user: string;
  password: string;
  dir: string;
  caFile?: string;
  deliver(raw: string, options?: { date?: Date }): Promise<void>;
  /** Writes the mail straight into the Maildir, as any delivery agent does: works while the IMAP server is down. */
  deliverToMaildir(raw: string): void;
  /** Stops the server (the mail stays), as a crash or restart would. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Ends the user's IMAP sessions from the server side, as an admin or a server restart of the session would. */
  kick(): void;
  close(): Promise<void>;
}

/** Process ids whose title starts with `title`: Dovecot names each of its processes after its instance. */
function instanceProcesses(title: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(join('/proc', entry, 'cmdline'), 'utf8').startsWith(title)) pids.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return pids;
}

/** Mail settings for this server's mailbox (plain IMAP on loopback, the password from `passwordEnv`). */
export function imapSettings(
  server: Dovecot,
  passwordEnv: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    kind: 'imap',
    host: '127.0.0.1',
    port: server.port,
    tls: 'plain',
    user: server.user,
    password: { env: passwordEnv },
    from: ['*@service.test'],
    subject: 'report',
    pollSeconds: 2,
    ...extra,
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForGreeting(port: number, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().includes('* OK'));
      });
      socket.once('error', () => resolve(false));
    });
    if (greeted) return;
    if (Date.now() > until) throw new Error(`Dovecot did not answer on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function makeCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const result = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`openssl failed: ${result.stderr}`);
  return { cert, key };
}

export async function startDovecot(options: DovecotOptions = {}): Promise<Dovecot> {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-dovecot-'));
  chmodSync(dir, 0o755);
  const root = process.getuid?.() === 0;
  const me = userInfo();
  // Dovecot never gives mail access to uid 0, so as root the mailbox belongs to nobody.
  const uid = root ? 65534 : me.uid;
  const gid = root ? 65534 : me.gid;
  const home = join(dir, 'home', 'alice');
  mkdirSync(home, { recursive: true });
  for (const path of [join(dir, 'home'), home]) if (root) chownSync(path, uid, gid);
  const user = 'alice';
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  writeFileSync(join(dir, 'users'), `${user}:{PLAIN}${password}:${uid}:${gid}::${home}::\n`);
  const port = await freePort();
  const tls = options.starttls ? makeCertificate(dir) : undefined;
  const internalUser = root ? 'dovecot' : me.username;
  const loginUser = root ? 'dovenull' : me.username;
  const capabilities =
    'IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ NAMESPACE UIDPLUS CHILDREN UNSELECT ESEARCH SEARCHRES BINARY MOVE';
  const config = [
    'protocols = imap',
    'listen = 127.0.0.1',
    `base_dir = ${join(dir, 'run')}`,
    `state_dir = ${join(dir, 'state')}`,
    `instance_name = deputy-test-${port}`,
    `log_path = ${join(dir, 'dovecot.log')}`,
    tls ? `ssl = required\nssl_cert = <${tls.cert}\nssl_key = <${tls.key}` : 'ssl = no',
    `disable_plaintext_auth = ${tls ? 'yes' : 'no'}`,
    'auth_mechanisms = plain login',
    `default_internal_user = ${internalUser}`,
    `default_login_user = ${loginUser}`,
    'first_valid_uid = 1',
    'mail_location = maildir:~/Maildir',
    ...(options.idle === false ? [`imap_capability = ${capabilities}`] : []),
    `passdb {\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%n ${join(dir, 'users')}\n}`,
    `userdb {\n  driver = passwd-file\n  args = username_format=%n ${join(dir, 'users')}\n}`,
    `service imap-login {\n  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
    'service anvil {\n  chroot =\n}',
    'service stats {\n  chroot =\n}',
    '',
  ].join('\n');
  const configFile = join(dir, 'dovecot.conf');
  writeFileSync(configFile, config);
  mkdirSync(join(dir, 'state'), { recursive: true });

  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(DOVECOT, ['-F', '-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
    try {
      await waitForGreeting(port);
    } catch (error) {
      const log = existsSync(join(dir, 'dovecot.log')) ? readFileSync(join(dir, 'dovecot.log'), 'utf8') : '';
      throw new Error(`${String(error)}\n${stderr}\n${log}`);
    }
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running && running.exitCode === null) {
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    }
    // Session processes can outlive the master for a moment and still serve their client; a server that is down
    // serves nobody, so this instance's own leftovers (found by its unique process title) are ended too.
    for (const pid of instanceProcesses(`dovecot-deputy-test-${port}/`)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  const append = async (raw: string, date?: Date): Promise<void> => {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port,
      secure: false,
      doSTARTTLS: tls ? true : false,
      auth: { user, pass: password },
      logger: false,
      ...(tls ? { tls: { ca: readFileSync(tls.cert, 'utf8') } } : {}),
    });
    await client.connect();
    await client.append('INBOX', raw, [], date);
    await client.logout();
  };
  await start();
  return {
    port,
    user,
    password,
    dir,
    ...(tls ? { caFile: tls.cert } : {}),
    async deliver(raw, deliverOptions = {}) {
      if (!root || deliverOptions.date) return append(raw, deliverOptions.date);
      const result = spawnSync(LDA, ['-c', configFile, '-d', user, '-f', 'sender@service.test'], {
        input: raw,
        encoding: 'utf8',
      });
      if (result.status !== 0) throw new Error(`dovecot-lda failed (${result.status}): ${result.stderr}`);
    },
    deliverToMaildir(raw) {
      const maildir = join(home, 'Maildir');
      for (const sub of ['', 'tmp', 'new', 'cur']) {
        mkdirSync(join(maildir, sub), { recursive: true });
        if (root) chownSync(join(maildir, sub), uid, gid);
      }
      const name = `${Math.floor(Date.now() / 1000)}.M${process.pid}P${Math.random().toString(36).slice(2)}.deputy-test`;
      writeFileSync(join(maildir, 'tmp', name), raw.replace(/\r\n/g, '\n'));
      if (root) chownSync(join(maildir, 'tmp', name), uid, gid);
      renameSync(join(maildir, 'tmp', name), join(maildir, 'new', name));
    },
    stop,
    start,
    kick() {
      spawnSync('doveadm', ['-c', configFile, 'kick', user], { encoding: 'utf8' });
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
