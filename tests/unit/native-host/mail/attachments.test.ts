import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { MailboxConfig } from '../../../../shared/protocol/mail-protocol';
import { planAttachments, type MailPart } from '../../../../native-host/mail/mail-parts';
import { ruleMismatch } from '../../../../native-host/mail/mail-rules';
import { reserveFile, safeFileName } from '../../../../native-host/mail/safe-file-name';
import { saveAttachment } from '../../../../native-host/mail/save-attachment';
import { makePptx, makeXlsx } from '../../../fixtures/mail/documents';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-attach-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const rules = MailboxConfig.parse({
  kind: 'imap',
  host: 'imap.example.com',
  user: 'u',
  password: { env: 'P' },
}).attachments;

describe('attachment file names', () => {
  it.each([
    ['../../evil.pptx', 'evil.pptx'],
    ['..\\..\\Windows\\evil.pptx', 'evil.pptx'],
    ['/etc/cron.d/job.pptx', 'job.pptx'],
    ['report\u202Excod.pptx', 'reportxcod.pptx'],
    ['line\nbreak\t.pptx', 'linebreak.pptx'],
    ['.hidden.pptx', 'hidden.pptx'],
    ['..', 'attachment.pptx'],
    ['CON.pptx', '_CON.pptx'],
    ['what?<>|".pptx', 'what_____.pptx'],
    ['Quarterly Report.PPTX', 'Quarterly Report.pptx'],
  ])('%j is saved as %j', (raw, safe) => {
    expect(safeFileName(raw, 'pptx')).toBe(safe);
  });

  it('keeps a long name under 150 bytes with its extension', () => {
    const name = safeFileName(`${'é'.repeat(200)}.xlsx`, 'xlsx');
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(150);
    expect(name.endsWith('é.xlsx')).toBe(true);
  });

  it('never overwrites a file already in the folder', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'deck.pptx'), 'the user kept this');
    expect(await reserveFile(dir, 'deck.pptx')).toBe(join(dir, 'deck (2).pptx'));
    expect(await reserveFile(dir, 'deck.pptx')).toBe(join(dir, 'deck (3).pptx'));
    expect(readFileSync(join(dir, 'deck.pptx'), 'utf8')).toBe('the user kept this');
  });
});

