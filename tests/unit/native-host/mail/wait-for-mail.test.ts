import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { MailboxConfig, type MailEvent } from '../../../../shared/protocol/mail-protocol';
import type { MailSource, MailSummary } from '../../../../native-host/mail/mail-source';
import { waitForMailAttachment } from '../../../../native-host/mail/wait-for-mail';

/**
 * The wait's own logic (rules, deduplication, reconnects, deadline, stop, scrubbing) over a scripted source and a fake
 * clock; the real IMAP and Gmail sources are tested against Dovecot and the Gmail stand-in.
 */

const PASSWORD = 'correct-horse-battery';
const config = MailboxConfig.parse({
  kind: 'imap',
  host: '127.0.0.1',
  tls: 'plain',
  user: 'alice',
  password: { env: 'P' },
  from: ['*@service.test'],
  pollSeconds: 5,
});
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const mail = (id: string, extra: Partial<MailSummary> = {}): MailSummary => ({
  id,
  fromAddress: 'svc@service.test',
  from: 'svc@service.test',
  subject: `report ${id}`,
  messageId: `<${id}@service.test>`,
  ...extra,
});
const csv = Buffer.from('a,b\n1,2\n');

/** What every mail of these sources holds (one CSV attachment), and the source's secrets and close. */
function csvMailParts(): Pick<MailSource, 'structure' | 'download' | 'secrets' | 'close'> {
  return {
    structure: () =>
      Promise.resolve({
        ref: '1',
        contentType: 'multipart/mixed',
        children: [{ ref: '2', contentType: 'text/csv', filename: 'data.csv', size: csv.length }],
      }),
    download: () => Promise.resolve(Readable.from([csv])),
    secrets: () => [PASSWORD],
    close: () => Promise.resolve(),
  };
}

/** A mailbox whose contents and failures follow a script, one step per look. */
function scripted(looks: Array<MailSummary[] | AppError>, connects: Array<AppError | undefined> = [], latest: MailSummary[] = []) {
  const calls: string[] = [];
  let look = 0;
  let clock = 0;
  const source: MailSource = {
    label: 'alice@127.0.0.1:143/INBOX',
    connect: () => {
      calls.push('connect');
      const failure = connects.shift();
      return failure ? Promise.reject(failure) : Promise.resolve({ security: 'none', push: true });
    },
    mark: () => Promise.resolve({ at: 0, imap: { uidValidity: '1', uidNext: 5 }, seen: ['<old@service.test>'] }),
    list: (window) => {
      // The latest mails, looked at once to say which older one is passed over; not a look of the script.
      if (window.kind === 'latest') return Promise.resolve(latest);
      calls.push('list');
      const step = looks[Math.min(look, looks.length - 1)];
      look += 1;
      return step instanceof AppError ? Promise.reject(step) : Promise.resolve(step ?? []);
    },
    ...csvMailParts(),
    changed: (ms) => {
      clock += ms;
      return Promise.resolve();
    },
  };
  const deps = {
    createSource: () => source,
    now: () => clock,
    sleep: (ms: number) => {
      clock += ms;
      return Promise.resolve();
    },
  };
  return { source, deps, calls };
}

function run(
  script: ReturnType<typeof scripted>,
  options: { exclude?: string[]; signal?: AbortSignal; timeoutMs?: number } = {},
) {
  const runFolder = mkdtempSync(join(tmpdir(), 'deputy-wait-'));
  dirs.push(runFolder);
  const events: MailEvent[] = [];
  const result = waitForMailAttachment(
    config,
    { runFolder, timeoutMs: options.timeoutMs ?? 60_000, onEvent: (event) => events.push(event), ...options },
    script.deps,
  );
  return { result, events };
}

