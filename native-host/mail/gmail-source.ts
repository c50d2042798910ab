import { Readable } from 'node:stream';
import type { gmail_v1 } from '@googleapis/gmail';
import { AppError } from '../../shared/errors';
import type { GmailMailbox, MailMark } from '../../shared/protocol/mail-protocol';
import { abortableSleep } from '../desktop/abortable-sleep';
import { gmailApiError } from './gmail-errors';
import { gmailClientCredentials, signedInClient, type GmailEnv } from './gmail-token';
import type { MailPart } from './mail-parts';
import { exactSenders } from './mail-rules';
import type { MailSource, MailSummary, MailWindow } from './mail-source';

const SYSTEM_LABELS = new Set([
  'INBOX',
  'SPAM',
  'TRASH',
  'UNREAD',
  'STARRED',
  'IMPORTANT',
  'SENT',
  'DRAFT',
  'CATEGORY_PERSONAL',
  'CATEGORY_SOCIAL',
  'CATEGORY_PROMOTIONS',
  'CATEGORY_UPDATES',
  'CATEGORY_FORUMS',
]);
const PAGE_SIZE = 50;

const header = (headers: gmail_v1.Schema$MessagePartHeader[] | undefined, name: string): string | undefined =>
  headers?.find((entry) => entry.name?.toLowerCase() === name.toLowerCase())?.value ?? undefined;

/** "Reports <reports@service.example>" into its address, lower-cased. */
export function addressOf(from: string): string {
  const angle = /<([^>]+)>/.exec(from);
  return (angle?.[1] ?? from).trim().toLowerCase();
}

/** Gmail's payload tree as MailParts; parts whose data came inline are kept for download by their ref. */
function toPart(part: gmail_v1.Schema$MessagePart, inline: Map<string, string>, fallbackRef: string): MailPart {
  const partId = part.partId ?? fallbackRef;
  const ref = part.body?.attachmentId ?? `inline:${partId}`;
  if (part.body?.attachmentId == null && part.body?.data) inline.set(ref, part.body.data);
  const disposition = header(part.headers ?? undefined, 'Content-Disposition')
    ?.split(';', 1)[0]
    ?.trim()
    .toLowerCase();
  const children = (part.parts ?? []).map((child, index) => toPart(child, inline, `${partId}.${index + 1}`));
  return {
    ref,
    contentType: (part.mimeType ?? 'application/octet-stream').toLowerCase(),
    ...(part.filename ? { filename: part.filename } : {}),
    ...(disposition ? { disposition } : {}),
    ...(part.body?.size != null ? { size: part.body.size } : {}),
    ...(children.length > 0 ? { children } : {}),
  };
}

