import { z } from 'zod';

/**
 * Output that a service delivers by email: where to look (an IMAP mailbox or Gmail through its API), which mails count
 * (sender and subject rules), what may be saved from them (attachment types, a size cap, a nesting limit), and the
 * events a wait reports. Lives in shared/ so the fix loop's definition, the side panel and the host validate the same
 * shape. Secrets are never part of it: a password or OAuth client secret is named by an environment variable or a
 * file, and only the host reads it.
 */

/** Where a secret is read from. Never the secret itself, so a definition can be shown, logged and saved. */
export const SecretRef = z.union([
  z
    .strictObject({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name') })
    .describe('Read from this environment variable'),
  z
    .strictObject({ file: z.string().min(1) })
    .describe('Read from this file (first line; a relative path is relative to the config file)'),
]);
export type SecretRef = z.infer<typeof SecretRef>;

export const ATTACHMENT_TYPES = ['pptx', 'xlsx', 'docx', 'pdf', 'csv'] as const;
export const AttachmentType = z.enum(ATTACHMENT_TYPES);
export type AttachmentType = z.infer<typeof AttachmentType>;

const AttachmentRules = z.strictObject({
  types: z
    .array(AttachmentType)
    .min(1)
    .default([...ATTACHMENT_TYPES])
    .describe('File types that may be saved'),
  maxMb: z
    .number()
    .positive()
    .max(500)
    .default(25)
    .describe('Largest attachment saved, in MB (1 MB = 1,000,000 bytes)'),
  maxDepth: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(5)
    .describe('How deep attachments are looked for in nested parts and forwarded mails'),
});
export type AttachmentRules = z.infer<typeof AttachmentRules>;

const validRegex = (source: string): boolean => {
  try {
    new RegExp(source, 'iu');
    return true;
  } catch {
    return false;
  }
};

const matchFields = {
  from: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'Sender addresses that count; "*" stands for any characters ("*@reports.example.com"). Empty: any sender',
    ),
  subject: z.string().min(1).optional().describe('Text the subject must contain (case does not matter)'),
  subjectRegex: z
    .string()
    .min(1)
    .refine(validRegex, 'not a valid regular expression')
    .optional()
    .describe('A regular expression the subject must match (case does not matter)'),
  attachments: AttachmentRules.default(() => AttachmentRules.parse({})),
  timeoutSeconds: z
    .number()
    .positive()
    .max(7 * 24 * 3600)
    .default(900)
    .describe('How long to wait for the mail'),
};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);
export const isLoopbackHost = (host: string): boolean =>
  LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);

export const ImapMailbox = z
  .strictObject({
    kind: z.literal('imap'),
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).optional().describe('Default: 993 with tls, 143 otherwise'),
    tls: z
      .enum(['tls', 'starttls', 'plain'])
      .default('tls')
      .describe(
        'tls: encrypted from the start (port 993); starttls: upgraded before login (port 143); plain: no encryption, only for a server on this machine',
      ),
    caFile: z
      .string()
      .min(1)
      .optional()
      .describe('PEM file of the certificate authority to trust (a server with its own certificate)'),
    user: z.string().min(1),
    password: SecretRef,
    folder: z.string().min(1).default('INBOX'),
    pollSeconds: z
      .number()
      .min(1)
      .max(3600)
      .default(30)
      .describe('How often to look when the server cannot push (no IDLE); with IDLE, how often to look anyway'),
    ...matchFields,
  })
  .refine((box) => box.tls !== 'plain' || isLoopbackHost(box.host), {
    message:
      'tls "plain" would send the password unencrypted: it is allowed only for a server on this machine (127.0.0.1, ::1, localhost); use "tls" or "starttls"',
    path: ['tls'],
  });
export type ImapMailbox = z.infer<typeof ImapMailbox>;

export const GMAIL_READONLY_SCOPE = 'https://www.googleapis.com/auth/gmail.readonly';