describe('saving an attachment', () => {
  it('saves a real deck and workbook, checked by content', async () => {
    const dir = tempDir();
    const deck = await saveAttachment(Readable.from([await makePptx()]), {
      folder: dir,
      name: 'deck.pptx',
      type: 'pptx',
      maxBytes: 5_000_000,
    });
    const book = await saveAttachment(Readable.from([await makeXlsx()]), {
      folder: dir,
      name: 'figures.xlsx',
      type: 'xlsx',
      maxBytes: 5_000_000,
    });
    expect(deck).toMatchObject({ saved: { name: 'deck.pptx', type: 'pptx', path: join(dir, 'deck.pptx') } });
    expect(book).toMatchObject({ saved: { name: 'figures.xlsx', type: 'xlsx' } });
    expect(readdirSync(dir).sort()).toEqual(['deck.pptx', 'figures.xlsx']);
  });

  it('refuses content that is not what the name says, and leaves nothing behind', async () => {
    const dir = tempDir();
    const exe = await saveAttachment(
      Readable.from([Buffer.from('MZ\x90\x00 this program cannot be run in DOS mode')]),
      { folder: dir, name: 'deck.pptx', type: 'pptx', maxBytes: 1000 },
    );
    const workbookAsDeck = await saveAttachment(Readable.from([await makeXlsx()]), {
      folder: dir,
      name: 'deck.pptx',
      type: 'pptx',
      maxBytes: 5_000_000,
    });
    const fakePdf = await saveAttachment(Readable.from([Buffer.from('<html>not a pdf</html>')]), {
      folder: dir,
      name: 'a.pdf',
      type: 'pdf',
      maxBytes: 1000,
    });
    const binaryCsv = await saveAttachment(Readable.from([Buffer.from([0x41, 0x00, 0x42])]), {
      folder: dir,
      name: 'a.csv',
      type: 'csv',
      maxBytes: 1000,
    });
    expect(exe).toEqual({ why: 'the content is not a PowerPoint file (not a ZIP package)' });
    expect(workbookAsDeck).toEqual({ why: 'the content is a ZIP without ppt/, not a PowerPoint file' });
    expect(fakePdf).toEqual({ why: 'the content is not a PDF (no %PDF- header)' });
    expect(binaryCsv).toEqual({ why: 'the content is binary (NUL bytes), not CSV text' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops a download that grows past the cap, whatever the structure announced', async () => {
    const dir = tempDir();
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(100_000, 0x41));
    const outcome = await saveAttachment(Readable.from(chunks), {
      folder: dir,
      name: 'data.csv',
      type: 'csv',
      maxBytes: 1_000_000,
    });
    expect(outcome).toEqual({ why: 'too large: over the 1.0 MB limit (stopped while downloading)' });
    expect(readdirSync(dir)).toEqual([]);
  });
});

const leaf = (ref: string, contentType: string, filename?: string, size = 1000): MailPart => ({
  ref,
  contentType,
  size,
  ...(filename ? { filename, disposition: 'attachment' } : {}),
});

describe('which parts are downloaded', () => {
  it('finds attachments in multipart/mixed inside multipart/alternative and in forwarded mails, within the depth limit', () => {
    const root: MailPart = {
      ref: '1',
      contentType: 'multipart/mixed',
      children: [
        {
          ref: '1',
          contentType: 'multipart/alternative',
          children: [
            leaf('1.1', 'text/plain'),
            {
              ref: '1.2',
              contentType: 'multipart/mixed',
              children: [leaf('1.2.1', 'text/html'), leaf('1.2.2', 'application/pdf', 'inner.pdf')],
            },
          ],
        },
        {
          ref: '2',
          contentType: 'message/rfc822',
          children: [
            {
              ref: '2',
              contentType: 'multipart/mixed',
              children: [leaf('2.1', 'text/plain'), leaf('2.2', 'application/octet-stream', 'forwarded.xlsx')],
            },
          ],
        },
        leaf('3', 'application/x-msdownload', 'tool.exe'),
        leaf('4', 'text/csv', 'huge.csv', 30_000_000),
        leaf('5', 'application/pdf'),
      ],
    };
    const plan = planAttachments(root, rules);
    expect(
      plan.take.map((entry) => [
        entry.part.ref,
        entry.name,
        entry.kind === 'file' ? entry.type : 'message',
        entry.depth,
      ]),
    ).toEqual([
      ['1.2.2', 'inner.pdf', 'pdf', 3],
      ['2.2', 'forwarded.xlsx', 'xlsx', 3],
    ]);
    expect(plan.skipped).toEqual([
      { name: 'tool.exe', why: '.exe is not an allowed type (allowed: .pptx, .xlsx, .docx, .pdf, .csv)' },
      { name: 'huge.csv', why: 'too large: 30 MB, over the 25 MB limit' },
    ]);
    const shallow = planAttachments(root, { ...rules, maxDepth: 2 });
    expect(shallow.take).toEqual([]);
    expect(shallow.skipped.at(-1)).toEqual({
      name: '(nested parts)',
      why: 'parts nested deeper than 2 levels were not looked into',
    });
  });

  it('names an attachment sent without a file name after its type, and plans an encoded forwarded mail for parsing', () => {
    const plan = planAttachments(
      {
        ref: '1',
        contentType: 'multipart/mixed',
        children: [
          { ref: '1', contentType: 'application/pdf', disposition: 'attachment', size: 10 },
          { ref: '2', contentType: 'message/rfc822', filename: 'fwd.eml', size: 500 },
        ],
      },
      rules,
    );
    expect(plan.take.map((entry) => [entry.name, entry.kind])).toEqual([
      ['attachment.pdf', 'file'],
      ['fwd.eml', 'message'],
    ]);
  });
});

describe('sender and subject rules', () => {
  const config = MailboxConfig.parse({
    kind: 'imap',
    host: 'h.example',
    user: 'u',
    password: { env: 'P' },
    from: ['*@reports.example.com', 'ops@example.com'],
    subject: 'Weekly',
    subjectRegex: 'week \\d+',
  });
  it('names the rule a mail fails', () => {
    expect(
      ruleMismatch({ fromAddress: 'bot@reports.example.com', subject: 'WEEKLY report, week 12' }, config),
    ).toBeUndefined();
    expect(ruleMismatch({ fromAddress: 'bot@reports.example.com.evil.test', subject: 'Weekly week 1' }, config)).toBe(
      'the sender is not *@reports.example.com or ops@example.com',
    );
    expect(ruleMismatch({ fromAddress: 'ops@example.com', subject: 'Daily week 1' }, config)).toBe(
      'the subject does not contain "Weekly"',
    );
    expect(ruleMismatch({ fromAddress: 'ops@example.com', subject: 'Weekly summary' }, config)).toBe(
      'the subject does not match /week \\d+/',
    );
  });
});

describe('mailbox settings', () => {
  it('allows an unencrypted connection only to this machine, and never a password written inline', () => {
    const base = { kind: 'imap', user: 'u', password: { env: 'P' }, tls: 'plain' };
    expect(MailboxConfig.safeParse({ ...base, host: '127.0.0.1' }).success).toBe(true);
    const remote = MailboxConfig.safeParse({ ...base, host: 'imap.example.com' });
    expect(remote.success).toBe(false);
    expect(remote.error?.issues[0]?.message).toContain('allowed only for a server on this machine');
    expect(MailboxConfig.safeParse({ ...base, host: '127.0.0.1', password: 'hunter22' }).success).toBe(false);
    expect(MailboxConfig.safeParse({ ...base, host: '127.0.0.1', subjectRegex: '(' }).success).toBe(false);
  });
});
