import type { MailEvent, MailResult } from './protocol/mail-protocol';

/**
 * How a mailbox wait is put into words, the same for `deputy mail wait`, `deputy loop` and the side panel.
 */

/** A size as people read it: KB under a megabyte (1 MB = 1,000,000 bytes, as mail limits count). */
export const formatSize = (bytes: number): string =>
  bytes < 1_000_000
    ? `${Math.max(1, Math.round(bytes / 1000))} KB`
    : `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;

/** One line per event, in the words `deputy mail wait` prints and the fix loop shows. */
export function describeMailEvent(event: MailEvent): string {
  switch (event.type) {
    case 'connected':
      return `Connected to ${event.mailbox} (${event.security}); new mail is ${event.push ? 'pushed by the server' : 'polled'}`;
    case 'waiting':
      return `Waiting up to ${event.timeoutSeconds} s for mail in ${event.mailbox}${event.since ? ` that arrived after ${event.since}` : ' (the newest matching mail counts)'} (${event.mode === 'idle' ? 'IDLE' : 'polling'})`;
    case 'disconnected':
      return `Connection lost (${event.reason}); reconnecting in ${event.retryInSeconds} s (attempt ${event.attempt})`;
    case 'ignored':
      return `Passed over "${event.subject}" from ${event.from}: ${event.why}`;
    case 'arrived':
      return `Mail arrived after ${event.waitedSeconds} s: "${event.subject}" from ${event.from}`;
    case 'saved':
      return `Saved ${event.name} (${formatSize(event.size)}) to ${event.path}${event.mailName !== undefined ? ` (the mail named it "${event.mailName}")` : ''}`;
    case 'skipped_attachment':
      return `Skipped ${event.name}: ${event.why}`;
    case 'no_usable_attachment':
      return `The mail "${event.subject}" from ${event.from} has no usable attachment${event.skipped > 0 ? ` (${event.skipped} skipped)` : ''}`;
    case 'nothing_came':
      return `Nothing came after ${event.waitedSeconds} s: ${event.reason}`;
  }
}

/** The result in one sentence for the end of a wait. */
export function describeMailResult(result: MailResult): string {
  const from = `"${result.message.subject}" from ${result.message.from}`;
  if (result.saved.length === 0) {
    const why = result.skipped.map((skipped) => `${skipped.name}: ${skipped.why}`).join('; ');
    return `The mail ${from} has no usable attachment${why ? ` (${why})` : ' (it has no attachment at all)'}`;
  }
  return `From ${from}: saved ${result.saved.map((saved) => saved.name).join(', ')}`;
}
