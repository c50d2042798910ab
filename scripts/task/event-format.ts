import type { TaskEvent } from './task-events';

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** Words written for the model or for developers, said plainly for the person at the terminal. */
const PLAIN: [RegExp, string][] = [
  [/\s*\(trusted input\)/g, ''],
  [/\(synthetic events: ([^)]*)\)/g, '(with page events rather than real mouse and keyboard: $1)'],
];

function plain(text: string): string {
  return PLAIN.reduce((line, [pattern, words]) => line.replace(pattern, words), text).trim();
}

/**
 * What a step's result adds to the step's own line: the result usually starts by restating the action ("Clicked [9]
 * button "Add" (trusted input); the cart shows 1"), so only what follows that is shown, and nothing when that is all.
 */
export function resultBeyondStep(text: string, result: string): string {
  const step = plain(text);
  const detail = plain(firstLine(result));
  const rest = detail.startsWith(step) ? detail.slice(step.length).replace(/^[\s;,.:—-]+/, '') : detail;
  return rest === step ? '' : rest;
}

/** A task event as the terminal shows it: lines, or nothing for events that say nothing new in words. */
export function formatEvent(event: TaskEvent): string[] {
  switch (event.type) {
    case 'info':
      return [event.message];
    case 'start':
      return [`Task ${event.taskId} on ${event.site} (${event.mode === 'act' ? 'act without asking; risky steps still stop' : 'ask before acting'})`];
    case 'plan': {
      const marks = event.steps.map((s) => `${s.status === 'completed' ? '[x]' : s.status === 'in_progress' ? '[>]' : '[ ]'} ${s.step}`);
      return [`  plan:\n    ${marks.join('\n    ')}`];
    }
    case 'step': {
      // The result often restates the step; show only what it adds (a navigation, what changed, a failure).
      const detail = event.result ? resultBeyondStep(event.text, event.result) : '';
      const result = detail ? ` -> ${event.ok ? '' : 'failed: '}${detail}` : '';
      return [`  ${event.step}. ${plain(event.text)}${event.status === 'denied' ? ' (blocked)' : ''}${result}`];
    }
    case 'note':
      return [`  i ${event.text}`];
    case 'approval':
      return [`  ? approval needed (${event.classes.join(', ')}): ${event.intent} - ${event.reason}`];
    case 'decision':
      if (event.by === 'nobody') return ['  nobody at the terminal to approve: rejected (run with --approve all to approve risky steps unattended)'];
      if (event.by === 'flag') return [`  ${event.decision === 'reject' ? 'rejected' : 'approved'} without asking (--approve ${event.decision === 'reject' ? 'none' : 'all'}): ${event.intent}`];
      return [`  ${event.decision === 'reject' ? 'rejected' : 'approved'}: ${event.intent}`];
    case 'question':
      return [`  ? the agent asks: ${event.text}`];
    case 'error':
      return [`  error: ${event.message}`];
    case 'end': {
      const lines = [event.success ? `Done: ${event.summary}` : `Not done (${event.status}): ${event.summary}`];
      if (event.chat) {
        lines.push(`Case outcome: ${event.chat.outcome}. Transcript (${event.chat.transcript.length} messages):`);
        for (const message of event.chat.transcript) lines.push(`  ${message.author === 'us' ? 'Deputy' : message.author === 'them' ? 'Support' : 'Notice'}: ${message.text}`);
      }
      for (const download of event.downloads) {
        const what = [download.mime, download.size === undefined ? '' : `${download.size} bytes`].filter(Boolean).join(', ');
        lines.push(download.state === 'complete' ? `Downloaded ${download.name}${what ? ` (${what})` : ''}: ${download.path ?? ''}` : `Not downloaded: ${download.name} (${download.state}${download.note ? `: ${download.note}` : ''})`);
      }
      const usage = event.usage;
      if (usage) lines.push(`Tokens: ${usage.inputTokens} in, ${usage.outputTokens} out; cost: ${usage.costUsd === null ? 'unknown' : usage.costUsd === 0 ? 'none (a local model)' : `$${usage.costUsd.toFixed(4)}`}`);
      if (event.trace) lines.push(`Trace: ${event.trace} (${event.records} records${event.screenshots > 0 ? `, ${event.screenshots} screenshots beside it` : ''})`);
      return lines;
    }
  }
}
