import { formatClosedPlan } from '../../shared/agent/plan';
import type { TaskRecord } from '../../shared/protocol';
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
  if (record.chat) {
    lines.push('', '## Chat', '', `- Outcome: ${record.chat.outcome}`, `- Agreed: ${record.chat.summary}`, '', '### Transcript', '');
    for (const message of record.chat.transcript) lines.push(`- **${message.author === 'us' ? 'Deputy' : message.author === 'them' ? 'Support' : 'Notice'}:** ${message.text}`);
  }
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
