import { AppError } from '../../shared/errors';
import type {
  MailboxConfig,
  MailEvent,
  MailMark,
  MailMessageInfo,
  MailResult,
} from '../../shared/protocol/mail-protocol';
import { abortableSleep } from '../desktop/abortable-sleep';
import { extractAttachments } from './extract-attachments';
import { isConnectionLoss } from './imap-errors';
import { describeRules, ruleMismatch } from './mail-rules';
import { secretScrubber } from './mail-secret';
import type { MailSource, MailSummary, MailWindow } from './mail-source';

export interface MailWaitOptions {
  /** Mails that arrived after this count: a mark taken before the trigger (best), or a moment. Default: now. */
  since?: Date | MailMark;
  /** Starting from the output: take the newest matching mail already there, or wait for one if there is none. */
  newest?: boolean;
  /** Mails taken before (their Message-ID, or "id:" and the source's id), never taken again. */
  exclude?: string[];
  /** Default: the mailbox's timeoutSeconds. */
  timeoutMs?: number;
  /** Where attachments are saved. */
  runFolder: string;
  signal?: AbortSignal;
  onEvent?: (event: MailEvent) => void;
}

export interface MailWaitDeps {
  createSource: (config: MailboxConfig) => MailSource;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The key a mail is remembered by across runs: its Message-ID, or its id in the source when it has none. */
export const mailKey = (mail: Pick<MailSummary, 'messageId' | 'id'>): string => mail.messageId ?? `id:${mail.id}`;

/** The wait's own ending when nothing came: told apart from a server's time-out, which a reconnect may cure. */
class NothingCame extends AppError {}

/** Failures that a new connection may cure; a refused login or a missing folder is not one of them. */
const retryable = (error: unknown): boolean =>
  !(error instanceof NothingCame) &&
  (isConnectionLoss(error) ||
    (error instanceof AppError && (error.code === 'unavailable' || error.code === 'timeout')));

const seconds = (ms: number): number => Math.round(ms / 100) / 10;

function scrubbed<T extends Record<string, unknown>>(value: T, scrub: (text: string) => string): T {
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, typeof field === 'string' ? scrub(field) : field]),
  ) as T;
}

/** Takes a mark of the mailbox now: call it before the trigger, pass it as `since`, and only later mails count. */
export async function markMailbox(config: MailboxConfig, deps: Pick<MailWaitDeps, 'createSource'>): Promise<MailMark> {
  const source = deps.createSource(config);
  try {
    await source.connect();
    return await source.mark();
  } catch (error) {
    throw scrubError(error, source);
  } finally {
    await source.close();
  }
}

function scrubError(error: unknown, source: MailSource): AppError {
  const scrub = secretScrubber(source.secrets());
  if (error instanceof AppError) return new AppError(error.code, scrub(error.message));
  return new AppError('internal', scrub(error instanceof Error ? error.message : String(error)));
}

/**
 * Waits for the mail that carries a job's output and saves its usable attachments into the run folder.
 *
 * Only mails that arrived after `since` count (by UID against a mark, else by the server's arrival time), that match
 * the sender and subject rules, and that were not taken before. The wait is pushed by IDLE where the server has it
 * and polls otherwise; a dropped connection is reopened with backoff until the deadline, and mail that arrived
 * meanwhile is found on the next look, so nothing is lost. A mail without a usable attachment is a result (saved is
 * empty, skipped says why), not an error. Nothing arriving in time ends with a "nothing_came" event and a timeout
 * error. Every event and error passes through a scrubber of the secrets in use.
 */