describe('waiting for mail', () => {
  it('passes over a mail that was there before, one taken earlier and one from another sender, then takes the next', async () => {
    const script = scripted(
      [
        [mail('old', { messageId: '<old@service.test>' }), mail('again', { messageId: '<taken@service.test>' })],
        [mail('spam', { fromAddress: 'x@spam.test', from: 'x@spam.test' })],
        [mail('new')],
      ],
      [],
      // Before the mark (uidNext 5): two matching mails of earlier runs and one from another sender; the newest
      // matching one is said.
      [mail('1', { uid: 1 }), mail('2', { uid: 2 }), mail('3', { uid: 3, fromAddress: 'x@spam.test', from: 'x@spam.test' }), mail('9', { uid: 9 })],
    );
    const { result, events } = run(script, { exclude: ['<taken@service.test>'] });
    const done = await result;
    expect(done.message).toMatchObject({ id: 'new', messageId: '<new@service.test>' });
    expect(done.saved.map((saved) => saved.name)).toEqual(['data.csv']);
    expect(
      events
        .filter((event) => event.type === 'ignored')
        .map((event) => (event.type === 'ignored' ? [event.id, event.why] : [])),
    ).toEqual([
      ['2', 'an older mail, in the mailbox before the job was started (or the wait began): only newer mails count'],
      ['old', 'the same mail was in the mailbox before the trigger'],
      ['again', 'it was already taken in an earlier run'],
      ['spam', 'the sender is not *@service.test'],
    ]);
  });

  it('reconnects with backoff when the connection drops, and still gets the mail that came meanwhile', async () => {
    const lost = new AppError('disconnected', 'The IMAP server closed the connection');
    const refused = new AppError('unavailable', 'Could not connect (connection refused)');
    const script = scripted([[], lost, [mail('7')]], [undefined, refused, refused]);
    const { result, events } = run(script);
    expect((await result).message.id).toBe('7');
    expect(
      events
        .filter((event) => event.type === 'disconnected')
        .map((event) => (event.type === 'disconnected' ? event.retryInSeconds : 0)),
    ).toEqual([1, 2, 4]);
    expect(events.filter((event) => event.type === 'connected')).toHaveLength(2);
  });

  it('does not retry a refused login: it says what to check at once', async () => {
    const script = scripted(
      [[]],
      [new AppError('auth_failed', `The IMAP server refused the login for "alice": password was ${PASSWORD}`)],
    );
    const { result } = run(script);
    const error = (await result.catch((caught: unknown) => caught)) as AppError;
    expect(error.code).toBe('auth_failed');
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message).toContain('[redacted]');
  });

  it('ends with "nothing came" at the deadline', async () => {
    const script = scripted([[]]);
    const { result, events } = run(script, { timeoutMs: 12_000 });
    const error = (await result.catch((caught: unknown) => caught)) as AppError;
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('No mail from *@service.test arrived in alice@127.0.0.1:143/INBOX within 12 s');
    expect(events.at(-1)).toEqual({
      type: 'nothing_came',
      mailbox: 'alice@127.0.0.1:143/INBOX',
      waitedSeconds: 12,
      reason: 'No mail from *@service.test arrived in alice@127.0.0.1:143/INBOX within 12 s',
    });
  });

  it('ends with "nothing came" when the server stays away past the deadline', async () => {
    const down = new AppError('unavailable', 'connection refused');
    const script = scripted([down], [undefined, down, down, down, down, down, down]);
    const { result, events } = run(script, { timeoutMs: 10_000 });
    await expect(result).rejects.toThrow('and the connection was lost');
    expect(events.at(-1)?.type).toBe('nothing_came');
  });

  it('stops when asked', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = run(scripted([[]]), { signal: controller.signal });
    await expect(result).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('starting from the output (the newest mail already there, else the next)', () => {
  /** A mailbox of uids: the mark is what it holds now; `onLook` runs after each look, as a mail landing just then. */
  function mailbox(initial: MailSummary[], onLook: (box: MailSummary[]) => void) {
    const box = [...initial];
    let clock = 0;
    const source: MailSource = {
      label: 'alice@127.0.0.1:143/INBOX',
      connect: () => Promise.resolve({ security: 'none', push: true }),
      mark: () =>
        Promise.resolve({
          at: clock,
          imap: { uidValidity: '1', uidNext: Math.max(0, ...box.map((m) => m.uid ?? 0)) + 1 },
          seen: box.map((m) => m.messageId ?? ''),
        }),
      list: (window) => {
        const found =
          window.kind === 'mark' && window.mark.imap ? box.filter((m) => (m.uid ?? 0) >= (window.mark.imap?.uidNext ?? 0)) : [...box];
        onLook(box);
        return Promise.resolve(found);
      },
      ...csvMailParts(),
      changed: (ms) => {
        clock += ms;
        return Promise.resolve();
      },
    };
    return { createSource: () => source, now: () => clock, sleep: (ms: number) => ((clock += ms), Promise.resolve()) };
  }

  // The job's mail may land at any moment of the wait: after the first look (the resumed loop whose job mails at once),
  // or after any later one. Each moment, the wait takes it.
  for (const afterLook of [1, 2, 3, 5]) {
    it(`takes a mail that lands right after look ${afterLook}`, async () => {
      let looks = 0;
      const deps = mailbox([mail('1', { uid: 1 })], (box) => {
        looks += 1;
        if (looks === afterLook) box.push(mail('2', { uid: 2 }));
      });
      const runFolder = mkdtempSync(join(tmpdir(), 'deputy-wait-'));
      dirs.push(runFolder);
      const done = await waitForMailAttachment(config, { runFolder, timeoutMs: 60_000, newest: true, exclude: ['<1@service.test>'], onEvent: () => undefined }, deps);
      expect(done.message.id).toBe('2');
    });
  }

  it('takes the newest matching mail already there, not one taken before', async () => {
    const deps = mailbox([mail('1', { uid: 1 }), mail('2', { uid: 2 }), mail('3', { uid: 3 })], () => undefined);
    const runFolder = mkdtempSync(join(tmpdir(), 'deputy-wait-'));
    dirs.push(runFolder);
    const done = await waitForMailAttachment(config, { runFolder, timeoutMs: 60_000, newest: true, exclude: ['<3@service.test>'], onEvent: () => undefined }, deps);
    expect(done.message.id).toBe('2');
  });
});