/** A Gmail mailbox through the official API client (read-only scope), polled; Gmail pushes only through Pub/Sub. */
export function createGmailSource(box: GmailMailbox, env: GmailEnv): MailSource {
  const { clientSecret } = gmailClientCredentials(box, env);
  let auth: Awaited<ReturnType<typeof signedInClient>> | undefined;
  let api: gmail_v1.Gmail | undefined;
  let labelId = box.label;
  const summaries = new Map<string, MailSummary>();
  const inline = new Map<string, string>();
  const call = async <T>(doing: string, work: (client: gmail_v1.Gmail) => Promise<{ data: T }>): Promise<T> => {
    if (!api) throw new AppError('disconnected', 'Not connected to Gmail');
    try {
      return (await work(api)).data;
    } catch (error) {
      throw gmailApiError(error, doing);
    }
  };
  const search = (afterMs?: number): string => {
    const senders = exactSenders(box);
    return [
      senders ? `from:(${senders.join(' OR ')})` : undefined,
      box.query,
      // Gmail's after: takes seconds; a minute earlier, then the exact arrival time is compared here.
      afterMs !== undefined ? `after:${Math.floor(afterMs / 1000) - 60}` : undefined,
    ]
      .filter(Boolean)
      .join(' ');
  };
  const listIds = async (afterMs?: number): Promise<string[]> => {
    const found = await call('listing messages', (client) =>
      client.users.messages.list({ userId: 'me', q: search(afterMs), labelIds: [labelId], maxResults: PAGE_SIZE }),
    );
    return (found.messages ?? []).flatMap((message) => (message.id ? [message.id] : []));
  };
  const summary = async (id: string): Promise<MailSummary> => {
    const cached = summaries.get(id);
    if (cached) return cached;
    const message = await call('reading a message', (client) =>
      client.users.messages.get({
        userId: 'me',
        id,
        format: 'metadata',
        metadataHeaders: ['From', 'Subject', 'Date', 'Message-ID'],
      }),
    );
    const headers = message.payload?.headers ?? undefined;
    const from = header(headers, 'From') ?? '';
    const messageId = header(headers, 'Message-ID');
    const date = header(headers, 'Date') === undefined ? undefined : new Date(header(headers, 'Date') ?? '');
    const result: MailSummary = {
      id,
      ...(messageId ? { messageId } : {}),
      fromAddress: addressOf(from),
      from,
      subject: header(headers, 'Subject') ?? '',
      ...(date && !Number.isNaN(date.getTime()) ? { date } : {}),
      ...(message.internalDate ? { arrivedAt: Number(message.internalDate) } : {}),
    };
    summaries.set(id, result);
    return result;
  };

  return {
    label: `gmail/${box.label}`,
    async connect() {
      auth = await signedInClient(box, env);
      // The Gmail client is loaded when a Gmail mailbox is first read, not at the host's start.
      const { gmail } = await import('@googleapis/gmail');
      api = gmail({ version: 'v1', auth: auth.client, ...(box.endpoints?.api ? { rootUrl: box.endpoints.api } : {}) });
      await call('checking the account', (client) => client.users.getProfile({ userId: 'me' }));
      if (!SYSTEM_LABELS.has(box.label)) {
        const labels = await call('listing labels', (client) => client.users.labels.list({ userId: 'me' }));
        const found = labels.labels?.find(
          (label) => label.id === box.label || label.name?.toLowerCase() === box.label.toLowerCase(),
        );
        if (!found?.id)
          throw new AppError(
            'not_found',
            `The Gmail label "${box.label}" does not exist: check "label" in the mail settings (for example INBOX, or a label name as Gmail shows it)`,
          );
        labelId = found.id;
      }
      return { security: 'HTTPS, OAuth read-only', push: false };
    },
    async mark(): Promise<MailMark> {
      const at = Date.now();
      const ids = await listIds(at - 2 * 24 * 3600 * 1000);
      return { at, seen: ids.map((id) => `id:${id}`) };
    },
    async list(window: MailWindow) {
      const since = window.kind === 'since' ? window.since : window.kind === 'mark' ? window.mark.at : undefined;
      const mails: MailSummary[] = [];
      for (const id of await listIds(since)) mails.push(await summary(id));
      return mails
        .filter((mail) => since === undefined || (mail.arrivedAt ?? 0) >= since)
        .sort((a, b) => (a.arrivedAt ?? 0) - (b.arrivedAt ?? 0));
    },
    async structure(mail) {
      const message = await call('reading a message', (client) =>
        client.users.messages.get({ userId: 'me', id: mail.id, format: 'full' }),
      );
      if (!message.payload) throw new AppError('not_found', `The Gmail message ${mail.id} has no content`);
      return toPart(message.payload, inline, '0');
    },
    async download(mail, part) {
      const data = part.ref.startsWith('inline:')
        ? inline.get(part.ref)
        : (
            await call('downloading an attachment', (client) =>
              client.users.messages.attachments.get({ userId: 'me', messageId: mail.id, id: part.ref }),
            )
          ).data;
      if (data == null)
        throw new AppError(
          'not_found',
          `The attachment ${part.filename ?? part.ref} of Gmail message ${mail.id} has no content`,
        );
      return Readable.from([Buffer.from(data, 'base64url')]);
    },
    changed: (ms, signal) => abortableSleep(ms, signal),
    secrets: () => {
      const token = auth?.token();
      return [clientSecret, token?.access_token, token?.refresh_token].filter(
        (value): value is string => value !== undefined,
      );
    },
    async close() {
      await auth?.saved();
    },
  };
}