export const GmailMailbox = z.strictObject({
  kind: z.literal('gmail'),
  client: z
    .union([
      z
        .strictObject({ file: z.string().min(1) })
        .describe('The OAuth client JSON downloaded from Google Cloud (Desktop app)'),
      z.strictObject({ id: z.string().min(1), secret: SecretRef.optional() }),
    ])
    .describe('The Desktop-app OAuth client Deputy signs in with'),
  label: z
    .string()
    .min(1)
    .default('INBOX')
    .describe('The Gmail label to look in (a label id such as INBOX, or a label name)'),
  query: z.string().min(1).optional().describe('Extra Gmail search terms, for example "has:attachment"'),
  tokenFile: z
    .string()
    .min(1)
    .optional()
    .describe("Where the sign-in is kept; default: mail/gmail-token.json in Deputy's data folder"),
  pollSeconds: z.number().min(1).max(3600).default(20),
  endpoints: z
    .strictObject({ auth: z.url().optional(), token: z.url().optional(), api: z.url().optional() })
    .optional()
    .describe("Only for tests and Gmail-compatible gateways; the defaults are Google's"),
  ...matchFields,
});
export type GmailMailbox = z.infer<typeof GmailMailbox>;

export const MailboxConfig = z.discriminatedUnion('kind', [ImapMailbox, GmailMailbox]);
export type MailboxConfig = z.infer<typeof MailboxConfig>;
export type MailboxConfigInput = z.input<typeof MailboxConfig>;

/**
 * What was in the mailbox before the trigger, taken by `markMailbox`: mails that arrive later are the job's output.
 * UIDs (IMAP) and message ids compare without clocks, so a server whose clock is off cannot make an old mail look new.
 */
export const MailMark = z.strictObject({
  at: z.number().describe('When the mark was taken, ms since the epoch'),
  imap: z.strictObject({ uidValidity: z.string(), uidNext: z.number().int() }).optional(),
  /** Message-IDs (and Gmail ids) of matching mails already there. */
  seen: z.array(z.string()).default([]),
});
export type MailMark = z.infer<typeof MailMark>;

export const SavedAttachment = z.strictObject({
  path: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  type: AttachmentType,
});
export type SavedAttachment = z.infer<typeof SavedAttachment>;
export const SkippedAttachment = z.strictObject({ name: z.string(), why: z.string() });
export type SkippedAttachment = z.infer<typeof SkippedAttachment>;

export const MailMessageInfo = z.strictObject({
  /** The IMAP UID or the Gmail message id, as text. */
  id: z.string(),
  uid: z.number().int().optional(),
  messageId: z.string().optional(),
  from: z.string(),
  subject: z.string(),
  /** The Date header (ISO), when it has one. */
  date: z.string().optional(),
});
export type MailMessageInfo = z.infer<typeof MailMessageInfo>;

export const MailResult = z.strictObject({
  message: MailMessageInfo,
  saved: z.array(SavedAttachment),
  skipped: z.array(SkippedAttachment),
  waitedMs: z.number().nonnegative(),
});
export type MailResult = z.infer<typeof MailResult>;

/** What a wait reports as it goes, for `deputy mail wait`, and later the fix loop's view. Never holds a secret. */
export const MailEvent = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('connected'), mailbox: z.string(), security: z.string(), push: z.boolean() }),
  z.strictObject({
    type: z.literal('waiting'),
    mailbox: z.string(),
    mode: z.enum(['idle', 'poll']),
    since: z.string().optional(),
    timeoutSeconds: z.number(),
  }),
  z.strictObject({
    type: z.literal('disconnected'),
    mailbox: z.string(),
    reason: z.string(),
    attempt: z.number().int(),
    retryInSeconds: z.number(),
  }),
  z.strictObject({
    type: z.literal('ignored'),
    id: z.string(),
    from: z.string(),
    subject: z.string(),
    why: z.string(),
  }),
  z.strictObject({
    type: z.literal('arrived'),
    id: z.string(),
    from: z.string(),
    subject: z.string(),
    date: z.string().optional(),
    waitedSeconds: z.number(),
  }),
  z.strictObject({
    type: z.literal('saved'),
    name: z.string(),
    size: z.number(),
    attachmentType: AttachmentType,
    path: z.string(),
    /** The name the mail gave it, when it was saved under another (a path or unsafe characters removed, a name taken). */
    mailName: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('skipped_attachment'), name: z.string(), why: z.string() }),
  z.strictObject({
    type: z.literal('no_usable_attachment'),
    id: z.string(),
    from: z.string(),
    subject: z.string(),
    skipped: z.number().int(),
  }),
  z.strictObject({
    type: z.literal('nothing_came'),
    mailbox: z.string(),
    waitedSeconds: z.number(),
    reason: z.string(),
  }),
]);
export type MailEvent = z.infer<typeof MailEvent>;
