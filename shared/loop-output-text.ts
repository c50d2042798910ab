import { formatSize } from './mail-text';
import type { LoopEvent } from './protocol/loop-protocol';

/**
 * How the fix loop's trigger and output wait are put into words, the same for `deputy loop` and the side panel.
 */

type Of<T extends LoopEvent['type']> = Extract<LoopEvent, { type: T }>;

/** m:ss, or h:mm:ss past an hour. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** "Triggered: POST https://svc.test/run (form, 2 fields): HTTP 202". */
export function describeTrigger(event: Of<'trigger.sent'>): string {
  const retried = event.attempts > 1 ? ` (on attempt ${event.attempts})` : '';
  return `Triggered: ${event.target}: ${event.result}${retried}`;
}

/** What is awaited, without the time: "mail in alice@imap.example.com:993/INBOX from *@svc.test". */
export function waitingFor(event: Pick<Of<'output.waiting'>, 'source' | 'where' | 'rules'>): string {
  const what = event.source === 'mail' ? `mail in ${event.where}` : event.source === 'folder' ? `a new file ${event.where}` : event.where;
  return `${what}${event.rules ? ` ${event.rules}` : ''}`;
}

/** The live line of a wait: "Waiting for mail in ... : 0:42 of 15:00". */
export function describeWaiting(event: Pick<Of<'output.waiting'>, 'source' | 'where' | 'rules' | 'timeoutSeconds'>, waitedMs: number): string {
  return `Waiting for ${waitingFor(event)}: ${formatClock(waitedMs)} of ${formatClock(event.timeoutSeconds * 1000)}`;
}

/** "Received deck.pptx (48 KB) in the mail "Weekly report" from reports@svc.test after 12 s". */
export function describeReceived(event: Of<'output.received'>): string {
  const mail = event.subject !== undefined ? ` in the mail "${event.subject}"${event.from ? ` from ${event.from}` : ''}` : '';
  return `Received ${event.name} (${formatSize(event.size)})${mail} after ${Math.round(event.waitedSeconds)} s`;
}

/** "Nothing came: ... Check: ..." */
export function describeNothing(event: Of<'output.none'>): string {
  return `Nothing usable came (${formatClock(event.waitedSeconds * 1000)} waited): ${event.reason}. Check ${event.check}`;
}