export async function waitForMailAttachment(
  config: MailboxConfig,
  options: MailWaitOptions,
  deps: MailWaitDeps,
): Promise<MailResult> {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  const started = now();
  const timeoutMs = options.timeoutMs ?? config.timeoutSeconds * 1000;
  const deadline = started + timeoutMs;
  const source = deps.createSource(config);
  const emit = (event: MailEvent): void => options.onEvent?.(scrubbed(event, secretScrubber(source.secrets())));
  const excluded = new Set(options.exclude ?? []);
  const looked = new Set<string>();
  const stopIfAborted = (): void => {
    if (options.signal?.aborted) throw new AppError('cancelled', 'Stopped while waiting for mail');
  };
  const nothingCame = (reason: string): never => {
    emit({ type: 'nothing_came', mailbox: source.label, waitedSeconds: seconds(now() - started), reason });
    throw new NothingCame(
      'timeout',
      `${reason}: check that the job ran and sent its mail, and the sender and subject rules`,
    );
  };

  const choose = (mails: MailSummary[], window: MailWindow, seenBefore: Set<string>): MailSummary | undefined => {
    const matching: MailSummary[] = [];
    for (const mail of mails) {
      if (looked.has(mail.id)) continue;
      looked.add(mail.id);
      const key = mailKey(mail);
      const why = excluded.has(key)
        ? 'it was already taken in an earlier run'
        : seenBefore.has(key) || seenBefore.has(`id:${mail.id}`)
          ? 'the same mail was in the mailbox before the trigger'
          : ruleMismatch(mail, config);
      if (why === undefined) matching.push(mail);
      else if (window.kind !== 'latest')
        emit({ type: 'ignored', id: mail.id, from: mail.from, subject: mail.subject, why });
    }
    return window.kind === 'latest' ? matching.at(-1) : matching[0];
  };

  /**
   * The newest matching mail that was already in the mailbox at the mark (an earlier run's output): said once, so the
   * user sees it was passed over on purpose. Only informative: a listing that fails here is left to the wait itself.
   */
  const sayOlder = async (mark: MailMark, seenBefore: Set<string>): Promise<void> => {
    const before = (mail: MailSummary): boolean =>
      seenBefore.has(mailKey(mail)) ||
      (mail.uid !== undefined && mark.imap !== undefined ? mail.uid < mark.imap.uidNext : (mail.arrivedAt ?? Infinity) < mark.at);
    const mails = await source.list({ kind: 'latest' }).catch(() => []);
    const older = mails.filter((mail) => before(mail) && !excluded.has(mailKey(mail)) && ruleMismatch(mail, config) === undefined).at(-1);
    if (older)
      emit({ type: 'ignored', id: older.id, from: older.from, subject: older.subject, why: 'an older mail, in the mailbox before the job was started (or the wait began): only newer mails count' });
  };

  const take = async (mail: MailSummary): Promise<MailResult> => {
    emit({
      type: 'arrived',
      id: mail.id,
      from: mail.from,
      subject: mail.subject,
      ...(mail.date ? { date: mail.date.toISOString() } : {}),
      waitedSeconds: seconds(now() - started),
    });
    const extracted = await extractAttachments(source, mail, {
      folder: options.runFolder,
      rules: config.attachments,
      onEvent: emit,
    });
    if (extracted.saved.length === 0)
      emit({
        type: 'no_usable_attachment',
        id: mail.id,
        from: mail.from,
        subject: mail.subject,
        skipped: extracted.skipped.length,
      });
    const message: MailMessageInfo = {
      id: mail.id,
      ...(mail.uid !== undefined ? { uid: mail.uid } : {}),
      ...(mail.messageId !== undefined ? { messageId: mail.messageId } : {}),
      from: mail.from,
      subject: mail.subject,
      ...(mail.date ? { date: mail.date.toISOString() } : {}),
    };
    return { message, saved: extracted.saved, skipped: extracted.skipped, waitedMs: now() - started };
  };

  const reconnect = async (cause: unknown): Promise<void> => {
    let error = cause;
    for (let attempt = 1; ; attempt += 1) {
      if (!retryable(error)) throw error;
      const left = deadline - now();
      const reason = error instanceof Error ? error.message : String(error);
      if (left <= 0)
        nothingCame(
          `No matching mail arrived in ${source.label} within ${seconds(timeoutMs)} s, and the connection was lost (${reason})`,
        );
      const delay = Math.min(30_000, 1000 * 2 ** (attempt - 1), left);
      emit({ type: 'disconnected', mailbox: source.label, reason, attempt, retryInSeconds: seconds(delay) });
      await sleep(delay, options.signal);
      try {
        const info = await source.connect();
        emit({ type: 'connected', mailbox: source.label, security: info.security, push: info.push });
        return;
      } catch (next) {
        error = next;
      }
    }
  };

  try {
    const info = await source.connect();
    emit({ type: 'connected', mailbox: source.label, security: info.security, push: info.push });
    // Starting from the output, the mark is taken before the first look: a mail that lands between that look and the
    // wait after it is newer than the mark, so the wait takes it (a mark taken after the look passed it over).
    const markBeforeLook = options.newest ? await source.mark() : undefined;
    let window: MailWindow = markBeforeLook
      ? { kind: 'latest' }
      : options.since instanceof Date
        ? { kind: 'since', since: options.since.getTime() }
        : { kind: 'mark', mark: options.since ?? (await source.mark()) };
    const seenBefore = new Set(window.kind === 'mark' ? window.mark.seen : []);
    const sinceIso =
      window.kind === 'since'
        ? new Date(window.since).toISOString()
        : window.kind === 'mark'
          ? new Date(window.mark.at).toISOString()
          : undefined;
    emit({
      type: 'waiting',
      mailbox: source.label,
      mode: info.push ? 'idle' : 'poll',
      ...(sinceIso ? { since: sinceIso } : {}),
      timeoutSeconds: seconds(timeoutMs),
    });
    if (window.kind === 'mark') await sayOlder(window.mark, seenBefore);
    for (;;) {
      stopIfAborted();
      try {
        const mail = choose(await source.list(window), window, seenBefore);
        if (mail) {
          try {
            return await take(mail);
          } catch (error) {
            // Looked at again after reconnecting: the mail is still in the mailbox.
            looked.delete(mail.id);
            throw error;
          }
        }
        // Starting from the output with no matching mail there yet: wait for one like after a trigger.
        if (window.kind === 'latest' && markBeforeLook) window = { kind: 'mark', mark: markBeforeLook };
        const left = deadline - now();
        if (left <= 0)
          nothingCame(`No mail ${describeRules(config)} arrived in ${source.label} within ${seconds(timeoutMs)} s`);
        await source.changed(Math.min(config.pollSeconds * 1000, left), options.signal);
      } catch (error) {
        stopIfAborted();
        await reconnect(error);
      }
    }
  } catch (error) {
    throw scrubError(error, source);
  } finally {
    await source.close();
  }
}
