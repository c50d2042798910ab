import { formatClosedPlan } from '../../shared/agent/plan';
import { draftSendingText } from '../../shared/agent/support-draft-sending';
import type { ChatCaseResult, TaskRecord } from '../../shared/protocol';
import { elapsedMs, formatDuration, outcomeText, planOutcome, statusLabel, threadEntries, usageText } from './task-format';

/** A readable report of one task in Markdown: what was asked, what was done step by step, and how it ended. */
export function taskReport(record: TaskRecord): string {
  const lines = [
    `# Deputy task on ${record.site}`,
    '',
    `- Task: ${record.text}`,
    `- Started: ${new Date(record.createdAt).toISOString()}`,
    `- Mode: ${record.mode === 'ask' ? 'ask before acting' : 'act without asking'}`,
    `- Outcome: ${statusLabel(record)}`,
    `- Duration: ${formatDuration(elapsedMs(record, record.updatedAt))}`,
    `- Usage: ${usageText(record)}`,
  ];
  const outcome = outcomeText(record);
  if (outcome) lines.push('', '## Result', '', outcome);
  if (record.chat) lines.push('', ...caseFileLines(record.chat));
  if (record.agent?.plan) lines.push('', '## Plan', '', formatClosedPlan(record.agent.plan, planOutcome(record)));
  // The steps as the thread shows them: the model's words and the user's follow-ups where they came.
  const entries = threadEntries({ steps: record.agent?.steps ?? [], notes: record.notes, paused: record.status === 'paused', followUps: record.agent?.followUps });
  lines.push('', '## Steps', '');
  if (!entries.some((entry) => entry.kind === 'step')) lines.push('No steps were taken.');
  for (const entry of entries) {
    const text = entry.text.replace(/\s*\n\s*/g, ' ');
    if (entry.kind === 'user') lines.push(`> **You:** ${text}`);
    else if (entry.kind === 'words') lines.push(`*Deputy: ${text}*`);
    else if (entry.kind === 'them') lines.push(`> **Support:** ${text}`);
    else lines.push(entry.state === 'note' ? `> ${entry.text}` : `${entry.number}. ${entry.text}${entry.check ? ` (${entry.check})` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A file name for a task's exports: the site and the start time, safe on every file system. */
export function exportFileName(record: TaskRecord, extension: string): string {
  const stamp = new Date(record.createdAt).toISOString().replace(/[:.]/g, '-');
  const site = record.site.replace(/[^a-z0-9.-]+/gi, '_') || 'task';
  return `deputy-${site}-${stamp}.${extension}`;
}

function stamp(at: number | undefined): string {
  return at === undefined ? '' : `${new Date(at).toISOString().replace('T', ' ').slice(0, 19)} UTC `;
}

/**
 * A support case's file in Markdown: the goal, the facts shared, what support promised (quoted, with the date it falls
 * due), what Deputy did to reach a person, and the transcript with times. A case still running says so.
 */
export function caseFileLines(chat: ChatCaseResult): string[] {
  const lines = ['## Case file', ''];
  if (chat.open) lines.push('*The case was still running when this was saved.*', '');
  if (chat.goal) lines.push(`- Goal: ${chat.goal}`);
  if (chat.vendor) lines.push(`- Chat: ${chat.vendor}`);
  lines.push(`- Outcome: ${chat.outcome}`, `- Agreed: ${chat.summary}`);
  if (chat.factsShared) lines.push(`- Facts shared: ${chat.factsShared.length > 0 ? chat.factsShared.join(', ') : 'none'}`);
  if (chat.promises && chat.promises.length > 0) {
    lines.push('', '### What support promised', '');
    for (const promise of chat.promises) {
      const due = new Date(promise.dueAt).toISOString().slice(0, 10);
      const shot = promise.shotStep !== undefined ? ` (screenshot kept at step ${promise.shotStep + 1})` : '';
      lines.push(`- ${stamp(promise.madeAt)}"${promise.quote}" — due ${due} (${promise.when})${shot}`);
    }
  }
  if (chat.escalations && chat.escalations.length > 0) {
    lines.push('', '### Reaching a person', '');
    for (const step of chat.escalations) lines.push(`- ${step}`);
  }
  if (chat.written) {
    const where = chat.written.via === 'email' ? `to ${chat.written.to}${chat.written.mailto ? ` ([open in your mail program](${chat.written.mailto}))` : ''}` : `for the contact form at ${chat.written.to}`;
    lines.push('', '### Written escalation', '', `Drafted ${stamp(chat.written.draftedAt)}${where}, because ${chat.written.reason}.`, '', `**${draftSendingText(chat.written)}**`, '');
    lines.push(`> **Subject:** ${chat.written.subject}`, '>', ...chat.written.body.split('\n').map((line) => (line ? `> ${line}` : '>')));
  }
  lines.push('', '### Transcript', '');
  if (chat.transcript.length === 0) lines.push('No messages were read.');
  for (const message of chat.transcript) {
    const who = message.author === 'us' ? 'Deputy' : message.author === 'them' ? 'Support' : 'Notice';
    lines.push(`- ${stamp(message.at)}**${who}:** ${message.text.replace(/\s*\n\s*/g, ' ')}`);
  }
  return lines;
}
