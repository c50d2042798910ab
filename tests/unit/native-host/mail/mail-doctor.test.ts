import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { checkMailbox, type MailDoctorDeps } from '../../../../native-host/mail/mail-doctor';
import type { MailSource } from '../../../../native-host/mail/mail-source';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(settings: unknown): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-mail-doctor-'));
  dirs.push(dir);
  const file = join(dir, 'mail.json');
  writeFileSync(file, typeof settings === 'string' ? settings : JSON.stringify(settings));
  return { dir, file };
}

/** IMAP settings for a server on this machine at `port`. */
const loopbackImap = (port: number, password: unknown): Record<string, unknown> => ({
  kind: 'imap',
  host: '127.0.0.1',
  port,
  tls: 'plain',
  user: 'alice',
  password,
});

/** A port with nobody listening: bound, then closed. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

const source = (connect: MailSource['connect']): MailSource => ({
  label: 'alice@127.0.0.1/INBOX',
  connect,
  mark: () => Promise.resolve({ at: 0, seen: [] }),
  list: () => Promise.resolve([]),
  structure: () => Promise.reject(new Error('unused')),
  download: () => Promise.reject(new Error('unused')),
  changed: () => Promise.resolve(),
  secrets: () => ['s3cret-password'],
  close: () => Promise.resolve(),
});

const deps = (
  dir: string,
  env: Record<string, string>,
  connect: MailSource['connect'] = () => Promise.resolve({ security: 'TLS', push: true }),
): MailDoctorDeps => ({
  env: { env, baseDir: dir, dataDir: join(dir, 'data') },
  createSource: () => source(connect),
  connectTimeoutMs: 2000,
});

describe("doctor's mailbox checks", () => {
  it('stays quiet when nothing is configured, and says so when a named settings file is missing', async () => {
    const missing = join(tmpdir(), 'deputy-no-such-dir', 'mail.json');
    expect(await checkMailbox(missing, false, deps(tmpdir(), {}))).toMatchObject({
      configured: false,
      ok: true,
      checks: [],
    });
    const named = await checkMailbox(missing, true, deps(tmpdir(), {}));
    expect(named.ok).toBe(false);
    expect(named.checks).toEqual([
      { name: 'settings', ok: false, detail: `The mail settings file ${missing} could not be read (ENOENT)` },
    ]);
  });

  it('refuses a password written in the settings without repeating it', async () => {
    const { dir, file } = setup({ kind: 'imap', host: 'imap.example.com', user: 'alice', password: 'hunter2-secret' });
    const report = await checkMailbox(file, true, deps(dir, {}));
    expect(report.checks[0]?.detail).toContain(
      'has the password written in it: use "password": {"env": "NAME"} or {"file": "path"}',
    );
    expect(JSON.stringify(report)).not.toContain('hunter2-secret');
  });

  it('warns about a password file others can read, and names host and port when nothing answers', async () => {
    const port = await closedPort();
    const { dir, file } = setup(loopbackImap(port, { file: 'password.txt' }));
    writeFileSync(join(dir, 'password.txt'), 's3cret-password\n', { mode: 0o644 });
    const report = await checkMailbox(file, true, deps(dir, {}));
    expect(report.checks.map((check) => [check.name, check.ok])).toEqual([
      ['settings', true],
      ['password', true],
      ['reachable', false],
    ]);
    expect(report.checks[1]?.detail).toBe(
      `read from the file password.txt (warning: ${join(dir, 'password.txt')} can be read by other users: chmod 600 it)`,
    );
    expect(report.checks[2]?.detail).toBe(
      `127.0.0.1:${port}: connection refused: nothing listens on that port; check "host" and "port" in ${file}`,
    );
  });

  it('reports a refused login with its advice, and a working mailbox line by line, never with the password', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const { dir, file } = setup(loopbackImap(port, { env: 'PW' }));
      const refused = await checkMailbox(
        file,
        true,
        deps(dir, { PW: 's3cret-password' }, () =>
          Promise.reject(
            new AppError('auth_failed', 'refused the login for "alice" (password s3cret-password): check it'),
          ),
        ),
      );
      expect(refused.ok).toBe(false);
      expect(refused.checks.at(-1)).toEqual({
        name: 'login and folder',
        ok: false,
        detail: 'refused the login for "alice" (password [redacted]): check it',
      });
      const working = await checkMailbox(file, true, deps(dir, { PW: 's3cret-password' }));
      expect(working.ok).toBe(true);
      expect(working.checks.at(-1)?.detail).toBe(
        'logged in as alice (TLS); folder "INBOX" exists; new mail is pushed by the server (IDLE)',
      );
    } finally {
      server.close();
    }
  });

  it('tells a Gmail user who has not signed in which command signs in', async () => {
    const { dir, file } = setup({ kind: 'gmail', client: { id: 'client-1.apps.googleusercontent.com' } });
    const report = await checkMailbox(file, true, deps(dir, {}));
    expect(report.checks.at(-1)).toEqual({
      name: 'sign-in',
      ok: false,
      detail: `not signed in (no ${join(dir, 'data', 'mail', 'gmail-token.json')}): run \`deputy mail login --gmail\``,
    });
  });
});
