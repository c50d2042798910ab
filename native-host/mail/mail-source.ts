import type { Readable } from 'node:stream';
import type { MailMark } from '../../shared/protocol/mail-protocol';
import type { MailPart } from './mail-parts';

/** One mail as a listing describes it, before its parts are looked at. */
export interface MailSummary {
  /** The IMAP UID or the Gmail message id, as text. */
  id: string;
  uid?: number;
  messageId?: string;
  /** The sender's address, lower-cased, for the rules. */
  fromAddress: string;
  /** The sender as people read it: "Reports <reports@service.example>". */
  from: string;
  subject: string;
  /** The Date header. */
  date?: Date;
  /** When the server received it (IMAP INTERNALDATE, Gmail internalDate), ms since the epoch. */
  arrivedAt?: number;
}

/** Which mails a listing returns: those after a mark, those received since a moment, or the latest ones. */
export type MailWindow = { kind: 'mark'; mark: MailMark } | { kind: 'since'; since: number } | { kind: 'latest' };

/**
 * A mailbox as the wait sees it. IMAP and Gmail differ in how they connect, list and notice new mail; what a wait does
 * with them (rules, deduplication, attachments, reconnects, events) is the same and lives in wait-for-mail.ts.
 */
export interface MailSource {
  /** "alice@imap.example.com:993/INBOX": where it looks, never a secret. */
  readonly label: string;
  connect(): Promise<{ security: string; push: boolean }>;
  mark(): Promise<MailMark>;
  /** Mails in the window, oldest first. */
  list(window: MailWindow): Promise<MailSummary[]>;
  structure(mail: MailSummary): Promise<MailPart>;
  /** The decoded content of one part. */
  download(mail: MailSummary, part: MailPart): Promise<Readable>;
  /**
   * Resolves when new mail may be there: the server said so (IDLE), or `ms` passed. Rejects with a "disconnected"
   * AppError when the connection is lost, and with "cancelled" when the signal aborts.
   */
  changed(ms: number, signal?: AbortSignal): Promise<void>;
  /** Secrets in use right now (password, tokens), for scrubbing everything the wait reports. */
  secrets(): string[];
  close(): Promise<void>;
}
