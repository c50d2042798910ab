import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { FetchMessageObject, ImapFlow, ImapFlowOptions, MessageStructureObject } from 'imapflow';
import { AppError } from '../../shared/errors';
import type { ImapMailbox, MailMark } from '../../shared/protocol/mail-protocol';
import { imapError, isConnectionLoss } from './imap-errors';
import { decodedSize, type MailPart } from './mail-parts';
import { exactSenders } from './mail-rules';
import { readSecret, type SecretEnv } from './mail-secret';
import type { MailSource, MailSummary, MailWindow } from './mail-source';

const DAY_MS = 24 * 3600 * 1000;
/** How many of the latest mails "latest" and the mark look at: enough for any real inbox burst, bounded for huge ones. */
const LATEST_LIMIT = 200;

export const imapPort = (box: ImapMailbox): number => box.port ?? (box.tls === 'tls' ? 993 : 143);

/** The imapflow options for a mailbox: TLS as configured (STARTTLS required, never opportunistic), no library logging. */
export function imapOptions(box: ImapMailbox, password: string, secretEnv: SecretEnv): ImapFlowOptions {
  const ca =
    box.caFile === undefined
      ? undefined
      : readFileSync(isAbsolute(box.caFile) ? box.caFile : resolve(secretEnv.baseDir, box.caFile), 'utf8');
  return {
    host: box.host,
    port: imapPort(box),
    secure: box.tls === 'tls',
    doSTARTTLS: box.tls === 'starttls' ? true : box.tls === 'plain' ? false : undefined,
    auth: { user: box.user, pass: password },
    tls: { minVersion: 'TLSv1.2', ...(ca !== undefined ? { ca } : {}) },
    // imapflow's own log carries protocol details; Deputy reports what matters as events instead.
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 30_000,
    greetingTimeout: 20_000,
    socketTimeout: 10 * 60_000,
    clientInfo: { name: 'Deputy' },
  };
}

function toPart(node: MessageStructureObject, fallbackRef: string): MailPart {
  const ref = node.part ?? fallbackRef;
  const filename = node.dispositionParameters?.filename ?? node.parameters?.name;
  // A forwarded mail sent base64-encoded (against RFC 2046) cannot be looked into by the server: Dovecot then reports
  // an empty text part inside it. Left as a leaf, it is downloaded and parsed instead.
  const opaque =
    node.type.toLowerCase() === 'message/rfc822' &&
    node.encoding !== undefined &&
    !['7bit', '8bit', 'binary'].includes(node.encoding);
  const children = opaque ? undefined : node.childNodes?.map((child, index) => toPart(child, `${ref}.${index + 1}`));
  return {
    ref,
    contentType: node.type.toLowerCase(),
    ...(filename !== undefined ? { filename } : {}),
    ...(node.disposition !== undefined ? { disposition: node.disposition } : {}),
    ...(node.size !== undefined ? { size: decodedSize(node.size, node.encoding) } : {}),
    ...(children !== undefined && children.length > 0 ? { children } : {}),
  };
}

function toSummary(message: FetchMessageObject): MailSummary {
  const sender = message.envelope?.from?.[0];
  const address = (sender?.address ?? '').toLowerCase();
  const date = message.envelope?.date === undefined ? undefined : new Date(message.envelope.date);
  const arrived = message.internalDate === undefined ? undefined : new Date(message.internalDate).getTime();
  return {
    id: String(message.uid),
    uid: message.uid,
    ...(message.envelope?.messageId ? { messageId: message.envelope.messageId } : {}),
    fromAddress: address,
    from: sender?.name ? `${sender.name} <${address}>` : address,
    subject: message.envelope?.subject ?? '',
    ...(date !== undefined && !Number.isNaN(date.getTime()) ? { date } : {}),
    ...(arrived !== undefined && !Number.isNaN(arrived) ? { arrivedAt: arrived } : {}),
  };
}

