import { basename } from 'node:path';
import { describeNothing, describeReceived, describeTrigger, formatClock, waitingFor } from '../../shared/loop-output-text';
import { describeMailEvent } from '../../shared/mail-text';
import type { DocumentVerdict, LoopEvent } from '../../shared/protocol/loop-protocol';

export type PrintMode = 'json' | 'tty' | 'plain';

export interface Printer {
  print(event: LoopEvent): void;
  close(): void;
}

const TOP_FINDINGS = 3;

/** A judged output document: the verdict with its counts, the top findings, and the iteration's report. */
function documentLines(event: Extract<LoopEvent, { type: 'check.result' }>, document: DocumentVerdict, it: string): string {
  const lines = [`${it} output ${basename(document.output)}: ${document.summary}`];
  if (!event.passed) {
    for (const item of event.failures.slice(0, TOP_FINDINGS)) lines.push(`${it}   ${item.severity} ${item.id}: ${item.message.length > 160 ? `${item.message.slice(0, 157)}...` : item.message}`);
    const total = document.counts.critical + document.counts.high + document.counts.medium;
    if (total > TOP_FINDINGS) lines.push(`${it}   ... and ${total - TOP_FINDINGS} more`);
  }
  if (document.reportPath) lines.push(`${it}   report: ${document.reportPath}`);
  return lines.join('\n');
}

/** The line a person reads for an event, or undefined for events that only update the status line. */
export function describeEvent(event: LoopEvent): string | undefined {
  const it = `[${event.iteration}]`;
  switch (event.type) {
    case 'loop.started':
      return `${event.resumed ? 'Resuming' : 'Starting'} the fix loop on ${event.repo} (branch ${event.branch}) at ${event.step}`;
    case 'step.started':
      return undefined;
    case 'step.finished':
      return event.ok ? undefined : `${it} ${event.step} failed: ${event.detail ?? ''}`;
    case 'check.result':
      if (event.document) return documentLines(event, event.document, it);
      return event.passed
        ? `${it} check passed`
        : `${it} check failed: ${event.failures.length} failure(s): ${event.failures.slice(0, 3).map((item) => item.id).join(', ')}`;
    case 'fixer.progress':
      return undefined;
    case 'fixer.finished':
      return `${it} fixer finished ($${event.costUsd.toFixed(2)}${event.turns !== undefined ? `, ${event.turns} turns` : ''}): ${event.summary}`;
    case 'fix.rejected':
      return `${it} fix rejected and rolled back: ${event.reasons.join('; ')}`;
    case 'commit.created':
      return `${it} committed ${event.commit.slice(0, 10)}`;
    case 'push.verified':
      return `${it} pushed ${event.commit.slice(0, 10)}${event.rebased ? ' after rebasing onto the remote' : ''}`;
    case 'notice':
      return `${it} ${event.message}`;
    case 'trigger.sent':
      return `${it} ${describeTrigger(event)}`;
    case 'output.waiting':
      // The first says what is awaited; the later ones (every 30 s) only move the time on.
      return event.waitedSeconds === 0 ? `${it} Waiting up to ${formatClock(event.timeoutSeconds * 1000)} for ${waitingFor(event)}` : undefined;
    case 'output.mail':
      return event.mail.type === 'waiting' ? undefined : `${it}   ${describeMailEvent(event.mail)}`;
    case 'output.received':
      return `${it} ${describeReceived(event)}`;
    case 'output.none':
      return `${it} ${describeNothing(event)}`;
    case 'loop.finished':
      return `Loop ${event.outcome}: ${event.reason} (cost $${event.costUsd.toFixed(2)})${event.reportPath ? `\nReport: ${event.reportPath}` : ''}`;
  }
}

/** Piped output has no status line: the steps, the fixer's actions and a wait's time are printed as lines instead. */
function plainProgress(event: LoopEvent): string | undefined {
  if (event.type === 'step.started') return `[${event.iteration}] ${event.step}`;
  if (event.type === 'fixer.progress') return `[${event.iteration}]   ${event.action}`;
  if (event.type === 'output.waiting' && event.waitedSeconds > 0) {
    return `[${event.iteration}]   still waiting: ${formatClock(event.waitedSeconds * 1000)} of ${formatClock(event.timeoutSeconds * 1000)}`;
  }
  return undefined;
}

/**
 * Output of `deputy loop` on the user's stdout: one JSON event per line with --json, plain lines when piped, and on a
 * terminal the same lines plus a status line (iteration, step, elapsed, cost, the fixer's current action) redrawn in
 * place every second.
 */
export function createPrinter(mode: PrintMode, write: (text: string) => void, now: () => number = Date.now): Printer {
  if (mode === 'json') return { print: (event) => write(`${JSON.stringify(event)}\n`), close: () => undefined };
  const started = now();
  const status = { iteration: 0, step: '', cost: 0, action: '' };
  /** A wait for the job's output in progress: the status line ticks its time on between the events. */
  let waiting: { since: number; timeoutSeconds: number; what: string } | undefined;
  let shown = false;
  const action = (): string =>
    waiting ? `waiting for ${waiting.what} ${formatClock(now() - waiting.since)} of ${formatClock(waiting.timeoutSeconds * 1000)}` : status.action;
  const statusLine = (): string => {
    const doing = action();
    return `iteration ${status.iteration} · ${status.step} · ${formatClock(now() - started)} · $${status.cost.toFixed(2)}${doing ? ` · ${doing}` : ''}`.slice(0, 160);
  };
  const redraw = (): void => {
    if (mode !== 'tty') return;
    write(`\r\u001b[2K${statusLine()}`);
    shown = true;
  };
  const timer = mode === 'tty' ? setInterval(redraw, 1000) : undefined;
  timer?.unref();
  return {
    print: (event) => {
      status.iteration = event.iteration;
      if (event.type === 'step.started') {
        status.step = event.step;
        status.action = '';
        waiting = undefined;
      }
      if (event.type === 'output.waiting') waiting = { since: now() - event.waitedSeconds * 1000, timeoutSeconds: event.timeoutSeconds, what: event.source === 'mail' ? 'mail' : 'the output' };
      if (event.type === 'output.received' || event.type === 'output.none') waiting = undefined;
      if (event.type === 'fixer.progress') status.action = event.action;
      if (event.type === 'fixer.finished') status.cost += event.costUsd;
      if (event.type === 'loop.finished') status.cost = event.costUsd;
      const progress = mode === 'plain' ? plainProgress(event) : undefined;
      const line = describeEvent(event) ?? progress;
      if (line !== undefined) {
        if (shown) write('\r\u001b[2K');
        shown = false;
        write(`${line}\n`);
      }
      if (event.type !== 'loop.finished') redraw();
    },
    close: () => {
      if (timer) clearInterval(timer);
      if (shown) write('\r\u001b[2K');
    },
  };
}
