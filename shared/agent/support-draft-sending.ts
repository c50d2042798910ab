import type { DraftSending, WrittenEscalation } from '../protocol/task-protocol';
import type { CallRecord } from './agent-state';

/**
 * Whether a case's written escalation went (issue 31, item 3). The draft leaves only through the site's contact form,
 * and the gate stops that form's sending for the user with this reason, so the calls that carry it are the sending's
 * attempts: the last one says where it stands. Read from the steps, not kept beside them, so it cannot disagree with
 * what the step list shows.
 */
export const DRAFT_SENDING = 'it sends support the written message Deputy drafted from the case file';

export function draftSending(calls: readonly CallRecord[]): DraftSending {
  const attempt = calls.filter((call) => call.decisionReason?.includes(DRAFT_SENDING)).at(-1);
  if (!attempt) return { status: 'not_sent' };
  const at = attempt.finishedAt !== undefined ? { at: attempt.finishedAt } : {};
  switch (attempt.status) {
    case 'awaiting_approval':
    case 'proposed':
      return { status: 'awaiting_approval' };
    case 'denied':
      // Denied after the ask: the user said no (or stopped the case at the card).
      return { status: attempt.decision === 'ask' ? 'declined' : 'not_sent', ...at };
    case 'finished':
      return { status: attempt.result?.ok === false ? 'approved' : 'sent', ...at };
    default:
      // Approved, then started but never finished (a crash, a stop): it may not have gone.
      return { status: 'approved', ...at };
  }
}

const WORDS: Record<DraftSending['status'], string> = {
  not_sent: 'Not sent',
  awaiting_approval: 'Waiting for your approval to send',
  declined: 'Not sent: you declined it',
  approved: 'Approved by you, but the sending did not finish',
  sent: 'Sent with your approval',
};

/** Where the draft stands, in a few words for History and the case file. */
export function draftSendingText(written: Pick<WrittenEscalation, 'via' | 'sending'>): string {
  const status = written.sending?.status ?? 'not_sent';
  // A draft for a support address goes from the user's own mail program: Deputy never sends it.
  if (written.via === 'email' && status === 'not_sent') return 'Not sent: open it in your mail program to send it';
  const at = written.sending?.at;
  const when = at !== undefined && (status === 'sent' || status === 'declined') ? ` (${new Date(at).toISOString().replace('T', ' ').slice(0, 16)} UTC)` : '';
  return `${WORDS[status]}${when}`;
}