/** An IMAP mailbox through imapflow: read-only (EXAMINE), IDLE when the server offers it, polling otherwise. */
export function createImapSource(box: ImapMailbox, secretEnv: SecretEnv): MailSource {
  const password = readSecret(box.password, 'IMAP password', secretEnv);
  const port = imapPort(box);
  let client: ImapFlow | undefined;
  let push = false;
  /** Wakes a pending changed(): with nothing for new mail, with an error for a lost connection. */
  let wake: ((error?: AppError) => void) | undefined;
  /** New mail was announced while no changed() was waiting (during a listing): the next changed() returns at once. */
  let announced = false;
  const lost = (): AppError =>
    new AppError('disconnected', `The IMAP server ${box.host}:${port} closed the connection`);

  const live = (): ImapFlow => {
    if (!client?.usable) throw lost();
    return client;
  };
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw isConnectionLoss(error) || !client?.usable ? lost() : imapError(error, box, port, 'command');
    }
  };
  const fetchSummaries = async (uids: number[]): Promise<MailSummary[]> => {
    if (uids.length === 0) return [];
    const messages = await live().fetchAll(
      uids.join(','),
      { uid: true, envelope: true, internalDate: true },
      { uid: true },
    );
    return messages.map(toSummary).sort((a, b) => (a.uid ?? 0) - (b.uid ?? 0));
  };
  const searchUids = async (query: Parameters<ImapFlow['search']>[0]): Promise<number[]> => {
    const found = await live().search(query, { uid: true });
    return Array.isArray(found) ? found : [];
  };

  return {
    label: `${box.user}@${box.host}:${port}/${box.folder}`,
    async connect() {
      await client?.logout().catch(() => undefined);
      // The IMAP client is loaded when a mailbox is first opened, not at the host's start.
      const { ImapFlow } = await import('imapflow');
      const next = new ImapFlow(imapOptions(box, password, secretEnv));
      // Without a listener an 'error' event would end the process; the failure reaches us through the command instead.
      next.on('error', () => undefined);
      next.on('close', () => {
        if (client === next) wake?.(lost());
      });
      next.on('exists', () => {
        if (client !== next) return;
        if (wake) wake();
        else announced = true;
      });
      try {
        await next.connect();
      } catch (error) {
        next.close();
        throw imapError(error, box, port, 'connect');
      }
      try {
        await next.mailboxOpen(box.folder, { readOnly: true });
      } catch (error) {
        await next.logout().catch(() => undefined);
        throw imapError(error, box, port, 'folder');
      }
      client = next;
      push = next.capabilities.has('IDLE');
      const security = box.tls === 'plain' ? 'none (this machine only)' : box.tls === 'starttls' ? 'STARTTLS' : 'TLS';
      return { security, push };
    },
    async mark(): Promise<MailMark> {
      return guard(async () => {
        const mailbox = live().mailbox;
        if (mailbox === false) throw lost();
        const senders = exactSenders(box);
        const query = {
          since: new Date(Date.now() - 2 * DAY_MS),
          ...(senders?.length === 1 ? { from: senders[0] } : {}),
        };
        const recent = (await searchUids(query)).slice(-LATEST_LIMIT);
        const seen = (await fetchSummaries(recent)).flatMap((mail) => (mail.messageId ? [mail.messageId] : []));
        return {
          at: Date.now(),
          imap: { uidValidity: mailbox.uidValidity.toString(), uidNext: mailbox.uidNext },
          seen,
        };
      });
    },
    async list(window: MailWindow) {
      announced = false;
      return guard(async () => {
        const mailbox = live().mailbox;
        if (mailbox === false) throw lost();
        if (window.kind === 'mark' && window.mark.imap?.uidValidity === mailbox.uidValidity.toString()) {
          const first = window.mark.imap.uidNext;
          // "N:*" always includes the highest UID even when it is below N (RFC 3501), hence the filter.
          return fetchSummaries((await searchUids({ uid: `${first}:*` })).filter((uid) => uid >= first));
        }
        if (window.kind === 'latest') return fetchSummaries((await searchUids({ all: true })).slice(-LATEST_LIMIT));
        // A time window (or a mark from before the folder was recreated): SEARCH SINCE counts whole days in the
        // server's zone, so ask from the day before and compare the exact arrival time here.
        const since = window.kind === 'since' ? window.since : window.mark.at;
        const mails = await fetchSummaries(await searchUids({ since: new Date(since - DAY_MS) }));
        return mails.filter((mail) => (mail.arrivedAt ?? 0) >= since);
      });
    },
    async structure(mail) {
      return guard(async () => {
        const message = await live().fetchOne(mail.id, { uid: true, bodyStructure: true }, { uid: true });
        if (message === false || message.bodyStructure === undefined)
          throw new AppError('not_found', `The mail ${mail.id} is no longer in ${box.folder}`);
        return toPart(message.bodyStructure, '1');
      });
    },
    async download(mail, part): Promise<Readable> {
      return guard(async () => {
        const { content } = await live().download(mail.id, part.ref, { uid: true });
        if (content === undefined)
          throw new AppError('not_found', `Part ${part.ref} of the mail ${mail.id} is no longer in ${box.folder}`);
        return content;
      });
    },
    changed(ms, signal) {
      return new Promise<void>((resolvePromise, reject) => {
        const current = client;
        if (!current?.usable) return reject(lost());
        if (announced) {
          announced = false;
          return resolvePromise();
        }
        const finish = (error?: AppError): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          wake = undefined;
          if (error) reject(error);
          else resolvePromise();
        };
        const onAbort = (): void => finish(new AppError('cancelled', 'Stopped while waiting for mail'));
        const timer = setTimeout(() => finish(), ms);
        wake = finish;
        signal?.addEventListener('abort', onAbort, { once: true });
        if (signal?.aborted) return onAbort();
        // IDLE runs until the next command ends it; the server's EXISTS arrives as the 'exists' event meanwhile.
        if (push) current.idle().catch(() => undefined);
      });
    },
    secrets: () => [password],
    async close() {
      const current = client;
      client = undefined;
      wake = undefined;
      await current?.logout().catch(() => current.close());
    },
  };
}
