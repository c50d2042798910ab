import { mkdirSync } from 'node:fs';
import { AppError } from '../../shared/errors';
import type { MailboxConfig, MailResult, SavedAttachment } from '../../shared/protocol/mail-protocol';
import { describeRules } from '../mail/mail-rules';
import { mailKey, waitForMailAttachment } from '../mail/wait-for-mail';
import { iterationDir } from './document-check';
import type { LoopContext, MailSourceFactory } from './loop-context';
import { currentRecord } from './loop-state';

/** How often a running wait says it is still waiting (with the time so far), for --json and piped output. */
export const HEARTBEAT_MS = 30_000;

/** "alice@127.0.0.1:143/INBOX" or "Gmail label INBOX": where the loop looks, never a secret. */
export function mailboxLabel(config: MailboxConfig): string {
  return config.kind === 'imap' ? `${config.user}@${config.host}${config.port ? `:${config.port}` : ''}/${config.folder}` : `Gmail label ${config.label}`;
}

/**
 * Sends `output.waiting` now and every 30 s until stopped, so every view shows how long the loop has waited; the
 * side panel ticks between them on its own.
 */
export function startHeartbeat(context: LoopContext, wait: { source: 'mail' | 'folder' | 'url'; where: string; rules?: string; timeoutSeconds: number }): () => void {
  const started = context.deps.now();
  const beat = (): void => context.emit({ type: 'output.waiting', ...wait, waitedSeconds: Math.round((context.deps.now() - started) / 1000) });
  beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** The attachment the check judges: the one of the template's kind when there are several, else the first. */
function chooseAttachment(saved: SavedAttachment[], template: string | undefined): SavedAttachment | undefined {
  const kind = template?.toLowerCase().split('.').pop();
  return saved.find((file) => file.type === kind) ?? saved[0];
}

/**
 * The output step for a job that mails its output. It waits for a new matching mail (after the mark taken before
 * the trigger; the newest one already there when the loop starts from the output), never one an earlier iteration
 * took, saves its attachments into this iteration's run folder, and returns the one to judge. What the wait sees goes
 * out as `output.mail` events; a wait that ends with nothing usable says what to check and fails the step, so the
 * loop can be resumed once the job works (the mail stays in the mailbox, and is not taken twice).
 */
export async function receiveMailOutput(context: LoopContext, config: MailboxConfig, createSource: MailSourceFactory, newest: boolean): Promise<string> {
  const { state, deps } = context;
  const runFolder = iterationDir(context);
  mkdirSync(runFolder, { recursive: true });
  const where = mailboxLabel(config);
  const rules = describeRules(config);
  const started = deps.now();
  const stop = startHeartbeat(context, { source: 'mail', where, rules, timeoutSeconds: config.timeoutSeconds });
  let result: MailResult;
  try {
    result = await waitForMailAttachment(
      config,
      {
        ...(state.mailMark ? { since: state.mailMark } : {}),
        newest: newest && !state.mailMark,
        exclude: state.mailTaken ?? [],
        runFolder,
        signal: deps.signal,
        onEvent: (mail) => context.emit({ type: 'output.mail', mail }),
      },
      { createSource, now: deps.now, sleep: deps.sleep },
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'timeout' && !deps.signal.aborted) {
      const waitedSeconds = Math.round((deps.now() - started) / 1000);
      const trigger = currentRecord(state).trigger;
      context.emit({
        type: 'output.none',
        source: 'mail',
        where,
        waitedSeconds,
        reason: `no mail ${rules} arrived in ${where} within ${config.timeoutSeconds} s`,
        check: `that the job ran${trigger ? ` (${trigger})` : ''} and sent its mail to this mailbox, its sender and subject against the rules, and the spam folder; then run deputy loop --resume to wait again`,
      });
    }
    throw error;
  } finally {
    stop();
  }
  state.mailTaken = [...(state.mailTaken ?? []), mailKey(result.message)];
  delete state.mailMark;
  const { message } = result;
  const chosen = chooseAttachment(result.saved, state.config.document?.template);
  const waitedSeconds = Math.round(result.waitedMs / 1000);
  if (!chosen) {
    const why = result.skipped.map((skipped) => `${skipped.name}: ${skipped.why}`).join('; ') || 'it has no attachment at all';
    context.emit({
      type: 'output.none',
      source: 'mail',
      where,
      waitedSeconds,
      reason: `the mail "${message.subject}" from ${message.from} arrived but has no usable attachment (${why})`,
      check: `that the job attaches its output (${config.attachments.types.map((type) => `.${type}`).join(', ')}, up to ${config.attachments.maxMb} MB) and the attachment rules; the mail stays in the mailbox and is not taken again: run deputy loop --resume to wait for the next one`,
    });
    context.save();
    throw new AppError('not_found', `The mail "${message.subject}" from ${message.from} has no usable attachment (${why}): check that the job attaches its output and the mailbox's attachment rules, then run deputy loop --resume to wait for the next mail`);
  }
  currentRecord(state).received = { name: chosen.name, size: chosen.size, from: message.from, subject: message.subject };
  context.emit({ type: 'output.received', source: 'mail', file: chosen.path, name: chosen.name, size: chosen.size, from: message.from, subject: message.subject, waitedSeconds });
  return chosen.path;
}
